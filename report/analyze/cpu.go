package analyze

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// cpuRun is one pass with its CPU per successful response.
type cpuRun struct {
	stackUS, userUS, kernelUS, dbUS float64
	p50MS, p99MS                    float64
	failed                          int64
	// fromRequests: the record has no 2xx count; the divisor is
	// requests - non_2xx - errors
	fromRequests bool
	source       report.Source
	// block is the run's block (its trial), "" where it has none
	block string
}

// cpuGroup is the passes of one (test, rate or connections, server,
// database).
type cpuGroup struct {
	id                     string // run_groups.group_id
	test, server, database string
	targetRPS              float64 // NaN for runs at full speed
	connections            int64
	// tools are the tools that made the load of the passes (model.CPURun.Tool)
	tools []string
	runs  []cpuRun
}

// total is the stack + database CPU of a pass, µs per successful
// response (the database's counted 0 where not measured), as run_medians
// and run_figures define it.
func (r cpuRun) total() float64 { return r.stackUS + zeroIfNaN(r.dbUS) }

// totals are the total CPU of each pass.
func (g *cpuGroup) totals() []float64 { return g.values(cpuRun.total) }

// cpuSeries is the legend entry of the CPU bars of one test at one load:
// the test, the tools that made the load, and the load.
func cpuSeries(test string, groups []cpuGroup, load string) string {
	var tools []string
	for _, g := range groups {
		for _, t := range g.tools {
			if !slices.Contains(tools, t) {
				tools = append(tools, t)
			}
		}
	}
	slices.Sort(tools)
	return seriesName(test, strings.Join(tools, "+"), load)
}

func (g *cpuGroup) values(get func(cpuRun) float64) []float64 {
	var out []float64
	for _, r := range g.runs {
		if v := get(r); !math.IsNaN(v) {
			out = append(out, v)
		}
	}
	return out
}

// cpuGroups reads the runs of the view cpu_per_request (the one
// definition of CPU per successful response) and groups the passes of one
// (test, rate, server, database) for fixed-rate runs, or of one (test,
// server, database, connections) for runs at full speed.
func (a *analysis) cpuGroups(fixedRate bool) ([]cpuGroup, []string, error) {
	rows, err := a.st.CPURuns(a.ctx)
	if err != nil {
		return nil, nil, err
	}
	// Runs that differ in a label the manifest set are kept apart: their
	// variant goes with the test.
	vs, split := variants(len(rows), func(i int) map[string]string { return rows[i].Split }, func(i int) string {
		r := rows[i]
		return fmt.Sprint(r.Test, "\x00", r.Server, "\x00", r.Database, "\x00", r.Connections, "\x00", r.TargetRPS)
	}, func(i int) string { return rows[i].Test })
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Or(cmp.Compare(rows[x].Test, rows[y].Test), cmp.Compare(vs[x], vs[y])) })
	var groups []cpuGroup
	for _, i := range order {
		r := rows[i]
		if fixedRate != !math.IsNaN(r.TargetRPS) {
			continue
		}
		test := r.Test
		if vs[i] != "" {
			test = orDash(test) + ", " + vs[i]
		}
		g := cpuGroup{id: r.GroupID, test: test, targetRPS: r.TargetRPS, server: r.Server, database: r.Database}
		if !fixedRate {
			g.connections = r.Connections
		}
		n := len(groups)
		if n == 0 || groups[n-1].id != g.id {
			groups = append(groups, g)
			n++
		}
		if !slices.Contains(groups[n-1].tools, r.Tool) {
			groups[n-1].tools = append(groups[n-1].tools, r.Tool)
			slices.Sort(groups[n-1].tools)
		}
		groups[n-1].runs = append(groups[n-1].runs, cpuRun{
			stackUS: r.StackUS, userUS: r.UserUS, kernelUS: r.KernelUS, dbUS: r.DBUS,
			p50MS: r.P50MS, p99MS: r.P99MS, failed: r.Failed, fromRequests: r.DivisorFrom == "requests",
			source: report.Source{File: r.Source, Line: r.Line}, block: r.Block,
		})
	}
	return groups, split, nil
}

// times formats a ratio for people: ×1.23.
func times(v any) string {
	if x := f(v); !math.IsNaN(x) {
		return "×" + Sig(x)
	}
	return s(v)
}

