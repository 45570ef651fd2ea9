package stats

import (
	"math"
	"testing"
)

// Five trials of two alternatives: the ratios 1.10, 1.20, 1.05, 1.15,
// 1.12. Their median is 1.12; with 5 pairs no interval reaches 95%, so the
// interval is the min–max, 1.05 to 1.20, which covers the median with
// probability 1 - 2/2^5 = 0.9375; all 5 ratios lie above 1, so the
// two-sided sign test gives 2 × (1/2)^5 = 0.0625 (R: binom.test(5, 5)).
func TestPairedRatiosFive(t *testing.T) {
	base := []float64{100, 100, 200, 100, 50}
	vs := []float64{110, 120, 210, 115, 56}
	p := PairedRatios(base, vs, 0.95)
	if p.N != 5 || math.Abs(p.Median-1.12) > 1e-12 || p.Low != 1.05 || math.Abs(p.High-1.2) > 1e-12 || p.Coverage != 0.9375 {
		t.Errorf("%+v", p)
	}
	if math.Abs(p.P-0.0625) > 1e-12 {
		t.Errorf("sign test p %v, want 0.0625", p.P)
	}
	if !p.Excludes1() {
		t.Error("1.05 to 1.20 excludes 1")
	}
	if len(p.Warnings) != 1 || p.Warnings[0].Kind != WarnTooFewSamples {
		t.Errorf("warnings %v, want the one that names the interval's coverage", p.Warnings)
	}
}

// Eight pairs reach a 95% interval, the one MedianCIOrders builds (order
// statistics 1 and 7, coverage 246/256: growing from the mode of
// Binomial(8, 1/2) until 95% is reached), and the sign test of one ratio
// below 1 against seven above gives 2 × 9/256 = 0.0703125 (R:
// binom.test(7, 8)).
func TestPairedRatiosEight(t *testing.T) {
	base := []float64{1, 1, 1, 1, 1, 1, 1, 1}
	vs := []float64{0.98, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08}
	p := PairedRatios(base, vs, 0.95)
	lo, hi, cover := MedianCIOrders(8, 0.95)
	if p.Low != vs[lo-1] || p.High != vs[hi-1] || p.Coverage != cover || len(p.Warnings) != 0 {
		t.Errorf("%+v; MedianCIOrders %d %d %v", p, lo, hi, cover)
	}
	if math.Abs(p.P-0.0703125) > 1e-12 {
		t.Errorf("sign test p %v", p.P)
	}
}

func TestPairedRatiosLeavesOutWhatIsNoRatio(t *testing.T) {
	p := PairedRatios([]float64{0, 1, math.NaN(), 2}, []float64{1, 2, 3, 3}, 0.95)
	if p.N != 2 || p.Median != 1.75 || len(p.Warnings) != 2 {
		t.Errorf("%+v", p)
	}
	if q := PairedRatios([]float64{1}, []float64{1, 2}, 0.95); !math.IsNaN(q.Median) || len(q.Warnings) != 1 {
		t.Errorf("unequal lengths: %+v", q)
	}
	if q := PairedRatios([]float64{2, 3, 4}, []float64{2, 3, 4}, 0.95); q.Median != 1 || q.P != 1 {
		t.Errorf("equal pairs: median %v, p %v; want 1 and 1", q.Median, q.P)
	}
}

// A machine whose speed swings by a factor of up to 2.7 between trials,
// and by 1% between two runs of one trial: vs is truly 10% slower (its
// CPU per request is 1.10 times base's). Compared unpaired, the drift
// swamps the difference: the Mann–Whitney test cannot tell the two apart
// and their medians' intervals overlap. Compared within trials, the drift
// cancels: the median ratio is 1.10 within 1%, its interval lies above 1
// and holds 1.10, and the sign test is significant.
func TestPairedRecoversTheRatioUnderDrift(t *testing.T) {
	drift := []float64{0.6, 1.6, 1.0, 1.3, 0.7, 1.45, 0.9, 1.2, 0.75, 1.1}
	noise := []float64{1.01, 0.99, 1.005, 0.995, 1.0, 1.01, 0.99, 1.0, 1.005, 0.995}
	var base, vs []float64
	for i, d := range drift {
		base = append(base, 100*d*noise[i])
		vs = append(vs, 110*d*noise[len(noise)-1-i])
	}
	c := CompareAt(base, vs, 0.05, 0.95)
	if c.Significant || c.Test.P < 0.2 {
		t.Errorf("unpaired: p %v, significant %v; the drift should swamp a 10%% difference", c.Test.P, c.Significant)
	}
	if !(c.Vs.CILow < c.Base.CIHigh && c.Base.CILow < c.Vs.CIHigh) {
		t.Errorf("unpaired intervals do not overlap: base %v..%v, vs %v..%v", c.Base.CILow, c.Base.CIHigh, c.Vs.CILow, c.Vs.CIHigh)
	}
	p := PairedRatios(base, vs, 0.95)
	if math.Abs(p.Median/1.10-1) > 0.01 || !p.Excludes1() || !(p.Low <= 1.10 && 1.10 <= p.High) || p.P >= 0.05 {
		t.Errorf("paired: %+v", p)
	}
}
