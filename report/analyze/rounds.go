package analyze

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/projection"
	"github.com/wra-bench/wra/stats"
)

// runRow is one run of the rounds and ranking tables.
type runRow struct {
	test, tool, server  string
	database, groupID   string
	connections         int64
	targetRPS           float64
	rps, mean, p50, p95 float64
	p99                 float64
	// goodput is the run's successful requests per second, allFailed
	// whether none succeeded, failure what failed them (run_outcomes).
	goodput          float64
	allFailed        bool
	failure          string
	failed, requests int64
	corrected        bool
	source           report.Source
	// driftPct is the largest calibration drift covering the run, in
	// percent (0 when no calibration pair covers it).
	driftPct float64
	// warning is what the reader said of the run (label warning), or "".
	warning string
	runID   string
	// split are the run's labels that tell experiments apart; variant
	// names those on which it differs from other runs of its test and
	// tool ("variant jwt"), empty when none does (see splitVariants).
	split   map[string]string
	variant string
	// mode and block are the run's mode and block (run_groups), block
	// "" where it has none.
	mode, block string
}

// runRows reads the runs of the rounds (rounds true) or ranking table,
// each counted once and with its group (the store's run_groups).
func (a *analysis) runRows(rounds bool) ([]runRow, error) {
	rows, err := a.st.RateRuns(a.ctx, rounds)
	if err != nil {
		return nil, err
	}
	out := make([]runRow, len(rows))
	for i, r := range rows {
		out[i] = runRow{test: r.Test, tool: r.Tool, server: r.Server, connections: r.Connections, targetRPS: r.TargetRPS,
			rps: r.RPS, mean: r.MeanMS, p50: r.P50MS, p95: r.P95MS, p99: r.P99MS,
			failed: r.Failed, requests: r.Requests, corrected: r.Corrected,
			source: report.Source{File: r.Source, Line: r.Line}, driftPct: r.DriftPct, warning: r.Warning, runID: r.RunID, split: r.Split,
			database: r.Database, groupID: r.GroupID, mode: r.Mode, block: r.Block,
			goodput: r.GoodputRPS, allFailed: r.AllFailed, failure: r.Failure}
	}
	return out, nil
}

// variants never pools what the labels tell apart: of n runs, with
// split(i) their labels that tell experiments apart (model.RateRun.Split:
// the factors of their group), cell(i) their configuration (test, tool,
// server, load) and scope(i) the table they are laid out in (test and
// tool), a label on which runs of one configuration disagree names their
// variant within their table ("variant jwt"; empty when no label splits
// the table). It returns each run's variant and the labels that split
// some table (projection.Splitting, the rule of wra table).
func variants(n int, split func(i int) map[string]string, cell, scope func(i int) string) ([]string, []string) {
	byScope := map[string][]int{}
	var scopes []string
	for i := 0; i < n; i++ {
		s := scope(i)
		if _, ok := byScope[s]; !ok {
			scopes = append(scopes, s)
		}
		byScope[s] = append(byScope[s], i)
	}
	out := make([]string, n)
	var all []string
	for _, s := range scopes {
		idx := byScope[s]
		var cands []string
		for _, i := range idx {
			for k := range split(i) {
				if !slices.Contains(cands, k) {
					cands = append(cands, k)
				}
			}
		}
		slices.Sort(cands)
		by := projection.Splitting(len(idx), cands, func(j int) string { return cell(idx[j]) }, func(j int, k string) string { return split(idx[j])[k] })
		for _, k := range by {
			if !slices.Contains(all, k) {
				all = append(all, k)
			}
		}
		for _, i := range idx {
			var parts []string
			for _, k := range by {
				v := split(i)[k]
				if v == "" {
					v = "(none)"
				}
				parts = append(parts, k+" "+v)
			}
			out[i] = strings.Join(parts, ", ")
		}
	}
	slices.Sort(all)
	return out, all
}

// splitNote is the footnote of a table split by labels.
func splitNote(split []string) string {
	return fmt.Sprintf("split by %s: the manifest's labels tell these runs apart from others of the same test and tool, so they are not pooled", strings.Join(split, ", "))
}

