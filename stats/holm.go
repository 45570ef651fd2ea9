package stats

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// DefaultAlpha is the significance level of comparisons when none is given.
const DefaultAlpha = 0.05

// HolmBonferroni returns Holm's step-down adjusted p-values for a family of
// tests, in the order of p: with the m non-NaN p-values sorted ascending,
// the i-th smallest (1-based) becomes max over j <= i of min(1, (m-j+1) *
// p(j)), so the adjusted values are monotone in the raw ones. Rejecting
// where the adjusted p <= alpha controls the family-wise error rate at
// alpha. This is R's p.adjust(p, method = "holm"); NaN entries stay NaN and
// do not count towards m.
func HolmBonferroni(p []float64) []float64 {
	out := make([]float64, len(p))
	idx := make([]int, 0, len(p))
	for i, v := range p {
		out[i] = math.NaN()
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case p[a] < p[b]:
			return -1
		case p[a] > p[b]:
			return 1
		}
		return 0
	})
	m := len(idx)
	running := 0.0
	for rank, i := range idx {
		adj := math.Min(1, float64(m-rank)*p[i])
		running = math.Max(running, adj)
		out[i] = running
	}
	return out
}

// A Comparison compares a measurement between a base group of passes and
// another ("vs") group, the way benchstat compares two columns.
type Comparison struct {
	Base, Vs Summary
	// DeltaPct is 100 * (Vs.Median / Base.Median - 1); NaN when the base
	// median is 0 or either sample is empty.
	DeltaPct float64
	Test     UTest
	// P is the p-value used for the decision: Test.P, or the Holm-adjusted
	// value after AdjustHolm.
	P float64
	// Adjusted is true once P has been Holm-adjusted across a table.
	Adjusted bool
	Alpha    float64
	// Significant is P <= Alpha (benchstat's rule).
	Significant bool
	Warnings    []Warning
}

// CompareAt summarizes base and vs, tests them with MannWhitneyU and decides
// significance at alpha (DefaultAlpha when alpha is not in (0, 1)).
// Warnings of both summaries are kept (prefixed "base: " and "vs: "); a
// warning is added when the samples are too small for the test ever to
// reach alpha: with n1 and n2 values and no ties, the smallest two-sided
// exact p-value is 2 / C(n1+n2, n1) (0.1 for 3 against 3, 0.029 for 4
// against 4). The medians' intervals are at the given confidence level
// (see SummarizeAt).
func CompareAt(base, vs []float64, alpha, confidence float64) Comparison {
	if !(alpha > 0 && alpha < 1) {
		alpha = DefaultAlpha
	}
	c := Comparison{
		Base:  SummarizeAt(base, confidence),
		Vs:    SummarizeAt(vs, confidence),
		Alpha: alpha,
	}
	for _, w := range c.Base.Warnings {
		c.Warnings = append(c.Warnings, Warning{Kind: w.Kind, Msg: "base: " + w.Msg})
	}
	for _, w := range c.Vs.Warnings {
		c.Warnings = append(c.Warnings, Warning{Kind: w.Kind, Msg: "vs: " + w.Msg})
	}
	c.Test = MannWhitneyU(dropNaN(base), dropNaN(vs))
	c.P = c.Test.P
	c.DeltaPct = math.NaN()
	if c.Base.N > 0 && c.Vs.N > 0 {
		switch {
		case c.Base.Median == c.Vs.Median:
			c.DeltaPct = 0
		case c.Base.Median != 0:
			c.DeltaPct = 100 * (c.Vs.Median/c.Base.Median - 1)
		}
	}
	n1, n2 := c.Test.N1, c.Test.N2
	if n1 > 0 && n2 > 0 {
		if minP := MinUTestP(n1, n2); minP > alpha {
			need := 1
			for MinUTestP(need, need) > alpha {
				need++
			}
			c.Warnings = append(c.Warnings, warn(WarnTooFewSamples, fmt.Sprintf(
				"need >= %d samples on each side to detect a difference at alpha %s (smallest possible p with n=%s is %.3g)",
				need, strconv.FormatFloat(alpha, 'g', -1, 64), formatN(n1, n2), minP)))
		}
	}
	c.decide()
	return c
}

func (c *Comparison) decide() {
	c.Significant = !math.IsNaN(c.P) && c.P <= c.Alpha
}

// MinUTestP returns the smallest two-sided p-value the exact U test can give
// for samples of sizes n1 and n2 without ties: 2 / C(n1+n2, n1), capped at 1.
func MinUTestP(n1, n2 int) float64 {
	if n1 <= 0 || n2 <= 0 {
		return 1
	}
	lc, _ := math.Lgamma(float64(n1 + n2 + 1))
	l1, _ := math.Lgamma(float64(n1 + 1))
	l2, _ := math.Lgamma(float64(n2 + 1))
	return math.Min(1, 2*math.Exp(-(lc-l1-l2)))
}

// AdjustHolm replaces the p-values of the comparisons of one table by their
// Holm–Bonferroni adjusted values (see HolmBonferroni) and decides
// significance again. Comparisons without a p-value are left alone.
func AdjustHolm(cs []Comparison) {
	raw := make([]float64, len(cs))
	for i := range cs {
		raw[i] = cs[i].Test.P
	}
	adj := HolmBonferroni(raw)
	for i := range cs {
		if math.IsNaN(adj[i]) {
			continue
		}
		cs[i].P = adj[i]
		cs[i].Adjusted = true
		cs[i].decide()
	}
}

// String formats the comparison as benchstat prints its delta column:
// "+12.34% (p=0.029 n=4)" when significant, "~ (p=0.343 n=4)" when not,
// "n=4+5" when the sample sizes differ. A significant change from a zero
// base median prints "?".
func (c Comparison) String() string {
	var delta string
	switch {
	case !c.Significant:
		delta = "~"
	case math.IsNaN(c.DeltaPct):
		delta = "?"
	case c.DeltaPct == 0:
		delta = "0.00%"
	default:
		delta = fmt.Sprintf("%+.2f%%", c.DeltaPct)
	}
	if math.IsNaN(c.P) {
		return fmt.Sprintf("%s (n=%s)", delta, formatN(c.Test.N1, c.Test.N2))
	}
	return fmt.Sprintf("%s (p=%.3f n=%s)", delta, c.P, formatN(c.Test.N1, c.Test.N2))
}

func formatN(n1, n2 int) string {
	if n1 == n2 {
		return strconv.Itoa(n1)
	}
	return strconv.Itoa(n1) + "+" + strconv.Itoa(n2)
}

func dropNaN(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	return out
}
