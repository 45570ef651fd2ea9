package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A LadderStep is one rate of a held-rate ladder: the load generator was
// asked for TargetRPS requests per second and delivered AchievedRPS; P95MS
// is the 95th percentile of request latency (type 7, k6's definition; see
// Quantile), ErrorRate the fraction of Requests that failed.
type LadderStep struct {
	Step        string // the step's name as the source gives it, e.g. "4000"
	TargetRPS   float64
	AchievedRPS float64
	P95MS       float64
	ErrorRate   float64
	Requests    int64
	Failed      int64
	Held        bool // set by EvaluateLadder
}

// A LadderRule says when a step is held: its p95 latency is under P95MS
// and its error rate under MaxErrorRate (both strict, as k6 thresholds
// 'p(95)<50' and 'rate<0.01' are). MinAchievedRatio, when positive, also
// requires AchievedRPS >= MinAchievedRatio * TargetRPS, for generators
// that fall behind their target without failing requests; 0 disables it.
type LadderRule struct {
	P95MS            float64
	MaxErrorRate     float64
	MinAchievedRatio float64
}

// DefaultLadderRule is p95 < 50 ms and fewer than 1% of requests failed.
var DefaultLadderRule = LadderRule{P95MS: 50, MaxErrorRate: 0.01}

// Holds reports whether step s is held under rule r. A step without
// requests or without a p95 is not held.
func (r LadderRule) Holds(s LadderStep) bool {
	if s.Requests <= 0 || math.IsNaN(s.P95MS) || math.IsNaN(s.ErrorRate) {
		return false
	}
	if !(s.P95MS < r.P95MS && s.ErrorRate < r.MaxErrorRate) {
		return false
	}
	if r.MinAchievedRatio > 0 && !(s.AchievedRPS >= r.MinAchievedRatio*s.TargetRPS) {
		return false
	}
	return true
}

// A LadderResult is the outcome of one ladder run.
type LadderResult struct {
	// HighestHeldRPS is the target of the highest step held before the
	// first step that failed; 0 when the first step failed.
	HighestHeldRPS float64
	// StillHolding is true when every step held: the real limit is above
	// HighestHeldRPS (printed with a "+").
	StillHolding bool
	// StepRPS is the precision of HighestHeldRPS: the gap to the first
	// failed step, or, when still holding, the gap below the last step
	// (NaN for a one-step ladder that held).
	StepRPS float64
	// Steps in increasing target order, with Held set.
	Steps    []LadderStep
	Rule     LadderRule
	Warnings []Warning
}

// String formats the result as "6000", or "12000+" when still holding.
func (r LadderResult) String() string {
	s := strconv.FormatFloat(r.HighestHeldRPS, 'f', -1, 64)
	if r.StillHolding {
		s += "+"
	}
	return s
}

// EvaluateLadder marks every step held or not under rule and finds the
// highest step held before the first failure. Steps are taken in
// increasing TargetRPS order (a copy is sorted; the order of equal targets
// is kept). Steps above the first failure are marked but do not count,
// even when they held again.
func EvaluateLadder(steps []LadderStep, rule LadderRule) LadderResult {
	res := LadderResult{Rule: rule, StepRPS: math.NaN()}
	res.Steps = slices.Clone(steps)
	slices.SortStableFunc(res.Steps, func(a, b LadderStep) int { return cmp.Compare(a.TargetRPS, b.TargetRPS) })
	if len(res.Steps) == 0 {
		res.Warnings = append(res.Warnings, warn(WarnInvalidInput, "no ladder steps"))
		return res
	}
	firstFail := -1
	for i := range res.Steps {
		res.Steps[i].Held = rule.Holds(res.Steps[i])
		if !res.Steps[i].Held && firstFail < 0 {
			firstFail = i
		}
	}
	switch {
	case firstFail < 0:
		n := len(res.Steps)
		res.StillHolding = true
		res.HighestHeldRPS = res.Steps[n-1].TargetRPS
		if n >= 2 {
			res.StepRPS = res.Steps[n-1].TargetRPS - res.Steps[n-2].TargetRPS
		}
	case firstFail == 0:
		res.HighestHeldRPS = 0
		res.StepRPS = res.Steps[0].TargetRPS
		res.Warnings = append(res.Warnings, warn(WarnNoneHeld, fmt.Sprintf("the first step (%s rps) already failed", fmtNum(res.Steps[0].TargetRPS))))
	default:
		res.HighestHeldRPS = res.Steps[firstFail-1].TargetRPS
		res.StepRPS = res.Steps[firstFail].TargetRPS - res.HighestHeldRPS
	}
	for i := firstFail + 1; firstFail >= 0 && i < len(res.Steps); i++ {
		if res.Steps[i].Held {
			res.Warnings = append(res.Warnings, warn(WarnStepOrder, fmt.Sprintf("step %s rps held again after %s rps failed; it does not count",
				fmtNum(res.Steps[i].TargetRPS), fmtNum(res.Steps[firstFail].TargetRPS))))
			break
		}
	}
	return res
}