// splitVariants sets the variant of each run (see variants) and orders
// the rows by test, tool and variant.
func splitVariants(rows []runRow) []string {
	vs, split := variants(len(rows), func(i int) map[string]string { return rows[i].split }, func(i int) string {
		r := rows[i]
		return fmt.Sprint(r.test, "\x00", r.tool, "\x00", r.server, "\x00", r.database, "\x00", r.connections, "\x00", r.targetRPS)
	}, func(i int) string { return rows[i].test + "\x00" + rows[i].tool })
	for i := range rows {
		rows[i].variant = vs[i]
	}
	if len(split) > 0 {
		slices.SortStableFunc(rows, func(x, y runRow) int {
			return cmp.Or(cmp.Compare(x.test, y.test), cmp.Compare(x.tool, y.tool), cmp.Compare(x.variant, y.variant))
		})
	}
	return split
}

// goodputNote is the footnote of a table with a goodput column.
const goodputNote = "goodput: successful requests per second (requests/s × the share of requests that succeeded), shown where requests failed; the order, the best marks and the comparisons go by it, so that a server that answers fast with errors does not lead"

// failedNote footnotes a run whose every request failed, with what
// failed them where its report says.
func failedNote(r runRow) string {
	what := ""
	if r.failure != "" {
		what = " (" + r.failure + ")"
	}
	return fmt.Sprintf("%s:%d: every request failed%s: the run is listed last, never ranked or marked best", r.source.File, r.source.Line, what)
}

// warningNote footnotes what the reader said of a run (label warning).
func warningNote(n *notes, r runRow) {
	if r.warning != "" {
		n.add(fmt.Sprintf("%s:%d: %s", r.source.File, r.source.Line, r.warning))
	}
}

func connsText(c int64) any {
	if c < 0 {
		return nil
	}
	return c
}

