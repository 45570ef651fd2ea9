package analyze

import (
	"context"
	"errors"
	"fmt"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/projection"
	"github.com/wra-bench/wra/stats"
)

// layoutSection publishes the manifest's tables: each layout's runs (the
// view run_figures under its condition, or ladder_figures under the
// ladder rule for highest_held_rps) projected as wra table projects
// them, one table or one per combination of the labels that split it.
// The caveats of their cells' groups are the analysis's (caveats).
func layoutSection(ctx context.Context, st projection.Reader, layouts []Layout, rule stats.LadderRule, caveats model.DesignCaveats) (*Section, error) {
	sec := &Section{ID: "table", Title: "Tables of the manifest"}
	for i, l := range layouts {
		what := l.Spec.Title
		if what == "" {
			what = fmt.Sprintf("[[tables]] %d (%s)", i+1, l.Spec.Cells())
		}
		runs, err := projection.Read(ctx, st, l.Spec.Cells(), l.Where, rule)
		if err != nil {
			return nil, fmt.Errorf("wra.toml %s: %w", what, err)
		}
		runs.Caveats = caveats
		tables, err := projection.Project(runs, l.Spec)
		if errors.Is(err, projection.ErrNoRuns) {
			d := &report.Data{Title: what, Name: what, Notes: []string{"no runs match: where " + l.Where}}
			sec.Tables = append(sec.Tables, d)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("wra.toml %s: %w", what, err)
		}
		for _, t := range tables {
			t.Name = t.Title
			sec.Tables = append(sec.Tables, t)
		}
	}
	return sec, nil
}
