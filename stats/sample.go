package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// DefaultConfidence is the confidence level of intervals when none is given.
const DefaultConfidence = 0.95

// Quantile returns the p-quantile (0 <= p <= 1) of sorted, which must be in
// ascending order, by linear interpolation between order statistics at
// position p*(n-1) (0-based): Hyndman and Fan's type 7, the default of R's
// quantile() and of NumPy's percentile(), and the definition k6 uses for
// its p(N) trend statistics. DuckDB's quantile_cont computes the same.
//
// It returns NaN for an empty slice or a p outside [0, 1].
func Quantile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 || !(p >= 0 && p <= 1) {
		return math.NaN()
	}
	h := p * float64(n-1)
	lo := math.Floor(h)
	i := int(lo)
	if i >= n-1 {
		return sorted[n-1]
	}
	frac := h - lo
	if frac == 0 {
		return sorted[i]
	}
	return sorted[i] + frac*(sorted[i+1]-sorted[i])
}

// Median returns the median of xs (type 7 at p = 0.5, the usual median:
// the middle value, or the mean of the two middle values). xs need not be
// sorted and is not modified. It returns NaN for an empty slice.
func Median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return Quantile(s, 0.5)
}

// A Summary describes a group of passes (rounds, runs) of one measurement.
//
// Q1 and Q3 are type 7 quantiles (see Quantile); IQR = Q3 - Q1. MAD is the
// raw median absolute deviation, median(|x - median|), without the 1.4826
// factor that would make it estimate a normal standard deviation (R's
// mad(x, constant = 1)).
//
// CILow and CIHigh bound a distribution-free confidence interval for the
// population median built from order statistics: the number of values
// below the median is Binomial(n, 1/2), and the interval [x(l), x(h)] covers
// the median with probability P(l <= B < h). The bounds are chosen as
// benchstat chooses them (golang.org/x/perf/benchmath): starting at the
// mode of the binomial and adding the more probable neighbouring interval
// (the left one on a tie) until the coverage reaches the requested level.
// CIConfidence is the coverage actually reached, which is at least
// Confidence. When n is too small for any finite interval at that level,
// CILow is -Inf and CIHigh is +Inf and a warning says how many values are
// needed (see MinSamplesForCI).
type Summary struct {
	N                int
	Median, Min, Max float64
	Q1, Q3, IQR      float64
	MAD              float64 // raw median absolute deviation (not scaled)

	Confidence    float64 // requested level, e.g. 0.95
	CIConfidence  float64 // coverage of [CILow, CIHigh] (>= Confidence)
	CILow, CIHigh float64

	Warnings []Warning
}

// Summarize summarizes xs at DefaultConfidence. See SummarizeAt.
func Summarize(xs []float64) Summary { return SummarizeAt(xs, DefaultConfidence) }

// SummarizeAt summarizes xs with a median confidence interval at the given
// confidence level (0 < confidence < 1). xs is not modified. NaN values are
// left out, with a warning that says how many. With no values every field
// but N is NaN.
func SummarizeAt(xs []float64, confidence float64) Summary {
	s := Summary{Confidence: confidence}
	vals := make([]float64, 0, len(xs))
	nan := 0
	for _, x := range xs {
		if math.IsNaN(x) {
			nan++
			continue
		}
		vals = append(vals, x)
	}
	if nan > 0 {
		s.Warnings = append(s.Warnings, warn(WarnInvalidInput, fmt.Sprintf("%d NaN values left out", nan)))
	}
	s.N = len(vals)
	if s.N == 0 {
		nanAll := math.NaN()
		s.Median, s.Min, s.Max, s.Q1, s.Q3, s.IQR, s.MAD = nanAll, nanAll, nanAll, nanAll, nanAll, nanAll, nanAll
		s.CILow, s.CIHigh, s.CIConfidence = nanAll, nanAll, nanAll
		s.Warnings = append(s.Warnings, warn(WarnInvalidInput, "no values"))
		return s
	}
	if !(confidence > 0 && confidence < 1) {
		s.Warnings = append(s.Warnings, warn(WarnInvalidInput, fmt.Sprintf("confidence level %v is not between 0 and 1; using %v", confidence, DefaultConfidence)))
		confidence = DefaultConfidence
		s.Confidence = confidence
	}
	slices.Sort(vals)
	s.Min, s.Max = vals[0], vals[s.N-1]
	s.Median = Quantile(vals, 0.5)
	s.Q1 = Quantile(vals, 0.25)
	s.Q3 = Quantile(vals, 0.75)
	s.IQR = s.Q3 - s.Q1
	dev := make([]float64, s.N)
	for i, v := range vals {
		dev[i] = math.Abs(v - s.Median)
	}
	slices.Sort(dev)
	s.MAD = Quantile(dev, 0.5)

	lo, hi, cover := MedianCIOrders(s.N, confidence)
	s.CIConfidence = cover
	s.CILow, s.CIHigh = math.Inf(-1), math.Inf(1)
	if lo >= 1 {
		s.CILow = vals[lo-1]
	}
	if hi <= s.N {
		s.CIHigh = vals[hi-1]
	}
	if !s.HasCI() {
		s.Warnings = append(s.Warnings, warn(WarnTooFewSamples,
			fmt.Sprintf("need >= %d samples for a %s confidence interval", MinSamplesForCI(confidence), formatLevel(confidence))))
	}
	if s.N >= 2 && s.Min == s.Max {
		s.Warnings = append(s.Warnings, warn(WarnZeroVariance, fmt.Sprintf("all %d values are equal", s.N)))
	}
	return s
}

