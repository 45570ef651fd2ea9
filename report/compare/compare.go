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
}

// Runs reads the runs of the sides with their metrics, a ladder run's
// highest held step (under rule) among them, as Compare compares them.
func Runs(ctx context.Context, st Source, sides model.CompareSides, rule stats.LadderRule) ([]*model.CompareRun, error) {
	servers, err := st.CompareServers(ctx, sides)
	if err != nil {
		return nil, err
	}
	crs, err := st.CompareRuns(ctx, sides, servers)
	if err != nil {
		return nil, err
	}
	if _, _, err := loadLadders(ctx, st, crs, servers, rule); err != nil {
		return nil, err
	}
	return crs, nil
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
	servers, err := st.CompareServers(ctx, o.Sides)
	if err != nil {
		return nil, err
	}
	runs, err := st.CompareRuns(ctx, o.Sides, servers)
	if err != nil {
		return nil, err
	}
	if err := checkSides(runs, o.Sides); err != nil {
		return nil, err
	}
	ladders, steps, err := loadLadders(ctx, st, runs, servers, o.Rule)
	if err != nil {
		return nil, err
	}
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
