package stats

import (
	"math"
	"testing"
)

// The exact one-sided p-values below are counts of the orderings of the
// pooled runs: with every vs value above every base value, U = 0 and one
// ordering in C(10, 5) = 252 is as extreme, p = 1/252 (R:
// wilcox.test(b, v, alternative = "less")$p.value = 0.003968).
func TestMannWhitneyUOneSided(t *testing.T) {
	base := []float64{100, 102, 98, 101, 99}
	vs := []float64{110, 112, 108, 111, 109}
	if got := MannWhitneyUOneSided(base, vs, false).P; math.Abs(got-1.0/252) > 1e-12 {
		t.Errorf("base less than vs: p = %v, want 1/252", got)
	}
	if got := MannWhitneyUOneSided(base, vs, true).P; got != 1 {
		t.Errorf("base greater than vs: p = %v, want 1", got)
	}
	// One vs value below one base value: U = 1, P(U <= 1) = 2/252.
	vs2 := []float64{101.5, 112, 108, 111, 109}
	if got := MannWhitneyUOneSided(base, vs2, false).P; math.Abs(got-2.0/252) > 1e-12 {
		t.Errorf("U = 1: p = %v, want 2/252", got)
	}
	// With ties the normal approximation: all values tied gives 1.
	same := []float64{1, 1, 1}
	if got := MannWhitneyUOneSided(same, same, true).P; got != 1 {
		t.Errorf("all tied: p = %v, want 1", got)
	}
}

func TestSignTestOneSided(t *testing.T) {
	for _, c := range []struct {
		ratios []float64
		above  bool
		want   float64
	}{
		{[]float64{1.1, 1.2, 1.05, 1.3, 1.01}, true, 1.0 / 32}, // 5 of 5 above
		{[]float64{1.1, 1.2, 1.05, 1.3, 0.99}, true, 6.0 / 32}, // 4 of 5 above: (5+1)/32
		{[]float64{1.1, 1.2, 1.05, 1.3, 1.01}, false, 1},       // none below
		{[]float64{1, 1, 1.1}, true, 0.5},                      // ratios of 1 left out
		{[]float64{1, 1}, true, 1},                             // no ratio off 1
		{[]float64{0.9, 0.8, 0.95, 0.7, 0.85, 0.9}, false, 1.0 / 64},
	} {
		if got := SignTestOneSided(c.ratios, c.above); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("SignTestOneSided(%v, %v) = %v, want %v", c.ratios, c.above, got, c.want)
		}
	}
}

// The interval of 5 against 5 at 95% is the 3rd and 23rd of the 25
// ratios (R: qwilcox(0.025, 5, 5) = 3), covering with 1 - 2*4/252.
func TestRatioInterval(t *testing.T) {
	base := []float64{100, 102, 98, 101, 99}
	vs := []float64{110, 112, 108, 111, 109}
	_, lo, hi, cover := RatioInterval(base, vs, 0.95)
	if math.Abs(lo-108.0/101) > 1e-12 || math.Abs(hi-112.0/99) > 1e-12 || math.Abs(cover-(1-8.0/252)) > 1e-12 {
		t.Errorf("RatioInterval = [%v, %v] %v, want [%v, %v] %v", lo, hi, cover, 108.0/101, 112.0/99, 1-8.0/252)
	}
	// 2 against 2: no k reaches 95%; min and max with coverage 1 - 2/6.
	_, lo, hi, cover = RatioInterval([]float64{1, 2}, []float64{3, 4}, 0.95)
	if lo != 1.5 || hi != 4 || math.Abs(cover-2.0/3) > 1e-12 {
		t.Errorf("2 against 2: [%v, %v] %v, want [1.5, 4] 0.667", lo, hi, cover)
	}
	if _, lo, _, _ := RatioInterval([]float64{0, 1}, []float64{1}, 0.95); !math.IsNaN(lo) {
		t.Errorf("a base of 0: low %v, want NaN", lo)
	}
}