// rounds is requests/s per server and connections, median of rounds with
// p99 beside it, the best of each column marked; one table per test and
// tool.
func (a *analysis) rounds(rows []runRow, split []string) *Section {
	sec := &Section{ID: "rounds", Title: "Throughput by rounds"}
	if len(rows) == 0 {
		sec.Skipped = "no group of two or more runs (rounds): every run is the only one of its configuration"
		return sec
	}
	type group struct {
		runs []runRow
	}
	var groups []*group
	for i, r := range rows {
		if i == 0 || r.groupID != rows[i-1].groupID {
			groups = append(groups, &group{})
		}
		groups[len(groups)-1].runs = append(groups[len(groups)-1].runs, r)
	}
	var d *report.Data
	var n *notes
	type testBars struct {
		test string
		bars []report.BarGroup
	}
	var byTest []testBars
	var marks []bestRow // per row of d, for marking the best
	var cv *caveatNotes
	flush := func() {
		if d == nil {
			return
		}
		pairedFastest(d, n, marks)
		a.orderByFirstLoad(d, n, marks)
		a.markBest(d, n, marks)
		if d.DropEmpty("database", "target_rps", "connections", "goodput_rps", "p99_ms", "vs_fastest_ratio", "vs_fastest_low", "vs_fastest_high", "vs_fastest_coverage", "vs_fastest_trials"); slices.ContainsFunc(d.Columns, func(c report.Column) bool { return c.Name == "goodput_rps" }) {
			n.add(goodputNote)
		}
		cv.to(n)
		d.Notes = n.list
		sec.Tables = append(sec.Tables, d)
	}
	for i, g := range groups {
		r0 := g.runs[0]
		if i == 0 || r0.test != groups[i-1].runs[0].test || r0.tool != groups[i-1].runs[0].tool || r0.variant != groups[i-1].runs[0].variant {
			flush()
			n = &notes{}
			cv = a.newCaveats()
			marks = nil
			what := r0.tool
			if r0.variant != "" {
				what += ", " + r0.variant
			}
			d = &report.Data{
				Title: fmt.Sprintf("Rounds: %s, %s (median of rounds)", orDash(r0.test), what),
				Name:  testName(r0.test) + " " + what,
				Columns: []report.Column{
					col("server", "server", nil), col("database", "database", nil), col("connections", "connections", nil), col("target_rps", "target rps", Sig),
					col("rounds", "rounds", nil), col("rps", "requests/s", Sig), col("rps_min", "min", Sig), col("rps_max", "max", Sig),
					col("goodput_rps", "goodput", Sig),
					col("p99_ms", "p99 ms", Sig), col("failed", "failed", nil),
					col("vs_fastest_ratio", "vs fastest, within trials", times), col("vs_fastest_low", "low", Sig), col("vs_fastest_high", "high", Sig),
					{Name: "vs_fastest_coverage", Machine: true}, {Name: "vs_fastest_trials", Machine: true},
				},
			}
			if len(split) > 0 {
				n.add(splitNote(split))
			}
		}
		var rps, goodput, p99 []float64
		var failed int64
		var srcs []report.Source
		drift := 0.0
		allFailed := true
		for _, r := range g.runs {
			rps = append(rps, r.rps)
			if !math.IsNaN(r.goodput) {
				goodput = append(goodput, r.goodput)
			}
			if !math.IsNaN(r.p99) && !r.allFailed {
				p99 = append(p99, r.p99)
			}
			failed += r.failed
			allFailed = allFailed && r.allFailed
			srcs = append(srcs, r.source)
			drift = max(drift, r.driftPct)
			warningNote(n, r)
			if r.allFailed {
				n.add(failedNote(r))
			}
		}
		sum := stats.Summarize(rps)
		summaryNotes(n, "requests/s", sum)
		p99Sum := stats.Summarize(p99)
		p99Med := p99Sum.Median
		gpSum := stats.Summarize(goodput)
		var gpCell any
		if failed > 0 {
			gpCell = rounded(gpSum.Median, gpSum.Min, gpSum.Max)
		}
		d.Rows = append(d.Rows, []any{r0.server, nullIfEmpty(r0.database), connsText(r0.connections), num(r0.targetRPS), int64(sum.N),
			rounded(sum.Median, sum.Min, sum.Max), rounded(sum.Min, sum.Min, sum.Max), rounded(sum.Max, sum.Min, sum.Max), gpCell,
			rounded(p99Med, p99Sum.Min, p99Sum.Max), failed,
			nil, nil, nil, nil, nil}) // vs fastest: pairedFastest
		cv.add(a.rowName(r0.server, r0.database, "")+" "+loadName(loadKey(r0)), []string{r0.groupID})
		d.RowSources = append(d.RowSources, srcs)
		order := gpSum.Median
		if allFailed || len(goodput) == 0 {
			order = math.Inf(-1)
		}
		marks = append(marks, bestRow{load: loadKey(r0), name: a.rowName(r0.server, r0.database, ""), fixedRate: !math.IsNaN(r0.targetRPS),
			rps: stats.Entry{Values: goodput, DriftPct: drift}, p99: stats.Entry{Values: p99, DriftPct: drift}, allFailed: allFailed, order: order,
			rpsByBlock: byBlock(g.runs, func(r runRow) string { return r.block }, func(r runRow) float64 { return r.goodput })})
		// A fixed-rate run's requests/s is its target: only runs at full
		// speed are drawn, one chart per test, a series per tool and
		// connections.
		if math.IsNaN(r0.targetRPS) {
			if len(byTest) == 0 || byTest[len(byTest)-1].test != r0.test {
				byTest = append(byTest, testBars{test: r0.test})
			}
			tb := &byTest[len(byTest)-1]
			series := seriesName(r0.test, r0.tool, loadName(loadKey(r0))[3:], r0.variant)
			tb.bars = append(tb.bars, report.BarGroup{Label: r0.server, Series: series, Values: rps})
		}
	}
	flush()
	for _, tb := range byTest {
		sec.Figures = append(sec.Figures, Figure{Name: "throughput-" + report.Slug(testName(tb.test)),
			Caption: fmt.Sprintf("Requests/s of %s at full speed by server, per tool and connections: median bar, min–max whisker, each round a dot", orDash(tb.test)),
			Figure:  &report.BarChart{Title: "Throughput: " + orDash(tb.test) + " at full speed", XLabel: "server", YLabel: "requests/s", Groups: tb.bars}})
	}
	return sec
}

// bestRow is what a row of a rounds table is compared by: its load (rows
// are compared only at the same load), its rounds' requests/s and p99.
type bestRow struct {
	load      string
	name      string
	fixedRate bool
	// rps are the goodput of the rounds, which the best marks and the
	// comparisons within trials go by; allFailed a row whose every
	// request failed, never marked; order the row's figure for the order
	// of the servers (-Inf: last).
	rps, p99  stats.Entry
	allFailed bool
	order     float64
	// rpsByBlock are the requests/s of the rounds by their block (trial)
	rpsByBlock map[string][]float64
}

