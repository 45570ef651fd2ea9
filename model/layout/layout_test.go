package layout

import (
	"math"
	"slices"
	"testing"

	"github.com/wra-bench/wra/stats"
)

func TestFigureOf(t *testing.T) {
	f := FigureOf([]float64{30, 10, 20, 40})
	if f.Median != 25 || f.Min != 10 || f.Max != 40 || f.N != 4 {
		t.Errorf("FigureOf(30, 10, 20, 40) = %+v, want median 25 (type 7), 10–40, 4", f)
	}
	if e := FigureOf(nil); !math.IsNaN(e.Median) || !math.IsNaN(e.Min) || !math.IsNaN(e.Max) || e.N != 0 {
		t.Errorf("FigureOf() = %+v, want NaN and 0", e)
	}
}

func TestLadderCellTakesRoundOrder(t *testing.T) {
	run := func(round, held float64) LadderRun {
		return LadderRun{Round: round, HasRound: true, LadderResult: stats.LadderResult{HighestHeldRPS: held, HighestHeldAchievedRPS: held - 3, StepRPS: 100}}
	}
	got := LadderCell([]LadderRun{run(3, 700), run(1, 500), run(2, 900)})
	if got.MedianHeldRPS != 700 || len(got.Runs) != 3 {
		t.Fatalf("LadderCell = %+v, want median 700 of 3 runs", got)
	}
	var order []float64
	for _, r := range got.Runs {
		order = append(order, r.HighestHeldRPS)
	}
	if !slices.Equal(order, []float64{500, 900, 700}) {
		t.Errorf("runs in order %v, want round order 500, 900, 700", order)
	}
}

func TestBestOfColumn(t *testing.T) {
	col := [][]float64{
		{100, 101, 99, 100, 102},
		{200, 201, 199, 200, 202},
		{},
		{150, 151, 149, 150, 152},
	}
	none := func(int) bool { return false }
	if b := BestOfColumn(col, none, true, stats.TieRule{}); !slices.Equal(b.Index, []int{1}) || b.All || b.JoinedByBounds {
		t.Errorf("highest best = %+v, want row 1 alone", b)
	}
	if b := BestOfColumn(col, none, false, stats.TieRule{}); !slices.Equal(b.Index, []int{0}) {
		t.Errorf("lowest best = %+v, want row 0", b)
	}
	// a lower bound (a ladder still holding) ties for best
	b := BestOfColumn(col, func(r int) bool { return r == 3 }, true, stats.TieRule{})
	if !slices.Equal(b.Index, []int{1, 3}) || !b.JoinedByBounds || b.All {
		t.Errorf("with row 3 a bound = %+v, want rows 1 and 3, joined by the bound", b)
	}
	// the empty row is never best, and All counts the rows with values
	b = BestOfColumn(col, func(r int) bool { return r != 1 }, true, stats.TieRule{})
	if !b.All {
		t.Errorf("every valued row best = %+v, want All", b)
	}
}

func TestRowKeysAndMediansByX(t *testing.T) {
	k := RowKeys([][]float64{{1, 3}, nil, {5}})
	if len(k) != 2 || k[0] != 2 || k[2] != 5 {
		t.Errorf("RowKeys = %v, want {0: 2, 2: 5}", k)
	}
	xs, ys := MediansByX([][2]float64{{2, 10}, {1, 5}, {2, 30}, {1, 7}, {2, 20}})
	if !slices.Equal(xs, []float64{1, 2}) || !slices.Equal(ys, []float64{6, 20}) {
		t.Errorf("MediansByX = %v %v, want [1 2] [6 20]", xs, ys)
	}
}
