package stats

import (
	"math"
	"testing"
)

// p95AndErrors is the rule of p95 and errors alone, as some authors
// publish ladders (min_achieved_ratio 0).
var p95AndErrors = LadderRule{P95MS: 50, MaxErrorRate: 0.01}

func TestEvaluateLadder(t *testing.T) {
	step := func(target, p95, errRate float64) LadderStep {
		return LadderStep{Step: fmtNum(target), TargetRPS: target, AchievedRPS: target, P95MS: p95, ErrorRate: errRate, Requests: 1000}
	}
	tests := []struct {
		name    string
		steps   []LadderStep
		rule    LadderRule
		highest float64
		plus    bool
		stepRPS float64
		held    []bool
		str     string
	}{
		{"fails on p95", []LadderStep{step(1000, 3, 0), step(2000, 12, 0), step(3000, 50, 0), step(4000, 80, 0)},
			p95AndErrors, 2000, false, 1000, []bool{true, true, false, false}, "2000"},
		{"fails on errors (1% is not under 1%)", []LadderStep{step(500, 3, 0), step(1000, 4, 0.0099), step(1500, 5, 0.01)},
			p95AndErrors, 1000, false, 500, []bool{true, true, false}, "1000"},
		{"still holding", []LadderStep{step(200, 1, 0), step(400, 2, 0), step(800, 3, 0)},
			p95AndErrors, 800, true, 400, []bool{true, true, true}, "800+"},
		{"unsorted input is sorted", []LadderStep{step(3000, 60, 0), step(1000, 3, 0), step(2000, 12, 0)},
			p95AndErrors, 2000, false, 1000, []bool{true, true, false}, "2000"},
		{"none held", []LadderStep{step(1000, 70, 0), step(2000, 80, 0)},
			p95AndErrors, 0, false, 1000, []bool{false, false}, "0"},
		{"a later recovery does not count", []LadderStep{step(1000, 3, 0), step(2000, 55, 0), step(3000, 20, 0)},
			p95AndErrors, 1000, false, 1000, []bool{true, false, true}, "1000"},
		{"custom threshold", []LadderStep{step(1000, 3, 0), step(2000, 12, 0)},
			LadderRule{P95MS: 10, MaxErrorRate: 0.01}, 1000, false, 1000, []bool{true, false}, "1000"},
	}
	for _, tc := range tests {
		r := EvaluateLadder(tc.steps, tc.rule)
		if r.HighestHeldRPS != tc.highest || r.StillHolding != tc.plus || r.StepRPS != tc.stepRPS || r.String() != tc.str {
			t.Errorf("%s: highest %v plus %v step %v %q; want %v %v %v %q", tc.name, r.HighestHeldRPS, r.StillHolding, r.StepRPS, r.String(), tc.highest, tc.plus, tc.stepRPS, tc.str)
		}
		for i, s := range r.Steps {
			if s.Held != tc.held[i] {
				t.Errorf("%s: step %v held %v, want %v", tc.name, s.TargetRPS, s.Held, tc.held[i])
			}
		}
	}
	r := EvaluateLadder([]LadderStep{step(1000, 70, 0)}, p95AndErrors)
	if len(r.Warnings) != 1 || r.Warnings[0].Kind != WarnNoneHeld {
		t.Errorf("none held warning: %v", r.Warnings)
	}
	// A generator that fell behind: the rule can require the rate.
	s := step(4000, 10, 0)
	s.AchievedRPS = 3000
	if !p95AndErrors.Holds(s) || (LadderRule{P95MS: 50, MaxErrorRate: 0.01, MinAchievedRatio: 0.9}).Holds(s) || DefaultLadderRule.Holds(s) {
		t.Errorf("MinAchievedRatio not applied (the default rule asks for 95%%)")
	}
	if p95AndErrors.Holds(LadderStep{TargetRPS: 1, P95MS: math.NaN()}) {
		t.Errorf("a step without requests must not hold")
	}
}

func TestMedianLadder(t *testing.T) {
	run := func(v float64, plus bool, step float64) LadderResult {
		return LadderResult{HighestHeldRPS: v, StillHolding: plus, StepRPS: step}
	}
	tests := []struct {
		name string
		runs []LadderResult
		want string
		step float64
	}{
		// By hand: sorted 2000, 3000, 3000 -> 3000; the middle run failed.
		{"odd", []LadderResult{run(3000, false, 1000), run(2000, false, 1000), run(3000, false, 1000)}, "3000", 1000},
		// 3000 and 3000+: the "+" run sorts after; the middle is 3000 (no +).
		{"plus at top", []LadderResult{run(3000, true, 1000), run(2000, false, 1000), run(3000, false, 1000)}, "3000", 1000},
		// 3000+, 3000+, 2000: the middle is a still-holding run.
		{"plus in middle", []LadderResult{run(3000, true, 1000), run(2000, false, 1000), run(3000, true, 1000)}, "3000+", 1000},
		// Even: (2000 + 4000)/2 = 3000 (type 7); 4000+ defines the median.
		{"even", []LadderResult{run(2000, false, 1000), run(4000, true, 2000)}, "3000+", 2000},
	}
	for _, tc := range tests {
		s := MedianLadder(tc.runs)
		if s.String() != tc.want || s.StepRPS != tc.step || len(s.Runs) != len(tc.runs) {
			t.Errorf("%s: %q step %v, want %q step %v", tc.name, s.String(), s.StepRPS, tc.want, tc.step)
		}
	}
	s := MedianLadder([]LadderResult{run(1, false, 1), run(2, false, 1)})
	if len(s.Warnings) != 1 || s.Warnings[0].Kind != WarnTooFewSamples {
		t.Errorf("two runs warning: %v", s.Warnings)
	}
}