// A LadderSummary is the median of several runs of the same ladder.
type LadderSummary struct {
	// MedianHeldRPS is the type 7 median of the runs' HighestHeldRPS.
	MedianHeldRPS float64
	// StillHolding ("+") is true when a run that defines the median
	// (the middle one, or either of the two middle ones) still held at
	// its last step, ordering a held-at-the-top run after a run with the
	// same value that failed above it: the median is then a lower bound.
	StillHolding bool
	// StepRPS is the largest StepRPS of the runs: the median is not more
	// precise than the coarsest step.
	StepRPS  float64
	Runs     []LadderResult // as given
	Warnings []Warning
}

// String formats the median as "6000" or "6000+".
func (s LadderSummary) String() string {
	v := strconv.FormatFloat(s.MedianHeldRPS, 'f', -1, 64)
	if s.StillHolding {
		v += "+"
	}
	return v
}

// MedianLadder takes the median of the runs' highest held steps. The runs
// are kept in Runs so that every run can be listed beside the median.
func MedianLadder(runs []LadderResult) LadderSummary {
	s := LadderSummary{Runs: runs, MedianHeldRPS: math.NaN(), StepRPS: math.NaN()}
	if len(runs) == 0 {
		s.Warnings = append(s.Warnings, warn(WarnInvalidInput, "no ladder runs"))
		return s
	}
	order := slices.Clone(runs)
	slices.SortStableFunc(order, func(a, b LadderResult) int {
		if c := cmp.Compare(a.HighestHeldRPS, b.HighestHeldRPS); c != 0 {
			return c
		}
		switch {
		case a.StillHolding == b.StillHolding:
			return 0
		case a.StillHolding:
			return 1
		}
		return -1
	})
	vals := make([]float64, len(order))
	for i, r := range order {
		vals[i] = r.HighestHeldRPS
		if !math.IsNaN(r.StepRPS) && (math.IsNaN(s.StepRPS) || r.StepRPS > s.StepRPS) {
			s.StepRPS = r.StepRPS
		}
	}
	s.MedianHeldRPS = Quantile(vals, 0.5)
	n := len(order)
	s.StillHolding = order[(n-1)/2].StillHolding || order[n/2].StillHolding
	if n < 3 {
		s.Warnings = append(s.Warnings, warn(WarnTooFewSamples, fmt.Sprintf("median of %d ladder runs; publish at least 3", n)))
	}
	return s
}

// A Request is one finished request of a load test, as the step helpers
// need it: when it finished (seconds, any epoch), how long it took, whether
// it failed, and the step tag the generator gave it ("" when none).
type Request struct {
	TimeS      float64
	DurationMS float64
	Failed     bool
	Step       string
}

