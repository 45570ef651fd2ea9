package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/wra-bench/wra/model"
)

// RunFigures reads the run_figures view, one row per run in run_id order,
// keeping the runs for which where, a SQL condition on the view's columns
// (empty for every run), is true. The condition must leave the statement
// one query: the text "test = 'db'; DROP TABLE runs" is refused before it
// runs (as notebook blocks are, see Sandbox).
func (s *Store) RunFigures(ctx context.Context, where string) (model.RunFigures, error) {
	q := "SELECT * FROM run_figures"
	if strings.TrimSpace(where) != "" {
		q += " WHERE (\n" + where + "\n)"
	}
	q += " ORDER BY run_id"
	if err := (&Sandbox{s: s}).check(ctx, q); err != nil {
		return model.RunFigures{}, fmt.Errorf("--where %q: %w", where, err)
	}
	t, err := s.Query(ctx, q)
	if err != nil {
		return model.RunFigures{}, fmt.Errorf("--where %q: %w", where, err)
	}
	return model.RunFigures{Columns: t.Names(), Rows: t.Rows}, nil
}
