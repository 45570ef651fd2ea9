package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSQLWritesNoFile: without --write, wra sql refuses every statement
// that could write outside the store as it refuses a DROP, before it
// runs: no file appears, the store is unchanged, and the message names
// the statement. With --write the same COPY writes its file.
func TestSQLWritesNoFile(t *testing.T) {
	db := hostileStore(t)
	before := fileSum(t, db)
	dir := t.TempDir()
	out := filepath.Join(dir, "x.csv")
	for q, kind := range map[string]string{
		"COPY (SELECT 1) TO '" + out + "'":                             "COPY",
		"COPY runs TO '" + out + "' (FORMAT csv)":                      "COPY",
		"EXPORT DATABASE '" + filepath.Join(dir, "export") + "'":       "EXPORT DATABASE",
		"ATTACH '" + filepath.Join(dir, "other.duckdb") + "' AS other": "ATTACH",
		"INSTALL httpfs": "INSTALL or LOAD",
		"LOAD httpfs":    "INSTALL or LOAD",
		"SET profiling_output = '" + filepath.Join(dir, "p") + "'": "SET",
		"SELECT 1; COPY (SELECT 1) TO '" + out + "'":               "a statement that is not a query",
		"DROP TABLE runs": "DROP",
	} {
		r := wra(t, db, "sql", q)
		if r.code != exitError || !strings.Contains(r.stderr, "the store is open read-only, and "+kind+" may write") || !strings.Contains(r.stderr, "--write runs it") {
			t.Errorf("wra sql %q: exit %d, %q; want it refused as %s", q, r.code, r.stderr, kind)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("wra sql without --write wrote %v", entries)
	}
	if fileSum(t, db) != before {
		t.Error("the store file changed")
	}
	// Queries still read the store and files.
	for _, q := range []string{"SELECT count(*) AS n FROM runs", "SHOW TABLES", "DESCRIBE runs", "FROM cpu_per_request LIMIT 1",
		"SELECT * FROM read_csv('../../data/records/fixed-rate.csv') LIMIT 1"} {
		if r := wra(t, db, "--format", "csv", "sql", q); r.code != 0 || r.stdout == "" {
			t.Errorf("wra sql %q: exit %d: %s", q, r.code, r.stderr)
		}
	}
	if r := wra(t, db, "sql", "--write", "COPY (SELECT 1 AS a) TO '"+out+"'"); r.code != 0 {
		t.Fatalf("--write: exit %d: %s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != "a\n1\n" {
		t.Errorf("--write COPY: %q, %v", b, err)
	}
}
