package cost

import (
	"math"
	"time"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// The inputs of the cost model from a store, as wra cost and the cost
// table of wra analyze both take them: one rule, pure functions over the
// rows of the store's view cost_runs and the memory fits.

// MemoryFrom says what a stack's memory is priced from.
type MemoryFrom string

const (
	MemoryFromSlope      MemoryFrom = "pooled fit"          // base + slope of the line fitted to all passes of the server's memory series
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

// StackInput is one stack to price with what it was priced from.
type StackInput struct {
	Stack Stack
	// FixedRate is false where the stack had no fixed-rate pass and its
	// CPU per request comes from its runs at full speed.
	FixedRate bool
	TargetRPS float64 // the rate of its passes, NaN at full speed
	Passes    int
	// P50MS is the median p50 latency of its passes (NaN where none had
	// one): the time a request spends in the server, for Little's law.
	P50MS float64
	Runs  []model.CostRun
}

// Latency is P50MS as a duration, 0 where unknown.
func (s StackInput) Latency() time.Duration {
	if math.IsNaN(s.P50MS) {
		return 0
	}
	return time.Duration(math.Round(s.P50MS * float64(time.Millisecond)))
}

// StackInputs groups the rows of cost_runs (ordered by server, database,
// test and variant, as the store reads them) into stacks: CPU per request of the
// stack and of the database is the median (stats.Median) of the passes,
// in seconds. Memory is left to the caller (ChooseMemory).
func StackInputs(runs []model.CostRun) []StackInput {
	var out []StackInput
	for i, r := range runs {
		if i == 0 || r.Server != runs[i-1].Server || r.Database != runs[i-1].Database || r.Test != runs[i-1].Test || r.Variant != runs[i-1].Variant {
			out = append(out, StackInput{Stack: Stack{Server: r.Server, Database: r.Database, Test: r.Test, Variant: r.Variant},
				FixedRate: r.FixedRate, TargetRPS: r.TargetRPS})
		}
		cur := &out[len(out)-1]
		cur.Runs = append(cur.Runs, r)
	}
	for i := range out {
		s := &out[i]
		var cpu, db, p50 []float64
		for _, r := range s.Runs {
			cpu = append(cpu, r.StackUS)
			if !math.IsNaN(r.DBUS) {
				db = append(db, r.DBUS)
			}
			if !math.IsNaN(r.P50MS) {
				p50 = append(p50, r.P50MS)
			}
		}
		s.Passes = len(cpu)
		s.Stack.CPUPerRequestS = stats.Median(cpu) / 1e6
		if len(db) > 0 {
			s.Stack.DBCPUPerRequestS = stats.Median(db) / 1e6
		}
		s.P50MS = math.NaN()
		if len(p50) > 0 {
			s.P50MS = stats.Median(p50)
		}
	}
	return out
}
