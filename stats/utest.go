package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// UTestExactLimit is the sample size below which the exact distribution of
// U is used (when there are no ties): both samples must have fewer than 50
// values, the rule of R's wilcox.test.
const UTestExactLimit = 50

// A UTest is the result of a two-sided Mann–Whitney U test (the Wilcoxon
// rank-sum test) of the null hypothesis that two samples come from the same
// distribution.
type UTest struct {
	// U is the statistic of the first sample: the number of pairs (a_i,
	// b_j) with a_i > b_j plus half the number of ties, equal to R's W
	// from wilcox.test(a, b) and SciPy's U1 from mannwhitneyu(a, b).
	U float64
	// P is the two-sided p-value; NaN when a sample is empty.
	P float64
	// Exact is true when P comes from the exact distribution of U
	// (no ties and both samples smaller than UTestExactLimit); otherwise P
	// comes from the normal approximation with tie and continuity
	// correction.
	Exact  bool
	N1, N2 int
}

// MannWhitneyU performs a two-sided Mann–Whitney U test of a against b.
//
// Without ties and with both samples smaller than UTestExactLimit, P is
// exact: twice the smaller tail of the distribution of U (Mann and Whitney
// 1947 recurrence), capped at 1, as R's wilcox.test(a, b, exact = TRUE)
// computes it. Otherwise P comes from the normal approximation
//
//	z = (U - n1*n2/2 - sign(U - n1*n2/2) * 0.5) / sigma
//	sigma² = n1*n2/12 * ((n+1) - Σ(t³ - t) / (n(n-1)))
//
// with the tie correction Σ(t³ - t) over groups of t tied values and a
// continuity correction of 0.5 towards the mean, P = 2 * min(Φ(z), 1 - Φ(z)),
// equal to R's wilcox.test(a, b, exact = FALSE, correct = TRUE) and SciPy's
// mannwhitneyu(a, b, method = "asymptotic", use_continuity = True). When
// every value of both samples is equal the test has no information and P
// is 1. NaN values must not be passed.
func MannWhitneyU(a, b []float64) UTest {
	n1, n2 := len(a), len(b)
	res := UTest{N1: n1, N2: n2, P: math.NaN(), U: math.NaN()}
	if n1 == 0 || n2 == 0 {
		return res
	}
	type obs struct {
		v     float64
		first bool
	}
	all := make([]obs, 0, n1+n2)
	for _, v := range a {
		all = append(all, obs{v, true})
	}
	for _, v := range b {
		all = append(all, obs{v, false})
	}
	slices.SortStableFunc(all, func(x, y obs) int {
		switch {
		case x.v < y.v:
			return -1
		case x.v > y.v:
			return 1
		}
		return 0
	})
	// Rank sum of a with mid-ranks for ties, and the tie term Σ(t³ - t).
	r1, tieTerm, ties := 0.0, 0.0, false
	for i := 0; i < len(all); {
		j := i
		inA := 0
		for j < len(all) && all[j].v == all[i].v {
			if all[j].first {
				inA++
			}
			j++
		}
		t := float64(j - i)
		midRank := float64(i+1+j) / 2 // ranks i+1 .. j
		r1 += midRank * float64(inA)
		if j-i > 1 {
			ties = true
			tieTerm += t*t*t - t
		}
		i = j
	}
	u := r1 - float64(n1*(n1+1))/2
	res.U = u
	mn := float64(n1) * float64(n2)

	if !ties && n1 < UTestExactLimit && n2 < UTestExactLimit {
		res.Exact = true
		// Two-sided: double the tail on U's side of the centre, as R does.
		var p float64
		if u > mn/2 {
			p = uCDF(n1, n2, int(mn-u)) // P(U >= u) = P(U <= mn-u) by symmetry
		} else {
			p = uCDF(n1, n2, int(u))
		}
		res.P = math.Min(1, 2*p)
		return res
	}
	n := float64(n1 + n2)
	sigma := math.Sqrt(mn / 12 * ((n + 1) - tieTerm/(n*(n-1))))
	if sigma == 0 {
		res.P = 1
		return res
	}
	d := u - mn/2
	corr := 0.0
	switch {
	case d > 0:
		corr = 0.5
	case d < 0:
		corr = -0.5
	}
	z := (d - corr) / sigma
	std := distuv.UnitNormal
	res.P = math.Min(1, 2*math.Min(std.CDF(z), std.Survival(z)))
	return res
}

// uCDF returns P(U <= k) for samples of sizes n1 and n2 without ties (see
// uDist).
func uCDF(n1, n2, k int) float64 {
	if k < 0 {
		return 0
	}
	if k >= n1*n2 {
		return 1
	}
	p := 0.0
	for _, v := range uDist(n1, n2, k) {
		p += v
	}
	return p
}

// uDist returns P(U = u) for u = 0 … k, for samples of sizes n1 and n2
// without ties, using the recurrence of Mann and Whitney (1947): of the
// n1+n2 ranked values the largest belongs to the first sample with
// probability n1/(n1+n2), and then it exceeds all n2 values of the
// second, so
//
//	p(n1, n2, u) = n1/(n1+n2) p(n1-1, n2, u-n2) + n2/(n1+n2) p(n1, n2-1, u)
//
// with p(0, m, u) = p(m, 0, u) = [u = 0]. Only u <= k is tabulated.
func uDist(n1, n2, k int) []float64 {
	// prev[j][u] = p(i-1, j, u), cur[j][u] = p(i, j, u).
	prev := make([][]float64, n2+1)
	cur := make([][]float64, n2+1)
	for j := range prev {
		prev[j] = make([]float64, k+1)
		cur[j] = make([]float64, k+1)
		prev[j][0] = 1 // p(0, j, 0) = 1
	}
	for i := 1; i <= n1; i++ {
		clear(cur[0])
		cur[0][0] = 1 // p(i, 0, 0) = 1
		for j := 1; j <= n2; j++ {
			wi := float64(i) / float64(i+j)
			wj := float64(j) / float64(i+j)
			for u := 0; u <= k; u++ {
				v := wj * cur[j-1][u]
				if u >= j {
					v += wi * prev[j][u-j]
				}
				cur[j][u] = v
			}
		}
		prev, cur = cur, prev
	}
	return prev[n2]
}
