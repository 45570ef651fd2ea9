package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model/store"
)

// exportStoreFixture is a store with every table filled from real
// captures (samples from a k6 run), plus tables of types other readers
// lack.
func exportStoreFixture(t *testing.T) string {
	t.Helper()
	db := ingestedSamples(t)
	k6 := filepath.Join(t.TempDir(), "k6")
	copyTree(t, k6, map[string]string{"ping.ndjson": "../../ingest/testdata/k6/k6_constant_go2_ping_points.ndjson"})
	if r := wra(t, db, "--quiet", "ingest", "--label", "server=go2", k6); r.code != 0 {
		t.Fatalf("ingest k6: exit %d: %s", r.code, r.stderr)
	}
	r := wra(t, db, "sql", "--write", `CREATE TABLE zz_types AS SELECT 1::UTINYINT AS a, 2::UBIGINT AS b, 3::HUGEINT AS c,
		'6ba7b810-9dad-11d1-80b4-00c04fd430c8'::UUID AS d, '{"a": 1}'::JSON AS e,
		TIMESTAMP_NS '2026-01-01 00:00:00.123456789' AS f, INTERVAL 1 DAY AS g,
		'=1+2' AS formula, '-3' AS dash, 'ok' AS plain`)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	return db
}

// sqlRows runs a query through 'wra sql' and returns its CSV lines after
// the header.
func sqlRows(t *testing.T, db, q string) []string {
	t.Helper()
	r := wra(t, db, "sql", "--format", "csv", q)
	if r.code != 0 {
		t.Fatalf("%s: exit %d: %s", q, r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	return lines[1:]
}

func readExportInfo(t *testing.T, dir string) store.ExportInfo {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, store.ExportManifest))
	if err != nil {
		t.Fatal(err)
	}
	var info store.ExportInfo
	if err := json.Unmarshal(b, &info); err != nil {
		t.Fatal(err)
	}
	return info
}

