package store_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/model/store"
)

// TestScansReadTheFileNamed: DuckDB's scanners take a path as a glob
// pattern and a leading ~ as the home directory, so that a file named
// a[1].ndjson.gz was read as the a1.ndjson.gz beside it. Each file whose
// name has *, ? or [ in it (and a backslash: model.ScannablePath), or
// whose path begins with ~, is stored with its own points, in a group of
// streams and file by file: as many as the same bytes give under a plain
// name.
func TestScansReadTheFileNamed(t *testing.T) {
	ctx := context.Background()
	read := func(name string) []byte { return readK6(t, name) }
	ping, errs := read("k6_constant_go2_ping_points.ndjson"), read("k6_constant_err_points.ndjson")
	jtl := "timeStamp,elapsed,label,success\n1597798959524,205,A,true\n"
	// Each name with glob characters lies beside a plain one of other
	// content that it matches as a pattern.
	files := []struct {
		name, plain string
		body        []byte
	}{
		{"g/a[1].ndjson.gz", "p/a.ndjson.gz", gz(errs)},
		{"g/a1.ndjson.gz", "p/b.ndjson.gz", gz(ping)},
		{"g/b*.ndjson", "p/c.ndjson", errs},
		{"g/bb.ndjson", "p/d.ndjson", ping},
		{"g/c?.csv", "p/e.csv", read("k6_constant_err_points.csv")},
		{"g/cX.csv", "p/f.csv", read("k6_constant_go2_ping_points.csv")},
		{"g/r[1].jtl", "p/g.jtl", []byte(jtl)},
		{"g/r1.jtl", "p/h.jtl", []byte(jtl + "1597798959525,7,A,false\n1597798959526,9,B,true\n")},
		{"~/d.ndjson", "p/i.ndjson", errs},
		// A backslash and a bracket: no pattern names it to DuckDB,
		// and wra's own reader reads it.
		{`g/e\[1].ndjson.gz`, "p/j.ndjson.gz", gz(errs)},
		{`g/e\1.ndjson.gz`, "p/k.ndjson.gz", gz(ping)},
	}
	dir := t.TempDir()
	for _, f := range files {
		for _, name := range []string{f.name, f.plain} {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.body, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The home directory holds a d.ndjson of other points.
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "d.ndjson"), ping, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Chdir(dir)
	// counts ingests paths and gives the points stored of each source.
	counts := func(st ingest.Store, s *store.Store, paths ...string) map[string]int64 {
		t.Helper()
		res, err := ingest.Ingest(ctx, st, paths, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Files {
			if f.Status != ingest.Loaded || f.Err != nil {
				t.Fatalf("%s: %s %v", f.Source, f.Status, f.Err)
			}
		}
		rows, err := store.SQLDB(s).QueryContext(ctx, `SELECT r.source, count(*) FROM samples JOIN runs r USING (run_id) GROUP BY ALL`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		n := map[string]int64{}
		for rows.Next() {
			var source string
			var c int64
			if err := rows.Scan(&source, &c); err != nil {
				t.Fatal(err)
			}
			n[source] = c
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return n
	}
	s := openStore(t, t.TempDir())
	want := counts(s, s, "p")
	if len(want) != len(files) {
		t.Fatalf("under plain names, points of %v, want %d files", slices.Sorted(maps.Keys(want)), len(files))
	}
	grouped, alone := openStore(t, t.TempDir()), openStore(t, t.TempDir())
	for how, got := range map[string]map[string]int64{
		"in groups":    counts(grouped, grouped, "g", "~"),
		"file by file": counts(oneByOne{alone}, alone, "g", "~"),
	} {
		for _, f := range files {
			if got[f.name] != want[f.plain] || want[f.plain] == 0 {
				t.Errorf("%s: %s has %d points stored, want %d (as %s)", how, f.name, got[f.name], want[f.plain], f.plain)
			}
		}
	}
}