// pairedTotals compares the total CPU per request of g with base's within
// trials (pairedBlocks); nil where fewer than two trials have both.
func pairedTotals(base, g cpuGroup) *stats.Paired { return pairedCPU(base, g, cpuRun.total) }

// pairedCPU compares the figure get gives of g's passes with base's
// within trials (pairedBlocks).
func pairedCPU(base, g cpuGroup, get func(cpuRun) float64) *stats.Paired {
	return pairedBlocks(base.byBlock(get), g.byBlock(get))
}

// byBlock is the figure get gives of each pass, by the pass's block
// (byBlock).
func (g *cpuGroup) byBlock(get func(cpuRun) float64) map[string][]float64 {
	return byBlock(g.runs, func(r cpuRun) string { return r.block }, get)
}

// byBlock is the figure get gives of each run, by the run's block, the
// input of pairedBlocks; runs without a block or a figure are left out.
func byBlock[R any](runs []R, block func(R) string, get func(R) float64) map[string][]float64 {
	m := map[string][]float64{}
	for _, r := range runs {
		if b, v := block(r), get(r); b != "" && !math.IsNaN(v) {
			m[b] = append(m[b], v)
		}
	}
	return m
}

// pairedBlocks is the paired figure of two groups that share blocks:
// vs over base in each block both ran in (each block's median where it
// ran more than once), stats.PairedRatios over those blocks; nil where
// fewer than two blocks have both. Every within-trial ratio of wra
// analyze (the CPU tables, the summary, the findings) is made here.
func pairedBlocks(base, vs map[string][]float64) *stats.Paired {
	var bs, vv []float64
	for _, block := range slices.Sorted(maps.Keys(base)) {
		if w, ok := vs[block]; ok && len(w) > 0 && len(base[block]) > 0 {
			bs, vv = append(bs, stats.Median(base[block])), append(vv, stats.Median(w))
		}
	}
	if len(bs) < 2 {
		return nil
	}
	p := stats.PairedRatios(bs, vv, stats.DefaultConfidence)
	if p.N < 2 {
		return nil
	}
	return &p
}

// name is the group's row in a table of its test and load.
func (g *cpuGroup) name() string { return rowName(g.server, g.database, "") }

// median is the median of the values get gives of the group's passes,
// NaN where none has one.
func (g *cpuGroup) median(get func(cpuRun) float64) float64 {
	v := g.values(get)
	if len(v) == 0 {
		return math.NaN()
	}
	return stats.Median(v)
}

