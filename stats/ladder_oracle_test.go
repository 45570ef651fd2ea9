package stats

// The tests' own reading of a ladder from tagged requests and of the
// rule, to hold ladderOf, MedianLadder and the findings against k6's
// printed figures; the store's ladder_steps macro is wra's definition.

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

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

// EvaluateLadder marks every step held or not under rule and finds the
// highest step held before the first failure (see ladderOf).
func EvaluateLadder(steps []LadderStep, rule LadderRule) LadderResult {
	marked := slices.Clone(steps)
	for i := range marked {
		marked[i].Held = rule.Holds(marked[i])
	}
	res := ladderOf(marked)
	res.Rule = rule
	return res
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

// ladderOf is the tests' own reading of the ladder rule: it finds the highest step held before the first failure of steps
// whose Held is already set, to hold the store's ladders macro (wra's one
// definition, which stats.Ladder reads) against an independent reading. Steps are taken in increasing
// TargetRPS order (a copy is sorted; the order of equal targets is kept).
// Steps above the first failure do not count, even when they held again.
func ladderOf(steps []LadderStep) LadderResult {
	res := LadderResult{StepRPS: math.NaN()}
	res.Steps = slices.Clone(steps)
	slices.SortStableFunc(res.Steps, func(a, b LadderStep) int { return cmp.Compare(a.TargetRPS, b.TargetRPS) })
	if len(res.Steps) == 0 {
		res.Warnings = append(res.Warnings, warn(WarnInvalidInput, "no ladder steps"))
		return res
	}
	firstFail := -1
	for i := range res.Steps {
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
