package analyze

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/report"
)

// cost prices each stack (server, database, test, variant) at the
// chosen load by the one cost builder, cost.Build, as wra cost does: the
// CPU per request at that rate (interpolated between two measured rates,
// footnoted outside them), whether the stack held the rate, the latency
// for Little's law and the memory.
func (a *analysis) cost() (*Section, error) {
	sec := &Section{ID: "cost", Single: true, Title: fmt.Sprintf("Cost per month at %s requests/s", Sig(a.opts.RPS))}
	w := cost.Workload{RPS: a.opts.RPS, Wait: a.opts.Wait, Utilisation: a.opts.Util}
	priced, buildNotes, err := cost.Build(a.ctx, a.st, cost.Request{Filter: model.StackFilter{Test: a.opts.CostTest}, Rule: a.opts.DesignRule(), Workload: w})
	if err != nil {
		var none *cost.NoCPUDataError
		if errors.As(err, &none) || errors.Is(err, cost.ErrNothingToPrice) {
			sec.Skipped = "no runs with CPU figures to price"
			return sec, nil
		}
		return nil, err
	}
	n := &notes{}
	type est struct {
		e      cost.Estimate
		p      cost.Priced
		src    []report.Source
		groups []string
	}
	var ests []est
	for _, p := range priced {
		st := p.Stack
		e, err := cost.Monthly(st, p.Workload, a.opts.Price)
		if err != nil {
			var inErr *cost.InputError
			if errors.As(err, &inErr) {
				return nil, err
			}
			n.add(fmt.Sprintf("%s: %v", cost.StackName(st), err))
			continue
		}
		var src []report.Source
		for i, f := range p.Sources {
			src = append(src, report.Source{File: f, Line: int(p.Lines[i])})
		}
		ests = append(ests, est{e, p, src, p.GroupIDs})
	}
	for _, note := range append(cost.StackNotes(priced), buildNotes...) {
		n.add(note)
	}
	// A stack that did not hold the rate is never the cheapest.
	slices.SortStableFunc(ests, func(x, y est) int {
		return cmp.Or(cmp.Compare(boolRank(x.p.Held), boolRank(y.p.Held)), cmpNaNLast(x.e.TotalUSDMonth, y.e.TotalUSDMonth))
	})
	d := &report.Data{
		Title: fmt.Sprintf("Cost per month at %s requests/s, %s, %g%% target utilisation (USD)", Sig(a.opts.RPS), a.opts.Price.Name, a.opts.Util*100),
		Columns: []report.Column{col("server", "server", nil), col("database", "database", nil), col("test", "test", nil), col("variant", "variant", nil),
			col("stack_vcpu", "stack vCPU", Sig), col("stack_gib", "stack GiB", Sig), col("memory_from", "memory from", nil),
			col("stack_usd_month", "stack $/month", money), col("db_vcpu", "database vCPU", Sig),
			col("db_usd_month", "database $/month", money), col("total_usd_month", "total $/month", money), col("held", "held", nil)},
	}
	var stacks []report.CostStack
	cv := a.newCaveats()
	for _, x := range ests {
		e := x.e
		cv.add(cost.StackName(e.Stack), x.groups)
		d.Rows = append(d.Rows, []any{e.Stack.Server, nullIfEmpty(e.Stack.Database), nullIfEmpty(e.Stack.Test), nullIfEmpty(e.Stack.Variant), e.StackVCPU, e.StackGiB, string(x.p.MemoryFrom),
			e.StackUSDMonth, e.DBVCPU, e.DBUSDMonth, e.TotalUSDMonth, x.p.Held})
		d.RowSources = append(d.RowSources, x.src)
		stacks = append(stacks, report.CostStack{Server: chartLabel(e.Stack, priced, a.disp), StackUSD: e.StackUSDMonth, DBUSD: e.DBUSDMonth})
	}
	n.add(fmt.Sprintf("an amortised resource price, not a bill: vCPUs = CPU seconds per request × %s requests/s / %g utilisation; memory = base + slope × requests in flight (Little's law: rps × (wait %v + median p50 of the passes)); × 730 hours at $%s per vCPU-hour and $%s per GiB-hour (%s, as of %s)",
		Sig(a.opts.RPS), a.opts.Util, a.opts.Wait, strconv.FormatFloat(a.opts.Price.VCPUHourUSD, 'g', 6, 64),
		strconv.FormatFloat(a.opts.Price.GiBHourUSD(), 'g', 6, 64), a.opts.Price.Name, a.opts.Price.AsOf))
	n.add(fmt.Sprintf("a stack is a server with its database, test and variant; its CPU per request is the median of its fixed-rate runs at %s requests/s, interpolated between the two rates around it where it was not measured at that rate (cost_groups); held: a group at that rate or above held it in more than half of its runs (p95 < %g ms, errors < %g%%, at least %g%% of the rate achieved); a stack that did not hold it is listed after those that did",
		Sig(a.opts.RPS), a.opts.P95MS, 100*a.opts.MaxErrorRate, 100*a.opts.MinAchievedRatio))
	cv.to(n)
	d.Notes = n.list
	d.DropEmpty("variant")
	sec.Tables = append(sec.Tables, d)
	sec.Figures = append(sec.Figures, Figure{Name: "cost", Caption: "Monthly cost per server: stack and database",
		Figure: &report.CostChart{Title: sec.Title, Stacks: stacks}})
	return sec, nil
}

// chartLabel names a stack in the cost plot by its server, and by its
// database and test where the stacks priced differ in them, as the
// manifest names them (disp).
func chartLabel(s cost.Stack, all []cost.Priced, disp model.Display) string {
	dbs, tests, variants := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, in := range all {
		dbs[in.Stack.Database], tests[in.Stack.Test], variants[in.Stack.Variant] = true, true, true
	}
	out := disp.Name("server", s.Server)
	if len(dbs) > 1 {
		out += " " + cmp.Or(disp.Name("database", s.Database), "(no database)")
	}
	if len(tests) > 1 {
		out += " " + orDash(disp.Name("test", s.Test))
	}
	if len(variants) > 1 {
		out += " " + cmp.Or(s.Variant, "(no variant)")
	}
	return out
}

// boolRank orders true before false.
func boolRank(b bool) int {
	if b {
		return 0
	}
	return 1
}

func money(v any) string {
	x := f(v)
	if math.IsNaN(x) {
		return s(v)
	}
	return "$" + report.Thousands(fmt.Sprintf("%.2f", x))
}
