package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// A TrendTest is the result of a one-sided Jonckheere–Terpstra test of
// the null hypothesis that ordered groups of values come from the same
// distribution, against the alternative that the values fall from each
// group to the next.
type TrendTest struct {
	// J counts the pairs (x, y) of values with x in an earlier group and y
	// in a later one where y < x, ties counting one half.
	J float64
	// P is the one-sided p-value P(J >= observed) under the null; NaN with
	// fewer than two non-empty groups.
	P float64
	// Exact is true when P comes from the exact distribution of J (no
	// ties and fewer than UTestExactLimit values in all).
	Exact bool
	N     int
}

// DecreasingTrend tests whether the values fall along the order of the
// groups (Jonckheere 1954, Terpstra 1952): J is the sum over pairs of
// groups i < j of the Mann–Whitney count of values of group j below values
// of group i. Under the null J is a sum of independent Mann–Whitney
// statistics, group m against all the groups before it, so without ties
// and with fewer than UTestExactLimit values the exact distribution is the
// convolution of their exact distributions (see uDist); this equals R's
// clinfun::jonckheere.test(x, g, alternative = "decreasing") with exact
// probabilities. Otherwise P comes from the normal approximation
//
//	mean = (N² - Σ n_i²) / 4
//	var  = (N²(2N+3) - Σ n_i²(2n_i+3)) / 72
//
// with a continuity correction of 0.5; with ties this variance, which
// leaves out the tie correction, is larger than the true one, so the
// p-value errs on the side of no trend. NaN values are left out; empty
// groups are skipped.
func DecreasingTrend(groups [][]float64) TrendTest {
	var gs [][]float64
	for _, g := range groups {
		if g = dropNaN(g); len(g) > 0 {
			gs = append(gs, g)
		}
	}
	res := TrendTest{J: math.NaN(), P: math.NaN()}
	for _, g := range gs {
		res.N += len(g)
	}
	if len(gs) < 2 {
		return res
	}
	j, ties := 0.0, false
	for a := range gs {
		for b := a + 1; b < len(gs); b++ {
			for _, x := range gs[a] {
				for _, y := range gs[b] {
					switch {
					case y < x:
						j++
					case y == x:
						j += 0.5
						ties = true
					}
				}
			}
		}
	}
	res.J = j
	if !ties && res.N < UTestExactLimit {
		res.Exact = true
		dist := []float64{1}
		before := 0
		for _, g := range gs {
			if before > 0 {
				dist = convolve(dist, uDist(before, len(g), before*len(g)))
			}
			before += len(g)
		}
		p := 0.0
		for k := int(j); k < len(dist); k++ {
			p += dist[k]
		}
		res.P = math.Min(1, p)
		return res
	}
	n := float64(res.N)
	sum2, sum3 := 0.0, 0.0
	for _, g := range gs {
		m := float64(len(g))
		sum2 += m * m
		sum3 += m * m * (2*m + 3)
	}
	mean := (n*n - sum2) / 4
	sd := math.Sqrt((n*n*(2*n+3) - sum3) / 72)
	if sd == 0 {
		res.P = 1
		return res
	}
	z := (j - mean - 0.5) / sd
	res.P = distuv.UnitNormal.Survival(z)
	return res
}

// convolve returns the distribution of the sum of two independent
// counts with distributions a and b.
func convolve(a, b []float64) []float64 {
	out := make([]float64, len(a)+len(b)-1)
	for i, x := range a {
		for k, y := range b {
			out[i+k] += x * y
		}
	}
	return out
}
