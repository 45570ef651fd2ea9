package compare

import (
	"strings"
	"testing"

	"github.com/wra-bench/wra/stats"
)

// TestRunsNeeded: the exact U test's smallest two-sided p is
// 2 / C(2n, n): 0.1 at 3 a side, 0.0286 at 4 (R: 2/choose(8, 4)), so one
// row needs 4 runs a side at alpha 0.05; under Holm across 50 rows the
// smallest p is 50 times that: 50 * 2/choose(12, 6) = 0.108 at 6,
// 50 * 2/choose(14, 7) = 0.029 at 7.
func TestRunsNeeded(t *testing.T) {
	for _, tc := range []struct {
		m     int
		alpha float64
		want  int
	}{{1, 0.05, 4}, {1, 0.1, 3}, {50, 0.05, 7}, {4, 0.05, 5}} {
		if got := runsNeeded(tc.m, tc.alpha); got != tc.want {
			t.Errorf("runsNeeded(%d, %v) = %d, want %d", tc.m, tc.alpha, got, tc.want)
		}
	}
}

// TestReachNote: with 3 runs a side and no Holm, no row can reach 0.05,
// and the one line says so and names 4 runs; at alpha 0.1 a row can, and
// no such line is written.
func TestReachNote(t *testing.T) {
	base, vs := []float64{1, 2, 3}, []float64{4, 5, 6}
	rows := []row{{Metric: "rps", Cmp: stats.CompareAt(base, vs, 0.05, 0.95)}}
	r := reachOf(rows, Options{Alpha: 0.05, Confidence: 0.95})
	notes := r.notes(Options{Alpha: 0.05, Confidence: 0.95})
	if r.any || len(notes) != 2 || !strings.Contains(notes[1], "smallest possible p is 0.1; that takes at least 4 runs a side") {
		t.Errorf("alpha 0.05: any=%v notes %q", r.any, notes)
	}
	rows[0].Cmp = stats.CompareAt(base, vs, 0.1, 0.95)
	r = reachOf(rows, Options{Alpha: 0.1, Confidence: 0.95})
	if !r.any || len(r.notes(Options{Alpha: 0.1, Confidence: 0.95})) != 1 {
		t.Errorf("alpha 0.1: any=%v", r.any)
	}
	if got := deltaCell(rows[0].Cmp, true); got != "+150.00% (p=0.100 n=3)" {
		t.Errorf("significant delta cell %q", got)
	}
	if got := deltaCell(stats.CompareAt(base, []float64{1, 2, 3.001}, 0.1, 0.95), true); got != "0.00% ~ (p=1.000 n=3)" {
		t.Errorf("no change: %q", got)
	}
}

// TestHumanSummary: a median has its interval's half-width where it has
// an interval, "(n=3: no interval)" where another median of the table
// has one, and stands alone where none has.
func TestHumanSummary(t *testing.T) {
	six := stats.SummarizeAt([]float64{100, 101, 102, 103, 104, 105}, 0.95)
	three := stats.SummarizeAt([]float64{10, 20, 30}, 0.95)
	for _, tc := range []struct {
		s     stats.Summary
		anyCI bool
		want  string
	}{{six, true, "102 ± 2%"}, {three, true, "20.0 (n=3: no interval)"}, {three, false, "20.0"}} {
		if got := humanSummary(tc.s, tc.anyCI); got != tc.want {
			t.Errorf("humanSummary(n=%d, %v) = %q, want %q", tc.s.N, tc.anyCI, got, tc.want)
		}
	}
}
