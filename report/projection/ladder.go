package projection

import (
	"context"
	"math"
	"slices"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/layout"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// HeldMetric is the highest rate a held-rate ladder run held (the store's
// ladder_figures, one row per ladder run). Its cell is the median of the
// cell's ladder runs by layout.LadderCell (stats.MedianLadder), the rule of wra analyze's
// ladders section: "+" when that median is a lower bound (a run that
// defines it still held at its last step), and, for people, every run
// listed when they differ: "1,397 (500, 1,397, 1,397)". In csv and json
// it is three numbers: the median, still_holding and the number of runs.
const HeldMetric = model.HighestHeld

// AchievedMetric is the rate achieved at that step (ladder_figures'
// highest_held_achieved_rps), what people publish: 1,397 for a step of
// 1,400. Its cell is laid out as HeldMetric's, from the same runs.
const AchievedMetric = "highest_held_achieved_rps"

// isLadderMetric tells the figures of ladder_figures laid out as a
// ladder's result.
func isLadderMetric(m string) bool { return m == HeldMetric || m == AchievedMetric }

// Reader reads the runs a layout lays out.
type Reader interface {
	RunFigures(ctx context.Context, where string) (model.RunFigures, error)
	LadderFigures(ctx context.Context, rule stats.LadderRule, where string) (model.RunFigures, error)
}

// Read reads the runs of a cell template under the condition where: the
// ladder runs of the store's ladder_figures under rule when the template
// names HeldMetric, the runs of run_figures otherwise.
func Read(ctx context.Context, r Reader, cell, where string, rule stats.LadderRule) (Runs, error) {
	t, err := parseTemplate(cell)
	if err != nil {
		return Runs{}, err
	}
	if slices.ContainsFunc(t.metrics, isLadderMetric) {
		return r.LadderFigures(ctx, rule, where)
	}
	return r.RunFigures(ctx, where)
}

// ladder is the median of the ladder runs of a cell (layout.LadderCell).
func (p *projector) ladder(runs []run) stats.LadderSummary {
	var lr []layout.LadderRun
	for _, r := range runs {
		held := p.num(r, HeldMetric)
		if math.IsNaN(held) {
			continue
		}
		round, ok := number(p.value(r, "round"))
		lr = append(lr, layout.LadderRun{Round: round, HasRound: ok, LadderResult: stats.LadderResult{HighestHeldRPS: held,
			HighestHeldAchievedRPS: p.num(r, AchievedMetric), StillHolding: p.value(r, "still_holding") == true, StepRPS: p.num(r, "step_rps")}})
	}
	return layout.LadderCell(lr)
}

// heldNote says the rule of the ladder cells, from the thresholds the
// ladder runs were judged by.
func (p *projector) heldNote(n *notes, runs []run) {
	if !slices.ContainsFunc(p.tmpl.metrics, isLadderMetric) || len(runs) == 0 {
		return
	}
	rule := ""
	r := stats.LadderRule{P95MS: p.num(runs[0], "p95_threshold_ms"), MaxErrorRate: p.num(runs[0], "max_error_rate"), MinAchievedRatio: p.num(runs[0], "min_achieved_ratio")}
	if !math.IsNaN(r.P95MS) && !math.IsNaN(r.MaxErrorRate) {
		rule = " (" + report.LadderRuleText(r) + ")"
	}
	what := "highest_held_rps: a ladder run's highest step held before the first step that failed"
	if !slices.Contains(p.tmpl.metrics, HeldMetric) {
		what = "highest_held_achieved_rps: the rate a ladder run achieved at its highest step held before the first step that failed"
	}
	n.add(what + rule +
		"; a cell is the median of its ladder runs, + when a run that defines it still held at its last step (the limit is higher), every run listed in round order when they differ")
}