// pairedFastest fills the "vs fastest, within trials" cells of a rounds
// table (its last five columns): at each load at full speed, each row's
// requests/s over the fastest row's (the highest median) in each trial
// both ran in (pairedBlocks, the figure of the CPU tables); empty where
// the rows share fewer than two trials, and for fixed-rate rows, whose
// requests/s is their target.
func pairedFastest(d *report.Data, n *notes, rows []bestRow) {
	fastest := map[string]int{}
	for i, r := range rows {
		if r.fixedRate || r.allFailed || len(r.rps.Values) == 0 {
			continue
		}
		if j, ok := fastest[r.load]; !ok || stats.Median(r.rps.Values) > stats.Median(rows[j].rps.Values) {
			fastest[r.load] = i
		}
	}
	paired := false
	for i, r := range rows {
		j, ok := fastest[r.load]
		if !ok || j == i || r.fixedRate {
			continue
		}
		if p := pairedBlocks(rows[j].rpsByBlock, r.rpsByBlock); p != nil {
			paired = true
			copy(d.Rows[i][len(d.Rows[i])-5:], []any{num(p.Median), num(p.Low), num(p.High), num(p.Coverage), int64(p.N)})
		}
	}
	if paired {
		n.add("vs fastest, within trials: the row's requests/s over the fastest row's at the same load, in each trial both ran in, median over the trials, low to high the sign test's distribution-free interval of the median ratio; a drift of the machine's speed that a trial's runs share cancels in the ratio, so this compares rows where the medians alone are swamped by drift")
	}
}

// testName is a test in a file name: "no-test" without a test label.
func testName(test string) string {
	if test == "" {
		return "no-test"
	}
	return test
}

// connsName is a connection count in a file name: c16, or full-speed
// when unknown.
func connsName(c int64) string {
	if c < 0 {
		return "full-speed"
	}
	return "c" + strconv.FormatInt(c, 10)
}

// rateName is a rate in a file name: 250rps, or full-speed for none.
func rateName(rps float64) string {
	if math.IsNaN(rps) {
		return "full-speed"
	}
	return strconv.FormatFloat(rps, 'g', -1, 64) + "rps"
}

// loadKey names the load of a run: full speed at C connections, or a
// fixed rate of R requests/s.
func loadKey(r runRow) string {
	if !math.IsNaN(r.targetRPS) {
		return "r" + strconv.FormatFloat(r.targetRPS, 'g', -1, 64)
	}
	return "c" + strconv.FormatInt(r.connections, 10)
}

// tieRule is the rule of shared places and best marks.
func (a *analysis) tieRule() stats.TieRule {
	return stats.TieRule{Alpha: a.opts.Alpha, TiePct: a.opts.TiePct}
}

