package stats

import (
	"math"
	"strings"
	"testing"
)

func TestMannWhitneyU(t *testing.T) {
	// Reference values from R 4.x (r-base-core, Debian), printed with
	// options(digits = 17):
	//   wilcox.test(c(10.2, 11.5, 9.8, 12.3), c(13.1, 12.9, 14.2, 13.6),
	//               exact = TRUE)                       W = 0,   p = 0.028571428571428571
	//   a <- c(5.1, 4.7, 6.3, 5.8, 4.9); b <- c(6.0, 6.8, 5.5, 7.1, 6.6, 7.4, 5.2)
	//   wilcox.test(a, b, exact = TRUE)                 W = 5,   p = 0.047979797979797983
	//   wilcox.test(b, a, exact = TRUE)                 W = 30,  p = 0.047979797979797983
	//   wilcox.test(c(1,2,2,3,4,5), c(3,3,4,6,7,7,8), correct = TRUE)
	//     (ties: normal approximation)                  W = 6.5, p = 0.043433963105760177
	//   set.seed(1); a <- round(rnorm(49, 100, 10), 6); b <- round(rnorm(49, 104, 10), 6)
	//   wilcox.test(a, b, exact = TRUE)                 W = 883, p = 0.023836938132029795
	//   wilcox.test(c(a, 95.5), c(b, 107.25))  (n = 50: normal approximation)
	//                                                   W = 902, p = 0.016593078348926343
	// SciPy's mannwhitneyu(..., method="asymptotic", use_continuity=True)
	// computes the same normal approximation as R's correct = TRUE.
	tests := []struct {
		name  string
		a, b  []float64
		u, p  float64
		exact bool
	}{
		{"separated 4+4", []float64{10.2, 11.5, 9.8, 12.3}, []float64{13.1, 12.9, 14.2, 13.6}, 0, 0.028571428571428571, true},
		{"5+7", []float64{5.1, 4.7, 6.3, 5.8, 4.9}, []float64{6.0, 6.8, 5.5, 7.1, 6.6, 7.4, 5.2}, 5, 0.047979797979797983, true},
		{"7+5 reversed", []float64{6.0, 6.8, 5.5, 7.1, 6.6, 7.4, 5.2}, []float64{5.1, 4.7, 6.3, 5.8, 4.9}, 30, 0.047979797979797983, true},
		{"ties", []float64{1, 2, 2, 3, 4, 5}, []float64{3, 3, 4, 6, 7, 7, 8}, 6.5, 0.043433963105760177, false},
		{"49+49 exact", a49, b49, 883, 0.023836938132029795, true},
		// 100 distinct values: no ties, the normal approximation because n = 50.
		{"50+50 normal", append(append([]float64{}, a49...), 95.5), append(append([]float64{}, b49...), 107.25), 902, 0.016593078348926343, false},
	}
	for _, tc := range tests {
		got := MannWhitneyU(tc.a, tc.b)
		if got.U != tc.u || !closeTo(got.P, tc.p, 1e-12) || got.Exact != tc.exact ||
			got.N1 != len(tc.a) || got.N2 != len(tc.b) {
			t.Errorf("%s: got %+v, want U=%v P=%v Exact=%v", tc.name, got, tc.u, tc.p, tc.exact)
		}
	}
}

func TestMannWhitneyUEdge(t *testing.T) {
	// All values equal: no information, P = 1 (R returns NaN with a warning).
	got := MannWhitneyU([]float64{3, 3, 3}, []float64{3, 3, 3})
	if got.P != 1 || got.U != 4.5 || got.Exact {
		t.Errorf("equal samples: %+v", got)
	}
	got = MannWhitneyU(nil, []float64{1, 2})
	if !math.IsNaN(got.P) || got.N1 != 0 || got.N2 != 2 {
		t.Errorf("empty sample: %+v", got)
	}
	// Identical distributions without ties: U at the centre gives P = 1.
	got = MannWhitneyU([]float64{1, 4}, []float64{2, 3})
	if got.P != 1 || got.U != 2 {
		t.Errorf("centred U: %+v", got)
	}
}

func TestUCDFSumsToOne(t *testing.T) {
	// By hand: for n1 = n2 = 2 the 6 arrangements give U = 0,1,2,2,3,4, so
	// P(U <= 0) = 1/6, P(U <= 2) = 4/6, P(U <= 3) = 5/6.
	for _, tc := range []struct {
		k    int
		want float64
	}{{0, 1.0 / 6}, {1, 2.0 / 6}, {2, 4.0 / 6}, {3, 5.0 / 6}, {4, 1}, {-1, 0}} {
		if got := uCDF(2, 2, tc.k); !closeTo(got, tc.want, 1e-15) {
			t.Errorf("uCDF(2, 2, %d) = %v, want %v", tc.k, got, tc.want)
		}
	}
	// 2/C(2n, n) is the smallest two-sided p (benchstat's uTestMinP table:
	// n=4 -> 0.02857142857142857, n=9 -> 4.113533525298231e-05).
	for n, want := range map[int]float64{3: 0.1, 4: 0.02857142857142857, 9: 4.113533525298231e-05} {
		if got := 2 * uCDF(n, n, 0); !closeTo(got, want, 1e-12) {
			t.Errorf("2*P(U=0) for n=%d = %v, want %v", n, got, want)
		}
		if got := MinUTestP(n, n); !closeTo(got, want, 1e-12) {
			t.Errorf("MinUTestP(%d, %d) = %v, want %v", n, n, got, want)
		}
	}
}