// StepsFromTags builds ladder steps from requests tagged with their step
// (k6 ladder scripts set tags: {step: "<rate>"}). The step name must be the
// target rate as a number; AchievedRPS is (requests - 1) / (last - first
// request time) of the step, the rate of evenly spaced requests over the
// span they cover. Requests without a tag are left out with a warning.
func StepsFromTags(reqs []Request) ([]LadderStep, []Warning) {
	var ws []Warning
	groups := map[string][]Request{}
	untagged := 0
	for _, r := range reqs {
		if r.Step == "" {
			untagged++
			continue
		}
		groups[r.Step] = append(groups[r.Step], r)
	}
	if untagged > 0 {
		ws = append(ws, warn(WarnInvalidInput, fmt.Sprintf("%d requests without a step tag left out", untagged)))
	}
	steps := make([]LadderStep, 0, len(groups))
	for name, g := range groups {
		target, err := strconv.ParseFloat(strings.TrimSpace(name), 64)
		if err != nil {
			ws = append(ws, warn(WarnInvalidInput, fmt.Sprintf("step tag %q is not a rate; its %d requests are left out", name, len(g))))
			continue
		}
		first, last := math.Inf(1), math.Inf(-1)
		for _, r := range g {
			first = math.Min(first, r.TimeS)
			last = math.Max(last, r.TimeS)
		}
		st := stepOf(name, target, g)
		st.AchievedRPS = math.NaN()
		if last > first {
			st.AchievedRPS = float64(len(g)-1) / (last - first)
		}
		steps = append(steps, st)
	}
	slices.SortFunc(steps, func(a, b LadderStep) int { return cmp.Compare(a.TargetRPS, b.TargetRPS) })
	return steps, ws
}

// stepOf computes the p95, counts and error rate of one step's requests.
func stepOf(name string, target float64, g []Request) LadderStep {
	d := make([]float64, 0, len(g))
	var failed int64
	for _, r := range g {
		d = append(d, r.DurationMS)
		if r.Failed {
			failed++
		}
	}
	slices.Sort(d)
	st := LadderStep{Step: name, TargetRPS: target, Requests: int64(len(g)), Failed: failed,
		P95MS: Quantile(d, 0.95), ErrorRate: math.NaN()}
	if len(g) > 0 {
		st.ErrorRate = float64(failed) / float64(len(g))
	}
	return st
}

// A Stage is one stage of a rate schedule: the target rate and how long
// the generator spends reaching or holding it.
type Stage struct {
	TargetRPS float64
	Duration  time.Duration
}

// A ScheduleError reports a malformed schedule string: the 1-based stage
// and the byte column where that stage starts.
type ScheduleError struct {
	Stage, Col int
	Text, Msg  string
}

func (e *ScheduleError) Error() string {
	return fmt.Sprintf("schedule stage %d (column %d) %q: %s", e.Stage, e.Col, e.Text, e.Msg)
}

// ParseSchedule parses a stage schedule "1500:3s,3000:3s": comma-separated
// <rate>:<duration> stages, the rate in requests per second and the
// duration in Go syntax (3s, 500ms, 1m30s). Durations must be positive and
// rates non-negative.
func ParseSchedule(s string) ([]Stage, error) {
	var out []Stage
	col := 1
	for i, part := range strings.Split(s, ",") {
		text := strings.TrimSpace(part)
		bad := func(msg string) error { return &ScheduleError{Stage: i + 1, Col: col, Text: text, Msg: msg} }
		rate, dur, ok := strings.Cut(text, ":")
		if !ok {
			return nil, bad("want <rate>:<duration>, for example 1500:3s")
		}
		r, err := strconv.ParseFloat(strings.TrimSpace(rate), 64)
		if err != nil || r < 0 || math.IsInf(r, 0) || math.IsNaN(r) {
			return nil, bad("rate must be a non-negative number of requests per second")
		}
		d, err := time.ParseDuration(strings.TrimSpace(dur))
		if err != nil || d <= 0 {
			return nil, bad("duration must be positive, for example 3s or 500ms")
		}
		out = append(out, Stage{TargetRPS: r, Duration: d})
		col += len(part) + 1
	}
	return out, nil
}

// A StepWindow is the time span [FromS, ToS) of one ladder step.
type StepWindow struct {
	Step       string
	TargetRPS  float64
	FromS, ToS float64
}

