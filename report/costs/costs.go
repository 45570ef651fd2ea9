// Package costs lays out what wra cost prints: the monthly cost of each
// stack at a load (the table the cost section of wra analyze prints
// too), a sweep of loads with its plot, the highest load each stack
// serves within a budget, and the price presets, each table with the
// notes that say what its figures are and where the prices come from.
// The figures come from package cost, the order of the monthly table
// from package analysis; this package formats them.
package costs

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model/analysis"
	"github.com/wra-bench/wra/report"
)

// Job is a stack and the workload it is priced under (cost.Job).
type Job = cost.Job

// StackName names a stack in a legend (cost.StackName).
func StackName(s cost.Stack) string { return cost.StackName(s) }

// heldCell is a job's held column: NULL where unknown.
func heldCell(j Job) any {
	if j.Held == nil {
		return nil
	}
	return *j.Held
}

// HasDatabase reports whether a stack has a database to price.
func HasDatabase(s cost.Stack) bool {
	return s.Database != "" || s.DBCPUPerRequestS != 0 || s.DBMemoryGiB != 0
}

// estimate is a job priced.
type estimate struct {
	cost.Estimate
	held       any    // the job's held: true, false or NULL
	memoryFrom string // what its memory is priced from, "" where given
}

// Monthly is the one table of what stacks cost a month, wra cost's and
// the cost section of wra analyze's: the stacks of sec in its order (the
// ones that held the rate first, cheapest first), with their notes.
func Monthly(sec analysis.CostSection) *report.Data {
	var es []estimate
	for _, r := range sec.Rows {
		es = append(es, estimate{r.Estimate, heldCell(r.Job), string(r.Job.MemoryFrom)})
	}
	d := estimatesTable(es)
	// From a store, each row cites the runs its figures come from.
	if slices.ContainsFunc(sec.Rows, func(r analysis.CostRow) bool { return len(r.Job.Sources) > 0 }) {
		for _, r := range sec.Rows {
			d.RowSources = append(d.RowSources, r.Job.Sources)
		}
	}
	d.Title = fmt.Sprintf("Cost per month at %s requests/s, %s, %g%% target utilisation (USD)", report.Sig3(sec.RPS), sec.Price.Name, sec.Util*100)
	d.Notes = sec.Notes
	return d
}

// JobsAt gives the jobs to price at a rate: from a store, cost.Build at
// that rate, whose figures and held depend on it.
type JobsAt func(rps float64) ([]Job, error)

// Sweep prices the jobs at each rate, each job's figures chosen at that
// rate: the table, stack after stack, and the chart of cost against rate,
// one line per stack.
func Sweep(at JobsAt, p cost.Price, rates []float64) (*report.Data, *report.CostCurveChart, error) {
	var order []string
	byStack := map[string][]estimate{}
	util := math.NaN()
	for _, r := range rates {
		jobs, err := at(r)
		if err != nil {
			return nil, nil, err
		}
		for _, j := range jobs {
			w := j.Workload
			w.RPS = r
			e, err := cost.Monthly(j.Stack, w, p)
			if err != nil {
				return nil, nil, err
			}
			name := StackName(j.Stack)
			if _, ok := byStack[name]; !ok {
				order = append(order, name)
			}
			byStack[name] = append(byStack[name], estimate{e, heldCell(j), string(j.MemoryFrom)})
			util = w.Utilisation
		}
	}
	var all []estimate
	ch := &report.CostCurveChart{}
	for _, name := range order {
		c := report.CostCurve{Name: name}
		for _, e := range byStack[name] {
			c.Points = append(c.Points, report.CostPoint{RPS: e.Workload.RPS, USDMonth: e.TotalUSDMonth})
		}
		ch.Curves = append(ch.Curves, c)
		all = append(all, byStack[name]...)
	}
	if len(order) > 0 {
		ch.Title = fmt.Sprintf("Cost per month against load (%s, utilisation %s)", p.Provider, report.Exact(util))
	}
	return estimatesTable(all), ch, nil
}

// Human formats.
func usdHuman(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', 2, 64)
	}
	return report.Exact(v)
}

// priceHuman prints a price with up to 7 significant figures: enough for
// every published price, without the float noise of a converted one.
func priceHuman(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'g', 7, 64)
	}
	return report.Exact(v)
}

