package stats

import (
	"math"
	"testing"
)

type placeWant struct {
	index int
	rank  int
	tied  bool
}

func checkPlaces(t *testing.T, got []Place, want []placeWant) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d places, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Index != w.index || g.Rank != w.rank || g.Tied != w.tied {
			t.Errorf("place %d: got index %d rank %d tied %v, want index %d rank %d tied %v",
				i, g.Index, g.Rank, g.Tied, w.index, w.rank, w.tied)
		}
	}
}

func singles(xs ...float64) []Entry {
	out := make([]Entry, len(xs))
	for i, x := range xs {
		out[i] = Entry{Values: []float64{x}}
	}
	return out
}

// Single runs of eight servers at full speed (ab -n 1000000 -c 2000), in
// the pattern of a published comparison: two servers 232 req/s apart at
// 16,600 req/s (1.4%) are called tied, two 0.03% apart are tied, the next
// one 7% below is not. 15679.63 is ab's "Requests per second" of one of
// its reports; the others are placed at the gaps the comparison printed.
func TestRankTiesSingleRuns(t *testing.T) {
	rps := []float64{
		15679.63, // 0
		16600.40, // 1: first
		14582.06, // 2: 7.0% below 0
		16368.40, // 3: 232 below 1, 1.40%
		15684.33, // 4: 4.7 above 0, 0.03%; 4.18% below 3
		9120.00,  // 5
		12011.50, // 6
		4977.25,  // 7
	}
	if d := DiffPct(16600.40, 16368.40); math.Abs(d-1.3976) > 1e-4 {
		t.Fatalf("DiffPct = %v", d)
	}
	got := RankTies(singles(rps...), true, TieRule{})
	checkPlaces(t, got, []placeWant{
		{1, 1, true}, {3, 1, true}, // 1.4% apart: tied
		{4, 3, true}, {0, 3, true}, // 0.03% apart: tied
		{2, 5, false}, // 7% below: not tied
		{6, 6, false}, {5, 7, false}, {7, 8, false},
	})
	// A narrower rule splits the 1.4% pair but keeps the 0.03% pair.
	got = RankTies(singles(rps...), true, TieRule{TiePct: 1})
	if got[1].Rank != 2 || got[1].Tied || got[3].Rank != 3 || !got[3].Tied {
		t.Errorf("--tie 1: %+v", got[:4])
	}
	// Calibration drift covering a run widens its tie to the drift.
	e := singles(rps...)
	e[2].DriftPct = 7.5
	got = RankTies(e, true, TieRule{})
	if got[4].Index != 2 || got[4].Rank != 3 || !got[4].Tied {
		t.Errorf("drift 7.5%%: %+v", got[4])
	}
}

func TestRankTiesLowerFirst(t *testing.T) {
	got := RankTies(singles(12.0, 10.0, 10.1, math.NaN()), false, TieRule{})
	checkPlaces(t, got, []placeWant{{1, 1, true}, {2, 1, true}, {0, 3, false}, {3, 0, false}})
}

// Where the rounds are enough the Mann–Whitney test decides; three rounds
// against three can never reach p <= 0.05 (the smallest p is 0.1), so
// their ranges decide: wholly apart, they are told apart; four against
// four fully apart give p = 2/70 = 0.0286.
func TestRankTiesRounds(t *testing.T) {
	three := []Entry{{Values: []float64{100, 101, 102}}, {Values: []float64{110, 111, 112}}}
	got := RankTies(three, true, TieRule{})
	checkPlaces(t, got, []placeWant{{1, 1, false}, {0, 2, false}})
	if got[1].ByTest || !got[1].ByRange || !got[1].Unreachable {
		t.Errorf("3 vs 3: %+v, want decided by the ranges, the test out of reach", got[1])
	}
	// Three against three whose ranges overlap tie, however far apart the
	// medians (10%).
	overlap := []Entry{{Values: []float64{100, 101, 112}}, {Values: []float64{110, 111, 112}}}
	got = RankTies(overlap, true, TieRule{})
	checkPlaces(t, got, []placeWant{{1, 1, true}, {0, 1, true}})
	// 10% apart would not tie as single runs; the test is what decides.
	four := []Entry{{Values: []float64{100, 101, 102, 103}}, {Values: []float64{110, 111, 112, 113}}}
	got = RankTies(four, true, TieRule{})
	checkPlaces(t, got, []placeWant{{1, 1, false}, {0, 2, false}})
	if math.Abs(got[1].P-2.0/70) > 1e-12 || got[1].Unreachable {
		t.Errorf("4 vs 4: p %v, want %v", got[1].P, 2.0/70)
	}
	// At alpha 0.01 the test cannot reach alpha with four against four
	// (0.0286): the ranges, wholly apart, tell them apart.
	got = RankTies(four, true, TieRule{Alpha: 0.01})
	checkPlaces(t, got, []placeWant{{1, 1, false}, {0, 2, false}})
	if !got[1].ByRange {
		t.Errorf("4 vs 4 at alpha 0.01: %+v", got[1])
	}
	// Four against four overlapping: the test is not significant.
	got = RankTies([]Entry{{Values: []float64{100, 112, 102, 103}}, {Values: []float64{110, 111, 101, 113}}}, true, TieRule{})
	checkPlaces(t, got, []placeWant{{1, 1, true}, {0, 1, true}})
	// Overlapping rounds 1% apart in the median, but clearly the same.
	mixed := []Entry{{Values: []float64{100, 130, 90, 120}}, {Values: []float64{101, 95, 125, 110}}}
	got = RankTies(mixed, true, TieRule{TiePct: 0.1})
	if !got[1].Tied {
		t.Errorf("overlapping rounds: %+v", got)
	}
	// Three rounds against one run: the medians are compared.
	one := []Entry{{Values: []float64{100, 101, 102}}, {Values: []float64{103}}}
	got = RankTies(one, true, TieRule{})
	if got[1].ByTest || !got[1].Tied {
		t.Errorf("3 vs 1 within 2%%: %+v", got[1])
	}
}

// Ties do not chain: 100, 98.5, 97 (each 1.5% below the one above, 3%
// from first to last) are 1, =1, 3: 97 is compared with 100, the first of
// the place, not with 98.5. 96.5 then shares 97's place (0.5%).
func TestRankTiesNoChain(t *testing.T) {
	got := RankTies(singles(97, 100, 98.5, 90, 96.5), true, TieRule{})
	checkPlaces(t, got, []placeWant{{1, 1, true}, {2, 1, true}, {0, 3, true}, {4, 3, true}, {3, 5, false}})
	// The published case: 22k requests/s never ties with 127k through
	// the rows between them, each within 2% of its neighbour.
	var rps []float64
	for x := 127000.0; x > 22000; x *= 0.985 {
		rps = append(rps, x)
	}
	got = RankTies(singles(rps...), true, TieRule{})
	for _, p := range got {
		if p.Rank == 1 && rps[p.Index] < 127000*0.98 {
			t.Errorf("%v requests/s shares the first place with 127,000", rps[p.Index])
		}
	}
}
