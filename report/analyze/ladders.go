package analyze

import (
	"fmt"
	"math"
	"strings"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// A LadderRun is one run of a held-rate ladder: its steps as the store's
// ladder_steps macro gives them, its result as the ladders macro judges it
// (the one definition of the rule; stats.Ladder reads it).
type LadderRun struct {
	Kind, Server, Test, Tool, Run string
	Database                      string // "" where its runs name none
	Variant                       string // run_groups.variant of its runs
	Round                         int64  // -1 where the runs have no round
	Result                        stats.LadderResult
	Sources                       []report.Source // of its steps
	// What its source did not keep, for a summary's steps: how many
	// steps have no failure count of their own (the rule was applied to
	// the rest; RunErrorRate is the whole run's), how many no achieved
	// rate.
	FailuresUnknown, AchievedUnknown int
	RunErrorRate                     float64
}

// LadderRuns groups the rows of ladder_steps (ordered by kind, server,
// database, test, tool and run, as the store reads them) into ladder
// runs, each with the verdict of its row of the ladders macro read under
// the same rule: the one builder of ladders for wra analyze and wra
// compare. Steps whose name is not a rate are left out, as the ladders
// macro leaves them out. rule is the one the rows were read under; it
// only names the rule in the results.
func LadderRuns(rows []model.LadderStepRow, verdicts []model.LadderRow, rule stats.LadderRule) []LadderRun {
	type key struct{ kind, server, database, test, tool, run string }
	byKey := map[key]stats.LadderVerdict{}
	for _, v := range verdicts {
		byKey[key{v.Kind, v.Server, v.Database, v.Test, v.Tool, v.Run}] = stats.LadderVerdict{HighestHeldRPS: v.HighestHeldRPS, HighestHeldAchievedRPS: v.HighestHeldAchievedRPS,
			StillHolding: v.StillHolding, StepRPS: v.StepRPS, FirstStepRPS: v.FirstStepRPS, FirstFailedRPS: v.FirstFailedRPS, HeldAgainRPS: v.HeldAgainRPS}
	}
	var out []LadderRun
	var steps []stats.LadderStep
	flush := func() {
		if len(out) > 0 {
			r := &out[len(out)-1]
			r.Result = stats.Ladder(byKey[key{r.Kind, r.Server, r.Database, r.Test, r.Tool, r.Run}], steps)
			r.Result.Rule = rule
		}
		steps = nil
	}
	for i, r := range rows {
		if i == 0 || r.Kind != rows[i-1].Kind || r.Server != rows[i-1].Server || r.Test != rows[i-1].Test ||
			r.Tool != rows[i-1].Tool || r.Run != rows[i-1].Run || r.Database != rows[i-1].Database || r.Variant != rows[i-1].Variant {
			flush()
			out = append(out, LadderRun{Kind: r.Kind, Server: r.Server, Test: r.Test, Tool: r.Tool, Run: r.Run, Database: r.Database, Variant: r.Variant, Round: r.Round,
				RunErrorRate: r.RunErrorRate})
		}
		if math.IsNaN(r.TargetRPS) {
			continue
		}
		cur := &out[len(out)-1]
		if r.FailuresFrom == "" {
			cur.FailuresUnknown++
		}
		if math.IsNaN(r.AchievedRPS) {
			cur.AchievedUnknown++
		}
		steps = append(steps, stats.LadderStep{Step: r.Step, TargetRPS: r.TargetRPS, AchievedRPS: r.AchievedRPS,
			P95MS: r.P95MS, ErrorRate: r.ErrorRate, Requests: r.Requests, Failed: r.Failed, Held: r.Held})
		cur.Sources = append(cur.Sources, report.Source{File: r.Source, Line: r.Line})
	}
	flush()
	kept := out[:0]
	for _, lr := range out {
		if len(lr.Result.Steps) > 0 {
			kept = append(kept, lr)
		}
	}
	return kept
}

// source is where a k6 ladder run was read, its first step's file:line,
// as every surface cites a run (its run id, file:index, is no line).
func (r LadderRun) source() report.Source {
	if len(r.Sources) == 0 {
		return report.Source{File: r.Run}
	}
	return r.Sources[0]
}

// where is source as text: "ladder/t1/go-pgx/page.ndjson.gz:1".
func (r LadderRun) where() string { return r.source().String() }

// ladderKind is how one kind of ladder is laid out in the report.
type ladderKind struct {
	kind, title, note string
	// byTest: its ladder runs are rounds of fixed-rate runs, named by
	// their round and sourced by their steps' runs
	byTest bool
	// runWarnings: each run's own warnings are footnotes
	runWarnings bool
	// runSources: a row's sources are its runs (the run is a file), not
	// its steps
	runSources bool
	figure     string // plot name, "" for none
	caption    string
	chartTitle string
	// what names a row's ladder in the findings
	what func(LadderRun) string
}

var ladderKinds = []ladderKind{
	{kind: "samples", title: "Held-rate ladders: highest step held (requests/s)", runWarnings: true, runSources: true,
		note:   "a step is held when its p95 latency and its error rate are under the rule; a run's result is the highest step held before the first step that failed, + when its last step still held (the limit is higher); the median is no more precise than the step",
		figure: "ladders", caption: "Ladder steps: p95 latency against the target rate, held and failed steps marked", chartTitle: "Held-rate ladders",
		what: func(r LadderRun) string { return "the k6 ladder of " + orDash(r.Test) + onDatabase(r.Database) }},
	{kind: "summary", title: "Held-rate ladders from k6 summaries: highest step held (requests/s)", runSources: true,
		note: "from the sub-metrics a k6 summary keeps per step: p95 from http_req_duration{step:N}, requests from http_reqs{step:N}, failures from http_req_failed{step:N}, the achieved rate from those requests over the requests the step's stages asked for (a stages label)",
		what: func(r LadderRun) string {
			return "the k6 ladder of " + orDash(r.Test) + onDatabase(r.Database) + " (from its summaries)"
		}},
	{kind: "fixed-rate", title: "Held-rate ladders from fixed-rate runs: highest rate held (requests/s)", byTest: true,
		note:   "each round of fixed-rate runs at two or more target rates is one ladder run, its rates the steps; p95 is the tool's own, the error rate failed / requests",
		figure: "ladders-fixed-rate", caption: "Fixed-rate runs as ladders: p95 latency against the target rate, held and failed rates marked", chartTitle: "Held-rate ladders from fixed-rate runs",
		what: func(r LadderRun) string {
			return fmt.Sprintf("the fixed-rate ladder of %s%s (%s)", orDash(r.Test), onDatabase(r.Database), r.Tool)
		}},
}

// onDatabase names a ladder's database after what it is, where its runs
// name one.
func onDatabase(db string) string {
	if db == "" {
		return ""
	}
	return " on " + db
}

// ladders gives the highest step held per server and database (and, for
// fixed-rate runs, per test and tool): the median of its runs with every
// run listed, "+" where the last step still held. Every kind of ladder
// comes from the store's ladder_steps macro under the rule of the
// options, so that ladders(p95_ms := …) in SQL gives the same runs.
func (a *analysis) ladders(runs []LadderRun) (sec *Section, rows []ladderRuns) {
	sec = &Section{ID: "ladders", Title: "Held-rate ladders"}
	kept := map[string][]ladderRuns{}
	// The findings read the ladders in this order.
	defer func() {
		for _, kind := range []string{"fixed-rate", "summary", "samples"} {
			rows = append(rows, kept[kind]...)
		}
	}()
	threshold := a.opts.P95MS
	if math.IsNaN(threshold) {
		threshold = 0
	}
	for _, k := range ladderKinds {
		var these []LadderRun
		for _, r := range runs {
			if r.Kind == k.kind {
				these = append(these, r)
			}
		}
		if len(these) == 0 {
			continue
		}
		d, chart, keep := ladderTable(k, these, a.opts.LadderRule, a.disp)
		kept[k.kind] = keep
		keys, holding := make([]float64, len(keep)), make([]bool, len(keep))
		for i, lr := range keep {
			s := stats.MedianLadder(lr.results)
			// a median that still held is a lower bound: above an equal one
			keys[i], holding[i] = s.MedianHeldRPS, s.StillHolding
		}
		n := &notes{list: d.Notes}
		a.orderByKey(d, n, keys, holding, true, "test", "median highest step held")
		d.Notes = n.list
		sec.Tables = append(sec.Tables, d)
		if k.figure != "" {
			sec.Figures = append(sec.Figures, ladderFigures(k, chart, threshold)...)
		}
	}
	if len(sec.Tables) == 0 {
		sec.Skipped = "no k6 samples tagged with their step (a ramping-arrival-rate ladder with tags: {step: …}) and no fixed-rate runs at several rates"
	}
	return
}

// readLadders reads every ladder run, its steps and its verdict, under
// the options' rule.
func (a *analysis) readLadders() ([]LadderRun, error) {
	rows, err := a.st.LadderSteps(a.ctx, a.opts.LadderRule)
	if err != nil {
		return nil, err
	}
	verdicts, err := a.st.Ladders(a.ctx, a.opts.LadderRule)
	if err != nil {
		return nil, err
	}
	return LadderRuns(rows, verdicts, a.opts.LadderRule), nil
}

// unknownNote says which figures of a summary ladder run's steps its
// summary did not keep, and so were left out of the rule.
func unknownNote(r LadderRun, rule stats.LadderRule, disp model.Display) []string {
	var out []string
	name := serverName(disp.Name("server", r.Server)) + onDatabase(disp.Name("database", r.Database)) + ", " + r.where()
	if r.FailuresUnknown > 0 {
		whole := ""
		if !math.IsNaN(r.RunErrorRate) {
			whole = fmt.Sprintf("; the whole run failed %s of its requests", Pct(r.RunErrorRate))
		}
		out = append(out, fmt.Sprintf("%s: %d of %d steps have no failure count of their own (the summary kept no http_req_failed{step:N}): they are judged without the error rule%s",
			name, r.FailuresUnknown, len(r.Result.Steps), whole))
	}
	if r.AchievedUnknown > 0 && rule.MinAchievedRatio > 0 {
		out = append(out, fmt.Sprintf("%s: %d of %d steps have no achieved rate (no http_reqs{step:N} count, or no stages label to time the step): they are judged without the achieved-rate rule",
			name, r.AchievedUnknown, len(r.Result.Steps)))
	}
	return out
}

// ladderTable lays out the runs of one kind: one row per server and
// database (or per server, database, test and tool) with the median of
// its runs, the database column left out where no run names one. Each
// row's runs are one series of the chart, named by ladderSeries.
func ladderTable(k ladderKind, runs []LadderRun, ladderRule stats.LadderRule, disp model.Display) (d *report.Data, chart []report.LadderSeries, kept []ladderRuns) {
	rule := report.LadderRuleText(ladderRule)
	d = &report.Data{Title: k.title, Name: map[string]string{"samples": "k6 steps", "summary": "k6 summaries"}[k.kind]}
	if d.Name == "" {
		d.Name = k.kind
	}
	// A row is one group of the experiment: a ladder is never pooled
	// across tests, tools or variants.
	d.Columns = []report.Column{col("server", "server", nil), col("database", "database", nil),
		col("test", "test", nil), col("tool", "tool", nil), col("variant", "variant", nil)}
	variants := map[string]bool{}
	for _, r := range runs {
		variants[r.Variant] = true
	}
	d.Columns = append(d.Columns, col("runs", "runs", nil),
		col("highest_held_rps", "highest held", nil), col("still_holding", "still holding", nil),
		col("each_run", "each run", nil), col("highest_held_achieved_rps", "achieved at it", nil),
		col("step_rps", "step", Sig), col("rule", "rule", nil))
	n := &notes{}
	same := func(x, y LadderRun) bool {
		return x.Server == y.Server && x.Database == y.Database && x.Test == y.Test && x.Tool == y.Tool && x.Variant == y.Variant
	}
	for i := 0; i < len(runs); {
		j := i
		var results []stats.LadderResult
		var srcs []report.Source
		var names []string
		var runSrcs [][]report.Source // per run, for fixed-rate ladders
		var series []report.LadderSeries
		for ; j < len(runs) && same(runs[j], runs[i]); j++ {
			r := runs[j]
			if k.byTest {
				names = append(names, fmt.Sprintf("round %d", r.Round))
				runSrcs = append(runSrcs, r.Sources)
			} else {
				names = append(names, r.where())
			}
			if k.runWarnings {
				for _, w := range r.Result.Warnings {
					n.add(fmt.Sprintf("%s, %s: %s", r.Server+onDatabase(r.Database), r.where(), w.Msg))
				}
			}
			for _, u := range unknownNote(r, ladderRule, disp) {
				n.add(u)
			}
			results = append(results, r.Result)
			if k.runSources {
				srcs = append(srcs, r.source())
			} else {
				srcs = append(srcs, r.Sources...)
			}
			ser := report.LadderSeries{Server: r.Server, Database: r.Database, Run: r.Run}
			for _, st := range r.Result.Steps {
				ser.Steps = append(ser.Steps, report.LadderStep{TargetRPS: st.TargetRPS, P95MS: st.P95MS, Held: st.Held})
			}
			series = append(series, ser)
		}
		r0 := runs[i]
		label := ladderSeries(r0, series)
		for _, ser := range series {
			ser.Label = label
			chart = append(chart, ser)
		}
		sum := stats.MedianLadder(results)
		for _, w := range sum.Warnings {
			n.add(fmt.Sprintf("%s, %s: %s", serverName(disp.Name("server", r0.Server))+onDatabase(disp.Name("database", r0.Database)), orDash(r0.Test), w.Msg))
		}
		kept = append(kept, ladderRuns{server: r0.Server, what: k.what(r0), results: results, names: names, srcs: runSrcs})
		var each []string
		for _, r := range results {
			each = append(each, r.String())
		}
		variant := any(nil)
		if len(variants) > 1 {
			variant = nullIfEmpty(r0.Variant)
		}
		row := []any{r0.Server, nullIfEmpty(r0.Database), nullIfEmpty(r0.Test), r0.Tool, variant}
		row = append(row, int64(len(results)), sum.String(), sum.StillHolding, strings.Join(each, ", "), report.LadderText(sum, true), num(sum.StepRPS), rule)
		d.Rows = append(d.Rows, row)
		d.RowSources = append(d.RowSources, srcs)
		i = j
	}
	d.DropEmpty("database", "test", "variant")
	n.add(k.note)
	d.Notes = n.list
	return d, chart, kept
}

// ladderSeries is the legend entry of the runs of one ladder table row,
// as every plot names its series (seriesName), the load being the rates
// of their steps: "go-pgx: one, wrk2, 250–1,000 requests/s, postgresql".
func ladderSeries(r LadderRun, runs []report.LadderSeries) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range runs {
		for _, st := range s.Steps {
			lo, hi = math.Min(lo, st.TargetRPS), math.Max(hi, st.TargetRPS)
		}
	}
	load := Sig(lo) + " requests/s"
	if hi > lo {
		load = Sig(lo) + "–" + Sig(hi) + " requests/s"
	}
	return serverName(r.Server) + ": " + seriesName(r.Test, r.Tool, load, r.Database)
}
