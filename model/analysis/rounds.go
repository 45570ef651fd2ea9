package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// runRow is one run of the rounds and ranking tables: the run as the
// store reads it (model.RateRun), with its variant, the labels on which
// it differs from other runs of its test and tool ("variant jwt"), empty
// when none does (see splitVariants).
type runRow struct {
	model.RateRun
	variant string
}

// source is where the run was read.
func (r runRow) source() model.Source { return model.Source{File: r.Source, Line: r.Line} }

// runRows reads the runs of the rounds (rounds true) or ranking table,
// each counted once and with its group (the store's run_groups).
func (a *analysis) runRows(rounds bool) ([]runRow, error) {
	rows, err := a.st.RateRuns(a.ctx, rounds)
	if err != nil {
		return nil, err
	}
	out := make([]runRow, len(rows))
	for i, r := range rows {
		out[i] = runRow{RateRun: r}
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
// some table (model.Splitting, the rule of wra table).
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
		by := model.Splitting(len(idx), cands, func(j int) string { return cell(idx[j]) }, func(j int, k string) string { return split(idx[j])[k] })
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
	vs, split := variants(len(rows), func(i int) map[string]string { return rows[i].Split }, func(i int) string {
		r := rows[i]
		return fmt.Sprint(r.Test, "\x00", r.Tool, "\x00", r.Server, "\x00", r.Database, "\x00", r.Connections, "\x00", r.TargetRPS)
	}, func(i int) string { return rows[i].Test + "\x00" + rows[i].Tool })
	for i := range rows {
		rows[i].variant = vs[i]
	}
	if len(split) > 0 {
		slices.SortStableFunc(rows, func(x, y runRow) int {
			return cmp.Or(cmp.Compare(x.Test, y.Test), cmp.Compare(x.Tool, y.Tool), cmp.Compare(x.variant, y.variant))
		})
	}
	return split
}

// GoodputNote is the footnote of a table with a goodput column.
const GoodputNote = "goodput: successful requests per second (requests/s × the share of requests that succeeded), shown where requests failed; the order, the best marks and the comparisons go by it, so that a server that answers fast with errors does not lead"

// failedNote footnotes a run whose every request failed, with what
// failed them where its report says.
func failedNote(r runRow) string {
	what := ""
	if r.Failure != "" {
		what = " (" + r.Failure + ")"
	}
	return fmt.Sprintf("%s:%d: every request failed%s: the run is listed last, never ranked or marked best", r.source().File, r.source().Line, what)
}

// warningNote footnotes what the reader said of a run (label warning).
func warningNote(n *notes, r runRow) {
	if r.Warning != "" {
		n.add(fmt.Sprintf("%s:%d: %s", r.source().File, r.source().Line, r.Warning))
	}
}

// RoundsSection is requests/s per server and load, median of rounds:
// one table per test, tool and variant, and a bar plot per test of the
// runs at full speed.
type RoundsSection struct {
	Skipped string
	Tables  []RoundsTable
	Plots   []ThroughputPlot
}

// ThroughputPlot is the requests/s of one test at full speed: a bar per
// server, a series per tool and connections, each round a dot.
type ThroughputPlot struct {
	Test string
	Bars []Bar
}

// RoundsTable is the groups of one test and tool (What: the tool and
// the variant that tells the table apart).
type RoundsTable struct {
	Test, What string
	Rows       []RoundsRow
	Notes      []string
}

// RoundsRow is one group: its rounds' requests/s (median, min, max),
// goodput (median, min, max; Goodput false where nothing failed) and
// p99 (median and range, of the rounds that got an answer), the failed
// requests summed, the paired ratio to the fastest row at its load
// within trials, and the best marks of its requests/s and p99.
type RoundsRow struct {
	Server, Database          string
	Connections               int64   // -1 where not recorded
	TargetRPS                 float64 // NaN at full speed
	Rounds                    int64
	RPS, RPSMin, RPSMax       float64
	Goodput                   bool
	GoodputRPS, GoodputMin    float64
	GoodputMax                float64
	P99MS, P99MinMS, P99MaxMS float64
	Failed                    int64
	VsFastest                 *stats.Paired
	BestRPS, BestP99          bool
	Sources                   []model.Source
}

// roundRow is a row with what it is compared by.
type roundRow struct {
	RoundsRow
	mark bestRow
}

// rounds is requests/s per server and connections, median of rounds with
// p99 beside it, the best of each column marked; one table per test and
// tool.
func (a *analysis) rounds(rows []runRow, split []string) RoundsSection {
	var sec RoundsSection
	if len(rows) == 0 {
		sec.Skipped = "no group of two or more runs (rounds): every run is the only one of its configuration"
		return sec
	}
	var groups [][]runRow
	for i, r := range rows {
		if i == 0 || r.GroupID != rows[i-1].GroupID {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], r)
	}
	var t *RoundsTable
	var cur []roundRow
	var n *notes
	var cv *caveatNotes
	flush := func() {
		if t == nil {
			return
		}
		pairedFastest(cur, n)
		cur = a.orderByFirstLoad(cur, n)
		a.markBest(cur, n)
		goodput := false
		for _, r := range cur {
			t.Rows = append(t.Rows, r.RoundsRow)
			goodput = goodput || r.Goodput && !math.IsNaN(r.GoodputRPS) && !math.IsInf(r.GoodputRPS, 0)
		}
		t.Rows = byManifest(t.Rows, a.disp, func(r RoundsRow) string { return r.Server })
		if goodput {
			n.add(GoodputNote)
		}
		cv.to(n)
		t.Notes = n.list
		sec.Tables = append(sec.Tables, *t)
	}
	for i, g := range groups {
		r0 := g[0]
		if i == 0 || r0.Test != groups[i-1][0].Test || r0.Tool != groups[i-1][0].Tool || r0.variant != groups[i-1][0].variant {
			flush()
			n = &notes{}
			cv = a.newCaveats()
			cur = nil
			what := r0.Tool
			if r0.variant != "" {
				what += ", " + r0.variant
			}
			t = &RoundsTable{Test: r0.Test, What: what}
			if len(split) > 0 {
				n.add(splitNote(split))
			}
		}
		// The row's figures are the group's (run_medians); its runs'
		// values are what the best marks, the paired ratios and the
		// median's interval are made of.
		fig := a.fig(r0.GroupID)
		var rps, goodput, p99 []float64
		var srcs []model.Source
		drift := 0.0
		for _, r := range g {
			rps = append(rps, r.RPS)
			if !math.IsNaN(r.GoodputRPS) {
				goodput = append(goodput, r.GoodputRPS)
			}
			if !math.IsNaN(r.P99MS) && !r.AllFailed {
				p99 = append(p99, r.P99MS)
			}
			srcs = append(srcs, r.source())
			drift = max(drift, r.DriftPct)
			warningNote(n, r)
			if r.AllFailed {
				n.add(failedNote(r))
			}
		}
		summaryNotes(n, "requests/s", stats.Summarize(rps))
		row := RoundsRow{Server: r0.Server, Database: r0.Database, Connections: r0.Connections, TargetRPS: r0.TargetRPS, Rounds: fig.RPSPasses,
			RPS: fig.RPSMedian, RPSMin: fig.RPSMin, RPSMax: fig.RPSMax,
			Goodput: fig.FailedTotal > 0, GoodputRPS: fig.GoodputMedian, GoodputMin: fig.GoodputMin, GoodputMax: fig.GoodputMax,
			P99MS: fig.P99MSMedian, P99MinMS: fig.P99MSMin, P99MaxMS: fig.P99MSMax, Failed: fig.FailedTotal, Sources: srcs}
		cv.add(a.rowName(r0.Server, r0.Database, "")+" "+loadName(loadKey(r0)), []string{r0.GroupID})
		order := fig.GoodputMedian
		if fig.AllFailed || len(goodput) == 0 {
			order = math.Inf(-1)
		}
		cur = append(cur, roundRow{RoundsRow: row, mark: bestRow{load: loadKey(r0), name: a.rowName(r0.Server, r0.Database, ""), fixedRate: !math.IsNaN(r0.TargetRPS),
			rps: stats.Entry{Values: goodput, DriftPct: drift}, p99: stats.Entry{Values: p99, DriftPct: drift}, allFailed: fig.AllFailed, order: order,
			rpsByBlock: byBlock(g, func(r runRow) string { return r.Block }, func(r runRow) float64 { return r.GoodputRPS })}})
		// A fixed-rate run's requests/s is its target: only runs at full
		// speed are drawn, one chart per test, a series per tool and
		// connections.
		if math.IsNaN(r0.TargetRPS) {
			if len(sec.Plots) == 0 || sec.Plots[len(sec.Plots)-1].Test != r0.Test {
				sec.Plots = append(sec.Plots, ThroughputPlot{Test: r0.Test})
			}
			tp := &sec.Plots[len(sec.Plots)-1]
			series := seriesName(r0.Test, r0.Tool, loadName(loadKey(r0))[3:], r0.variant)
			tp.Bars = append(tp.Bars, Bar{Label: r0.Server, Series: series, Values: rps, Median: fig.RPSMedian})
		}
	}
	flush()
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

// pairedFastest sets the paired ratio of each row of a rounds table to
// the fastest row at its load (the highest median) at full speed, in
// each trial both ran in (pairedBlocks, the figure of the CPU tables);
// none where the rows share fewer than two trials, and for fixed-rate
// rows, whose requests/s is their target.
func pairedFastest(rows []roundRow, n *notes) {
	fastest := map[string]int{}
	for i, r := range rows {
		m := r.mark
		if m.fixedRate || m.allFailed || len(m.rps.Values) == 0 {
			continue
		}
		if j, ok := fastest[m.load]; !ok || r.GoodputRPS > rows[j].GoodputRPS {
			fastest[m.load] = i
		}
	}
	paired := false
	for i := range rows {
		r := &rows[i]
		j, ok := fastest[r.mark.load]
		if !ok || j == i || r.mark.fixedRate {
			continue
		}
		if p := pairedBlocks(rows[j].mark.rpsByBlock, r.mark.rpsByBlock); p != nil {
			paired = true
			r.VsFastest = p
		}
	}
	if paired {
		n.add("vs fastest, within trials: the row's requests/s over the fastest row's at the same load, in each trial both ran in, median over the trials, low to high the sign test's distribution-free interval of the median ratio; a drift of the machine's speed that a trial's runs share cancels in the ratio, so this compares rows where the medians alone are swamped by drift")
	}
}

// orderByFirstLoad orders the servers of a rounds table, when the
// manifest gives them no order, by the median goodput of each one's
// first row (its lowest load: bestRow.order), highest first, a server
// whose every request failed last, keeping each server's rows together
// and in their order. The footnote says so.
func (a *analysis) orderByFirstLoad(rows []roundRow, n *notes) []roundRow {
	if a.disp.Ordered("server") || len(rows) < 2 {
		return rows
	}
	first := map[string]float64{}
	var servers []string
	for _, r := range rows {
		if _, ok := first[r.Server]; !ok {
			servers = append(servers, r.Server)
			first[r.Server] = r.mark.order
		}
	}
	if len(servers) < 2 {
		return rows
	}
	slices.SortStableFunc(servers, func(x, y string) int { return cmp.Compare(first[y], first[x]) })
	rank := map[string]int{}
	for i, s := range servers {
		rank[s] = i
	}
	order := identity(len(rows))
	slices.SortStableFunc(order, func(x, y int) int { return rank[rows[x].Server] - rank[rows[y].Server] })
	n.add("servers in order of their median requests/s at their first load, highest first; [labels.server] order = [...] in wra.toml sets another")
	return permute(rows, order)
}

// loadKey names the load of a run: full speed at C connections, or a
// fixed rate of R requests/s.
func loadKey(r runRow) string {
	if !math.IsNaN(r.TargetRPS) {
		return "r" + strconv.FormatFloat(r.TargetRPS, 'g', -1, 64)
	}
	return "c" + strconv.FormatInt(r.Connections, 10)
}

// tieRule is the rule of shared places and best marks.
func (a *analysis) tieRule() stats.TieRule {
	return stats.TieRule{Alpha: a.opts.Alpha, TiePct: a.opts.TiePct}
}

// markBest marks, among the rows at one load, the highest requests/s and
// the lowest p99, and every row the tie rule cannot tell apart from the
// best (stats.RankTies). The requests/s of a fixed-rate run is its
// target, not a result, so it is never marked.
func (a *analysis) markBest(rows []roundRow, n *notes) {
	var loads []string
	at := map[string][]int{}
	for i, r := range rows {
		if _, ok := at[r.mark.load]; !ok {
			loads = append(loads, r.mark.load)
		}
		at[r.mark.load] = append(at[r.mark.load], i)
	}
	marked, fixed, byRange := false, false, false
	var none, shared []string
	mark := func(all []int, title string, entry func(bestRow) stats.Entry, higher bool, set func(*RoundsRow)) {
		idx := slices.DeleteFunc(slices.Clone(all), func(i int) bool { return rows[i].mark.allFailed })
		if len(idx) < 2 {
			return
		}
		entries := make([]stats.Entry, len(idx))
		for j, i := range idx {
			entries[j] = entry(rows[i].mark)
		}
		best := stats.BestOf(entries, higher, a.tieRule())
		byRange = byRange || best.ByRange
		what := title + " " + loadName(rows[idx[0]].mark.load)
		if best.All {
			none = append(none, what)
			return
		}
		var names []string
		for _, j := range best.Index {
			names = append(names, rows[idx[j]].mark.name)
			set(&rows[idx[j]].RoundsRow)
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
		if rows[idx[0]].mark.fixedRate {
			fixed = true
		} else {
			mark(idx, "requests/s", func(r bestRow) stats.Entry { return r.rps }, true, func(r *RoundsRow) { r.BestRPS = true })
		}
		mark(idx, "p99 ms", func(r bestRow) stats.Entry { return r.p99 }, false, func(r *RoundsRow) { r.BestP99 = true })
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