// cpuFixedRate is the table of CPU per request at a fixed rate: one table
// per (test, rate), sorted by total CPU.
func (a *analysis) cpuFixedRate(groups []cpuGroup, split []string) *Section {
	sec := &Section{ID: "cpu-per-request", Title: "CPU per request at a fixed rate"}
	if len(groups) == 0 {
		sec.Skipped = "no runs with a target rate and CPU figures (harness records of fixed-rate passes)"
		return sec
	}
	type key struct {
		test string
		rate float64
	}
	var order []key
	byKey := map[key][]cpuGroup{}
	for _, g := range groups {
		k := key{g.test, g.targetRPS}
		if _, ok := byKey[k]; !ok {
			order = append(order, k)
		}
		byKey[k] = append(byKey[k], g)
	}
	var bars []report.BarGroup
	for _, k := range order {
		series := cpuSeries(k.test, byKey[k], Sig(k.rate)+" requests/s")
		n := &notes{}
		d := &report.Data{
			Title: fmt.Sprintf("CPU per request: %s at %s requests/s (µs per successful response)", orDash(k.test), Sig(k.rate)),
			Name:  testName(k.test) + " " + rateName(k.rate),
			Columns: []report.Column{
				col("server", "server", nil), col("database", "database", nil), col("passes", "passes", nil),
				col("stack_cpu_us", "stack CPU µs", Sig), col("stack_cpu_ci_pct", "±", pm),
				col("stack_cpu_min_us", "min", Sig), col("stack_cpu_max_us", "max", Sig),
				col("db_cpu_us", "database CPU µs", Sig), col("total_cpu_us", "total µs", Sig),
				col("p99_ms", "p99 ms", Sig), col("failed", "failed", nil),
				col("vs_lowest_ratio", "vs lowest, within trials", times), col("vs_lowest_low", "low", Sig),
				col("vs_lowest_high", "high", Sig), {Name: "vs_lowest_coverage", Machine: true}, {Name: "vs_lowest_trials", Machine: true},
			},
		}
		type row struct {
			cells []any
			total float64
			srcs  []report.Source
			g     cpuGroup
		}
		var rows []row
		cv := a.newCaveats()
		for _, g := range byKey[k] {
			stack := stats.Summarize(g.values(func(r cpuRun) float64 { return r.stackUS }))
			dbMed := g.median(func(r cpuRun) float64 { return r.dbUS })
			total := g.median(cpuRun.total)
			p99Med := g.median(func(r cpuRun) float64 { return r.p99MS })
			cv.add(a.rowName(g.server, g.database, ""), []string{g.id})
			var failed int64
			var srcs []report.Source
			fromRequests := false
			for _, r := range g.runs {
				failed += r.failed
				srcs = append(srcs, r.source)
				fromRequests = fromRequests || r.fromRequests
			}
			summaryNotes(n, "stack CPU", stack)
			if fromRequests {
				n.add(fmt.Sprintf("%s: no 2xx count recorded; successful responses are requests − non_2xx − errors", a.serverName(g.server)))
			}
			if failed > 0 {
				n.add(fmt.Sprintf("%s: %d requests failed over %d passes; CPU is divided by successful responses only", g.server, failed, len(g.runs)))
			}
			rows = append(rows, row{cells: []any{g.server, nullIfEmpty(g.database), int64(stack.N), rounded(stack.Median, stack.Min, stack.Max), num(ciPct(stack)),
				rounded(stack.Min, stack.Min, stack.Max), rounded(stack.Max, stack.Min, stack.Max), num(dbMed), num(total), num(p99Med), failed}, total: total, srcs: srcs, g: g})
			bars = append(bars, report.BarGroup{Label: g.server, Series: series, Values: g.totals()})
		}
		slices.SortStableFunc(rows, func(x, y row) int { return cmpNaNLast(x.total, y.total) })
		paired := false
		for i, r := range rows {
			// Within trials, each row against the lowest total: the
			// ratio of the two in each trial both ran in, where the runs
			// carry trials (the paired figure, robust to a drift that a
			// trial's runs share).
			var cells []any
			if p := pairedTotals(rows[0].g, r.g); i > 0 && p != nil {
				paired = true
				cells = []any{num(p.Median), num(p.Low), num(p.High), num(p.Coverage), int64(p.N)}
			} else {
				cells = []any{nil, nil, nil, nil, nil}
			}
			d.Rows = append(d.Rows, append(r.cells, cells...))
			d.RowSources = append(d.RowSources, r.srcs)
		}
		if paired {
			n.add("vs lowest, within trials: the row's total CPU per request over the lowest row's, in each trial both ran in, median over the trials, low to high the sign test's distribution-free interval of the median ratio; a drift of the machine's speed that a trial's runs share cancels in the ratio, so this compares rows where the medians alone are swamped by drift")
		}
		d.DropEmpty("database", "db_cpu_us", "p99_ms", "stack_cpu_ci_pct", "vs_lowest_ratio", "vs_lowest_low", "vs_lowest_high", "vs_lowest_coverage", "vs_lowest_trials")
		n.add("CPU is user + kernel seconds of all the server's processes (and, for the database, of all its processes) divided by successful responses; median of passes, ± is the half-width of the median's 95% order-statistic interval; total is the median of the passes' server + database CPU")
		cv.to(n)
		if len(split) > 0 {
			n.add(splitNote(split))
		}
		d.Notes = n.list
		sec.Tables = append(sec.Tables, d)
	}
	sec.Figures = append(sec.Figures, Figure{Name: "cpu-per-request", Caption: "Stack + database CPU per request at a fixed rate: median bar, min–max whisker, each pass a dot",
		Figure: &report.BarChart{Title: "CPU per request at a fixed rate", XLabel: "server", YLabel: "CPU per request (µs)", Groups: bars}})
	return sec
}