// markBest marks, among the rows at one load, the highest requests/s and
// the lowest p99, and every row the tie rule cannot tell apart from the
// best (stats.RankTies). The requests/s of a fixed-rate run is its
// target, not a result, so it is never marked.
func (a *analysis) markBest(d *report.Data, n *notes, rows []bestRow) {
	rpsCol := slices.IndexFunc(d.Columns, func(c report.Column) bool { return c.Name == "rps" })
	p99Col := slices.IndexFunc(d.Columns, func(c report.Column) bool { return c.Name == "p99_ms" })
	var loads []string
	at := map[string][]int{}
	for i, r := range rows {
		if _, ok := at[r.load]; !ok {
			loads = append(loads, r.load)
		}
		at[r.load] = append(at[r.load], i)
	}
	marked, fixed, byRange := false, false, false
	var none, shared []string
	mark := func(all []int, c int, entry func(bestRow) stats.Entry, higher bool) {
		idx := slices.DeleteFunc(slices.Clone(all), func(i int) bool { return rows[i].allFailed })
		if len(idx) < 2 {
			return
		}
		entries := make([]stats.Entry, len(idx))
		for j, i := range idx {
			entries[j] = entry(rows[i])
		}
		best := stats.BestOf(entries, higher, a.tieRule())
		byRange = byRange || best.ByRange
		what := d.Columns[c].Title + " " + loadName(rows[idx[0]].load)
		if best.All {
			none = append(none, what)
			return
		}
		var names []string
		for _, j := range best.Index {
			names = append(names, rows[idx[j]].name)
			d.Rows[idx[j]][c] = report.MarkBest(d.Rows[idx[j]][c])
			marked = true
		}
		if len(names) > 1 {
			shared = append(shared, what+": "+strings.Join(names, ", "))
		}
	}
	for _, l := range loads {
		idx := at[l]
		if len(idx) < 2 {
			continue
		}
		if rows[idx[0]].fixedRate {
			fixed = true
		} else {
			mark(idx, rpsCol, func(r bestRow) stats.Entry { return r.rps }, true)
		}
		mark(idx, p99Col, func(r bestRow) stats.Entry { return r.p99 }, false)
	}
	rule := a.tieRule().String()
	if marked {
		n.add("the best value of each column at each load is marked (* on a terminal, bold elsewhere): highest requests/s, lowest p99, where it is best beyond the noise of the rounds (" + rule + ")")
	}
	if len(shared) > 0 {
		n.add("tied for best and marked together, no one of them told apart from the first: " + strings.Join(shared, "; "))
	}
	switch {
	case len(none) > 0 && !marked:
		n.add("no value is marked best: at each load the rows are inside the noise of each other (" + rule + ")")
	case len(none) > 0:
		n.add("not marked, the rows being inside the noise of each other: " + strings.Join(none, "; "))
	}
	if byRange {
		n.add(fmt.Sprintf("with fewer than 4 rounds against 4 the two-sided Mann–Whitney test cannot reach alpha %g (3 against 3: p >= 0.1): such rows are told apart when the ranges of their rounds do not overlap",
			a.tieRule().Alpha))
	}
	if fixed {
		n.add("the requests/s of a fixed-rate run is its target, so it is not marked")
	}
}

// loadName is a load key for people: "at 16 connections", "at 250
// requests/s".
func loadName(key string) string {
	v := key[1:]
	if key[0] == 'r' {
		x, _ := strconv.ParseFloat(v, 64)
		return "at " + Sig(x) + " requests/s"
	}
	if v == "-1" {
		return "at full speed"
	}
	return "at " + v + " connections"
}

// seriesName is the legend entry of the runs of one test, tool and load
// ("db, wrk2, 16 connections", "one, wrk2, 250 requests/s"), followed by
// whatever else tells them apart from the other series of the plot (a
// variant, a database; empty ones are left out): every plot of the report
// names its series so.
func seriesName(test, tool, load string, more ...string) string {
	name := orDash(test) + ", " + tool + ", " + load
	for _, m := range more {
		if m != "" {
			name += ", " + m
		}
	}
	return name
}

func sameFloat(x, y float64) bool {
	return x == y || (math.IsNaN(x) && math.IsNaN(y))
}

// ranking ranks single runs (no round label) by requests/s, one table per
// test, tool and load: runs at full speed are ranked only against runs of
// the same tool at the same connections; runs at a fixed rate are not
// ranked at all (their requests/s is their target) but reported by
// whether they held it (see heldAtRate).
func (a *analysis) ranking(singles, repeated []runRow) (*Section, error) {
	sec := &Section{ID: "ranking", Title: "Single-run ranking"}
	rows := singles
	if len(rows) == 0 {
		sec.Skipped = "no single runs: every configuration ran two or more times (see the rounds)"
		return sec, nil
	}
	spread := toolSpreads(repeated)
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && rows[j].test == rows[i].test && rows[j].tool == rows[i].tool && loadKey(rows[j]) == loadKey(rows[i]) &&
			rows[j].variant == rows[i].variant {
			j++
		}
		if math.IsNaN(rows[i].targetRPS) {
			sec.Tables = append(sec.Tables, a.rankTable(rows[i:j], spread))
		} else {
			d, err := a.heldAtRate(rows[i:j])
			if err != nil {
				return nil, err
			}
			sec.Tables = append(sec.Tables, d)
		}
		i = j
	}
	return sec, nil
}