func TestStepsFromTagsByHand(t *testing.T) {
	// By hand: step 10 gets durations 1..5 ms (one failed) over 2.9 s,
	// step 20 gets 10, 20, 30 ms, and the last request has no tag. p95
	// type 7 of 1..5 = 4.8; of 10, 20, 30 = 29; achieved (5-1)/2.9 rps.
	reqs := []Request{
		{TimeS: 100, DurationMS: 1, Step: "10"}, {TimeS: 100.5, DurationMS: 2, Step: "10"}, {TimeS: 101, DurationMS: 3, Failed: true, Step: "10"},
		{TimeS: 102, DurationMS: 4, Step: "10"}, {TimeS: 102.9, DurationMS: 5, Step: "10"},
		{TimeS: 103, DurationMS: 10, Step: "20"}, {TimeS: 104, DurationMS: 20, Step: "20"}, {TimeS: 105.99, DurationMS: 30, Step: "20"},
		{TimeS: 106.5, DurationMS: 99},
	}
	steps, ws := StepsFromTags(reqs)
	if len(ws) != 1 || len(steps) != 2 {
		t.Fatalf("steps %+v, warnings %v", steps, ws)
	}
	wantSteps := []LadderStep{
		{Step: "10", TargetRPS: 10, AchievedRPS: 4 / 2.9, P95MS: 4.8, ErrorRate: 0.2, Requests: 5, Failed: 1},
		{Step: "20", TargetRPS: 20, AchievedRPS: 2 / 2.99, P95MS: 29, ErrorRate: 0, Requests: 3},
	}
	for i := range wantSteps {
		g, e := steps[i], wantSteps[i]
		if g.Step != e.Step || g.TargetRPS != e.TargetRPS || g.Requests != e.Requests || g.Failed != e.Failed || !closeTo(g.P95MS, e.P95MS, 1e-12) ||
			!closeTo(g.AchievedRPS, e.AchievedRPS, 1e-12) || g.ErrorRate != e.ErrorRate {
			t.Errorf("step %d = %+v, want %+v", i, g, e)
		}
	}
}

func TestLadderRealK6Capture(t *testing.T) {
	reqs, err := k6LadderRequests()
	if err != nil {
		t.Fatal(err)
	}
	// Second way: count the requests and failures per step tag directly.
	count := map[string]int64{}
	failed := map[string]int64{}
	for _, r := range reqs {
		count[r.Step]++
		if r.Failed {
			failed[r.Step]++
		}
	}
	// k6's summary of the same run: http_reqs count 63430, http_req_failed
	// 0 out of 63430.
	if len(reqs) != 63430 {
		t.Fatalf("read %d requests, k6 counted 63430", len(reqs))
	}
	k6P95 := k6SummaryStepP95(t)
	steps, ws := StepsFromTags(reqs)
	if len(ws) != 0 || len(steps) != 4 {
		t.Fatalf("steps %v, warnings %v", steps, ws)
	}
	for _, s := range steps {
		// k6's own per-step p(95) (linear interpolation, the definition
		// this package uses) must come out the same.
		if !closeTo(s.P95MS, k6P95[s.Step], 1e-12) {
			t.Errorf("step %s p95 = %.17g, k6 printed %.17g", s.Step, s.P95MS, k6P95[s.Step])
		}
		if s.Requests != count[s.Step] || s.Failed != failed[s.Step] || s.ErrorRate != 0 {
			t.Errorf("step %s: %d requests %d failed, counted %d and %d", s.Step, s.Requests, s.Failed, count[s.Step], failed[s.Step])
		}
	}
	// k6 marked only the 12000 threshold as crossed (p(95)=53.19ms); the
	// ladder therefore held 6000 rps, with a 6000 rps step above it.
	r := EvaluateLadder(steps, p95AndErrors)
	if r.HighestHeldRPS != 6000 || r.StillHolding || r.StepRPS != 6000 || r.String() != "6000" {
		t.Errorf("ladder = %s (step %v)", r, r.StepRPS)
	}
	// At the 12000 step k6 dropped iterations: it delivered about half
	// the target. The optional achieved-rate rule sees it too.
	if s := r.Steps[3]; !(s.AchievedRPS < 0.6*s.TargetRPS) {
		t.Errorf("12000 step achieved %v rps", s.AchievedRPS)
	}
}
