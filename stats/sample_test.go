package stats

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// close reports whether got is within rel (relative) of want.
func closeTo(got, want, rel float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	if math.IsInf(want, 0) {
		return got == want
	}
	return math.Abs(got-want) <= rel*math.Max(1, math.Abs(want))
}

// want is one expected figure of a result.
type want struct {
	name      string
	got, want float64
}

// checkAll compares each figure within rel (see closeTo).
func checkAll(t *testing.T, prefix string, rel float64, ws []want) {
	t.Helper()
	for _, c := range ws {
		if !closeTo(c.got, c.want, rel) {
			t.Errorf("%s%s = %.17g, want %.17g", prefix, c.name, c.got, c.want)
		}
	}
}

func TestQuantileType7(t *testing.T) {
	// R 4.x: x <- c(12.1, 11.4, 13.9, 12.7, 12.2, 15.0, 11.9)
	//   quantile(x, c(0.25, 0.5, 0.75), type = 7) -> 12, 12.2, 13.3
	//   quantile(c(1,2,3,4,10), c(0.95, 0.1, 0.333), type = 7)
	//     -> 8.8, 1.4, 2.332
	x := []float64{12.1, 11.4, 13.9, 12.7, 12.2, 15.0, 11.9}
	slices.Sort(x)
	y := []float64{1, 2, 3, 4, 10}
	tests := []struct {
		xs   []float64
		p    float64
		want float64
	}{
		{x, 0.25, 12},
		{x, 0.5, 12.199999999999999},
		{x, 0.75, 13.300000000000001},
		{y, 0.95, 8.7999999999999989},
		{y, 0.1, 1.3999999999999999},
		{y, 0.333, 2.3319999999999999},
		// By hand: p = 0 and 1 are the extremes; one value is every quantile.
		{y, 0, 1},
		{y, 1, 10},
		{[]float64{7}, 0.3, 7},
		// Invalid input gives NaN, not a number that looks real.
		{nil, 0.5, math.NaN()},
		{y, -0.1, math.NaN()},
		{y, 1.5, math.NaN()},
		{y, math.NaN(), math.NaN()},
	}
	for _, tc := range tests {
		got := Quantile(tc.xs, tc.p)
		if !closeTo(got, tc.want, 1e-14) {
			t.Errorf("Quantile(%v, %v) = %v, want %v", tc.xs, tc.p, got, tc.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	// Reference: R, x <- c(12.1, 11.4, 13.9, 12.7, 12.2, 15.0, 11.9)
	//   median(x) = 12.2; quantile(x, c(.25,.75), type=7) = 12, 13.3;
	//   IQR(x) = 1.3; mad(x, constant = 1) = 0.5.
	// Interval: go-moremath stats.QuantileCI(7, 0.5, 0.95) (benchstat's
	// implementation) gives LoOrder 1, HiOrder 7, Confidence 0.984375, so
	// [x(1), x(7)] = [11.4, 15.0]; benchstat prints "12.20n ± 23%" for
	// these values: max(15/12.2 - 1, 1 - 11.4/12.2) = 22.95%.
	in := []float64{12.1, 11.4, 13.9, 12.7, 12.2, 15.0, 11.9}
	orig := slices.Clone(in)
	s := Summarize(in)
	if !slices.Equal(in, orig) {
		t.Errorf("Summarize modified its input: %v", in)
	}
	checkAll(t, "", 1e-12, []want{
		{"Median", s.Median, 12.2},
		{"Min", s.Min, 11.4},
		{"Max", s.Max, 15.0},
		{"Q1", s.Q1, 12},
		{"Q3", s.Q3, 13.300000000000001},
		{"IQR", s.IQR, 1.3},
		{"MAD", s.MAD, 0.5},
		{"CILow", s.CILow, 11.4},
		{"CIHigh", s.CIHigh, 15.0},
		{"CIConfidence", s.CIConfidence, 0.984375},
	})
	if s.N != 7 || len(s.Warnings) != 0 {
		t.Errorf("N = %d, warnings %v; want 7 and none", s.N, s.Warnings)
	}
	if got := s.FormatCIPct(); got != "± 23%" {
		t.Errorf("FormatCIPct = %q, want %q (benchstat)", got, "± 23%")
	}
	pct, ok := s.CIPct()
	if !ok || !closeTo(pct, 100*(15.0/12.2-1), 1e-12) {
		t.Errorf("CIPct = %v, %v", pct, ok)
	}
}

func TestSummarizeBenchstatReference(t *testing.T) {
	// benchstat (golang.org/x/perf/cmd/benchstat, 2026-09 module) run on
	// one "BenchmarkX 1 <v> ns/op" line per value printed:
	//   C10 -> "X   101.5n ± 8%"
	//   D20 -> "X   49.93n ± 5%"
	//   B5  -> "X   10.20n ± ∞ ¹" with "¹ need >= 6 samples for confidence
	//          interval at level 0.95"
	tests := []struct {
		xs     []float64
		median float64
		pct    string
	}{
		{[]float64{100, 103, 98, 110, 101, 99, 104, 97, 120, 102}, 101.5, "± 8%"},
		{[]float64{48.721, 52.557, 48.87, 48.425, 45.35, 48.933, 55.56, 52.121, 55.184, 51.245,
			51.974, 50.927, 41.67, 54.276, 52.532, 52.494, 41.543, 41.281, 45.552, 47.659}, 49.93, "± 5%"},
		{[]float64{10.0, 10.4, 9.7, 10.9, 10.2}, 10.2, "± ∞"},
	}
	for _, tc := range tests {
		s := Summarize(tc.xs)
		if math.Abs(s.Median-tc.median) > 0.005 {
			t.Errorf("median of %v = %v, want %v", tc.xs, s.Median, tc.median)
		}
		if got := s.FormatCIPct(); got != tc.pct {
			t.Errorf("FormatCIPct of %v = %q, want %q", tc.xs, got, tc.pct)
		}
	}
	s := Summarize([]float64{10.0, 10.4, 9.7, 10.9, 10.2})
	if len(s.Warnings) != 1 || s.Warnings[0].Kind != WarnTooFewSamples ||
		s.Warnings[0].Msg != "need >= 6 samples for a 95% confidence interval" {
		t.Errorf("warnings = %#v", s.Warnings)
	}
	// Left-biased as benchstat: n=5 at 95% gives [-Inf, x(5)].
	if !math.IsInf(s.CILow, -1) || s.CIHigh != 10.9 {
		t.Errorf("CI for n=5 = [%v, %v], want [-Inf, 10.9]", s.CILow, s.CIHigh)
	}
}

func TestMedianCIOrders(t *testing.T) {
	// Reference: go-moremath stats.QuantileCI(n, 0.5, c) (the code behind
	// benchstat), printed by a throwaway program as {n, c, LoOrder,
	// HiOrder, Confidence}. go-moremath uses a normal approximation above
	// n = 30; this package stays exact, so only n <= 30 is compared.
	// By hand for n = 10 at 95%: P(2 <= B <= 8), B ~ Bin(10, 1/2), is
	// (45+120+210+252+210+120+45)/1024 = 1002/1024 = 0.978515625; R:
	// sum(dbinom(2:8, 10, 0.5)) = 0.978515625.
	ref := []struct {
		n        int
		c        float64
		lo, hi   int
		coverage float64
	}{
		{1, 0.95, 0, 2, 1},
		{2, 0.95, 0, 3, 1},
		{3, 0.95, 0, 4, 1},
		{5, 0.95, 0, 5, 0.96875},
		{6, 0.95, 1, 6, 0.96875},
		{7, 0.95, 1, 7, 0.984375},
		{8, 0.95, 1, 7, 0.9609375},
		{10, 0.95, 2, 9, 0.978515625},
		{15, 0.95, 4, 12, 0.96484375},
		{20, 0.95, 6, 15, 0.9586105346679688},
		{29, 0.95, 9, 20, 0.9572260547429357},
		{30, 0.95, 10, 21, 0.9572260547429379},
		{5, 0.99, 0, 6, 1},
		{6, 0.99, 0, 7, 1},
		{7, 0.99, 0, 7, 0.9921875},
		{8, 0.99, 1, 8, 0.9921875},
		{10, 0.99, 1, 10, 0.998046875},
		{15, 0.99, 3, 13, 0.99261474609375},
		{20, 0.99, 4, 16, 0.992802619934082},
		{29, 0.99, 8, 22, 0.9918699413538014},
		{30, 0.99, 8, 23, 0.9947771206498202},
		{5, 0.9, 1, 5, 0.9375},
		{6, 0.9, 1, 6, 0.96875},
		{7, 0.9, 1, 6, 0.9296875},
		{8, 0.9, 2, 7, 0.9296875},
		{10, 0.9, 2, 8, 0.9345703125},
		{15, 0.9, 4, 11, 0.923187255859375},
		{20, 0.9, 6, 14, 0.9216461181640625},
		// go-moremath gives 11, 20 here: its Binomial PMF makes P(B=10)
		// and P(B=19) differ in the last bit, so its tie between the two
		// sides goes right. The two are equal (C(29,10) = C(29,19)), and the
		// left-biased rule gives 10, 19 with the same coverage.
		{29, 0.9, 10, 19, 0.9012628532946142},
		{30, 0.9, 11, 20, 0.9012628532946163},
	}
	for _, r := range ref {
		lo, hi, cov := MedianCIOrders(r.n, r.c)
		if lo != r.lo || hi != r.hi || !closeTo(cov, r.coverage, 1e-12) {
			t.Errorf("MedianCIOrders(%d, %v) = %d, %d, %v; want %d, %d, %v", r.n, r.c, lo, hi, cov, r.lo, r.hi, r.coverage)
		}
	}
	// Large n: the exact interval must reach the level and stay about
	// symmetric around the middle.
	for _, n := range []int{31, 100, 1000, 10000} {
		lo, hi, cov := MedianCIOrders(n, 0.95)
		if cov < 0.95 || lo < 1 || hi > n || abs(lo+hi-(n+1)) > 1 {
			t.Errorf("MedianCIOrders(%d, 0.95) = %d, %d, %v", n, lo, hi, cov)
		}
	}
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

func TestMinSamplesForCI(t *testing.T) {
	// By hand: the widest finite interval [x(1), x(n)] covers the median
	// with probability 1 - 2/2^n: n=5 -> 0.9375 < 0.95, n=6 -> 0.96875;
	// n=7 -> 0.984 < 0.99, n=8 -> 0.992; n=4 -> 0.875 < 0.9, n=5 -> 0.9375.
	for _, tc := range []struct {
		c    float64
		want int
	}{{0.95, 6}, {0.99, 8}, {0.9, 5}, {0.5, 2}} {
		if got := MinSamplesForCI(tc.c); got != tc.want {
			t.Errorf("MinSamplesForCI(%v) = %d, want %d", tc.c, got, tc.want)
		}
		// Consistent with the interval construction itself.
		n := tc.want
		if lo, hi, _ := MedianCIOrders(n, tc.c); lo < 1 || hi > n {
			t.Errorf("n=%d at %v has no finite interval (%d, %d)", n, tc.c, lo, hi)
		}
		if lo, hi, _ := MedianCIOrders(n-1, tc.c); lo >= 1 && hi <= n-1 {
			t.Errorf("n=%d at %v already has a finite interval", n-1, tc.c)
		}
	}
}

func TestSummarizeEdgeCases(t *testing.T) {
	s := Summarize(nil)
	if s.N != 0 || !math.IsNaN(s.Median) || len(s.Warnings) != 1 || s.Warnings[0].Msg != "no values" {
		t.Errorf("Summarize(nil) = %+v", s)
	}
	s = Summarize([]float64{4, 4, 4, 4, 4, 4})
	var kinds []WarningKind
	for _, w := range s.Warnings {
		kinds = append(kinds, w.Kind)
	}
	if !slices.Equal(kinds, []WarningKind{WarnZeroVariance}) || s.Warnings[0].Msg != "all 6 values are equal" {
		t.Errorf("warnings = %v", s.Warnings)
	}
	if s.MAD != 0 || s.IQR != 0 || s.FormatCIPct() != "± 0%" {
		t.Errorf("constant sample: MAD %v IQR %v CI %q", s.MAD, s.IQR, s.FormatCIPct())
	}
	s = Summarize([]float64{1, math.NaN(), 3})
	if s.N != 2 || s.Median != 2 || !strings.Contains(s.Warnings[0].Msg, "1 NaN values left out") {
		t.Errorf("NaN handling: %+v", s)
	}
	// Bounds on both sides of zero: no percentage.
	s = Summarize([]float64{-1, -0.5, 0.2, 0.4, 0.6, 1, 2})
	if got := s.FormatCIPct(); got != "± ?" {
		t.Errorf("sign change: %q", got)
	}
	s = SummarizeAt([]float64{1, 2, 3, 4, 5, 6, 7, 8}, 0.99)
	if s.CILow != 1 || s.CIHigh != 8 || len(s.Warnings) != 0 {
		t.Errorf("99%%, n=8: [%v, %v] %v", s.CILow, s.CIHigh, s.Warnings)
	}
	s = SummarizeAt([]float64{1, 2, 3, 4, 5, 6, 7}, 0.99)
	if len(s.Warnings) != 1 || s.Warnings[0].Msg != "need >= 8 samples for a 99% confidence interval" {
		t.Errorf("99%%, n=7 warnings: %v", s.Warnings)
	}
}
