package store

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wra-bench/wra/stats"
)

func TestReadOnlyRefusesAnotherWrasDefinitions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.duckdb")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// As a store that an older wra wrote: other view definitions.
	if _, err := s.db.ExecContext(ctx, `UPDATE wra_definitions SET sha256 = 'older'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(ctx, path, Options{ReadOnly: true}); !errors.Is(err, ErrOldDefinitions) {
		t.Fatalf("read-only open of another wra's views: %v, want ErrOldDefinitions", err)
	}
	// A writable open applies this wra's views; then reading works.
	s, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("after a writable open: %v", err)
	}
	defer s.Close()
	if _, err := s.Query(ctx, `SELECT * FROM ladders(p95_ms := 100)`); err != nil {
		t.Errorf("the macros: %v", err)
	}
}

// TestMacroDefaultsAreTheRule holds the defaults of every table macro
// that takes the held rule or the drift tolerance to Go's
// (stats.DefaultLadderRule, stats.DefaultDriftTolerance): a query that
// leaves an argument out gets the figure wra prints.
func TestMacroDefaultsAreTheRule(t *testing.T) {
	want := map[string]float64{
		"p95_ms":             stats.DefaultLadderRule.P95MS,
		"max_error_rate":     stats.DefaultLadderRule.MaxErrorRate,
		"min_achieved_ratio": stats.DefaultLadderRule.MinAchievedRatio,
		"tolerance":          stats.DefaultDriftTolerance,
	}
	macro := regexp.MustCompile(`(?m)^CREATE OR REPLACE MACRO (\w+)\(([^)]*)\) AS TABLE`)
	param := regexp.MustCompile(`(\w+) := ([^,]+)`)
	seen := map[string][]string{}
	for _, v := range readSQLDir(viewsFS, "views") {
		for _, m := range macro.FindAllStringSubmatch(v.sql, -1) {
			for _, p := range param.FindAllStringSubmatch(m[2], -1) {
				w, ok := want[p[1]]
				if !ok {
					continue
				}
				seen[m[1]] = append(seen[m[1]], p[1])
				if got, err := strconv.ParseFloat(strings.TrimSpace(p[2]), 64); err != nil || got != w {
					t.Errorf("%s: macro %s(%s := %s), Go's default is %v", v.name, m[1], p[1], p[2], w)
				}
			}
		}
	}
	for name, n := range map[string]int{"ladder_steps": 3, "ladders": 3, "ladder_figures": 3, "rate_held": 3, "cost_groups": 3, "group_caveats": 4, "calibration_drift": 1} {
		if len(seen[name]) != n {
			t.Errorf("macro %s takes %v of the rule, want %d parameters", name, seen[name], n)
		}
	}
}
