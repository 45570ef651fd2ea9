// Package compare compares two groups of runs of the store metric by
// metric, as benchstat compares two sets of benchmarks: per metric and
// per match of the other labels, each side's median with its interval,
// the change of the median, and the Mann-Whitney U test's p-value,
// Holm-Bonferroni adjusted across the table; or, for held-rate ladders,
// every step of both sides. It reads the runs through the store's
// readers and lays the result out as a report table.
package compare

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/analysis"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// HighestHeld is the metric of a run's held-rate ladder: its highest step
// held.
const HighestHeld = model.HighestHeld

// Metrics names the metrics a comparison compares by default, in table
// order.
func Metrics() []string { return append(model.CompareMetrics(), HighestHeld) }

// AllMetrics names every metric a comparison can compare: the default
// ones and the statistics the tools printed (run_reported).
func AllMetrics() []string { return append(Metrics(), model.ReportedFigures()...) }

// Options are the settings of a comparison.
type Options struct {
	Sides      model.CompareSides
	Metrics    []string // nil for all
	Alpha      float64
	Confidence float64
	Holm       bool
	// Ladders lists the ladder steps of both sides instead of comparing.
	Ladders bool
	Rule    stats.LadderRule
	// Drift is the calibration drift tolerated (a fraction) by the
	// caveats of the sides' groups.
	Drift float64
	// Machine lays the table out for CSV and JSON: every figure in a
	// column of its own.
	Machine bool
}

// Source is what a comparison reads of a store: the sides' servers, their
// runs, and the ladders of those servers (model/store implements it).
type Source interface {
	CompareServers(ctx context.Context, sides model.CompareSides) (*model.Servers, error)
	CompareRuns(ctx context.Context, sides model.CompareSides, servers *model.Servers) ([]*model.CompareRun, error)
	LadderStepsOf(ctx context.Context, rule stats.LadderRule, servers *model.Servers) ([]model.LadderStepRow, error)
	LaddersOf(ctx context.Context, rule stats.LadderRule, servers *model.Servers) ([]model.LadderRow, error)
	analysis.CaveatReader
}

// Runs reads the runs of the sides with their metrics, a ladder run's
// highest held step (under rule) among them, and the caveats of their
// groups under rule, as Compare compares them.
func Runs(ctx context.Context, st Source, sides model.CompareSides, rule model.DesignRule) ([]*model.CompareRun, error) {
	r, err := read(ctx, st, sides, rule, false)
	if err != nil {
		return nil, err
	}
	return r.runs, nil
}