// cpuSplitTable is CPU per request split into user, kernel and database, per
// test, over every run with CPU figures.
func (a *analysis) cpuSplitTable(fixed, open []cpuGroup, split []string) *Section {
	sec := &Section{ID: "cpu-split", Title: "CPU per request split: user, kernel, database"}
	all := append(slices.Clone(fixed), open...)
	slices.SortStableFunc(all, func(x, y cpuGroup) int { return strings.Compare(x.test, y.test) })
	if len(all) == 0 {
		sec.Skipped = "no runs with CPU figures"
		return sec
	}
	var d *report.Data
	var cvs []*caveatNotes
	for i, g := range all {
		if i == 0 || g.test != all[i-1].test {
			d = &report.Data{
				Title: fmt.Sprintf("CPU per request split: %s (µs per successful response, median of passes)", orDash(g.test)),
				Name:  testName(g.test),
				Columns: []report.Column{
					col("server", "server", nil), col("database", "database", nil), col("load", "load", nil), col("passes", "passes", nil),
					col("user_us", "user µs", Sig), col("kernel_us", "kernel µs", Sig), col("stack_us", "stack µs", Sig),
					col("db_us", "database µs", Sig), col("total_us", "total µs", Sig),
				},
				Notes: []string{"load is the target rate of a fixed-rate run, or the connections of a run at full speed; user and kernel are medians of their own, so they need not add up to the stack median; total is the median of the passes' server + database CPU"},
			}
			cvs = append(cvs, a.newCaveats())
			if len(split) > 0 {
				d.Notes = append(d.Notes, splitNote(split))
			}
			sec.Tables = append(sec.Tables, d)
		}
		load := fmt.Sprintf("%s rps", Sig(g.targetRPS))
		if math.IsNaN(g.targetRPS) {
			load = fmt.Sprintf("%d conns", g.connections)
		}
		var srcs []report.Source
		for _, r := range g.runs {
			srcs = append(srcs, r.source)
		}
		cvs[len(sec.Tables)-1].add(a.rowName(g.server, g.database, "")+" at "+load, []string{g.id})
		d.Rows = append(d.Rows, []any{g.server, nullIfEmpty(g.database), load, int64(len(g.runs)),
			num(g.median(func(r cpuRun) float64 { return r.userUS })), num(g.median(func(r cpuRun) float64 { return r.kernelUS })),
			num(g.median(func(r cpuRun) float64 { return r.stackUS })), num(g.median(func(r cpuRun) float64 { return r.dbUS })), num(g.median(cpuRun.total))})
		d.RowSources = append(d.RowSources, srcs)
	}
	for i, t := range sec.Tables {
		t.DropEmpty("database", "user_us", "kernel_us", "db_us")
		n := &notes{list: t.Notes}
		cvs[i].to(n)
		t.Notes = n.list
	}
	if fig, ok := cpuFullSpeed(open); ok {
		sec.Figures = append(sec.Figures, fig)
	}
	return sec
}

func zeroIfNaN(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

func nullIfEmpty(v string) any {
	if v == "" {
		return nil
	}
	return v
}

func orDash(v string) string {
	if v == "" {
		return "(no test label)"
	}
	return v
}

// cmpNaNLast orders numbers ascending with NaN last.
func cmpNaNLast(x, y float64) int {
	switch {
	case math.IsNaN(x) && math.IsNaN(y):
		return 0
	case math.IsNaN(x):
		return 1
	case math.IsNaN(y):
		return -1
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// cpuFullSpeed plots the CPU per request of the runs at full speed, as
// cpuFixedRate plots the fixed-rate ones: a bar per server, a series per
// test and connections; false when there are no such runs.
func cpuFullSpeed(groups []cpuGroup) (Figure, bool) {
	var bars []report.BarGroup
	for i := 0; i < len(groups); {
		// Groups are by test, then server: the series of one test are
		// its connections.
		j := i
		for j < len(groups) && groups[j].test == groups[i].test {
			j++
		}
		byConns := map[int64][]cpuGroup{}
		for _, g := range groups[i:j] {
			byConns[g.connections] = append(byConns[g.connections], g)
		}
		for _, g := range groups[i:j] {
			if len(g.totals()) == 0 {
				continue
			}
			load := "full speed"
			if g.connections >= 0 {
				load = fmt.Sprintf("%d connections", g.connections)
			}
			bars = append(bars, report.BarGroup{Label: g.server, Series: cpuSeries(g.test, byConns[g.connections], load), Values: g.totals()})
		}
		i = j
	}
	if len(bars) == 0 {
		return Figure{}, false
	}
	return Figure{Name: "cpu-per-request-full-speed", Caption: "Stack + database CPU per request at full speed, per test and connections: median bar, min–max whisker, each pass a dot",
		Figure: &report.BarChart{Title: "CPU per request at full speed", XLabel: "server", YLabel: "CPU per request (µs)", Groups: bars}}, true
}
