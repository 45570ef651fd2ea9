package stats

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat/distuv"
)

// A gate asks of one figure whether the candidate (vs) is worse than the
// baseline (base) by more than a limit: a regression fails a build only
// when the change is beyond the limit in the direction that is worse AND
// a one-sided test says the worsening is significant. The test is the
// sign test of the ratios within blocks where the two sides ran in the
// same blocks (trials), the Mann–Whitney U test otherwise; one-sided
// because the gate fires in one direction only, so that its false-alarm
// rate over A/A comparisons is alpha (a two-sided test at alpha would
// fire on a worsening at alpha/2 and lose power for nothing).

// GateVerdict is the outcome of a gated figure.
type GateVerdict string

const (
	// GatePass: the figure did not get worse beyond its limit, or the
	// worsening is not significant.
	GatePass GateVerdict = "pass"
	// GateRegression: worse beyond the limit, and significant.
	GateRegression GateVerdict = "regression"
	// GateTooFew: with the runs there are, no test can reach alpha.
	GateTooFew GateVerdict = "too-few-runs"
)

// GateMethod names the test behind a gated figure.
type GateMethod string

const (
	GatePaired GateMethod = "sign-test-within-trials"
	GateUTest  GateMethod = "mann-whitney-u"
)

// A GateCheck is one gated figure: the change of the candidate from the
// baseline, its interval, the one-sided p that it got worse and the
// verdict against the limit.
type GateCheck struct {
	Method GateMethod
	// LimitPct is the limit, signed as the direction that is worse:
	// -5 fails a fall of more than 5%, +10 a rise of more than 10%.
	LimitPct float64
	// N1 and N2 are the runs of each side (for the paired test, the
	// trials with both, N1 == N2).
	N1, N2 int
	// BaseMedian and VsMedian are the medians (type 7) of each side's
	// runs.
	BaseMedian, VsMedian float64
	// ChangePct is the change of the candidate in percent: of the median
	// ratio within trials (paired), else of the median of the ratios of
	// every vs run to every base run (Hodges–Lehmann), the estimate
	// whose interval RatioInterval gives.
	ChangePct float64
	// LowPct and HighPct bound the distribution-free interval of the
	// change (the ratio's, as a percentage), which covers it with
	// probability Coverage (NaN where there is none).
	LowPct, HighPct, Coverage float64
	// PRaw is the one-sided p of the test that the candidate is worse; P
	// is the value decided on (Holm-adjusted across a gate by
	// AdjustGate).
	PRaw, P float64
	// MinP is the smallest P the test could give with these runs (times
	// the rows adjusted together).
	MinP  float64
	Alpha float64
	// Worse is true where the change is beyond the limit in its
	// direction.
	Worse   bool
	Verdict GateVerdict
	// RunsNeeded is, for GateTooFew, the fewest runs a side (trials for
	// the paired test) with which the test could reach alpha.
	RunsNeeded int
	// m is the number of checks adjusted together.
	m int
}

// Gate checks one figure. base and vs are each side's runs; pairedBase
// and pairedVs, of equal length, the two sides' values in each block both
// ran in (one value a side per block; nil where they share fewer than
// two). limitPct is signed by the direction that is worse (see
// GateCheck.LimitPct) and fallIsWorse says that direction (a limit of
// 0 has no sign of its own: it fails any significant worsening). NaN
// values must not be passed.
func Gate(base, vs, pairedBase, pairedVs []float64, limitPct float64, fallIsWorse bool, alpha, confidence float64) GateCheck {
	if !(alpha > 0 && alpha < 1) {
		alpha = DefaultAlpha
	}
	if !(confidence > 0 && confidence < 1) {
		confidence = DefaultConfidence
	}
	g := GateCheck{LimitPct: limitPct, Alpha: alpha, m: 1,
		BaseMedian: Median(base), VsMedian: Median(vs),
		ChangePct: math.NaN(), LowPct: math.NaN(), HighPct: math.NaN(), Coverage: math.NaN(), PRaw: math.NaN()}
	if len(pairedBase) >= 2 && len(pairedBase) == len(pairedVs) {
		p := PairedRatios(pairedBase, pairedVs, confidence)
		if p.N >= 2 {
			g.Method, g.N1, g.N2 = GatePaired, p.N, p.N
			g.ChangePct = 100 * (p.Median - 1)
			g.LowPct, g.HighPct, g.Coverage = 100*(p.Low-1), 100*(p.High-1), p.Coverage
			g.PRaw = SignTestOneSided(p.Ratios, !fallIsWorse)
			g.P = g.PRaw
			g.decide(fallIsWorse)
			return g
		}
	}
	g.Method, g.N1, g.N2 = GateUTest, len(base), len(vs)
	if g.N1 == 0 || g.N2 == 0 {
		g.P, g.MinP, g.Verdict = math.NaN(), 1, GateTooFew
		g.RunsNeeded = g.runsNeeded()
		return g
	}
	est, lo, hi, cover := RatioInterval(base, vs, confidence)
	g.ChangePct, g.LowPct, g.HighPct, g.Coverage = 100*(est-1), 100*(lo-1), 100*(hi-1), cover
	// "vs is worse": vs greater when a rise is worse, so U of base small.
	g.PRaw = MannWhitneyUOneSided(base, vs, fallIsWorse).P
	g.P = g.PRaw
	g.decide(fallIsWorse)
	return g
}