// sig3Human prints three significant figures without an exponent.
func sig3Human(v any) string {
	f, ok := v.(float64)
	if !ok || f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return report.Exact(v)
	}
	digits := max(0, 2-int(math.Floor(math.Log10(math.Abs(f)))))
	return strconv.FormatFloat(f, 'f', digits, 64)
}

var estimateColumns = []report.Column{
	{Name: "server"},
	{Name: "database"},
	{Name: "test"},
	{Name: "variant"},
	{Name: "rps", Title: "req/s"},
	{Name: "utilisation", Title: "util"},
	{Name: "wait_ms", Title: "wait ms", Human: sig3Human},
	{Name: "latency_ms", Title: "latency ms", Human: sig3Human},
	{Name: "in_flight", Title: "in flight", Human: sig3Human},
	{Name: "stack_vcpu", Title: "stack vCPU", Human: sig3Human},
	{Name: "stack_gib", Title: "stack GiB", Human: sig3Human},
	{Name: "memory_from", Title: "memory from"},
	{Name: "stack_usd_month", Title: "stack $/month", Human: usdHuman},
	{Name: "db_vcpu", Title: "db vCPU", Human: sig3Human},
	{Name: "db_gib", Title: "db GiB", Human: sig3Human},
	{Name: "db_usd_month", Title: "db $/month", Human: usdHuman},
	{Name: "total_usd_month", Title: "total $/month", Human: usdHuman},
	{Name: "provider"},
	{Name: "held"},
}

func estimatesTable(es []estimate) *report.Data {
	d := &report.Data{Title: "Cost per month", Columns: slices.Clone(estimateColumns)}
	for _, e := range es {
		// A stack without a database has NULL database figures, not zeros.
		var dbVCPU, dbGiB, dbUSD any
		if HasDatabase(e.Stack) {
			dbVCPU, dbGiB, dbUSD = e.DBVCPU, e.DBGiB, e.DBUSDMonth
		}
		d.Rows = append(d.Rows, []any{
			e.Stack.Server, nullable(e.Stack.Database), nullable(e.Stack.Test), nullable(e.Stack.Variant),
			e.Workload.RPS, e.Workload.Utilisation, ms(e.Workload.Wait), ms(e.Workload.Latency), e.InFlight,
			e.StackVCPU, e.StackGiB, nullable(e.memoryFrom), e.StackUSDMonth,
			dbVCPU, dbGiB, dbUSD,
			e.TotalUSDMonth, e.Price.Provider, e.held,
		})
	}
	d.DropEmpty("variant", "memory_from", "held")
	return d
}

