package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// cpuRun is one pass with its CPU per successful response, as the store
// reads it (model.CPURun, from cpu_per_request).
type cpuRun struct{ model.CPURun }

// fromRequests says that the record has no 2xx count: the divisor is
// requests - non_2xx - errors.
func (r cpuRun) fromRequests() bool { return r.DivisorFrom == "requests" }

// source is where the pass was read.
func (r cpuRun) source() model.Source { return model.Source{File: r.Source, Line: r.Line} }

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
	// fig is the group's figures (run_medians): every median, range and
	// total a CPU table or bar shows; runs are what the median's
	// interval and the paired ratios within trials are made of.
	fig model.GroupFigures
}

// total is the stack + database CPU of a pass, µs per successful
// response, as the store defines it (cpu_per_request).
func (r cpuRun) total() float64 { return r.TotalUS }

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

// sources are where the group's passes were read.
func (g *cpuGroup) sources() []model.Source {
	var out []model.Source
	for _, r := range g.runs {
		out = append(out, r.source())
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
	order := identity(len(rows))
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Or(cmp.Compare(rows[x].Test, rows[y].Test), cmp.Compare(vs[x], vs[y])) })
	var groups []cpuGroup
	for _, i := range order {
		r := rows[i]
		if fixedRate != !math.IsNaN(r.TargetRPS) {
			continue
		}
		test := r.Test
		if vs[i] != "" {
			test = OrDash(test) + ", " + vs[i]
		}
		g := cpuGroup{id: r.GroupID, test: test, targetRPS: r.TargetRPS, server: r.Server, database: r.Database, fig: a.fig(r.GroupID)}
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
		groups[n-1].runs = append(groups[n-1].runs, cpuRun{r})
	}
	return groups, split, nil
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
	return byBlock(g.runs, func(r cpuRun) string { return r.Block }, get)
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
// ran more than once: PairedByBlock), stats.PairedRatios over those
// blocks; nil where fewer than two blocks have both.
func pairedBlocks(base, vs map[string][]float64) *stats.Paired {
	bs, vv := PairedByBlock(base, vs)
	if bs == nil {
		return nil
	}
	p := stats.PairedRatios(bs, vv, stats.DefaultConfidence)
	if p.N < 2 {
		return nil
	}
	return &p
}

// A Bar is one group of a bar plot: its category (a server), its series
// (test, tools, load), the figure of each of its passes and their
// median, the bar's height; the whisker is their range.
type Bar struct {
	Label, Series string
	Values        []float64
	Median        float64
}

// totalsBar is the bar of a CPU group in a series: its server, the
// total CPU of each pass, its height the group's median total
// (run_medians).
func totalsBar(series string, g cpuGroup) Bar {
	return Bar{Label: g.server, Series: series, Values: g.totals(), Median: g.fig.CPUTotalUSMedian}
}

// CPUSection is the CPU per request at a fixed rate: one table per
// (test, rate), sorted by total CPU, and a bar per group.
type CPUSection struct {
	Skipped string
	Tables  []CPUTable
	Bars    []Bar
}

// CPUTable is the groups of one test (with its variant) at one rate.
type CPUTable struct {
	Test    string // the test, with the variant that tells it apart
	RateRPS float64
	Rows    []CPURow
	Notes   []string
}

// CPURow is one group's CPU per successful response, µs: the stack's
// median of passes with its interval (± percent of the median) and
// range, the database's, the total's (the median of the passes'
// totals), the p99 median and the failed requests summed; VsLowest is
// the paired ratio to the table's lowest total within trials (nil where
// the two share fewer than two trials, and for the lowest itself).
type CPURow struct {
	Server, Database                string
	Passes                          int64
	StackUS, StackMinUS, StackMaxUS float64
	StackCIPct                      float64
	DBUS, TotalUS, P99MS            float64
	Failed                          int64
	VsLowest                        *stats.Paired
	Sources                         []model.Source
}

