package main

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/ingest/ingesttest"
)

// fileSum is the SHA-256 of a file.
func fileSum(t *testing.T, p string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func TestSafetySQLReadOnly(t *testing.T) {
	db := hostileStore(t)
	before := fileSum(t, db)
	for _, q := range []string{
		"DELETE FROM runs",
		"UPDATE runs SET server = 'x'",
		"INSERT INTO ingested_files SELECT * FROM ingested_files",
		"DROP TABLE runs",
		"CREATE TABLE notes (a INTEGER)",
		"ALTER TABLE runs ADD COLUMN x INTEGER",
		"CREATE OR REPLACE VIEW cpu_per_request AS SELECT 1",
		"SELECT 1; DELETE FROM runs",
	} {
		if r := wra(t, db, "sql", q); r.code == 0 {
			t.Errorf("wra sql %q succeeded without --write: %s", q, r.stdout)
		} else if !strings.Contains(strings.ToLower(r.stderr), "read-only") && !strings.Contains(strings.ToLower(r.stderr), "read only") {
			t.Errorf("wra sql %q: the message does not say the store is read-only: %s", q, r.stderr)
		}
	}
	if fileSum(t, db) != before {
		t.Fatal("the store file changed under wra sql without --write")
	}
	if r := wra(t, db, "sql", "--write", "CREATE TABLE notes (a INTEGER)"); r.code != 0 {
		t.Fatalf("wra sql --write: exit %d: %s", r.code, r.stderr)
	}
	if r := wra(t, db, "sql", "--format", "csv", "SELECT count(*) AS n FROM notes"); r.code != 0 || r.stdout != "n\n0\n" {
		t.Errorf("the table made with --write: exit %d %q %s", r.code, r.stdout, r.stderr)
	}
}

func TestSafetyNotebookReadOnly(t *testing.T) {
	db := hostileStore(t)
	before := fileSum(t, db)
	nb := filepath.Join(t.TempDir(), "nb.md")
	copyFile := filepath.Join(t.TempDir(), "leak.csv")
	var text strings.Builder
	text.WriteString("# Writes\n\n")
	for _, q := range []string{
		"DELETE FROM runs",
		"CREATE TABLE notes AS SELECT 1 AS a",
		"SELECT 1; DROP TABLE runs",
		"COPY runs TO '" + copyFile + "'",
		"SELECT count(*) AS n FROM runs",
	} {
		text.WriteString("```sql\n" + q + "\n```\n\n")
	}
	if err := os.WriteFile(nb, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	r := wra(t, db, "notebook", "run", nb)
	if r.code == 0 {
		t.Errorf("a notebook with writing blocks ran without an error")
	}
	if fileSum(t, db) != before {
		t.Fatal("the store file changed under wra notebook run")
	}
	if _, err := os.Stat(copyFile); err == nil {
		t.Error("a notebook block wrote a file with COPY")
	}
	out, err := os.ReadFile(nb)
	if err != nil {
		t.Fatal(err)
	}
	// The last block still ran: the four runs are there.
	if !strings.Contains(string(out), "| 4 |") && !strings.Contains(string(out), " 4 ") {
		t.Errorf("the counting block's result is missing:\n%s", out)
	}
	if r := wra(t, db, "sql", "--format", "csv", "SELECT count(*) AS n FROM runs"); r.stdout != "n\n4\n" {
		t.Errorf("runs after the notebook: %q %s", r.stdout, r.stderr)
	}
}

// TestSafetyGzipBomb ingests a k6 point stream whose gzip expands past the
// limit (ingest.ExpansionLimit: ingest.MaxExpansion times its size, at
// least ingest.MinExpansionLimit) into a real store, whose scanner reads
// such streams itself: the file fails at the limit, nothing of it is
// stored, and the other file of the folder loads.
func TestSafetyGzipBomb(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "in")
	copyTree(t, dir, map[string]string{"wrk.txt": "../../ingest/testdata/wrk/wrk_plain_nginx_static.txt"})
	nd, err := os.ReadFile("../../ingest/testdata/k6/k6_constant_go2_ping_points.ndjson")
	if err != nil {
		t.Fatal(err)
	}
	head := nd[:bytes.IndexByte(nd[20000:], '\n')+20001]
	// The head, then blank lines to the limit and 64 MiB more.
	const size = ingest.MinExpansionLimit + 64<<20
	gz := bytes.NewBuffer(ingesttest.GzipRepeat(head, bytes.Repeat([]byte("\n"), 4<<20), size))
	if limit := ingest.ExpansionLimit(int64(gz.Len())); limit >= size || ingest.WithinLimit(int64(gz.Len())) {
		t.Fatalf("%d bytes compressed: the limit %d is not exceeded", gz.Len(), limit)
	}
	if err := os.WriteFile(filepath.Join(dir, "points.ndjson.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "s.duckdb")
	r := wra(t, db, "ingest", dir)
	if r.code != exitPartial {
		t.Errorf("exit %d, want %d (one file failed): %s", r.code, exitPartial, r.stderr)
	}
	if !strings.Contains(r.stderr, "in/points.ndjson.gz:") || !strings.Contains(r.stderr, "gzip bomb") {
		t.Errorf("stderr does not name the bomb:\n%s", r.stderr)
	}
	q := wra(t, db, "sql", "--format", "csv", "SELECT source, format FROM ingested_files ORDER BY 1")
	if q.stdout != "source,format\nin/wrk.txt,wrk\n" {
		t.Errorf("ingested files:\n%s%s", q.stdout, q.stderr)
	}
	if q := wra(t, db, "sql", "--format", "csv", "SELECT count(*) AS n FROM samples"); q.stdout != "n\n0\n" {
		t.Errorf("samples of the bomb stored: %s%s", q.stdout, q.stderr)
	}
}

// TestSafetyChangedFile ingests a folder, then a broken version of one of
// its files (cut short), then a good different version: the broken one
// fails and keeps the rows of the version before; the good one replaces
// them, with nothing doubled.
func TestSafetyChangedFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "in")
	copyTree(t, dir, map[string]string{
		"records.csv": "../../ingest/testdata/records/records.csv",
		"wrk.txt":     "../../ingest/testdata/wrk/wrk_plain_nginx_static.txt",
	})
	db := filepath.Join(t.TempDir(), "s.duckdb")
	count := func() string {
		t.Helper()
		q := wra(t, db, "sql", "--format", "csv", "SELECT count(*) FILTER (source = 'in/records.csv') AS rec, count(*) AS all_runs, (SELECT count(*) FROM ingested_files) AS files FROM runs")
		return q.stdout + q.stderr
	}
	if r := wra(t, db, "ingest", dir); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	// records.csv has a header and 48 rows (wc -l gives 49).
	if got := count(); got != "rec,all_runs,files\n48,49,2\n" {
		t.Fatalf("after the first ingest: %s", got)
	}
	rec, err := os.ReadFile(filepath.Join(dir, "records.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(rec), "\n")
	// Cut inside the 11th row: a row with too few fields.
	cut := strings.Join(lines[:11], "") + lines[11][:len(lines[11])/3]
	if err := os.WriteFile(filepath.Join(dir, "records.csv"), []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	r := wra(t, db, "ingest", dir)
	if r.code != exitPartial || !strings.Contains(r.stderr, "in/records.csv:12") {
		t.Errorf("a cut records.csv: exit %d, stderr %s", r.code, r.stderr)
	}
	if got := count(); got != "rec,all_runs,files\n48,49,2\n" {
		t.Errorf("the failed file did not keep its earlier rows: %s", got)
	}
	// The first 20 rows: a good file that differs.
	if err := os.WriteFile(filepath.Join(dir, "records.csv"), []byte(strings.Join(lines[:21], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	r = wra(t, db, "ingest", dir)
	if r.code != 0 || !strings.Contains(r.stderr, "0 loaded, 1 replaced, 1 unchanged") {
		t.Errorf("a changed records.csv: exit %d, stderr %s", r.code, r.stderr)
	}
	if got := count(); got != "rec,all_runs,files\n20,21,2\n" {
		t.Errorf("after the replacement: %s", got)
	}
}
