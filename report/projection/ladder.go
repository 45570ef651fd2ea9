package projection

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// HeldMetric is the highest rate a held-rate ladder run held (the store's
// ladder_figures, one row per ladder run). Its cell is the median of the
// cell's ladder runs by stats.MedianLadder, the rule of wra analyze's
// ladders section: "+" when that median is a lower bound (a run that
// defines it still held at its last step), and, for people, every run
// listed when they differ: "1,397 (500, 1,397, 1,397)". In csv and json
// it is three numbers: the median, still_holding and the number of runs.
const HeldMetric = "highest_held_rps"

// Reader reads the runs a layout lays out.
type Reader interface {
	RunFigures(ctx context.Context, where string) (model.RunFigures, error)
	LadderFigures(ctx context.Context, p95MS, maxErrorRate float64, where string) (model.RunFigures, error)
}

// Read reads the runs of a cell template under the condition where: the
// ladder runs of the store's ladder_figures under rule when the template
// names HeldMetric, the runs of run_figures otherwise.
func Read(ctx context.Context, r Reader, cell, where string, rule stats.LadderRule) (Runs, error) {
	t, err := parseTemplate(cell)
	if err != nil {
		return Runs{}, err
	}
	if slices.Contains(t.metrics, HeldMetric) {
		return r.LadderFigures(ctx, rule.P95MS, rule.MaxErrorRate, where)
	}
	return r.RunFigures(ctx, where)
}

// ladder is the median of the ladder runs of a cell.
func (p *projector) ladder(runs []run) stats.LadderSummary {
	runs = slices.Clone(runs)
	slices.SortStableFunc(runs, func(a, b run) int {
		ra, aok := number(p.value(a, "round"))
		rb, bok := number(p.value(b, "round"))
		if aok && bok && ra != rb {
			return cmp.Compare(ra, rb)
		}
		return 0
	})
	var results []stats.LadderResult
	for _, r := range runs {
		held := p.num(r, HeldMetric)
		if math.IsNaN(held) {
			continue
		}
		results = append(results, stats.LadderResult{HighestHeldRPS: held, StillHolding: p.value(r, "still_holding") == true,
			StepRPS: p.num(r, "step_rps")})
	}
	return stats.MedianLadder(results)
}

// heldText is a ladder cell for people: the median with its "+", and
// every run in round order when they differ.
func heldText(s stats.LadderSummary) string {
	if len(s.Runs) == 0 {
		return human(math.NaN())
	}
	text := func(x float64, plus bool) string {
		t := report.Thousands(strconv.FormatFloat(x, 'f', -1, 64))
		if plus {
			t += "+"
		}
		return t
	}
	out := text(s.MedianHeldRPS, s.StillHolding)
	var each []string
	differ := false
	for _, r := range s.Runs {
		each = append(each, text(r.HighestHeldRPS, r.StillHolding))
		differ = differ || each[len(each)-1] != each[0]
	}
	if differ {
		out += " (" + strings.Join(each, ", ") + ")"
	}
	return out
}

// heldNote says the rule of the ladder cells, from the thresholds the
// ladder runs were judged by.
func (p *projector) heldNote(n *notes, runs []run) {
	if !slices.Contains(p.tmpl.metrics, HeldMetric) || len(runs) == 0 {
		return
	}
	rule := ""
	if p95, errs := p.num(runs[0], "p95_threshold_ms"), p.num(runs[0], "max_error_rate"); !math.IsNaN(p95) && !math.IsNaN(errs) {
		rule = fmt.Sprintf(" (p95 < %s ms and errors < %s%%)", strconv.FormatFloat(p95, 'g', -1, 64), strconv.FormatFloat(errs*100, 'g', -1, 64))
	}
	n.add("highest_held_rps: a ladder run's highest step held before the first step that failed" + rule +
		"; a cell is the median of its ladder runs, + when a run that defines it still held at its last step (the limit is higher), every run listed in round order when they differ")
}