// cpuFixedRate is the table of CPU per request at a fixed rate: one table
// per (test, rate), sorted by total CPU.
func (a *analysis) cpuFixedRate(groups []cpuGroup, split []string) CPUSection {
	var sec CPUSection
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
	for _, k := range order {
		series := cpuSeries(k.test, byKey[k], Sig(k.rate)+" requests/s")
		n := &notes{}
		t := CPUTable{Test: k.test, RateRPS: k.rate}
		type row struct {
			CPURow
			g cpuGroup
		}
		var rows []row
		cv := a.newCaveats()
		for _, g := range byKey[k] {
			// the median's interval, and its warnings, over the passes;
			// the figures are the group's (run_medians)
			stack := stats.Summarize(g.values(func(r cpuRun) float64 { return r.StackUS }))
			f := g.fig
			cv.add(a.rowName(g.server, g.database, ""), []string{g.id})
			fromRequests := false
			for _, r := range g.runs {
				fromRequests = fromRequests || r.fromRequests()
			}
			summaryNotes(n, "stack CPU", stack)
			if fromRequests {
				n.add(fmt.Sprintf("%s: no 2xx count recorded; successful responses are requests − non_2xx − errors", a.serverName(g.server)))
			}
			if f.FailedTotal > 0 {
				n.add(fmt.Sprintf("%s: %d requests failed over %d passes; CPU is divided by successful responses only", g.server, f.FailedTotal, f.Passes))
			}
			rows = append(rows, row{CPURow: CPURow{Server: g.server, Database: g.database, Passes: f.CPUPasses,
				StackUS: f.CPUServerUSMed, StackMinUS: f.CPUServerUSMin, StackMaxUS: f.CPUServerUSMax, StackCIPct: ciPct(stack),
				DBUS: f.CPUDBUSMedian, TotalUS: f.CPUTotalUSMedian,
				P99MS: f.P99MSMedian, Failed: f.FailedTotal, Sources: g.sources()}, g: g})
			sec.Bars = append(sec.Bars, totalsBar(series, g))
		}
		slices.SortStableFunc(rows, func(x, y row) int { return cmpNaNLast(x.TotalUS, y.TotalUS) })
		paired := false
		for i, r := range rows {
			// Within trials, each row against the lowest total: the
			// ratio of the two in each trial both ran in, where the runs
			// carry trials (the paired figure, robust to a drift that a
			// trial's runs share).
			if p := pairedTotals(rows[0].g, r.g); i > 0 && p != nil {
				paired = true
				r.VsLowest = p
			}
			t.Rows = append(t.Rows, r.CPURow)
		}
		t.Rows = byManifest(t.Rows, a.disp, func(r CPURow) string { return r.Server })
		if paired {
			n.add("vs lowest, within trials: the row's total CPU per request over the lowest row's, in each trial both ran in, median over the trials, low to high the sign test's distribution-free interval of the median ratio; a drift of the machine's speed that a trial's runs share cancels in the ratio, so this compares rows where the medians alone are swamped by drift")
		}
		n.add("CPU is user + kernel seconds of all the server's processes (and, for the database, of all its processes) divided by successful responses; median of passes, ± is the half-width of the median's 95% order-statistic interval; total is the median of the passes' server + database CPU")
		cv.to(n)
		if len(split) > 0 {
			n.add(splitNote(split))
		}
		t.Notes = n.list
		sec.Tables = append(sec.Tables, t)
	}
	return sec
}

// CPUSplitSection is CPU per request split into user, kernel and
// database: one table per test over every group with CPU figures, and
// the bars of the groups at full speed.
type CPUSplitSection struct {
	Skipped string
	Tables  []CPUSplitTable
	// FullSpeed are the bars of the groups at full speed, a series per
	// test and connections; empty where there are none.
	FullSpeed []Bar
}

// CPUSplitTable is the groups of one test.
type CPUSplitTable struct {
	Test  string
	Rows  []CPUSplitRow
	Notes []string
}

// CPUSplitRow is one group's medians of passes, µs per successful
// response: user, kernel, stack, database and total, each a median of its
// own.
type CPUSplitRow struct {
	Server, Database, Load                   string
	Passes                                   int64
	UserUS, KernelUS, StackUS, DBUS, TotalUS float64
	Sources                                  []model.Source
}

// cpuSplitTable is CPU per request split into user, kernel and database, per
// test, over every run with CPU figures.
func (a *analysis) cpuSplitTable(fixed, open []cpuGroup, split []string) CPUSplitSection {
	var sec CPUSplitSection
	all := append(slices.Clone(fixed), open...)
	slices.SortStableFunc(all, func(x, y cpuGroup) int { return strings.Compare(x.test, y.test) })
	if len(all) == 0 {
		sec.Skipped = "no runs with CPU figures"
		return sec
	}
	var cvs []*caveatNotes
	for i, g := range all {
		if i == 0 || g.test != all[i-1].test {
			t := CPUSplitTable{Test: g.test, Notes: []string{"load is the target rate of a fixed-rate run, or the connections of a run at full speed; user and kernel are medians of their own, so they need not add up to the stack median; total is the median of the passes' server + database CPU"}}
			cvs = append(cvs, a.newCaveats())
			if len(split) > 0 {
				t.Notes = append(t.Notes, splitNote(split))
			}
			sec.Tables = append(sec.Tables, t)
		}
		t := &sec.Tables[len(sec.Tables)-1]
		load := fmt.Sprintf("%s rps", Sig(g.targetRPS))
		if math.IsNaN(g.targetRPS) {
			load = fmt.Sprintf("%d conns", g.connections)
		}
		cvs[len(sec.Tables)-1].add(a.rowName(g.server, g.database, "")+" at "+load, []string{g.id})
		f := g.fig
		t.Rows = append(t.Rows, CPUSplitRow{Server: g.server, Database: g.database, Load: load, Passes: f.CPUPasses,
			UserUS: f.CPUUserUSMedian, KernelUS: f.CPUKernelUSMed, StackUS: f.CPUServerUSMed, DBUS: f.CPUDBUSMedian,
			TotalUS: f.CPUTotalUSMedian, Sources: g.sources()})
	}
	for i := range sec.Tables {
		t := &sec.Tables[i]
		t.Rows = byManifest(t.Rows, a.disp, func(r CPUSplitRow) string { return r.Server })
		n := &notes{list: t.Notes}
		cvs[i].to(n)
		t.Notes = n.list
	}
	sec.FullSpeed = cpuFullSpeed(open)
	return sec
}

// cpuFullSpeed are the bars of the CPU per request of the runs at full
// speed, as the fixed-rate ones: a bar per server, a series per test and
// connections.
func cpuFullSpeed(groups []cpuGroup) []Bar {
	var bars []Bar
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
			bars = append(bars, totalsBar(cpuSeries(g.test, byConns[g.connections], load), g))
		}
		i = j
	}
	return bars
}