// HasCI reports whether both bounds of the median interval are finite.
func (s Summary) HasCI() bool {
	return !math.IsInf(s.CILow, 0) && !math.IsInf(s.CIHigh, 0) && !math.IsNaN(s.CILow) && !math.IsNaN(s.CIHigh)
}

// CIPct returns the half-width of the median interval as a percentage of
// the median, taking the wider side: 100 * max(hi/median - 1, 1 -
// lo/median), as benchstat does. ok is false when the interval is
// unbounded, when the median is 0 with a non-zero interval, or when the
// bounds and the median differ in sign (a percentage is meaningless then).
func (s Summary) CIPct() (pct float64, ok bool) {
	if !s.HasCI() {
		return math.Inf(1), false
	}
	sign := func(x float64) int {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return 0
	}
	c := sign(s.Median)
	if c != sign(s.CILow) || c != sign(s.CIHigh) {
		return math.NaN(), false
	}
	if s.Median == 0 {
		return 0, true
	}
	return 100 * math.Max(s.CIHigh/s.Median-1, 1-s.CILow/s.Median), true
}

// FormatCIPct formats the interval as benchstat prints it beside a median:
// "± 4%" (rounded to a whole percent), "± ∞" for an unbounded interval and
// "± ?" where no percentage exists.
func (s Summary) FormatCIPct() string {
	pct, ok := s.CIPct()
	switch {
	case ok:
		return fmt.Sprintf("± %.0f%%", pct)
	case math.IsInf(pct, 1):
		return "± ∞"
	}
	return "± ?"
}

// MedianCIOrders returns the 1-based order statistics [lo, hi] that bound a
// confidence interval for the median of n values at the given level, and
// the coverage P(lo <= B < hi) with B ~ Binomial(n, 1/2). lo < 1 stands
// for -Inf and hi > n for +Inf. The construction is benchstat's (see
// Summary); unlike benchstat, which switches to a normal approximation
// above n = 30, the binomial is used exactly for every n.
func MedianCIOrders(n int, confidence float64) (lo, hi int, coverage float64) {
	if n <= 0 {
		return 0, 1, 0
	}
	if confidence >= 1 {
		return 0, n + 1, 1
	}
	b := distuv.Binomial{N: float64(n), P: 0.5}
	pmf := func(k int) float64 {
		if k < 0 || k > n {
			return 0
		}
		// Bin(n, 1/2) is symmetric; evaluating the lower half only
		// keeps equal probabilities bitwise equal, so that ties are
		// broken to the left as intended.
		return b.Prob(float64(min(k, n-k)))
	}
	// Mode of Binomial(n, 1/2), the lower one when there are two.
	x := int(math.Ceil(float64(n+1)*0.5) - 1)
	accum := pmf(x)
	l, r := x, x+1 // intervals [l, r) between order statistics are summed
	lp, rp := pmf(l-1), pmf(r)
	for accum < confidence && (lp > 0 || rp > 0) {
		if lp >= rp {
			accum += lp
			l--
			lp = pmf(l - 1)
		} else {
			accum += rp
			r++
			rp = pmf(r)
		}
	}
	if l <= 0 && r >= n+1 {
		accum = 1
	}
	if l < 0 {
		l = 0
	}
	if r > n+1 {
		r = n + 1
	}
	return l, r, accum
}

// MinSamplesForCI returns the smallest n for which the median has a finite
// order-statistic confidence interval at the given level. The widest finite
// interval, [x(1), x(n)], covers the median with probability 1 - 2/2^n,
// so n is the smallest with 1 - 2^(1-n) >= confidence: 6 at 95% (5 values
// reach only 93.75%), 8 at 99%.
func MinSamplesForCI(confidence float64) int {
	if !(confidence < 1) {
		return math.MaxInt
	}
	n := 2
	for 1-math.Pow(2, float64(1-n)) < confidence {
		n++
	}
	return n
}

// formatLevel formats a confidence level 0.95 as "95%".
func formatLevel(c float64) string {
	return fmt.Sprintf("%.4g%%", c*100)
}