// sortSingles orders single runs as the ranking lays them out: by test,
// tool, variant (see variants: what tells runs of one test and tool
// apart), connections and target rate (full speed first). It returns
// the labels that split them.
func sortSingles(rows []runRow) []string {
	split := splitVariants(rows)
	slices.SortStableFunc(rows, func(x, y runRow) int {
		return cmp.Or(cmp.Compare(x.test, y.test), cmp.Compare(x.tool, y.tool), cmp.Compare(x.variant, y.variant),
			cmp.Compare(x.connections, y.connections), cmpNaNLast(x.targetRPS, y.targetRPS))
	})
	return split
}

// loadText names a load for a title.
func loadText(r runRow) string {
	switch {
	case !math.IsNaN(r.targetRPS):
		return "at " + Sig(r.targetRPS) + " requests/s"
	case r.connections >= 0:
		return fmt.Sprintf("at full speed, %d connections", r.connections)
	}
	return "at full speed"
}

// toolSpreads is, per tool, the spread its repeated runs show: over the
// groups of rows (runs with a round) with two or more runs, the median of
// their requests/s range, (max − min) / median, in percent. A tool
// without repeated runs has none.
func toolSpreads(rows []runRow) map[string]float64 {
	ranges := map[string][]float64{}
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && rows[j].groupID == rows[i].groupID {
			j++
		}
		var rps []float64
		for _, r := range rows[i:j] {
			if !math.IsNaN(r.rps) {
				rps = append(rps, r.rps)
			}
		}
		if len(rps) >= 2 {
			if med := stats.Median(rps); med > 0 {
				ranges[rows[i].tool] = append(ranges[rows[i].tool], 100*(slices.Max(rps)-slices.Min(rps))/med)
			}
		}
		i = j
	}
	out := map[string]float64{}
	for tool, v := range ranges {
		out[tool] = stats.Median(v)
	}
	return out
}

// rankTable orders the full-speed runs of one test, tool and connections
// by requests/s. A single run shows no spread, so neighbours share a place
// when they differ by less than the spread the same tool shows on its
// repeated runs (toolSpreads), or, where none is known, by the tie rule's
// percentage, and the table says that its order cannot rank.
func (a *analysis) rankTable(cur []runRow, spread map[string]float64) *report.Data {
	r0 := cur[0]
	rule := a.tieRule()
	sp, known := spread[r0.tool]
	sp = math.Ceil(sp*10) / 10 // a tenth of a percent, rounded up: the rule printed is the rule applied
	if known && sp > rule.TiePct {
		rule.TiePct = sp
	}
	what := r0.tool
	if r0.variant != "" {
		what += ", " + r0.variant
	}
	d := &report.Data{
		Title: fmt.Sprintf("Single runs: %s, %s %s, ranked by requests/s", orDash(r0.test), what, loadText(r0)),
		Name:  testName(r0.test) + " " + what + " " + connsName(r0.connections),
		Columns: []report.Column{
			col("rank", "rank", nil), {Name: "tied", Machine: true}, col("server", "server", nil), col("database", "database", nil),
			col("rps", "requests/s", Sig), col("goodput_rps", "goodput", Sig), col("mean_ms", "mean ms", Sig),
			col("p50_ms", "p50 ms", Sig), col("p95_ms", "p95 ms", Sig), col("p99_ms", "p99 ms", Sig),
			col("failed", "failed", nil), col("latency_corrected", "corrected", nil),
		},
	}
	n := &notes{}
	if known {
		n.add(fmt.Sprintf("single runs cannot rank: the order is one run each, and rows share a place when they differ by less than %s%%, the median spread (max − min over median) of %s's repeated runs here, or the tie rule's, when larger",
			strconv.FormatFloat(sp, 'f', 1, 64), r0.tool))
	} else {
		n.add(fmt.Sprintf("single runs cannot rank: the order is one run each, and no spread of %s's repeated runs is known here to tell a difference from noise; rows share a place only under the tie rule", r0.tool))
	}
	cv := a.newCaveats()
	// Runs whose every request failed are no contenders: they come last,
	// unranked, with their failure.
	var ranked, failed []runRow
	for _, r := range cur {
		if r.allFailed {
			failed = append(failed, r)
		} else {
			ranked = append(ranked, r)
		}
	}
	entries := make([]stats.Entry, len(ranked))
	for i, r := range ranked {
		entries[i] = stats.Entry{Values: []float64{r.goodput}, DriftPct: r.driftPct}
	}
	tied, anyFailed := false, false
	row := func(rank any, tie bool, r runRow) {
		var gp any
		if r.failed > 0 {
			gp, anyFailed = num(r.goodput), true
		}
		var mean, p50, p95, p99 any
		if !r.allFailed {
			mean, p50, p95, p99 = num(r.mean), num(r.p50), num(r.p95), num(r.p99)
		}
		cv.add(a.rowName(r.server, r.database, ""), []string{r.groupID})
		d.Rows = append(d.Rows, []any{rank, tie, r.server, nullIfEmpty(r.database),
			num(r.rps), gp, mean, p50, p95, p99, r.failed, r.corrected})
		d.RowSources = append(d.RowSources, []report.Source{r.source})
		warningNote(n, r)
	}
	for _, p := range stats.RankTies(entries, true, rule) {
		tied = tied || p.Tied
		row(report.Rank{N: p.Rank, Tied: p.Tied}, p.Tied, ranked[p.Index])
	}
	for _, r := range failed {
		row(nil, false, r)
		n.add(failedNote(r))
	}
	if anyFailed {
		n.add(goodputNote)
	}
	if tied {
		n.add("=N: a place shared by neighbours inside the noise (" + rule.String() + ")")
	}
	d.DropEmpty("database", "goodput_rps", "mean_ms", "p50_ms", "p95_ms", "p99_ms")
	cv.to(n)
	d.Notes = n.list
	return d
}

