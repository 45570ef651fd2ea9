package analyze

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// cost prices each server at the chosen load from the median CPU per
// request of its fixed-rate passes (stack and database) and its memory
// slope, or its highest working set where no slope was measured.
func (a *analysis) cost() (*Section, error) {
	sec := &Section{ID: "cost", Title: fmt.Sprintf("Cost per month at %s requests/s", Sig(a.opts.RPS))}
	test := a.opts.CostTest
	if test == "" {
		counts := map[string]int{}
		for _, g := range a.fixed {
			counts[g.test] += len(g.runs)
		}
		best := -1
		for t, c := range counts {
			if c > best || (c == best && t < test) {
				test, best = t, c
			}
		}
	}
	// Per server, the passes of the chosen test at its highest rate.
	picked := map[string]cpuGroup{}
	var servers []string
	for _, g := range a.fixed {
		if g.test != test {
			continue
		}
		old, ok := picked[g.server]
		if !ok {
			servers = append(servers, g.server)
		}
		if !ok || g.targetRPS > old.targetRPS {
			picked[g.server] = g
		}
	}
	if len(servers) == 0 {
		sec.Skipped = "no fixed-rate runs with CPU figures to price"
		return sec, nil
	}
	peak, err := a.query(`SELECT coalesce(server, ''), max(working_set_mb) FROM runs WHERE working_set_mb IS NOT NULL GROUP BY 1`)
	if err != nil {
		return nil, err
	}
	ws := map[string]float64{}
	for _, r := range peak {
		ws[s(r[0])] = f(r[1])
	}
	n := &notes{}
	w := cost.Workload{RPS: a.opts.RPS, Wait: a.opts.Wait, Utilisation: a.opts.Util}
	type est struct {
		e   cost.Estimate
		mem string
		src []report.Source
	}
	var ests []est
	for _, server := range servers {
		g := picked[server]
		stack := g.values(func(r cpuRun) float64 { return r.stackUS })
		if len(stack) == 0 {
			continue
		}
		st := cost.Stack{Server: server, Database: g.database, Test: test, CPUPerRequestS: stats.Median(stack) / 1e6}
		if db := g.values(func(r cpuRun) float64 { return r.dbUS }); len(db) > 0 {
			st.DBCPUPerRequestS = stats.Median(db) / 1e6
		}
		var p50 []float64
		for _, r := range g.runs {
			if !math.IsNaN(r.p50MS) {
				p50 = append(p50, r.p50MS)
			}
		}
		memText := ""
		if fit, ok := a.mem[server]; ok && fit.SlopeGiBPer1000 >= 0 && fit.InterceptGiB >= 0 {
			st.Memory = cost.LinearMemory(fit.InterceptGiB, fit.SlopeGiBPer1000)
			memText = "slope"
		} else if v, ok := ws[server]; ok && !math.IsNaN(v) {
			st.Memory = cost.FixedMemory(v / 1024)
			memText = "highest working set"
			n.add(server + ": memory priced at its highest working set (no usable memory slope: none measured, or a negative fit)")
		} else {
			n.add(server + ": no memory figures; memory is priced at 0")
			memText = "none"
		}
		wl := w
		if len(p50) > 0 {
			// Little's law counts the time a request spends in the server:
			// the wait given plus the median latency of the passes.
			wl.Latency = time.Duration(math.Round(stats.Median(p50) * float64(time.Millisecond)))
		}
		e, err := cost.Monthly(st, wl, a.opts.Price)
		if err != nil {
			var in *cost.InputError
			if errors.As(err, &in) {
				return nil, err
			}
			n.add(fmt.Sprintf("%s: %v", server, err))
			continue
		}
		var src []report.Source
		for _, r := range g.runs {
			src = append(src, r.source)
		}
		ests = append(ests, est{e, memText, src})
	}
	slices.SortStableFunc(ests, func(x, y est) int { return cmpNaNLast(x.e.TotalUSDMonth, y.e.TotalUSDMonth) })
	d := &report.Data{
		Title: fmt.Sprintf("Cost per month at %s requests/s, %s, %g%% target utilisation (USD)", Sig(a.opts.RPS), a.opts.Price.Name, a.opts.Util*100),
		Columns: []report.Column{col("server", "server", nil), col("database", "database", nil), col("test", "test", nil),
			col("stack_vcpu", "stack vCPU", Sig), col("stack_gib", "stack GiB", Sig), col("memory_from", "memory from", nil),
			col("stack_usd_month", "stack $/month", money), col("db_vcpu", "database vCPU", Sig),
			col("db_usd_month", "database $/month", money), col("total_usd_month", "total $/month", money)},
	}
	var stacks []report.CostStack
	for _, x := range ests {
		e := x.e
		d.Rows = append(d.Rows, []any{e.Stack.Server, nullIfEmpty(e.Stack.Database), test, e.StackVCPU, e.StackGiB, x.mem,
			e.StackUSDMonth, e.DBVCPU, e.DBUSDMonth, e.TotalUSDMonth})
		d.RowSources = append(d.RowSources, x.src)
		stacks = append(stacks, report.CostStack{Server: e.Stack.Server, StackUSD: e.StackUSDMonth, DBUSD: e.DBUSDMonth})
	}
	n.add(fmt.Sprintf("an amortised resource price, not a bill: vCPUs = CPU seconds per request × %s requests/s / %g utilisation; memory = base + slope × requests in flight (Little's law: rps × (wait %v + median p50 of the passes)); × 730 hours at $%s per vCPU-hour and $%s per GiB-hour (%s, as of %s)",
		Sig(a.opts.RPS), a.opts.Util, a.opts.Wait, strconv.FormatFloat(a.opts.Price.VCPUHourUSD, 'g', 6, 64),
		strconv.FormatFloat(a.opts.Price.GiBHourUSD(), 'g', 6, 64), a.opts.Price.Name, a.opts.Price.AsOf))
	n.add(fmt.Sprintf("CPU per request from the %s test's fixed-rate passes at each server's highest target rate", orDash(test)))
	d.Notes = n.list
	sec.Tables = append(sec.Tables, d)
	sec.Figures = append(sec.Figures, Figure{Name: "cost", Caption: "Monthly cost per server: stack and database",
		Figure: &report.CostChart{Title: sec.Title, Stacks: stacks}})
	return sec, nil
}

func money(v any) string {
	x := f(v)
	if math.IsNaN(x) {
		return s(v)
	}
	return "$" + report.Thousands(fmt.Sprintf("%.2f", x))
}
