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

// A TieRule says when two entries of a ranking cannot be told apart.
//
// With MinRoundsForTieTest or more values each, and enough of them that
// the two-sided Mann–Whitney U test can reach Alpha (MinUTestP(n1, n2)
// <= Alpha: 4 against 4 at 0.05), they tie when the test is not
// significant: p > Alpha (see MannWhitneyU; significant is p <= Alpha,
// as in Compare). With two or more values each but too few for the test
// (3 against 3, whose smallest p is 0.1), they tie when the ranges of
// their values (min to max) overlap: rounds wholly apart are the
// strongest difference so few rounds can show. Otherwise (a single run)
// they tie when their medians differ by no more than a percentage of the
// larger magnitude: the larger of TiePct and the drift percentage of
// either entry (Entry.DriftPct, the calibration drift that covers its
// runs).
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
	return fmt.Sprintf("a two-sided Mann–Whitney U test not significant at alpha %s where the rounds are enough for it to reach alpha (4 against 4 at 0.05); with fewer, ranges of rounds that overlap; for single runs, medians within %s%% of the larger (or of the calibration drift covering the runs, when larger)",
		strconv.FormatFloat(r.alpha(), 'g', -1, 64), strconv.FormatFloat(r.tiePct(), 'g', -1, 64))
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
	// ByTest is true when the comparison with the first entry of its
	// place (or of the place above) was decided by the Mann–Whitney test,
	// P its p value (NaN otherwise).
	ByTest bool
	P      float64
	// ByRange is true when it was decided by the ranges of the rounds:
	// there were rounds, too few for the test ever to reach Alpha
	// (Unreachable: MinUTestP(n1, n2) > Alpha, 0.1 for 3 against 3).
	ByRange     bool
	Unreachable bool
}

// RankTies ranks entries by the median of their values, highest first
// when higher is true, lowest first otherwise, and gives an entry the
// place of the entries above it when the rule cannot tell it apart from
// the first of them: ties do not chain, so 100, 98.5 and 97 under a 2%
// rule are 1, =1 and 3 (97 is 3% from 100), however close each is to
// its neighbour. Entries without values (NaN values are left out) come
// last with Rank 0. Equal medians keep the input order. The result is in
// ranked order.
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
	head := 0 // the first entry of the current place
	for i := range places {
		p := &places[i]
		if math.IsNaN(p.Median) {
			continue
		}
		p.Rank = i + 1
		if i == 0 {
			continue
		}
		first := &places[head]
		if rule.tied(entries[first.Index], entries[p.Index], vals[first.Index], vals[p.Index], first.Median, p.Median, p) {
			p.Rank, p.Tied, first.Tied = first.Rank, true, true
			continue
		}
		head = i
	}
	return places
}

// tied decides whether b cannot be told apart from a, recording how in p.
func (r TieRule) tied(a, b Entry, va, vb []float64, ma, mb float64, p *Place) bool {
	n1, n2 := len(va), len(vb)
	switch {
	case n1 >= MinRoundsForTieTest && n2 >= MinRoundsForTieTest && MinUTestP(n1, n2) <= r.alpha():
		u := MannWhitneyU(va, vb)
		p.ByTest, p.P = true, u.P
		return !(u.P <= r.alpha())
	case n1 >= 2 && n2 >= 2:
		p.ByRange, p.Unreachable = true, true
		return !(slices.Max(va) < slices.Min(vb) || slices.Max(vb) < slices.Min(va))
	}
	limit := max(r.tiePct(), a.DriftPct, b.DriftPct)
	return DiffPct(ma, mb) <= limit
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

// Best is the outcome of looking for the best of some entries: the
// entries (indexes into the input) that share the first place of
// RankTies, and whether that place holds every entry with values, so
// that none is best. ByRange is true when some comparison was decided by
// the ranges of the rounds (too few rounds for the test).
type Best struct {
	Index   []int
	All     bool
	ByRange bool
}

// BestOf ranks entries as RankTies does and returns the first place.
func BestOf(entries []Entry, higher bool, rule TieRule) Best {
	var b Best
	valued := 0
	for _, p := range RankTies(entries, higher, rule) {
		if p.Rank == 1 {
			b.Index = append(b.Index, p.Index)
		}
		if p.Rank > 0 {
			valued++
		}
		b.ByRange = b.ByRange || p.ByRange
	}
	b.All = len(b.Index) == valued
	return b
}