// read is what a comparison reads: the runs of the sides (refused
// where one side has none, when check), their ladders and the caveats
// of their groups under rule. The views of the experiment's design
// that each of these reads are held for the while (analysis.Hold): at
// 16 copies of data/, wra compare took 0.7-0.9 s and 163-171 MiB so,
// 1.2-1.3 s and 256-278 MiB without.
func read(ctx context.Context, st Source, sides model.CompareSides, rule model.DesignRule, check bool) (*sidesRead, error) {
	out := &sidesRead{}
	err := analysis.Holding(ctx, st, func() error {
		servers, err := st.CompareServers(ctx, sides)
		if err != nil {
			return err
		}
		if out.runs, err = st.CompareRuns(ctx, sides, servers); err != nil {
			return err
		}
		if check {
			if err := checkSides(out.runs, sides); err != nil {
				return err
			}
		}
		if err := withCaveats(ctx, st, out.runs, rule); err != nil {
			return err
		}
		out.ladders, out.steps, err = loadLadders(ctx, st, out.runs, servers, rule.LadderRule)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// sidesRead is what read reads.
type sidesRead struct {
	runs    []*model.CompareRun
	ladders map[string]stats.LadderResult
	steps   map[string][]stats.LadderStep
}

// withCaveats sets the caveats of each run's groups (analysis.ReadCaveats
// under rule), by where it was read.
func withCaveats(ctx context.Context, st Source, runs []*model.CompareRun, rule model.DesignRule) error {
	design, err := analysis.ReadCaveats(ctx, st, rule)
	if err != nil {
		return err
	}
	for _, r := range runs {
		r.Caveats = nil
		for _, id := range design.GroupsAt(nil, model.Source{File: r.Source, Line: r.Line}) {
			r.Caveats = append(r.Caveats, design.Of[id]...)
		}
	}
	return nil
}

// Compare reads the runs of both sides from the store and lays out the
// comparison, or the ladder steps with Ladders.
func Compare(ctx context.Context, st Source, o Options) (*report.Data, error) {
	if len(o.Metrics) == 0 {
		o.Metrics = Metrics()
	}
	for _, m := range o.Metrics {
		if !slices.Contains(AllMetrics(), m) {
			return nil, fmt.Errorf("unknown metric %q: expected one of %s, or a column of run_reported", m, strings.Join(Metrics(), ", "))
		}
	}
	r, err := read(ctx, st, o.Sides, model.DesignRule{Tolerance: o.Drift, LadderRule: o.Rule}, true)
	if err != nil {
		return nil, err
	}
	runs, ladders, steps := r.runs, r.ladders, r.steps
	if o.Ladders {
		return ladderStepsTable(o.Sides, runs, steps, ladders, o.Rule), nil
	}
	return compareTable(runs, o), nil
}

func checkSides(runs []*model.CompareRun, s model.CompareSides) error {
	n := map[string]int{}
	for _, r := range runs {
		n[r.Side]++
	}
	for _, side := range []string{"base", "vs"} {
		if n[side] > 0 {
			continue
		}
		name := sideName(s, side)
		if s.Folders {
			return fmt.Errorf("no runs from %s (runs.source starts with the ingested folder's name; see wra sql \"SELECT DISTINCT source FROM runs\")", name)
		}
		return fmt.Errorf("no runs with %s = %q", s.By, name)
	}
	return nil
}

func sideName(s model.CompareSides, side string) string {
	if side == "vs" {
		return s.Vs
	}
	return s.Base
}

// loadLadders reads the ladder of every selected run (among those of the
// sides' servers) from the store's
// ladder_steps macro under the rule (a step's held is the macro's), builds
// its result as wra analyze does (analysis.LadderRuns), and stores its
// highest held step as the run's highest_held_rps. A k6 run whose steps
// are tagged in its samples, or kept in its summary, is a ladder run.
func loadLadders(ctx context.Context, st Source, runs []*model.CompareRun, servers *model.Servers, rule stats.LadderRule) (map[string]stats.LadderResult, map[string][]stats.LadderStep, error) {
	byID := map[string]*model.CompareRun{}
	for _, r := range runs {
		byID[r.ID] = r
	}
	rows, err := st.LadderStepsOf(ctx, rule, servers)
	if err != nil {
		return nil, nil, err
	}
	verdicts, err := st.LaddersOf(ctx, rule, servers)
	if err != nil {
		return nil, nil, err
	}
	results := map[string]stats.LadderResult{}
	steps := map[string][]stats.LadderStep{}
	for _, lr := range analysis.LadderRuns(rows, verdicts, rule) {
		r := byID[lr.Run]
		if r == nil || lr.Kind == "fixed-rate" {
			continue
		}
		results[lr.Run] = lr.Result
		steps[lr.Run] = lr.Result.Steps
		r.Values[HighestHeld] = lr.Result.HighestHeldRPS
		r.StillHolding = lr.Result.StillHolding
	}
	return results, steps, nil
}

// row is one line of the comparison (analysis.CompareMatches).
type row = analysis.CompareRow

func compareTable(runs []*model.CompareRun, o Options) *report.Data {
	rows := analysis.CompareMatches(runs, analysis.CompareOptions{Metrics: o.Metrics, Alpha: o.Alpha, Confidence: o.Confidence, Holm: o.Holm})
	return compareData(rows, o)
}
