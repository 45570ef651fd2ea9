// Package layout computes the figures of a table or chart laid out by the
// reader's keys: a cell's median and range over its rounds, a ladder
// cell's median run, the best of a column, the order of the rows and a
// line's median at each x. The packages that draw (report/projection,
// report/notebook, report/compare) group rows into cells and draw what
// this package computes; none of them computes a figure of its own.
//
// Every figure is stats' one definition (the median of type 7,
// stats.MedianLadder, stats.BestOf): this package decides which values a
// figure is of, not how it is computed.
package layout

import (
	"cmp"
	"math"
	"slices"

	"github.com/wra-bench/wra/stats"
)

// Figure is one metric of one cell: the median of its rounds, their
// range and their number. An empty cell's figures are NaN and N is 0.
type Figure struct {
	Median, Min, Max float64
	N                int
}

// FigureOf is the figure of a cell's values (NaN already left out).
func FigureOf(xs []float64) Figure {
	if len(xs) == 0 {
		return Figure{Median: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	}
	s := stats.Summarize(xs)
	return Figure{Median: s.Median, Min: s.Min, Max: s.Max, N: s.N}
}

// LadderRun is one ladder run of a cell and its round, where it has one.
type LadderRun struct {
	stats.LadderResult
	Round    float64
	HasRound bool
}

// LadderCell is the median ladder run of a cell (stats.MedianLadder, the
// rule of wra analyze's ladders section), its runs taken in round order
// (runs without a round keep their place).
func LadderCell(runs []LadderRun) stats.LadderSummary {
	runs = slices.Clone(runs)
	slices.SortStableFunc(runs, func(a, b LadderRun) int {
		if a.HasRound && b.HasRound && a.Round != b.Round {
			return cmp.Compare(a.Round, b.Round)
		}
		return 0
	})
	results := make([]stats.LadderResult, len(runs))
	for i, r := range runs {
		results[i] = r.LadderResult
	}
	return stats.MedianLadder(results)
}

// ColumnBest is the best of one column of a table: the rows marked best
// (in ascending order), whether every row with values is among them
// (then none is marked), whether the rule told rows apart by their ranges
// (too few rounds for the test), and whether a lower bound (a ladder that
// still held) joined them.
type ColumnBest struct {
	Index          []int
	All            bool
	ByRange        bool
	JoinedByBounds bool
}

// BestOfColumn is the best of a column whose rows have the values col
// (the rounds of each row; none for an empty cell), higher or lower being
// better, by rule (stats.BestOf). A row for which bound is true is a lower
// bound that no row can be shown to beat: it ties for best.
func BestOfColumn(col [][]float64, bound func(row int) bool, higher bool, rule stats.TieRule) ColumnBest {
	entries := make([]stats.Entry, len(col))
	for ri, xs := range col {
		entries[ri] = stats.Entry{Values: xs}
	}
	best := stats.BestOf(entries, higher, rule)
	out := ColumnBest{Index: best.Index, ByRange: best.ByRange}
	valued := 0
	for ri, xs := range col {
		if len(xs) == 0 {
			continue
		}
		valued++
		if bound(ri) && !slices.Contains(out.Index, ri) {
			out.Index = append(out.Index, ri)
			out.JoinedByBounds = true
		}
	}
	slices.Sort(out.Index)
	out.All = len(out.Index) == valued
	return out
}

// RowKeys are the figures rows are ordered by: the median of each row's
// values, for the rows that have any.
func RowKeys(rows [][]float64) map[int]float64 {
	key := map[int]float64{}
	for i, xs := range rows {
		if len(xs) > 0 {
			key[i] = stats.Median(xs)
		}
	}
	return key
}

// MediansByX are the distinct x of points in ascending order and the
// median y at each: a line drawn through the rounds of each x.
func MediansByX(points [][2]float64) (xs, ys []float64) {
	pts := slices.Clone(points)
	slices.SortStableFunc(pts, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	for i := 0; i < len(pts); {
		j := i
		var vals []float64
		for ; j < len(pts) && pts[j][0] == pts[i][0]; j++ {
			vals = append(vals, pts[j][1])
		}
		xs = append(xs, pts[i][0])
		ys = append(ys, stats.Median(vals))
		i = j
	}
	return xs, ys
}