// WindowsFromSchedule lays the stages end to end from startS (seconds, the
// same epoch as the requests' TimeS). Consecutive stages with the same
// target form one window, so a k6 schedule that ramps to a rate for 1 s
// and holds it for 3 s gives one 4 s step, as ladder scripts tag it.
func WindowsFromSchedule(startS float64, stages []Stage) []StepWindow {
	var out []StepWindow
	t := startS
	for _, st := range stages {
		end := t + st.Duration.Seconds()
		if n := len(out); n > 0 && out[n-1].TargetRPS == st.TargetRPS {
			out[n-1].ToS = end
		} else {
			out = append(out, StepWindow{Step: fmtNum(st.TargetRPS), TargetRPS: st.TargetRPS, FromS: t, ToS: end})
		}
		t = end
	}
	return out
}

// StepsFromWindows assigns each request to the window containing its time
// and builds one step per window; AchievedRPS is requests / window length.
// Requests outside every window are left out with a warning.
func StepsFromWindows(reqs []Request, windows []StepWindow) ([]LadderStep, []Warning) {
	var ws []Warning
	groups := make([][]Request, len(windows))
	outside := 0
	for _, r := range reqs {
		i, found := slices.BinarySearchFunc(windows, r.TimeS, func(w StepWindow, t float64) int {
			switch {
			case t < w.FromS:
				return 1
			case t >= w.ToS:
				return -1
			}
			return 0
		})
		if !found {
			outside++
			continue
		}
		groups[i] = append(groups[i], r)
	}
	if outside > 0 {
		ws = append(ws, warn(WarnInvalidInput, fmt.Sprintf("%d requests outside every step window left out", outside)))
	}
	steps := make([]LadderStep, 0, len(windows))
	for i, w := range windows {
		st := stepOf(w.Step, w.TargetRPS, groups[i])
		st.AchievedRPS = float64(len(groups[i])) / (w.ToS - w.FromS)
		steps = append(steps, st)
	}
	return steps, ws
}

// RatePerSecond counts requests per whole second from floor(min time):
// counts[i] is the number of requests with floor(TimeS - t0) == i.
func RatePerSecond(reqs []Request) (t0 float64, counts []float64) {
	if len(reqs) == 0 {
		return math.NaN(), nil
	}
	t0 = math.Inf(1)
	for _, r := range reqs {
		t0 = math.Min(t0, r.TimeS)
	}
	t0 = math.Floor(t0)
	for _, r := range reqs {
		i := int(r.TimeS - t0)
		for len(counts) <= i {
			counts = append(counts, 0)
		}
		counts[i]++
	}
	return t0, counts
}

// DetectPlateaus finds the plateaus of a per-second rate series: maximal
// runs of consecutive seconds whose rates stay within tolerance (a
// fraction, e.g. 0.1) of the run's median, at least minSeconds long.
// Seconds between plateaus (ramps) belong to none, and idle plateaus (rate
// 0) are left out. Each window's
// TargetRPS is the plateau's median rate (the target is not known from
// rates alone, so the delivered level stands for it) and its times are
// t0 + second index.
func DetectPlateaus(t0 float64, rate []float64, tolerance float64, minSeconds int) []StepWindow {
	var out []StepWindow
	minSeconds = max(minSeconds, 1)
	for i := 0; i < len(rate); {
		j := i + 1
		for j < len(rate) {
			seg := slices.Clone(rate[i : j+1])
			slices.Sort(seg)
			med := Quantile(seg, 0.5)
			okAll := true
			for _, v := range rate[i : j+1] {
				if math.Abs(v-med) > tolerance*med {
					okAll = false
					break
				}
			}
			if !okAll {
				break
			}
			j++
		}
		seg := slices.Clone(rate[i:j])
		slices.Sort(seg)
		if med := Quantile(seg, 0.5); j-i >= minSeconds && med > 0 {
			out = append(out, StepWindow{Step: fmtNum(med), TargetRPS: med, FromS: t0 + float64(i), ToS: t0 + float64(j)})
		}
		i = j
	}
	return out
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// FormatSchedule writes stages in the form ParseSchedule reads.
func FormatSchedule(stages []Stage) string {
	parts := make([]string, len(stages))
	for i, s := range stages {
		parts[i] = fmtNum(s.TargetRPS) + ":" + s.Duration.String()
	}
	return strings.Join(parts, ",")
}
