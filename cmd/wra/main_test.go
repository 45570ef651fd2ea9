package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// result is what one wra invocation printed and returned.
type result struct {
	stdout, stderr string
	code           int
}

// wra runs the command line in-process against the store db.
func wra(t *testing.T, db string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	code := run(context.Background(), e, append([]string{"--db", db}, args...))
	return result{out.String(), errb.String(), code}
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		os.WriteFile(path+".got", []byte(got), 0o644)
		t.Errorf("%s differs from the golden file; got written to %s.got\n--- got\n%s\n--- want\n%s", name, path, got, want)
	}
}

// copyTree copies the sample folders used by the tests into a fresh dir.
func copyTree(t *testing.T, dst string, files map[string]string) {
	t.Helper()
	for to, from := range files {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, to)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func samplesDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bench")
	copyTree(t, dir, map[string]string{
		"records/records.csv":                "../../ingest/testdata/records/records.csv",
		"records/memory_waiting.csv":         "../../ingest/testdata/records/memory_waiting.csv",
		"calibration/calibration_before.csv": "../../ingest/testdata/calibration/calibration_before.csv",
		"calibration/calibration_after.csv":  "../../ingest/testdata/calibration/calibration_after.csv",
	})
	return dir
}

func TestIngestTwice(t *testing.T) {
	dir := samplesDir(t)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	r := wra(t, db, "ingest", dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "ingest_first.stderr", r.stderr)
	// wc -l: records.csv 49 lines, memory_waiting.csv 17, calibration 10 + 10, each with a header.
	for q, want := range map[string]string{
		"SELECT count(*) FROM runs":           "48",
		"SELECT count(*) FROM memory_series":  "16",
		"SELECT count(*) FROM calibration":    "18",
		"SELECT count(*) FROM ingested_files": "4",
	} {
		got := wra(t, db, "sql", "--format", "csv", q)
		if lines := strings.Split(strings.TrimSpace(got.stdout), "\n"); len(lines) != 2 || lines[1] != want {
			t.Errorf("%s = %q, want %s", q, got.stdout, want)
		}
	}
	r = wra(t, db, "ingest", dir)
	if r.code != 0 {
		t.Fatalf("second ingest exit %d: %s", r.code, r.stderr)
	}
	golden(t, "ingest_second.stderr", r.stderr)
	if !strings.Contains(r.stderr, "0 loaded, 0 replaced, 4 unchanged") {
		t.Errorf("second ingest should find every file unchanged: %s", r.stderr)
	}
}

