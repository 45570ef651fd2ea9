package cost

import (
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// The inputs of the cost model from a store, as wra cost and the cost
// table of wra analyze both take them: one rule, pure functions over the
// rows of the store's table macro cost_groups and the memory fits.

// MemoryFrom says what a stack's memory is priced from.
type MemoryFrom string

const (
	MemoryFromSlope      MemoryFrom = "pooled fit"          // base + slope of the line fitted to all passes of the memory series of the server on its database (or of the server alone)
	MemoryFromWorkingSet MemoryFrom = "highest working set" // fixed, the highest working set over its runs
	MemoryFromNone       MemoryFrom = "none"                // no memory figures: priced at 0
)

// MemoryFit is the fit of a memory series as the store's view
// memory_slopes gives it (row: one pass, or all passes pooled), with what
// stats.CheckMemoryFit says of it from the series' points (those of row's
// pass, or all the server's points for the pooled row): the one form in
// which wra analyze and wra cost take a memory slope.
func MemoryFit(row model.MemorySlope, points []model.MemorySeriesPoint) stats.MemoryFit {
	pts := make([]stats.MemoryPoint, len(points))
	for i, p := range points {
		pts[i] = stats.MemoryPoint{Concurrency: p.Concurrency, MemoryMB: p.MemoryMB}
	}
	return stats.CheckMemoryFit(stats.MemoryFit{SlopeGiBPer1000: row.SlopeGiBPer1000, SlopeSEGiBPer1000: row.SlopeSEGiBPer1000,
		InterceptGiB: row.InterceptGiB, R2: row.R2, TheilSenGiBPer1000: row.TheilSenGiBPer1000,
		TheilSenInterceptGiB: row.TheilSenInterceptGiB, Points: int(row.Points)}, pts)
}

// ChooseMemory is the memory of a server for the model: the line fitted
// to its memory series, all passes pooled (memory_slopes, MemoryFit), where the
// fit exists and neither its base nor its slope is negative; else its
// highest working set (MiB, NaN when none was recorded), fixed; else none.
func ChooseMemory(fit stats.MemoryFit, hasFit bool, peakWorkingSetMB float64) (Memory, MemoryFrom) {
	if hasFit && fit.SlopeGiBPer1000 >= 0 && fit.InterceptGiB >= 0 {
		return LinearMemory(fit.InterceptGiB, fit.SlopeGiBPer1000), MemoryFromSlope
	}
	if peakWorkingSetMB >= 0 {
		return FixedMemory(peakWorkingSetMB / 1024), MemoryFromWorkingSet
	}
	return Memory{}, MemoryFromNone
}
