package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// RunFigures reads the run_figures view, one row per run in run_id order,
// keeping the runs for which where, a SQL condition on the view's columns
// (empty for every run), is true. The condition must leave the statement
// one query: the text "test = 'db'; DROP TABLE runs" is refused before it
// runs (as notebook blocks are, see Sandbox).
func (s *Store) RunFigures(ctx context.Context, where string) (model.RunFigures, error) {
	return s.figures(ctx, "SELECT * FROM run_figures", "run_id", where)
}

// LadderFigures reads the table macro ladder_figures under the rule, one row per ladder run in kind
// and run order, keeping those for which where (a condition on its
// columns, checked as RunFigures checks it) is true.
func (s *Store) LadderFigures(ctx context.Context, rule stats.LadderRule, where string) (model.RunFigures, error) {
	return s.figures(ctx, "SELECT * FROM ladder_figures("+ruleParams+")", "kind, run_id", where, ruleArgs(rule)...)
}

func (s *Store) figures(ctx context.Context, q, order, where string, args ...any) (model.RunFigures, error) {
	if strings.TrimSpace(where) != "" {
		q += " WHERE (\n" + where + "\n)"
	}
	q += " ORDER BY " + order
	if err := (&Sandbox{s: s}).check(ctx, q); err != nil {
		return model.RunFigures{}, fmt.Errorf("--where %q: %w", where, err)
	}
	t, err := s.Query(ctx, q, args...)
	if err != nil {
		return model.RunFigures{}, fmt.Errorf("--where %q: %w", where, err)
	}
	return model.RunFigures{Columns: t.Names(), Rows: t.Rows}, nil
}

// ruleParams binds the held rule's parameters of a table macro of the
// store (ladder_steps, ladders, ladder_figures, rate_held, cost_groups,
// group_caveats) to $1, $2 and $3, the values ruleArgs gives: the one
// way the rule reaches SQL.
const ruleParams = "p95_ms := $1::DOUBLE, max_error_rate := $2::DOUBLE, min_achieved_ratio := $3::DOUBLE"

// ruleArgs are the held rule's values in ruleParams' order.
func ruleArgs(rule stats.LadderRule) []any {
	return []any{rule.P95MS, rule.MaxErrorRate, rule.MinAchievedRatio}
}
