package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
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
	Held        bool // under the rule, as the store's ladder_steps macro says
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

// DefaultMinAchievedRatio is the share of its target rate a ladder step or
// a fixed-rate run must achieve to have held it (the default of the
// store's ladder_steps, ladders and rate_held macros).
const DefaultMinAchievedRatio = 0.95

// DefaultLadderRule is p95 < 50 ms, fewer than 1% of requests failed and
// at least 95% of the target rate achieved.
var DefaultLadderRule = LadderRule{P95MS: 50, MaxErrorRate: 0.01, MinAchievedRatio: DefaultMinAchievedRatio}

// A LadderResult is the outcome of one ladder run.
type LadderResult struct {
	// HighestHeldRPS is the target of the highest step held before the
	// first step that failed; 0 when the first step failed.
	HighestHeldRPS float64
	// HighestHeldAchievedRPS is the rate achieved at that step, what
	// people publish (1,397 for a step of 1,400): 0 when the first step
	// failed, NaN where the step's achieved rate is unknown.
	HighestHeldAchievedRPS float64
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

// LadderVerdict is what the store's ladders table macro (the one
// definition of the ladder rule) says of one ladder run: the highest step
// held before the first step that failed (0 when the first failed),
// whether every step held, the step's precision, and the first step, the
// first that failed and the lowest above it that held again (NaN where
// there is none).
type LadderVerdict struct {
	HighestHeldRPS                             float64
	HighestHeldAchievedRPS                     float64 // NaN where unknown or none held
	StillHolding                               bool
	StepRPS                                    float64
	FirstStepRPS, FirstFailedRPS, HeldAgainRPS float64
}

// Ladder is a ladder run's result as its verdict gives it, with its steps
// in increasing target order (a copy is sorted; the order of equal targets
// is kept) for the tables and plots, and the warnings the verdict calls
// for: a first step that already failed, a step that held again above the
// first failure (it does not count), no steps at all.
func Ladder(v LadderVerdict, steps []LadderStep) LadderResult {
	res := LadderResult{HighestHeldRPS: v.HighestHeldRPS, HighestHeldAchievedRPS: v.HighestHeldAchievedRPS, StillHolding: v.StillHolding, StepRPS: v.StepRPS}
	if v.HighestHeldRPS == 0 {
		res.HighestHeldAchievedRPS = 0
	}
	res.Steps = slices.Clone(steps)
	slices.SortStableFunc(res.Steps, func(a, b LadderStep) int { return cmp.Compare(a.TargetRPS, b.TargetRPS) })
	if len(res.Steps) == 0 {
		res.Warnings = append(res.Warnings, warn(WarnInvalidInput, "no ladder steps"))
		return res
	}
	if !math.IsNaN(v.FirstFailedRPS) && v.FirstFailedRPS == v.FirstStepRPS {
		res.Warnings = append(res.Warnings, warn(WarnNoneHeld, fmt.Sprintf("the first step (%s rps) already failed", fmtNum(v.FirstStepRPS))))
	}
	if !math.IsNaN(v.HeldAgainRPS) {
		res.Warnings = append(res.Warnings, warn(WarnStepOrder, fmt.Sprintf("step %s rps held again after %s rps failed; it does not count",
			fmtNum(v.HeldAgainRPS), fmtNum(v.FirstFailedRPS))))
	}
	return res
}

// A LadderSummary is the median of several runs of the same ladder.
type LadderSummary struct {
	// MedianHeldRPS is the type 7 median of the runs' HighestHeldRPS.
	MedianHeldRPS float64
	// MedianAchievedRPS is the type 7 median of the runs'
	// HighestHeldAchievedRPS, NaN when one of them is unknown.
	MedianAchievedRPS float64
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
	s := LadderSummary{Runs: runs, MedianHeldRPS: math.NaN(), MedianAchievedRPS: math.NaN(), StepRPS: math.NaN()}
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
	achieved := make([]float64, len(order))
	known := true
	for i, r := range order {
		achieved[i] = r.HighestHeldAchievedRPS
		known = known && !math.IsNaN(achieved[i])
	}
	if known {
		slices.Sort(achieved)
		s.MedianAchievedRPS = Quantile(achieved, 0.5)
	}
	n := len(order)
	s.StillHolding = order[(n-1)/2].StillHolding || order[n/2].StillHolding
	if n < 3 {
		s.Warnings = append(s.Warnings, warn(WarnTooFewSamples, fmt.Sprintf("median of %d ladder runs; publish at least 3", n)))
	}
	return s
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