// decide sets the smallest reachable p (times the m checks adjusted
// together) and the verdict on P.
func (g *GateCheck) decide(fallIsWorse bool) {
	g.MinP = math.Min(1, float64(g.m)*g.minRawP())
	switch {
	case fallIsWorse:
		g.Worse = g.ChangePct < g.LimitPct
	default:
		g.Worse = g.ChangePct > g.LimitPct
	}
	switch {
	case g.Worse && g.P <= g.Alpha:
		g.Verdict = GateRegression
	case g.MinP > g.Alpha:
		g.Verdict = GateTooFew
		g.RunsNeeded = g.runsNeeded()
	default:
		g.Verdict = GatePass
	}
}

// minRawP is the smallest one-sided p the check's test can give with its
// runs: 2^-n for the sign test over n trials, 1/C(n1+n2, n1) for the
// exact U test.
func (g *GateCheck) minRawP() float64 {
	if g.Method == GatePaired {
		return math.Pow(2, -float64(g.N1))
	}
	return MinUTestP(g.N1, g.N2) / 2
}

// runsNeeded is the fewest runs a side (trials, for the paired test)
// with which the smallest p, times the rows adjusted together, is at most
// alpha.
func (g *GateCheck) runsNeeded() int {
	for n := 2; n < 1000; n++ {
		p := MinUTestP(n, n) / 2
		if g.Method == GatePaired {
			p = math.Pow(2, -float64(n))
		}
		if float64(g.m)*p <= g.Alpha {
			return n
		}
	}
	return 1000
}

// AdjustGate adjusts the p-values of the checks of one gate together
// (HolmBonferroni), so that the gate as a whole fires on an A/A
// comparison with probability at most alpha, and decides them again.
// fallIsWorse[i] is the direction of check i.
func AdjustGate(cs []GateCheck, fallIsWorse []bool) {
	raw := make([]float64, len(cs))
	for i := range cs {
		raw[i] = cs[i].PRaw
	}
	adj := HolmBonferroni(raw)
	for i := range cs {
		cs[i].m = len(cs)
		cs[i].P = adj[i]
		cs[i].RunsNeeded = 0
		if math.IsNaN(adj[i]) {
			cs[i].P = math.NaN()
			cs[i].MinP, cs[i].Verdict = 1, GateTooFew
			cs[i].RunsNeeded = cs[i].runsNeeded()
			continue
		}
		cs[i].decide(fallIsWorse[i])
	}
}

// Adjusted is the number of checks whose p-values were adjusted together
// (1 when alone).
func (g GateCheck) Adjusted() int { return g.m }

// String says the check as a line of a report: "-7.20% [-9.10%, -5.00%]
// p=0.004 (mann-whitney-u, n=5+5)".
func (g GateCheck) String() string {
	return fmt.Sprintf("%s [%s, %s] p=%s (%s, n=%s)", pct(g.ChangePct), pct(g.LowPct), pct(g.HighPct), strconv.FormatFloat(g.P, 'g', 3, 64), g.Method, formatN(g.N1, g.N2))
}

func pct(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "?"
	}
	return fmt.Sprintf("%+.2f%%", v)
}