func TestIngestPartial(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mixed")
	copyTree(t, dir, map[string]string{"good.csv": "../../ingest/testdata/records/records.csv"})
	// A round that is no number: it says which run the row is, so the
	// file is refused (a bad figure would be stored as NULL instead).
	bad := "utc,server,round,test,connections,requests_per_s\n2026-11-29T18:56:57Z,go,1,ping,16,100\n2026-11-29T18:56:58Z,go,two,ping,16,100\n"
	if err := os.WriteFile(filepath.Join(dir, "bad.csv"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "s.duckdb")
	r := wra(t, db, "ingest", dir)
	if r.code != exitPartial {
		t.Errorf("exit %d, want %d", r.code, exitPartial)
	}
	golden(t, "ingest_partial.stderr", r.stderr)
	q := wra(t, db, "sql", "--format", "csv", "SELECT count(*) FILTER (source = 'mixed/bad.csv') AS bad, count(*) AS all_runs FROM runs")
	if q.stdout != "bad,all_runs\n0,48\n" {
		t.Errorf("rows: %q; want none of bad.csv and the 48 of good.csv", q.stdout)
	}
	// Every file failing is an error, not a partial result.
	r = wra(t, filepath.Join(t.TempDir(), "t.duckdb"), "ingest", filepath.Join(dir, "bad.csv"))
	if r.code != exitError {
		t.Errorf("all files failed: exit %d, want %d", r.code, exitError)
	}
}

func TestUsageAndErrors(t *testing.T) {
	db := filepath.Join(t.TempDir(), "none.duckdb")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"sql", "--format", "xml", "SELECT 1"}, exitUsage, "--format must be one of table, csv, json, markdown, html, not \"xml\""},
		{[]string{"ingest"}, exitUsage, "requires at least 1 arg"},
		{[]string{"--nope"}, exitUsage, "unknown flag: --nope"},
		{[]string{"ingest", "--label", "novalue", "x"}, exitUsage, "--label \"novalue\": expected key=value"},
		{[]string{"sql", "SELECT 1"}, exitError, "run wra ingest first"},
		{[]string{"ingest", "/does/not/exist"}, exitError, "no such file or directory"},
		{[]string{"nope"}, exitUsage, `unknown command "nope" for "wra"`},
		{[]string{"cost", "--rps", "many"}, exitUsage, `--rps "many": expected a number`},
		{[]string{"version", "extra"}, exitUsage, `unknown command "extra" for "wra version"`},
	} {
		r := wra(t, db, tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.msg) {
			t.Errorf("wra %v: exit %d, stderr %q; want exit %d and %q", tc.args, r.code, r.stderr, tc.code, tc.msg)
		}
	}
	// A DuckDB error names the query.
	dir := samplesDir(t)
	db = filepath.Join(t.TempDir(), "s.duckdb")
	wra(t, db, "--quiet", "ingest", dir)
	r := wra(t, db, "sql", "SELECT nope FROM runs")
	if r.code != exitError || !strings.Contains(r.stderr, "Binder Error") || !strings.Contains(r.stderr, "query: SELECT nope FROM runs") {
		t.Errorf("DuckDB error: exit %d, %q", r.code, r.stderr)
	}
	// An error of the query is no usage error, whatever its text says.
	for _, q := range []string{"SELECT error('file accepts no input')", "SELECT error('invalid argument: requires at least 1 arg(s), unknown flag')"} {
		r = wra(t, db, "sql", q)
		if r.code != exitError || strings.Contains(r.stderr, "--help") || !strings.Contains(r.stderr, "Invalid Input Error") {
			t.Errorf("%s: exit %d, %q; want exit %d and DuckDB's error without a pointer to --help", q, r.code, r.stderr, exitError)
		}
	}
	// Read-only unless --write.
	r = wra(t, db, "sql", "DELETE FROM runs")
	if r.code != exitError || !strings.Contains(strings.ToLower(r.stderr), "read-only") {
		t.Errorf("write without --write: exit %d, %q", r.code, r.stderr)
	}
}

// TestEveryCommandHasExamples: the help of each of wra's own commands
// shows how it is called.
func TestEveryCommandHasExamples(t *testing.T) {
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s has no examples in its help", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(e, &globals{}))
}

// A records file whose two rows have a CPU counter that fell loads every
// row: the two figures are NULL with their text kept, one warning line
// names the lines, the broken-counters finding names rows, column and
// value; --strict refuses the file.
func TestIngestBrokenValues(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "broken")
	rows := "server,test,round,requests,responses_2xx,errors,duration_s,cpu_server_user_s,cpu_server_kernel_s,cpu_postgres_s\n" +
		"go,page,1,10000,10000,0,10,1.2,0.8,2.1\n" +
		"go,page,2,10000,10000,0,10,1.3,0.7,-41.73\n" +
		"go,page,3,10000,10000,0,10,1.1,0.9,2.0\n" +
		"go,page,4,10000,10000,0,10,1.2,0.8,-3\n"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "records.csv"), []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "s.duckdb")
	r := wra(t, db, "ingest", dir)
	want := "wra: broken/records.csv: warning: 2 broken values stored as NULL, the rest of each row loaded (--strict refuses the file): " +
		"line 3 cpu_postgres_s -41.73; line 5 cpu_postgres_s -3\n"
	if r.code != 0 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant the line\n%s", r.code, r.stderr, want)
	}
	q := wra(t, db, "sql", "--format", "csv", `SELECT count(*) AS runs, count(cpu_db_s) AS db_cpu,
		'raw ' || string_agg(labels->>'raw.cpu_db_s', ' ' ORDER BY round) AS raw FROM runs`)
	if q.stdout != "runs,db_cpu,raw\n4,2,raw -41.73 -3\n" {
		t.Errorf("store: %q", q.stdout)
	}
	f := wra(t, db, "--quiet", "--format", "csv", "findings")
	wantFindings(t, f.stdout, "(line 3 cpu_db_s -41.73; line 5 cpu_db_s -3)", "broken/records.csv:3,5")
	strict := wra(t, filepath.Join(t.TempDir(), "t.duckdb"), "ingest", "--strict", dir)
	if strict.code == 0 || !strings.Contains(strict.stderr, "records.csv:3:") {
		t.Errorf("--strict: exit %d, %s", strict.code, strict.stderr)
	}
}
