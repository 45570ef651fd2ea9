package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoGoInternalsInErrors: a value wra cannot read, a store that is
// missing or no store, and a file that is not there are told in the
// user's words, with what was expected, and never in the words of the Go
// package that failed.
func TestNoGoInternalsInErrors(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.duckdb")
	if r := wra(t, db, "--quiet", "ingest", samplesDir(t)); r.code != 0 {
		t.Fatalf("ingest: exit %d: %s", r.code, r.stderr)
	}
	notDB := filepath.Join(dir, "notes.duckdb")
	if err := os.WriteFile(notDB, []byte("not a database\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		db   string
		args []string
		code int
		want string
	}{
		{db, []string{"compare", "--alpha", "abc", "--by", "server", "--base", "a", "--vs", "b"}, exitUsage, `wra: --alpha "abc": expected a number, such as 0.05 or 1000`},
		{db, []string{"table", "-m", "rps", "--spread=maybe"}, exitUsage, `wra: --spread "maybe": expected true or false`},
		{db, []string{"--lock-timeout", "soon", "sql", "SELECT 1"}, exitUsage, `wra: --lock-timeout "soon": expected a duration, such as 500ms, 30s or 2m`},
		{db, []string{"--memory-limit", "lots", "sql", "SELECT 1"}, exitUsage, `wra: --memory-limit "lots": expected a size such as 512MiB or 2GB`},
		{db, []string{"cost", "--rps", "100", "--wait", "5x"}, exitUsage, `wra: --wait "5x": expected a duration`},
		{db, []string{"analyze", "--no-ingest", "--inline-plots", "sometimes"}, exitUsage, `wra: --inline-plots "sometimes": expected one of auto, always, never, found "sometimes"`},
		{filepath.Join(dir, "none.duckdb"), []string{"sql", "SELECT 1"}, exitError, "wra: no store at " + filepath.Join(dir, "none.duckdb") + " (run wra ingest first"},
		{notDB, []string{"sql", "SELECT 1"}, exitError, "wra: store " + notDB + `: IO Error: The file "` + notDB + `" exists, but it is not a valid DuckDB database file!`},
		{db, []string{"ingest", filepath.Join(dir, "nothing")}, exitError, "wra: " + filepath.Join(dir, "nothing") + ": no such file or directory"},
		{db, []string{"--format", "csv", "table", "-m", "rps", "--where", "rps > 1e999"}, exitError, "no runs to lay out"},
	} {
		r := wra(t, tc.db, tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("wra %v: exit %d, %q; want exit %d and %q", tc.args, r.code, r.stderr, tc.code, tc.want)
		}
		for _, internal := range []string{"strconv.", "time: ", "database/sql", "stat ", "open ", "invalid character", "json:"} {
			if strings.Contains(r.stderr, internal) {
				t.Errorf("wra %v: %q names Go's %q", tc.args, r.stderr, internal)
			}
		}
	}
}

// TestUserMessage: Go's words for a file it could not open and a number
// it could not parse, wherever they sit in an error, become the file or
// the value and what was expected.
func TestUserMessage(t *testing.T) {
	_, perr := os.Open("/does/not/exist.toml")
	_, nerr := strconv.ParseFloat("abc", 64)
	_, ierr := strconv.Atoi("2.5")
	for err, want := range map[error]string{
		fmt.Errorf("--prices: %w", perr):            "--prices: /does/not/exist.toml: no such file or directory",
		fmt.Errorf("prices.toml:3: rate: %w", nerr): `prices.toml:3: rate: "abc": expected a number`,
		fmt.Errorf("passes: %w", ierr):              `passes: "2.5": expected a whole number`,
		errors.New("plain"):                         "plain",
	} {
		if got := userMessage(err); got != want {
			t.Errorf("%q: %q, want %q", err, got, want)
		}
	}
}