// ms is a duration in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Budget gives, per job, the highest rate its stack serves within budget
// US dollars a month, highest first; a stack whose memory alone costs
// more is left out with a note. An error is cost.Budget's.
func Budget(jobs []Job, p cost.Price, budget float64) (*report.Data, error) {
	d := &report.Data{
		Title: "Highest rate within " + strconv.FormatFloat(budget, 'f', -1, 64) + " US$ a month",
		Columns: []report.Column{
			{Name: "server"},
			{Name: "database"},
			{Name: "test"},
			{Name: "variant"},
			{Name: "budget_usd_month", Title: "budget $/month", Human: usdHuman},
			{Name: "max_rps", Title: "max req/s", Human: sig3Human},
			{Name: "at_least", Title: "at least"},
			{Name: "utilisation", Title: "util"},
			{Name: "in_flight", Title: "in flight", Human: sig3Human},
			{Name: "stack_vcpu", Title: "stack vCPU", Human: sig3Human},
			{Name: "stack_gib", Title: "stack GiB", Human: sig3Human},
			{Name: "db_vcpu", Title: "db vCPU", Human: sig3Human},
			{Name: "fixed_usd_month", Title: "$/month at 0 req/s", Human: usdHuman},
			{Name: "usd_month_per_rps", Title: "$/month per req/s", Human: sig3Human},
			{Name: "provider"},
		},
	}
	type row struct {
		s cost.Stack
		w cost.Workload
		r cost.BudgetResult
		// rps is the answer: r.RPS, capped at the highest rate held
		// (atLeast: the budget buys more than was measured); NULL where
		// the stack held no rate
		rps     any
		atLeast any
	}
	var unheld []string
	var rows []row
	for _, j := range jobs {
		s := j.Stack
		r, err := cost.Budget(s, j.Workload, p, budget)
		var be *cost.BudgetError
		switch {
		case errors.As(err, &be):
			d.Notes = append(d.Notes, fmt.Sprintf("%s: the budget does not cover its memory at 0 requests/s (%s $/month).", StackName(s), strconv.FormatFloat(be.FixedUSDMonth, 'f', 2, 64)))
			continue
		case err != nil && errors.Is(err, cost.ErrFreeGrowth):
			return nil, fmt.Errorf("%s: %w", s.Server, err)
		case err != nil:
			return nil, err
		}
		x := row{s: s, w: j.Workload, r: r, rps: r.RPS}
		switch {
		case j.Held == nil: // a stack given on the command line: its limit is unknown
		case math.IsNaN(j.MaxHeldRPS):
			x.rps = nil
			unheld = append(unheld, StackName(s))
		case r.RPS > j.MaxHeldRPS:
			x.rps, x.atLeast = j.MaxHeldRPS, true
		default:
			x.atLeast = false
		}
		rows = append(rows, x)
	}
	rps := func(x row) float64 {
		if v, ok := x.rps.(float64); ok {
			return v
		}
		return math.Inf(-1)
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(rps(b), rps(a)), strings.Compare(StackName(a.s), StackName(b.s)))
	})
	for _, x := range rows {
		e := x.r.Estimate
		var dbVCPU any
		if HasDatabase(x.s) {
			dbVCPU = e.DBVCPU
		}
		d.Rows = append(d.Rows, []any{
			x.s.Server, nullable(x.s.Database), nullable(x.s.Test), nullable(x.s.Variant),
			budget, x.rps, x.atLeast, x.w.Utilisation, e.InFlight,
			e.StackVCPU, e.StackGiB, dbVCPU,
			x.r.FixedUSDMonth, x.r.USDMonthPerRPS, p.Provider,
		})
	}
	d.Notes = append(d.Notes, "The monthly cost is linear in the rate in this model (memory grows with rps × (wait + latency)), so max req/s = (budget − $/month at 0 req/s) / ($/month per req/s), exactly.")
	if len(rows) > len(unheld) && slices.ContainsFunc(rows, func(x row) bool { return x.atLeast != nil }) {
		d.Notes = append(d.Notes, "max req/s goes no higher than the highest rate the stack held (measured at full speed only: the rate it served there), each stack's CPU per request taken at that rate; at least: the budget buys more than was measured, so the rate it buys is at least that.")
	}
	if len(unheld) > 0 {
		d.Notes = append(d.Notes, "held no rate, so no rate within the budget is known to be served: "+strings.Join(unheld, ", ")+".")
	}
	d.DropEmpty("variant", "at_least")
	return d, nil
}

// PriceNotes say what the figures are and where the prices come from
// (cost.PriceNotes).
func PriceNotes(p cost.Price, w cost.Workload) []string { return cost.PriceNotes(p, w) }

// Providers lists the prices of a book, with their sources and dates.
func Providers(b *cost.Book) *report.Data {
	d := &report.Data{
		Title: "Prices",
		Columns: []report.Column{
			{Name: "provider"},
			{Name: "name"},
			{Name: "region"},
			{Name: "arch"},
			{Name: "vcpu_hour_usd", Title: "$/vCPU-hour", Human: priceHuman},
			{Name: "mem_hour_usd", Title: "$/memory-hour", Human: priceHuman},
			{Name: "mem_unit", Title: "memory unit"},
			{Name: "gib_hour_usd", Title: "$/GiB-hour", Human: priceHuman},
			{Name: "gb_hour_usd", Title: "$/GB-hour", Human: priceHuman},
			{Name: "as_of", Title: "as of"},
			{Name: "source_url", Title: "source"},
			{Name: "origin"},
		},
		Notes: []string{
			"GB = 10^9 bytes, GiB = 2^30 bytes; a GiB-hour costs 1.073741824 GB-hours. The price as published is in mem_hour_usd, per mem_unit; the other column is converted.",
			"Public on-demand list prices as recorded on the as-of date; check the source before publishing.",
		},
	}
	for _, p := range b.Prices() {
		d.Rows = append(d.Rows, []any{
			p.Provider, p.Name, nullable(p.Region), nullable(p.Arch),
			p.VCPUHourUSD, p.MemHourUSD, string(p.MemUnit), p.GiBHourUSD(), p.GBHourUSD(),
			nullable(p.AsOf), nullable(p.SourceURL), p.Origin,
		})
	}
	return d
}