// MannWhitneyUOneSided is the one-sided Mann–Whitney U test of a against
// b: with greater, that a tends to be larger than b (p = P(U >= u)),
// else smaller (p = P(U <= u)). P is exact without ties below
// UTestExactLimit values a side, else from the normal approximation with
// tie correction and a continuity correction of 0.5, as R's
// wilcox.test(a, b, alternative = "greater"/"less") computes it.
func MannWhitneyUOneSided(a, b []float64, greater bool) UTest {
	t := MannWhitneyU(a, b)
	if math.IsNaN(t.U) {
		return t
	}
	mn := float64(t.N1) * float64(t.N2)
	if t.Exact {
		if greater {
			t.P = uCDF(t.N1, t.N2, int(mn-t.U))
		} else {
			t.P = uCDF(t.N1, t.N2, int(t.U))
		}
		return t
	}
	n := float64(t.N1 + t.N2)
	sigma := math.Sqrt(mn / 12 * ((n + 1) - tieTerm(a, b)/(n*(n-1))))
	if sigma == 0 {
		t.P = 1
		return t
	}
	d := t.U - mn/2
	if greater {
		t.P = distuv.UnitNormal.Survival((d - 0.5) / sigma)
	} else {
		t.P = distuv.UnitNormal.CDF((d + 0.5) / sigma)
	}
	return t
}

// tieTerm is Σ(t³ - t) over the groups of t tied values of a and b.
func tieTerm(a, b []float64) float64 {
	all := slices.Sorted(slices.Values(append(slices.Clone(a), b...)))
	s := 0.0
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j] == all[i] {
			j++
		}
		t := float64(j - i)
		s += t*t*t - t
		i = j
	}
	return s
}

// SignTestOneSided is the one-sided sign test of ratios against 1 (exact
// binomial): with above, that they tend to be above 1 (p = P(X >= k) for
// k ratios above 1 of the n off 1), else below. Ratios equal to 1 are
// left out; 1 when every ratio is.
func SignTestOneSided(ratios []float64, above bool) float64 {
	up, down := 0, 0
	for _, r := range ratios {
		switch {
		case r > 1:
			up++
		case r < 1:
			down++
		}
	}
	n := up + down
	if n == 0 {
		return 1
	}
	k := down
	if above {
		k = up
	}
	// P(X >= k) = 1 - P(X <= k-1)
	b := distuv.Binomial{N: float64(n), P: 0.5}
	return math.Min(1, math.Max(0, 1-b.CDF(float64(k-1))))
}

// RatioInterval is the Hodges–Lehmann estimate of the ratio vs / base of
// two samples (the median of the n1*n2 ratios vs[j] / base[i]) and its
// distribution-free interval (Bauer 1972, the interval R's wilcox.test(conf.int =
// TRUE) gives for a shift, here of the logarithms): of the n1*n2 ratios
// vs[j] / base[i], sorted, the k-th and the (n1*n2+1-k)-th, with k the
// largest such that P(U <= k-1) <= (1 - confidence) / 2 under the exact
// U distribution (its normal approximation from UTestExactLimit values a
// side), as R's qwilcox gives it. Its coverage is 1 - 2 P(U <= k-1).
// Where no k reaches the confidence asked, the interval is the smallest
// and largest ratio (k = 1), with their own coverage. Ratios need a positive base: values of base not
// above 0 give NaN.
func RatioInterval(base, vs []float64, confidence float64) (estimate, low, high, coverage float64) {
	n1, n2 := len(base), len(vs)
	if n1 == 0 || n2 == 0 || slices.ContainsFunc(base, func(v float64) bool { return !(v > 0) }) {
		return math.NaN(), math.NaN(), math.NaN(), math.NaN()
	}
	ratios := make([]float64, 0, n1*n2)
	for _, b := range base {
		for _, v := range vs {
			ratios = append(ratios, v/b)
		}
	}
	slices.Sort(ratios)
	mn := n1 * n2
	tail := (1 - confidence) / 2
	// k-1 is the largest u with P(U <= u) <= tail; k = 1 where there
	// is none (the smallest and largest ratio, with their own coverage).
	k, below := 1, 0.0 // below = P(U <= k-1)
	if n1 < UTestExactLimit && n2 < UTestExactLimit {
		dist := uDist(n1, n2, mn/2)
		below = dist[0]
		cum := 0.0
		for u := range dist {
			cum += dist[u]
			if cum > tail {
				break
			}
			k, below = u+1, cum
		}
	} else {
		sd := math.Sqrt(float64(mn) * float64(n1+n2+1) / 12)
		z := distuv.UnitNormal.Quantile(1 - tail)
		k = max(1, int(math.Floor(float64(mn)/2-z*sd)))
		below = distuv.UnitNormal.CDF((float64(k) - 0.5 - float64(mn)/2) / sd)
	}
	k = min(k, (mn+1)/2)
	return Quantile(ratios, 0.5), ratios[k-1], ratios[mn-k], 1 - 2*below
}
