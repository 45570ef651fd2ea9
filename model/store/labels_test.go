package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/wra-bench/wra/model/store"
)

// TestLabelMacros: the label macros give the same text from a run's
// labels as JSON and as the label_map the views hand them, and
// label_map(labels)['k'] is labels->>'k', for keys of every shape the
// readers write (dots, braces, raw.<column>, non-ASCII) and for a key a
// JSON path cannot name (a double quote in it).
func TestLabelMacros(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "labels.duckdb"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	db := store.SQLDB(st)

	const labels = `{"block_keys":"host,trial","host":"a.b","trial":"2","label_keys":"tool,pool,zone","report_keys":"threads","pool":"10",` +
		`"zone":"eu, west","threads":"4","submetric.http_req_duration{step:100}.p95_ms":"12.5","raw.cpu_server_s":"-3",` +
		`"loadgen_cpu_s":"30","wall_s":"60","größe":"ü","say \"hi\"":"quoted"}`
	scalar := func(q string, args ...any) sql.NullString {
		t.Helper()
		var v sql.NullString
		if err := db.QueryRowContext(ctx, q, args...).Scan(&v); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return v
	}

	for _, k := range []string{"host", "trial", "zone", "submetric.http_req_duration{step:100}.p95_ms", "raw.cpu_server_s", "größe", "missing"} {
		m := scalar(`SELECT label_map(CAST(? AS JSON))[?]`, labels, k)
		j := scalar(`SELECT CAST(? AS JSON)->>?`, labels, k)
		if m != j {
			t.Errorf("label_map(labels)[%q] = %v, labels->>%q = %v", k, m, k, j)
		}
	}
	if got := scalar(`SELECT label_map(CAST(? AS JSON))['say "hi"']`, labels); got.String != "quoted" {
		t.Errorf(`label_map(labels)['say "hi"'] = %v, want quoted`, got)
	}

	for _, c := range []struct{ expr, want string }{
		{`label_pairs(L, ['zone', 'pool', 'none', ''])`, "zone=eu, west, pool=10, none="},
		{`label_pairs(L, ['say "hi"'])`, `say "hi"=quoted`},
		{`run_block(L)`, "host=a.b, trial=2"},
		{`run_factor_pairs(L)`, "pool=10, threads=4, zone=eu, west"},
		{`array_to_string(broken_values(L), ',')`, "raw.cpu_server_s"},
		{`CAST(generator_cores(L) AS VARCHAR)`, "0.5"},
	} {
		for _, from := range []string{`(SELECT CAST(? AS JSON) AS L)`, `(SELECT label_map(CAST(? AS JSON)) AS L)`} {
			got := scalar(`SELECT `+c.expr+` FROM `+from, labels)
			if got.String != c.want {
				t.Errorf("%s from %s = %v, want %q", c.expr, from, got, c.want)
			}
		}
	}
	// a run without labels, or without the keys named: as before
	for _, c := range []struct{ expr, want string }{
		{`coalesce(run_block(L), 'NULL')`, "NULL"},
		{`coalesce(label_pairs(L, []), 'NULL')`, "NULL"},
		{`run_factor_pairs(L)`, ""},
		{`CAST(len(broken_values(L)) AS VARCHAR)`, "0"},
	} {
		for _, from := range []string{`(SELECT CAST(NULL AS JSON) AS L)`, `(SELECT label_map(CAST('{}' AS JSON)) AS L)`} {
			got := scalar(`SELECT ` + c.expr + ` FROM ` + from)
			if got.String != c.want {
				t.Errorf("%s from %s = %v, want %q", c.expr, from, got, c.want)
			}
		}
	}
}