// heldAtRate reports the fixed-rate runs of one test, tool and target
// rate by whether each held it: the rate achieved, the latency, the
// failures, and held as the store's rate_held macro says under the ladder
// rule with at least MinAchievedRatio of the target achieved.
func (a *analysis) heldAtRate(cur []runRow) (*report.Data, error) {
	r0 := cur[0]
	rule := a.opts.LadderRule
	heldByRun, err := a.st.RatesHeld(a.ctx, rule.P95MS, rule.MaxErrorRate, rule.MinAchievedRatio)
	if err != nil {
		return nil, err
	}
	d := &report.Data{
		Title: fmt.Sprintf("Single runs: %s, %s %s, held or not", orDash(r0.test), r0.tool, loadText(r0)),
		Name:  testName(r0.test) + " " + r0.tool + " " + rateName(r0.targetRPS),
		Columns: []report.Column{
			col("server", "server", nil), col("database", "database", nil), col("target_rps", "target rps", Sig), col("achieved_rps", "achieved rps", Sig),
			col("achieved_ratio", "achieved", Pct), col("p95_ms", "p95 ms", Sig), col("p99_ms", "p99 ms", Sig),
			col("failed", "failed", nil), col("held", "held", nil), col("latency_corrected", "corrected", nil),
		},
	}
	n := &notes{}
	cv := a.newCaveats()
	for _, r := range cur {
		held := heldByRun[r.runID]
		cv.add(a.rowName(r.server, r.database, ""), []string{r.groupID})
		d.Rows = append(d.Rows, []any{r.server, nullIfEmpty(r.database), num(r.targetRPS), num(r.rps), num(r.rps / r.targetRPS),
			num(r.p95), num(r.p99), r.failed, held, r.corrected})
		d.RowSources = append(d.RowSources, []report.Source{r.source})
		if math.IsNaN(r.p95) {
			n.add(fmt.Sprintf("%s has no p95 latency: held is false for want of it", a.serverName(r.server)))
		}
		warningNote(n, r)
	}
	n.add(fmt.Sprintf("a fixed-rate run's requests/s is its target, so these runs are not ranked; held: p95 < %g ms, errors < %g%% and at least %g%% of the target achieved",
		rule.P95MS, rule.MaxErrorRate*100, rule.MinAchievedRatio*100))
	d.DropEmpty("database", "p95_ms", "p99_ms")
	cv.to(n)
	d.Notes = n.list
	return d, nil
}

// serverName names a server in a footnote.
func serverName(s string) string {
	if s == "" {
		return "(no server label)"
	}
	return s
}

// rounded is a figure of a row with the range of the rounds (passes)
// behind it, lo to hi: people read it at the one precision its column's
// spreads support (report.RoundColumns).
func rounded(x, lo, hi float64) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return report.Cell{Value: x, Spread: &report.Spread{Lo: lo, Hi: hi}}
}
