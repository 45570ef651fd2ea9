package analysis

import (
	"fmt"
	"math"

	"github.com/wra-bench/wra/model"
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
	Sources                       []model.Source // of its steps
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
		cur.Sources = append(cur.Sources, model.Source{File: r.Source, Line: r.Line})
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

// Source is where a k6 ladder run was read, its first step's file:line,
// as every surface cites a run (its run id, file:index, is no line).
func (r LadderRun) Source() model.Source {
	if len(r.Sources) == 0 {
		return model.Source{File: r.Run}
	}
	return r.Sources[0]
}

// where is Source as text: "ladder/t1/go-pgx/page.ndjson.gz:1".
func (r LadderRun) where() string { return r.Source().String() }

// ladderKind is how one kind of ladder is told: what its rows mean, how
// its runs are named and cited.
type ladderKind struct {
	kind, note string
	// byTest: its ladder runs are rounds of fixed-rate runs, named by
	// their round and sourced by their steps' runs
	byTest bool
	// runWarnings: each run's own warnings are footnotes
	runWarnings bool
	// runSources: a row's sources are its runs (the run is a file), not
	// its steps
	runSources bool
	// what names a row's ladder in the findings
	what func(LadderRun) string
}

var ladderKinds = []ladderKind{
	{kind: "samples", runWarnings: true, runSources: true,
		note: "a step is held when its p95 latency and its error rate are under the rule; a run's result is the highest step held before the first step that failed, + when its last step still held (the limit is higher); the median is no more precise than the step",
		what: func(r LadderRun) string { return "the k6 ladder of " + OrDash(r.Test) + onDatabase(r.Database) }},
	{kind: "summary", runSources: true,
		note: "from the sub-metrics a k6 summary keeps per step: p95 from http_req_duration{step:N}, requests from http_reqs{step:N}, failures from http_req_failed{step:N}, the achieved rate from those requests over the requests the step's stages asked for (a stages label)",
		what: func(r LadderRun) string {
			return "the k6 ladder of " + OrDash(r.Test) + onDatabase(r.Database) + " (from its summaries)"
		}},
	{kind: "fixed-rate", byTest: true,
		note: "each round of fixed-rate runs at two or more target rates is one ladder run, its rates the steps; p95 is the tool's own, the error rate failed / requests",
		what: func(r LadderRun) string {
			return fmt.Sprintf("the fixed-rate ladder of %s%s (%s)", OrDash(r.Test), onDatabase(r.Database), r.Tool)
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

// ladderRuns is the runs of one server's ladder.
type ladderRuns struct {
	server, what string
	// sum is the ladders table's figure of the runs (stats.MedianLadder),
	// the runs in sum.Runs
	sum stats.LadderSummary
	// ids are the groups of the runs (their caveats are the row's)
	ids   []string
	names []string
	srcs  [][]model.Source // per run, when known
}

// LaddersSection is the highest step held per server and database (and,
// for fixed-rate runs, per test and tool), one table per kind of ladder:
// samples (k6 points tagged with their step), summary (k6 summaries'
// per-step sub-metrics), fixed-rate (fixed-rate runs at several rates).
type LaddersSection struct {
	Skipped string
	Tables  []LadderTable
}

// LadderTable is the ladders of one kind.
type LadderTable struct {
	Kind string
	// Variants says that the runs differ in their variant: the variant
	// column is shown.
	Variants bool
	Rows     []LadderRow
	// Series are the runs' steps, for the plot: one series per run, the
	// runs of a row under one legend entry.
	Series []LadderSeries
	Notes  []string
}

// LadderRow is one group's ladder runs and their median (stats.MedianLadder).
type LadderRow struct {
	Server, Database, Test, Tool, Variant string
	Summary                               stats.LadderSummary
	Sources                               []model.Source
}

// LadderSeries is one ladder run's steps.
type LadderSeries struct {
	Server, Database, Run, Label string
	Steps                        []stats.LadderStep
}

// ladders gives the highest step held per server and database (and, for
// fixed-rate runs, per test and tool): the median of its runs with every
// run listed, "+" where the last step still held. Every kind of ladder
// comes from the store's ladder_steps macro under the rule of the
// options, so that ladders(p95_ms := …) in SQL gives the same runs.
func (a *analysis) ladders(runs []LadderRun) (sec LaddersSection, rows []ladderRuns) {
	kept := map[string][]ladderRuns{}
	// The findings read the ladders in this order.
	defer func() {
		for _, kind := range []string{"fixed-rate", "summary", "samples"} {
			rows = append(rows, kept[kind]...)
		}
	}()
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
		t, keep := a.ladderTable(k, these)
		kept[k.kind] = keep
		n := &notes{list: t.Notes}
		// a median that still held is a lower bound: above an equal one
		t.Rows = byKey(a, t.Rows, n, func(r LadderRow) float64 { return r.Summary.MedianHeldRPS }, func(r LadderRow) bool { return r.Summary.StillHolding },
			true, func(r LadderRow) string { return r.Test }, "median highest step held")
		t.Rows = byManifest(t.Rows, a.disp, func(r LadderRow) string { return r.Server })
		t.Notes = n.list
		sec.Tables = append(sec.Tables, t)
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
func (a *analysis) unknownNote(r LadderRun) []string {
	var out []string
	name := ServerName(a.disp.Name("server", r.Server)) + onDatabase(a.disp.Name("database", r.Database)) + ", " + r.where()
	if r.FailuresUnknown > 0 {
		whole := ""
		if !math.IsNaN(r.RunErrorRate) {
			whole = fmt.Sprintf("; the whole run failed %s of its requests", pctText(r.RunErrorRate))
		}
		out = append(out, fmt.Sprintf("%s: %d of %d steps have no failure count of their own (the summary kept no http_req_failed{step:N}): they are judged without the error rule%s",
			name, r.FailuresUnknown, len(r.Result.Steps), whole))
	}
	if r.AchievedUnknown > 0 && a.opts.MinAchievedRatio > 0 {
		out = append(out, fmt.Sprintf("%s: %d of %d steps have no achieved rate (no http_reqs{step:N} count, or no stages label to time the step): they are judged without the achieved-rate rule",
			name, r.AchievedUnknown, len(r.Result.Steps)))
	}
	return out
}

// ladderTable lays out the runs of one kind: one row per server and
// database (or per server, database, test and tool) with the median of
// its runs. Each row's runs are one legend entry of the plot
// (ladderSeries).
func (a *analysis) ladderTable(k ladderKind, runs []LadderRun) (t LadderTable, kept []ladderRuns) {
	t.Kind = k.kind
	// A row is one group of the experiment: a ladder is never pooled
	// across tests, tools or variants.
	variants := map[string]bool{}
	for _, r := range runs {
		variants[r.Variant] = true
	}
	t.Variants = len(variants) > 1
	n := &notes{}
	cv := a.newCaveats()
	same := func(x, y LadderRun) bool {
		return x.Server == y.Server && x.Database == y.Database && x.Test == y.Test && x.Tool == y.Tool && x.Variant == y.Variant
	}
	for i := 0; i < len(runs); {
		j := i
		var results []stats.LadderResult
		var srcs []model.Source
		var names []string
		var runSrcs [][]model.Source // per run, for fixed-rate ladders
		var series []LadderSeries
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
			for _, u := range a.unknownNote(r) {
				n.add(u)
			}
			results = append(results, r.Result)
			if k.runSources {
				srcs = append(srcs, r.Source())
			} else {
				srcs = append(srcs, r.Sources...)
			}
			series = append(series, LadderSeries{Server: r.Server, Database: r.Database, Run: r.Run, Steps: r.Result.Steps})
		}
		r0 := runs[i]
		label := ladderSeries(r0, series)
		for _, ser := range series {
			ser.Label = label
			t.Series = append(t.Series, ser)
		}
		sum := stats.MedianLadder(results)
		for _, w := range sum.Warnings {
			n.add(fmt.Sprintf("%s, %s: %s", ServerName(a.disp.Name("server", r0.Server))+onDatabase(a.disp.Name("database", r0.Database)), OrDash(r0.Test), w.Msg))
		}
		ids := appendGroups(nil, srcs, a.groupOf)
		for _, rs := range runSrcs {
			ids = appendGroups(ids, rs, a.groupOf)
		}
		cv.add(a.rowName(r0.Server, r0.Database, "")+", "+OrDash(r0.Test)+", "+r0.Tool, ids)
		kept = append(kept, ladderRuns{server: r0.Server, what: k.what(r0), sum: sum, ids: ids, names: names, srcs: runSrcs})
		t.Rows = append(t.Rows, LadderRow{Server: r0.Server, Database: r0.Database, Test: r0.Test, Tool: r0.Tool, Variant: r0.Variant, Summary: sum, Sources: srcs})
		i = j
	}
	n.add(k.note)
	cv.to(n)
	t.Notes = n.list
	return t, kept
}

// ladderSeries is the legend entry of the runs of one ladder table row,
// as every plot names its series (seriesName), the load being the rates
// of their steps: "go-pgx: one, wrk2, 250–1,000 requests/s, postgresql".
func ladderSeries(r LadderRun, runs []LadderSeries) string {
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
	return ServerName(r.Server) + ": " + seriesName(r.Test, r.Tool, load, r.Database)
}
