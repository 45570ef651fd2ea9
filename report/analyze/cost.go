package analyze

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/report"
)

// cost prices each stack (server, database, test) at the chosen load:
// the runs of the store's view cost_runs (at the stack's highest target
// rate, or at full speed where it has no fixed-rate pass) give the median
// CPU per request of the stack and the database, and cost.ChooseMemory
// its memory, as wra cost takes them.
func (a *analysis) cost(mem []memoryPasses) (*Section, error) {
	sec := &Section{ID: "cost", Single: true, Title: fmt.Sprintf("Cost per month at %s requests/s", Sig(a.opts.RPS))}
	runs, err := a.st.CostRuns(a.ctx, model.StackFilter{Test: a.opts.CostTest})
	if err != nil {
		return nil, err
	}
	inputs := cost.StackInputs(runs)
	if len(inputs) == 0 {
		sec.Skipped = "no runs with CPU figures to price"
		return sec, nil
	}
	peak, err := a.st.PeakMemory(a.ctx)
	if err != nil {
		return nil, err
	}
	n := &notes{}
	w := cost.Workload{RPS: a.opts.RPS, Wait: a.opts.Wait, Utilisation: a.opts.Util}
	type est struct {
		e   cost.Estimate
		mem cost.MemoryFrom
		src []report.Source
		// groups are the groups of the runs it is priced from
		groups []string
	}
	var ests []est
	var fullSpeed []string
	for _, in := range inputs {
		st := in.Stack
		server := st.Server
		peakMB := model.HighestWorkingSet(peak, server, st.Database, st.Variant)
		fit, hasFit := pooledFit(mem, server)
		var from cost.MemoryFrom
		st.Memory, from = cost.ChooseMemory(fit, hasFit, peakMB)
		switch from {
		case cost.MemoryFromWorkingSet:
			n.add(serverName(server) + ": memory priced at its highest working set (no usable memory slope: none measured, or a negative fit)")
		case cost.MemoryFromNone:
			n.add(serverName(server) + ": no memory figures; memory is priced at 0")
		}
		if !in.FixedRate {
			fullSpeed = append(fullSpeed, stackLabel(st))
		}
		wl := w
		// Little's law counts the time a request spends in the server:
		// the wait given plus the median latency of the passes.
		wl.Latency = in.Latency()
		e, err := cost.Monthly(st, wl, a.opts.Price)
		if err != nil {
			var inErr *cost.InputError
			if errors.As(err, &inErr) {
				return nil, err
			}
			n.add(fmt.Sprintf("%s: %v", stackLabel(st), err))
			continue
		}
		var src []report.Source
		for _, r := range in.Runs {
			src = append(src, report.Source{File: r.Source, Line: r.Line})
		}
		var groups []string
		for _, r := range in.Runs {
			if !slices.Contains(groups, r.GroupID) {
				groups = append(groups, r.GroupID)
			}
		}
		ests = append(ests, est{e, from, src, groups})
	}
	slices.SortStableFunc(ests, func(x, y est) int { return cmpNaNLast(x.e.TotalUSDMonth, y.e.TotalUSDMonth) })
	d := &report.Data{
		Title: fmt.Sprintf("Cost per month at %s requests/s, %s, %g%% target utilisation (USD)", Sig(a.opts.RPS), a.opts.Price.Name, a.opts.Util*100),
		Columns: []report.Column{col("server", "server", nil), col("database", "database", nil), col("test", "test", nil), col("variant", "variant", nil),
			col("stack_vcpu", "stack vCPU", Sig), col("stack_gib", "stack GiB", Sig), col("memory_from", "memory from", nil),
			col("stack_usd_month", "stack $/month", money), col("db_vcpu", "database vCPU", Sig),
			col("db_usd_month", "database $/month", money), col("total_usd_month", "total $/month", money)},
	}
	var stacks []report.CostStack
	cv := a.newCaveats()
	for _, x := range ests {
		e := x.e
		cv.add(stackLabel(e.Stack), x.groups)
		d.Rows = append(d.Rows, []any{e.Stack.Server, nullIfEmpty(e.Stack.Database), nullIfEmpty(e.Stack.Test), nullIfEmpty(e.Stack.Variant), e.StackVCPU, e.StackGiB, string(x.mem),
			e.StackUSDMonth, e.DBVCPU, e.DBUSDMonth, e.TotalUSDMonth})
		d.RowSources = append(d.RowSources, x.src)
		stacks = append(stacks, report.CostStack{Server: chartLabel(e.Stack, inputs), StackUSD: e.StackUSDMonth, DBUSD: e.DBUSDMonth})
	}
	n.add(fmt.Sprintf("an amortised resource price, not a bill: vCPUs = CPU seconds per request × %s requests/s / %g utilisation; memory = base + slope × requests in flight (Little's law: rps × (wait %v + median p50 of the passes)); × 730 hours at $%s per vCPU-hour and $%s per GiB-hour (%s, as of %s)",
		Sig(a.opts.RPS), a.opts.Util, a.opts.Wait, strconv.FormatFloat(a.opts.Price.VCPUHourUSD, 'g', 6, 64),
		strconv.FormatFloat(a.opts.Price.GiBHourUSD(), 'g', 6, 64), a.opts.Price.Name, a.opts.Price.AsOf))
	n.add("a stack is a server with its database and test; its CPU per request is the median of its fixed-rate passes at its highest target rate")
	if len(fullSpeed) > 0 {
		n.add("no fixed-rate passes, CPU per request from runs at full speed: " + strings.Join(fullSpeed, ", "))
	}
	cv.to(n)
	d.Notes = n.list
	d.DropEmpty("variant")
	sec.Tables = append(sec.Tables, d)
	sec.Figures = append(sec.Figures, Figure{Name: "cost", Caption: "Monthly cost per server: stack and database",
		Figure: &report.CostChart{Title: sec.Title, Stacks: stacks}})
	return sec, nil
}

// chartLabel names a stack in the cost plot by its server, and by its
// database and test where the stacks priced differ in them.
func chartLabel(s cost.Stack, all []cost.StackInput) string {
	dbs, tests, variants := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, in := range all {
		dbs[in.Stack.Database], tests[in.Stack.Test], variants[in.Stack.Variant] = true, true, true
	}
	out := s.Server
	if len(dbs) > 1 {
		out += " " + cmp.Or(s.Database, "(no database)")
	}
	if len(tests) > 1 {
		out += " " + orDash(s.Test)
	}
	if len(variants) > 1 {
		out += " " + cmp.Or(s.Variant, "(no variant)")
	}
	return out
}

// stackLabel names a stack in a footnote: server/database/test.
func stackLabel(s cost.Stack) string {
	out := serverName(s.Server)
	if s.Database != "" {
		out += "/" + s.Database
	}
	if s.Test != "" {
		out += "/" + s.Test
	}
	if s.Variant != "" {
		out += " (" + s.Variant + ")"
	}
	return out
}

func money(v any) string {
	x := f(v)
	if math.IsNaN(x) {
		return s(v)
	}
	return "$" + report.Thousands(fmt.Sprintf("%.2f", x))
}