func TestHolmBonferroni(t *testing.T) {
	// R: p.adjust(c(0.01, 0.04, 0.03, 0.005, 0.5, NA), method = "holm")
	//    -> 0.04 0.09 0.09 0.025 0.5 NA
	got := HolmBonferroni([]float64{0.01, 0.04, 0.03, 0.005, 0.5, math.NaN()})
	want := []float64{0.04, 0.09, 0.09, 0.025, 0.5, math.NaN()}
	for i := range want {
		if !closeTo(got[i], want[i], 1e-15) {
			t.Errorf("HolmBonferroni[%d] = %v, want %v (all %v)", i, got[i], want[i], got)
		}
	}
	// By hand: one test is not adjusted; large products cap at 1.
	if got := HolmBonferroni([]float64{0.03}); got[0] != 0.03 {
		t.Errorf("single p: %v", got)
	}
	if got := HolmBonferroni([]float64{0.6, 0.7}); got[0] != 1 || got[1] != 1 {
		t.Errorf("capped: %v", got)
	}
}

func TestCompare(t *testing.T) {
	// benchstat on old = 10.2 11.5 9.8 12.3 and new = 13.1 12.9 14.2 13.6
	// (ns/op) prints "10.85n ± ∞ ¹   13.35n ± ∞ ¹  +23.04% (p=0.029 n=4)".
	c := CompareAt([]float64{10.2, 11.5, 9.8, 12.3}, []float64{13.1, 12.9, 14.2, 13.6}, 0.05, DefaultConfidence)
	if got, want := c.String(), "+23.04% (p=0.029 n=4)"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if !c.Significant || c.Base.Median != 10.85 || c.Vs.Median != 13.35 {
		t.Errorf("compare: %+v", c)
	}
	// Not significant: R wilcox.test(c(1,3,5), c(2,4,6)) gives W = 3,
	// p = 0.7; with 3 values a side no difference can reach 0.05 (the
	// smallest p is 2/C(6,3) = 0.1), which the warning says.
	c = CompareAt([]float64{1, 3, 5}, []float64{2, 4, 6}, 0.05, DefaultConfidence)
	if got, want := c.String(), "~ (p=0.700 n=3)"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	found := false
	for _, w := range c.Warnings {
		if w.Kind == WarnTooFewSamples && strings.HasPrefix(w.Msg, "need >= 4 samples on each side to detect a difference at alpha 0.05") {
			found = true
		}
	}
	if !found {
		t.Errorf("missing too-few warning: %v", c.Warnings)
	}
	// Unequal sizes print n=5+7 (p from R above: 0.047979797979797983);
	// medians 5.1 and 6.6 by hand, 6.6/5.1 - 1 = +29.41%.
	c = CompareAt([]float64{5.1, 4.7, 6.3, 5.8, 4.9}, []float64{6.0, 6.8, 5.5, 7.1, 6.6, 7.4, 5.2}, 0.05, DefaultConfidence)
	if got, want := c.String(), "+29.41% (p=0.048 n=5+7)"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	// Holm across two rows: 0.048 and 0.029 become 2*0.0286 = 0.0571 and
	// max(0.0571, 0.048) = 0.0571: neither stays significant.
	cs := []Comparison{c, CompareAt([]float64{10.2, 11.5, 9.8, 12.3}, []float64{13.1, 12.9, 14.2, 13.6}, 0.05, DefaultConfidence)}
	AdjustHolm(cs)
	for i, c := range cs {
		if !c.Adjusted || c.Significant || !closeTo(c.P, 2*0.028571428571428571, 1e-12) {
			t.Errorf("row %d after Holm: P=%v significant=%v", i, c.P, c.Significant)
		}
	}
	if got, want := cs[0].String(), "~ (p=0.057 n=5+7)"; got != want {
		t.Errorf("adjusted String = %q, want %q", got, want)
	}
}

var a49 = []float64{
	93.735462, 101.836433, 91.643714, 115.952808, 103.295078, 91.795316, 104.874291,
	107.383247, 105.757814, 96.946116, 115.117812, 103.898432, 93.787594, 77.853001,
	111.249309, 99.550664, 99.838097, 109.438362, 108.212212, 105.939013, 109.189774,
	107.821363, 100.74565, 80.106483, 106.198257, 99.438713, 98.442045, 85.292476, 95.218499,
	104.179416, 113.586796, 98.972123, 103.876716, 99.46195, 86.229404, 95.850054, 96.0571,
	99.406866, 111.000254, 107.631757, 98.354764, 97.466383, 106.969634, 105.566632,
	93.112443, 92.925048, 103.64582, 107.685329, 98.876538,
}

var b49 = []float64{
	112.811077, 107.981059, 97.879736, 107.411197, 92.706369, 118.330237, 123.803999,
	100.327785, 93.558654, 109.697196, 102.649454, 128.016178, 103.6076, 110.897394,
	104.280022, 96.567268, 105.887923, 85.950414, 118.655549, 105.532533, 125.726117,
	108.755095, 96.900536, 110.107264, 94.659024, 91.463666, 106.914462, 99.567081,
	104.011054, 104.743413, 98.104791, 98.313313, 102.648214, 115.78087, 88.764332,
	109.939462, 107.329504, 114.630998, 100.958161, 107.700188, 106.670988, 98.5748,
	116.078678, 115.604026, 111.002136, 119.868335, 109.584864, 91.234078, 98.267346,
}