// TestExportParquet reads every exported file back with DuckDB's
// read_parquet through 'wra sql' and compares it with the store: the
// same number of rows (per partition, for samples), the same column
// names, and the same types, but for the ones exportType maps.
func TestExportParquet(t *testing.T) {
	db := exportStoreFixture(t)
	dir := filepath.Join(t.TempDir(), "out", "corpus.parquet")
	r := wra(t, db, "--format", "csv", "export", "--parquet", dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	info := readExportInfo(t, dir)
	names := map[string]bool{}
	for _, f := range info.Files {
		names[f.Name] = true
	}
	for _, want := range []string{"runs", "samples", "latency_percentiles", "memory_series", "calibration", "prices", "ingested_files", "cpu_per_request", "memory_slopes", "ladder_steps", "ladders", "calibration_drift", "run_medians", "zz_types"} {
		if !names[want] {
			t.Errorf("the export lacks %s", want)
		}
	}
	for _, f := range info.Files {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		from := "read_parquet(" + quoteString(path) + ")"
		if f.PartitionBy != nil {
			from = "read_parquet(" + quoteString(filepath.Join(path, "**", "*.parquet")) + ", hive_partitioning = true)"
		}
		want := sqlRows(t, db, "SELECT count(*) FROM "+quoteIdent(f.Name))[0]
		got := sqlRows(t, db, "SELECT count(*) FROM "+from)[0]
		if got != want || want != jsonInt(f.Rows) {
			t.Errorf("%s: %s rows in the export, %s in the store, %d in %s", f.Name, got, want, f.Rows, store.ExportManifest)
		}
		storeCols := sqlRows(t, db, "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM "+quoteIdent(f.Name)+")")
		var wantCols []string
		for _, l := range storeCols {
			name, typ, _ := strings.Cut(l, ",")
			if t := store.ExportType(typ); t != "" {
				typ = t
			}
			wantCols = append(wantCols, name+","+typ)
		}
		if f.PartitionBy != nil {
			wantCols = append(wantCols, "server,VARCHAR", "tool,VARCHAR")
		}
		gotCols := sqlRows(t, db, "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM "+from+")")
		if f.PartitionBy != nil {
			// Hive columns come last, in the order DuckDB finds them.
			n := len(gotCols) - 2
			if n >= 0 && gotCols[n] > gotCols[n+1] {
				gotCols[n], gotCols[n+1] = gotCols[n+1], gotCols[n]
			}
		}
		if strings.Join(gotCols, ";") != strings.Join(wantCols, ";") {
			t.Errorf("%s: columns\n got %v\nwant %v", f.Name, gotCols, wantCols)
		}
	}
	// The types other readers lack, as written (see exportType).
	got := sqlRows(t, db, "SELECT string_agg(column_type, ' ' ORDER BY column_name) FROM (DESCRIBE SELECT * FROM read_parquet("+quoteString(filepath.Join(dir, "zz_types.parquet"))+"))")[0]
	if got != "SMALLINT BIGINT BIGINT VARCHAR VARCHAR VARCHAR TIMESTAMP VARCHAR VARCHAR VARCHAR" { // a b c d dash e f formula g plain
		t.Errorf("zz_types read back as %s", got)
	}
	// samples: one folder per tool and server of its runs, with the rows
	// of each.
	want := sqlRows(t, db, "SELECT r.tool, r.server, count(*) FROM samples s JOIN runs r USING (run_id) GROUP BY ALL ORDER BY ALL")
	got2 := sqlRows(t, db, "SELECT tool, server, count(*) FROM read_parquet("+quoteString(filepath.Join(dir, "samples", "**", "*.parquet"))+", hive_partitioning = true) GROUP BY ALL ORDER BY ALL")
	if len(want) == 0 || strings.Join(got2, ";") != strings.Join(want, ";") {
		t.Errorf("samples partitions: got %v, want %v", got2, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "samples", "tool=k6", "server=go2")); err != nil {
		t.Errorf("samples is not partitioned by tool and server: %v", err)
	}
	// stdout lists the files.
	if !strings.HasPrefix(r.stdout, "name,kind,rows,path\n") || !strings.Contains(r.stdout, "\ncpu_per_request,view,") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	// The values round-trip: runs read back equal runs in the store.
	diff := sqlRows(t, db, "SELECT count(*) FROM (SELECT * REPLACE (labels::VARCHAR AS labels) FROM runs EXCEPT ALL SELECT * FROM read_parquet("+quoteString(filepath.Join(dir, "runs.parquet"))+"))")[0]
	if diff != "0" {
		t.Errorf("%s rows of runs differ after the round trip", diff)
	}
}

func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestExportCSV(t *testing.T) {
	db := exportStoreFixture(t)
	dir := filepath.Join(t.TempDir(), "corpus.csv")
	if r := wra(t, db, "--quiet", "export", "--csv", dir); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, f := range readExportInfo(t, dir).Files {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		if f.PartitionBy != nil {
			path = filepath.Join(path, "**", "*.csv")
		}
		got := sqlRows(t, db, "SELECT count(*) FROM read_csv("+quoteString(path)+", header = true, all_varchar = true)")[0]
		want := sqlRows(t, db, "SELECT count(*) FROM "+quoteIdent(f.Name))[0]
		if f.Rows == 0 {
			// An empty CSV holds its header alone, which read_csv takes
			// for a row of column names when it has nothing else to go on.
			continue
		}
		if got != want {
			t.Errorf("%s: %s rows in the CSV, %s in the store", f.Name, got, want)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "zz_types.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// Text a spreadsheet would run gets an apostrophe; numbers do not.
	if !strings.Contains(string(b), ",'=1+2,'-3,ok\n") || !strings.HasPrefix(string(b), "a,b,c,d,e,f,g,formula,dash,plain\n1,2,3,") {
		t.Errorf("zz_types.csv:\n%s", b)
	}
}

func TestExportIsAtomic(t *testing.T) {
	db := ingestedSamples(t)
	// A table whose export fails after the others are written: an
	// unsigned value beyond BIGINT.
	if r := wra(t, db, "sql", "--write", "CREATE TABLE zz_big AS SELECT 18446744073709551615::UBIGINT AS n"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "x.parquet")
	r := wra(t, db, "export", "--parquet", dir)
	if r.code != exitError || !strings.Contains(r.stderr, "exporting table zz_big") {
		t.Errorf("exit %d, %q; want exit 1 naming zz_big", r.code, r.stderr)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Errorf("a failed export left %v", ents)
	}
	// A folder that is not an export is never written into.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "keep.txt"), []byte("mine"), 0o644)
	r = wra(t, db, "export", "--parquet", other, "--replace")
	if r.code != exitError || !strings.Contains(r.stderr, "is not a wra export") {
		t.Errorf("export over a folder: exit %d, %q", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(other, "keep.txt")); string(b) != "mine" {
		t.Errorf("the folder was touched")
	}
	// An earlier export is replaced only with --replace.
	wra(t, db, "sql", "--write", "DROP TABLE zz_big")
	if r := wra(t, db, "--quiet", "export", "--parquet", dir); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if r := wra(t, db, "export", "--parquet", dir); r.code != exitUsage || !strings.Contains(r.stderr, "give --replace") {
		t.Errorf("second export: exit %d, %q", r.code, r.stderr)
	}
	wra(t, db, "sql", "--write", "DELETE FROM calibration WHERE phase = 'after'")
	if r := wra(t, db, "--quiet", "export", "--parquet", dir, "--replace"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if got := sqlRows(t, db, "SELECT count(*) FROM read_parquet("+quoteString(filepath.Join(dir, "calibration.parquet"))+")")[0]; got != "9" {
		t.Errorf("the replaced export has %s calibration rows, want 9 (18 less the 9 after)", got)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 1 {
		t.Errorf("after --replace the parent holds %v", ents)
	}
	for _, args := range [][]string{{"export"}, {"export", "--parquet", "a", "--csv", "b"}} {
		if r := wra(t, db, args...); r.code != exitUsage {
			t.Errorf("%v: exit %d", args, r.code)
		}
	}
}

// quoteString is s as a SQL string literal.
func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// quoteIdent is s as a SQL identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
