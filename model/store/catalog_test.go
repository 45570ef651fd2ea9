package store_test

import (
	"context"
	"strings"
	"testing"
)

func TestRelations(t *testing.T) {
	s := openStore(t, t.TempDir())
	rels, err := s.Relations(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]int{}
	var kinds []string
	for i, r := range rels {
		byName[r.Name] = i
		if len(kinds) == 0 || kinds[len(kinds)-1] != r.Kind {
			kinds = append(kinds, r.Kind)
		}
	}
	if got := strings.Join(kinds, ","); !strings.HasPrefix(got, "table,view") {
		t.Errorf("kinds in the order %s, want the tables, then the views", got)
	}
	runs, ok := byName["runs"]
	if !ok {
		t.Fatalf("no runs table in %+v", rels)
	}
	r := rels[runs]
	if r.Kind != "table" || len(r.Columns) < 30 || r.Columns[0].Name != "run_id" || !strings.HasPrefix(r.SQL, "CREATE TABLE runs") {
		t.Errorf("runs: %s, %d columns, first %+v, SQL %.40q", r.Kind, len(r.Columns), r.Columns[0], r.SQL)
	}
	v, ok := byName["cpu_per_request"]
	if !ok || rels[v].Kind != "view" || len(rels[v].Columns) == 0 {
		t.Errorf("cpu_per_request: %+v", rels[v])
	}
	for _, q := range []string{`CREATE MACRO ratio(a, b) AS a / b`, `CREATE MACRO runs_of(t) AS TABLE SELECT run_id FROM runs WHERE tool = t`} {
		if _, err := s.Query(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	if rels, err = s.Relations(context.Background()); err != nil {
		t.Fatal(err)
	}
	var macros []string
	for _, r := range rels {
		if strings.Contains(r.Kind, "macro") && (r.Name == "ratio" || r.Name == "runs_of") {
			macros = append(macros, r.Kind+" "+r.SQL)
		}
	}
	want := []string{"macro CREATE MACRO ratio(a, b) AS (a / b);", "table macro CREATE MACRO runs_of(t) AS TABLE SELECT run_id FROM runs WHERE (tool = t);"}
	if strings.Join(macros, "\n") != strings.Join(want, "\n") {
		t.Errorf("macros:\n%s\nwant\n%s", strings.Join(macros, "\n"), strings.Join(want, "\n"))
	}
}
