package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// DefaultTiePct is the relative difference, in percent, within which two
// single runs share a place in a ranking: 2%.
const DefaultTiePct = 2

// MinRoundsForTieTest is the number of rounds each of two neighbours
// needs before their tie is decided by the Mann–Whitney test rather than
// by the relative difference of their medians.
const MinRoundsForTieTest = 3

// A TieRule says when two neighbours of a ranking cannot be told apart.
//
// With MinRoundsForTieTest or more values each, they tie when the
// two-sided Mann–Whitney U test of their values is not significant: p >
// Alpha (see MannWhitneyU; significant is p <= Alpha, as in Compare).
// Otherwise they tie when their medians differ by no more than a
// percentage of the larger magnitude: the larger of TiePct and the drift
// percentage of either entry (Entry.DriftPct, the calibration drift that
// covers its runs).
type TieRule struct {
	Alpha  float64 // <= 0 or NaN means DefaultAlpha
	TiePct float64 // <= 0 or NaN means DefaultTiePct
}

func (r TieRule) alpha() float64 {
	if !(r.Alpha > 0) {
		return DefaultAlpha
	}
	return r.Alpha
}

func (r TieRule) tiePct() float64 {
	if !(r.TiePct > 0) {
		return DefaultTiePct
	}
	return r.TiePct
}

// String is the rule for a footnote.
func (r TieRule) String() string {
	return fmt.Sprintf("with %d or more rounds each, a two-sided Mann–Whitney U test not significant at alpha %s; otherwise medians within %s%% of the larger (or of the calibration drift covering the runs, when larger)",
		MinRoundsForTieTest, strconv.FormatFloat(r.alpha(), 'g', -1, 64), strconv.FormatFloat(r.tiePct(), 'g', -1, 64))
}

// An Entry is one competitor of a ranking: its values (one per round; a
// single run has one) and the calibration drift covering its runs, in
// percent (0 when none covers them).
type Entry struct {
	Values   []float64
	DriftPct float64
}

// A Place is an entry's place in a ranking.
type Place struct {
	Index  int     // the entry's index in the input
	Rank   int     // 1-based competition rank ("1, =2, =2, 4"); 0 for an entry without values
	Tied   bool    // shares its rank with a neighbour
	Median float64 // the median of its values, the figure it was ranked by
	// ByTest is true when the tie with the entry above was decided by the
	// Mann–Whitney test, P its p value (NaN otherwise).
	ByTest bool
	P      float64
	// Unreachable is true when the test decided with too few rounds ever
	// to reach Alpha (MinUTestP(n1, n2) > Alpha, 0.1 for 3 against 3):
	// the tie says "not enough rounds", not "equal".
	Unreachable bool
}

// RankTies ranks entries by the median of their values, highest first
// when higher is true, lowest first otherwise, and gives neighbours the
// same rank when the rule cannot tell them apart. A tie is decided
// between neighbours only, so a run of ties chains: A = B and B = C put
// A, B and C on one place although A and C might differ. Entries without
// values (NaN values are left out) come last with Rank 0. Equal medians
// keep the input order. The result is in ranked order.
func RankTies(entries []Entry, higher bool, rule TieRule) []Place {
	places := make([]Place, len(entries))
	vals := make([][]float64, len(entries))
	for i, e := range entries {
		vals[i] = dropNaN(e.Values)
		places[i] = Place{Index: i, Median: Median(vals[i]), P: math.NaN()}
	}
	slices.SortStableFunc(places, func(a, b Place) int {
		an, bn := math.IsNaN(a.Median), math.IsNaN(b.Median)
		switch {
		case an && bn:
			return 0
		case an:
			return 1
		case bn:
			return -1
		}
		if higher {
			return cmp.Compare(b.Median, a.Median)
		}
		return cmp.Compare(a.Median, b.Median)
	})
	for i := range places {
		p := &places[i]
		if math.IsNaN(p.Median) {
			continue
		}
		p.Rank = i + 1
		if i == 0 {
			continue
		}
		above := &places[i-1]
		a, b := entries[above.Index], entries[p.Index]
		var tied bool
		if len(vals[above.Index]) >= MinRoundsForTieTest && len(vals[p.Index]) >= MinRoundsForTieTest {
			u := MannWhitneyU(vals[above.Index], vals[p.Index])
			p.ByTest, p.P = true, u.P
			p.Unreachable = MinUTestP(u.N1, u.N2) > rule.alpha()
			tied = !(u.P <= rule.alpha())
		} else {
			limit := max(rule.tiePct(), a.DriftPct, b.DriftPct)
			tied = DiffPct(above.Median, p.Median) <= limit
		}
		if tied {
			p.Rank, p.Tied, above.Tied = above.Rank, true, true
		}
	}
	return places
}

// DiffPct is |a - b| as a percentage of the larger of |a| and |b|; 0 when
// both are 0.
func DiffPct(a, b float64) float64 {
	m := math.Max(math.Abs(a), math.Abs(b))
	if m == 0 {
		return 0
	}
	return 100 * math.Abs(a-b) / m
}