func TestGate(t *testing.T) {
	base := []float64{100, 102, 98, 101, 99}
	slower := []float64{110, 112, 108, 111, 109}
	// latency: a rise is worse; +10% limit.
	g := Gate(base, slower, nil, nil, 5, false, 0.05, 0.95)
	if g.Verdict != GateRegression || g.Method != GateUTest || !g.Worse || math.Abs(g.PRaw-1.0/252) > 1e-12 {
		t.Errorf("10%% slower past +5%%: %+v", g)
	}
	// the same change under a +15% limit passes
	if g := Gate(base, slower, nil, nil, 15, false, 0.05, 0.95); g.Verdict != GatePass || g.Worse {
		t.Errorf("10%% slower under +15%%: %+v", g)
	}
	// a rise where a fall is worse (rps) passes
	if g := Gate(base, slower, nil, nil, -5, true, 0.05, 0.95); g.Verdict != GatePass || g.Worse || g.PRaw != 1 {
		t.Errorf("rps up 10%% under -5%%: %+v", g)
	}
	// two runs a side: the one-sided exact p is at least 1/6
	g = Gate(base[:2], slower[:2], nil, nil, 5, false, 0.05, 0.95)
	if g.Verdict != GateTooFew || g.RunsNeeded != 3 {
		t.Errorf("2 a side: verdict %s, runs needed %d, want too-few-runs, 3 (1/C(6,3) = 0.05)", g.Verdict, g.RunsNeeded)
	}
	// paired within trials: 5 trials, every ratio 1.1, sign test 1/32
	g = Gate(base, slower, base, slower, 5, false, 0.05, 0.95)
	if g.Verdict != GateRegression || g.Method != GatePaired || math.Abs(g.PRaw-1.0/32) > 1e-12 {
		t.Errorf("paired: %+v", g)
	}
	// 4 trials cannot reach 0.05 (1/16)
	g = Gate(base, slower, base[:4], slower[:4], 5, false, 0.05, 0.95)
	if g.Verdict != GateTooFew || g.RunsNeeded != 5 {
		t.Errorf("4 trials: verdict %s, runs needed %d, want too-few-runs, 5", g.Verdict, g.RunsNeeded)
	}
}

// Under Holm across three checks, 5 a side reaches 3/252 <= 0.05, and 3
// a side (3 * 1/20) cannot.
func TestAdjustGate(t *testing.T) {
	base := []float64{100, 102, 98, 101, 99}
	slower := []float64{110, 112, 108, 111, 109}
	cs := []GateCheck{
		Gate(base, slower, nil, nil, 5, false, 0.05, 0.95),
		Gate(base, base, nil, nil, 5, false, 0.05, 0.95),
		Gate(base, slower, nil, nil, -5, true, 0.05, 0.95),
	}
	AdjustGate(cs, []bool{false, false, true})
	if cs[0].Verdict != GateRegression || math.Abs(cs[0].P-3.0/252) > 1e-12 || cs[0].Adjusted() != 3 {
		t.Errorf("first check after Holm: %+v", cs[0])
	}
	if cs[1].Verdict != GatePass || cs[2].Verdict != GatePass {
		t.Errorf("the others: %s, %s", cs[1].Verdict, cs[2].Verdict)
	}
	cs = []GateCheck{
		Gate(base[:3], slower[:3], nil, nil, 5, false, 0.05, 0.95),
		Gate(base[:3], slower[:3], nil, nil, 5, false, 0.05, 0.95),
	}
	AdjustGate(cs, []bool{false, false})
	if cs[0].Verdict != GateTooFew || cs[0].RunsNeeded != 4 {
		t.Errorf("3 a side, 2 checks: verdict %s, runs needed %d, want too-few-runs, 4 (2/70 <= 0.05)", cs[0].Verdict, cs[0].RunsNeeded)
	}
}
