package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// openReadOnly makes a store and opens it again read-only, as wra
// notebook does.
func openReadOnly(t *testing.T) *Store {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.duckdb")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(ctx, path, Options{ReadOnly: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestSandboxRefusesWrites checks that DuckDB itself refuses every write
// and every file access in a sandbox on a read-only store, whatever the
// block check lets through, and that the check refuses what is not one
// query before DuckDB runs it.
func TestSandboxRefusesWrites(t *testing.T) {
	s := openReadOnly(t)
	ctx := context.Background()
	sb, err := s.Sandbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"DELETE FROM runs",
		"INSERT INTO calibration (source, phase, processes, ms) VALUES ('x', 'before', 1, 1)",
		"UPDATE runs SET server = 'x'",
		"CREATE TABLE x (a INTEGER)",
		"DROP VIEW cpu_per_request",
		"CREATE OR REPLACE VIEW cpu_per_request AS SELECT 1",
	} {
		_, err := s.exec(ctx, q)
		if err == nil || !strings.Contains(err.Error(), "read-only mode") {
			t.Errorf("%s: %v, want DuckDB's read-only refusal", q, err)
		}
	}
	for _, q := range []string{
		"COPY runs TO '" + filepath.Join(t.TempDir(), "x.csv") + "'",
		"ATTACH '" + filepath.Join(t.TempDir(), "y.duckdb") + "' AS y",
		"SET enable_external_access = true",
		"SELECT * FROM read_csv('" + filepath.Join(t.TempDir(), "z.csv") + "')",
	} {
		if _, err := s.exec(ctx, q); err == nil {
			t.Errorf("%s: no error; file access should be off and locked", q)
		}
	}
	for q, want := range map[string]string{
		"DELETE FROM runs":                 ErrNotAQuery.Error(),
		"PRAGMA version":                   ErrNotAQuery.Error(),
		"SELECT 1; SELECT 2":               "the block holds 2 statements; a notebook block is one query",
		"-- only a comment":                "the block holds no query",
		"SELEC 1":                          "Parser Error: syntax error at or near \"SELEC\"",
		"SELECT count(*) AS n FROM runs":   "",
		"DESCRIBE runs":                    "",
		"FROM memory_series LIMIT 1":       "",
		"WITH x AS (SELECT 1 AS a) FROM x": "",
	} {
		_, err := sb.Query(ctx, q)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if !strings.HasPrefix(got, want) || (want == "" && got != "") {
			t.Errorf("%s: %q, want %q", q, got, want)
		}
	}
}

// TestQueryReadOnly: a read-only store runs queries, several at once
// too, and refuses every other statement before any of it runs, naming
// it by its first word past comments.
func TestQueryReadOnly(t *testing.T) {
	s := openReadOnly(t)
	ctx := context.Background()
	dir := t.TempDir()
	for text, kind := range map[string]string{
		"COPY (SELECT 1) TO '" + filepath.Join(dir, "x.csv") + "'":        "COPY",
		"-- a comment\n/* and another */ export database '" + dir + "/e'": "EXPORT DATABASE",
		"SELECT 1; ATTACH '" + filepath.Join(dir, "a.duckdb") + "'":       "",
		"FORCE INSTALL httpfs": "INSTALL or LOAD",
		"SET VARIABLE x = 1":   "SET",
	} {
		_, err := s.QueryReadOnly(ctx, text)
		var ro *ReadOnlyError
		if !errors.As(err, &ro) || ro.Kind != kind {
			t.Errorf("%q: %v, want a ReadOnlyError naming %q", text, err, kind)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused statements wrote %v", entries)
	}
	tab, err := s.QueryReadOnly(ctx, "SELECT 1 AS a; SELECT 2 AS b")
	if err != nil || len(tab.Rows) != 1 || tab.Columns[0].Name != "b" {
		t.Errorf("two queries: %v, %v", tab, err)
	}
	if _, err := s.QueryReadOnly(ctx, "SELEC 1"); err == nil || !strings.Contains(err.Error(), "Parser Error") {
		t.Errorf("a syntax error: %v, want DuckDB's", err)
	}
}
