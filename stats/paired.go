package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Paired compares two alternatives measured side by side in the same
// blocks (randomized interleaved trials: every alternative once per trial,
// in a random order per trial; Abedi and Brecht, ICPE 2017): the ratio
// vs / base within each block, summarised by its median (type 7) with a
// distribution-free interval for the median of the ratios (the sign
// test's: order statistics of the ratios, as Summary's interval), and the
// two-sided sign test of a median ratio of 1. A drift of the machine's
// speed that a block's runs share multiplies both sides of the block
// alike and cancels in the ratio.
type Paired struct {
	// N is the number of blocks with a ratio; Ratios are the ratios in
	// the order of the pairs given.
	N      int
	Ratios []float64
	Median float64
	// Low and High bound the interval of the median ratio; Coverage is
	// the probability with which it covers it. Below the pairs a finite
	// interval needs at the confidence asked (6 at 95%), the interval is
	// the widest, [min, max], with its own coverage (93.75% for 5
	// pairs), and a warning says so.
	Low, High, Coverage float64
	// P is the two-sided sign test's p-value (exact binomial) for a
	// median ratio of 1: ratios equal to 1 are left out of it (1 when
	// every ratio is 1).
	P        float64
	Warnings []Warning
}

// PairedRatios compares vs with base pair by pair (base[i] and vs[i] were
// measured in the same block) at the given confidence. A pair whose base
// is not positive, or either value NaN, gives no ratio and is left out
// with a warning.
func PairedRatios(base, vs []float64, confidence float64) Paired {
	p := Paired{Median: math.NaN(), Low: math.NaN(), High: math.NaN(), Coverage: math.NaN(), P: math.NaN()}
	if len(base) != len(vs) {
		p.Warnings = append(p.Warnings, warn(WarnInvalidInput, fmt.Sprintf("%d base values against %d vs values: not pairs", len(base), len(vs))))
		return p
	}
	left := 0
	for i := range base {
		if math.IsNaN(base[i]) || math.IsNaN(vs[i]) || !(base[i] > 0) {
			left++
			continue
		}
		p.Ratios = append(p.Ratios, vs[i]/base[i])
	}
	if left > 0 {
		p.Warnings = append(p.Warnings, warn(WarnInvalidInput, fmt.Sprintf("%d pairs without a ratio left out (a value missing, or a base not above 0)", left)))
	}
	p.N = len(p.Ratios)
	if p.N == 0 {
		p.Warnings = append(p.Warnings, warn(WarnInvalidInput, "no pairs"))
		return p
	}
	if !(confidence > 0 && confidence < 1) {
		confidence = DefaultConfidence
	}
	sorted := slices.Sorted(slices.Values(p.Ratios))
	p.Median = Quantile(sorted, 0.5)
	lo, hi, cover := MedianCIOrders(p.N, confidence)
	if lo < 1 || hi > p.N {
		// No finite interval at that level: the widest one, with its
		// own coverage, 1 - 2^(1-n).
		lo, hi, cover = 1, p.N, 1-math.Pow(2, float64(1-p.N))
		if p.N == 1 {
			cover = 0
		}
		p.Warnings = append(p.Warnings, warn(WarnTooFewSamples, fmt.Sprintf("%d pairs: the interval is their min–max, which covers the median ratio with probability %s (%d pairs reach %s)",
			p.N, formatLevel(cover), MinSamplesForCI(confidence), formatLevel(confidence))))
	}
	p.Low, p.High, p.Coverage = sorted[lo-1], sorted[hi-1], cover
	above, below := 0, 0
	for _, r := range p.Ratios {
		switch {
		case r > 1:
			above++
		case r < 1:
			below++
		}
	}
	if n := above + below; n > 0 {
		b := distuv.Binomial{N: float64(n), P: 0.5}
		p.P = math.Min(1, 2*b.CDF(float64(min(above, below))))
	} else {
		p.P = 1 // every ratio is 1: nothing tells the two apart
	}
	return p
}

// Excludes1 reports whether the interval of the median ratio lies wholly
// above or below 1: the blocks tell the two alternatives apart.
func (p Paired) Excludes1() bool { return p.Low > 1 || p.High < 1 }
