package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/creack/pty"
)

// onTerminal runs wra as a child with its stdout (and, unless stderr is
// given, its stderr) on a pseudo-terminal of 50 × 120, and returns what
// the terminal showed, its line ends as a pipe has them.
func onTerminal(t *testing.T, stderr io.Writer, args ...string) string {
	t.Helper()
	cmd := exec.Command(wraBinary(t), args...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	if stderr != nil {
		cmd.Stderr = stderr
	}
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 120})
	if err != nil {
		missing(t, fmt.Sprintf("no pseudo-terminal here: %v", err))
	}
	defer ptmx.Close()
	out, err := io.ReadAll(ptmx)
	if err != nil && !errors.Is(err, syscall.EIO) { // EIO: the child closed the terminal
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("wra %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.ReplaceAll(string(out), "\r\n", "\n")
}

// TestAnalyzeOnTerminal: on a terminal, wra analyze data/ prints the
// summary, the findings' headlines, what it skipped and where the page
// and the tables are, in at most 150 lines, and the same again when
// nothing changed (from the report's cache); with --tables it prints on
// the terminal exactly what a pipe gets, every table.
func TestAnalyzeOnTerminal(t *testing.T) {
	dir := t.TempDir()
	db, out := filepath.Join(dir, "d.duckdb"), filepath.Join(dir, "rep")
	brief := onTerminal(t, nil, "--db", db, "analyze", "--out", out, "../../data/")
	if n := strings.Count(brief, "\n"); n > 150 {
		t.Errorf("wra analyze data/ on a terminal printed %d lines, want at most 150:\n%s", n, brief)
	}
	for _, want := range []string{"\nSummary\n- CPU per request, one at 100 requests/s", "\nFindings\n1. ", "wra: skipped single-run ranking: ",
		"Every table: " + filepath.Join(out, "tables") + " (CSV, JSON, Markdown), or wra analyze --tables.\n",
		"wra: report written to " + filepath.Join(out, "index.html")} {
		if !strings.Contains(brief, want) {
			t.Errorf("wra analyze data/ on a terminal lacks %q:\n%s", want, brief)
		}
	}
	for _, table := range []string{"┌", "CPU per request: one at 100 requests/s (µs"} {
		if strings.Contains(brief, table) {
			t.Errorf("wra analyze data/ on a terminal printed a table (%q):\n%s", table, brief)
		}
	}
	again := onTerminal(t, nil, "--db", db, "analyze", "--out", out, "../../data/")
	if cut := func(s string) string { return s[strings.Index(s, "\nSummary\n"):strings.Index(s, "Every table:")] }; cut(again) != cut(brief) {
		t.Errorf("the summary from the cache differs:\n%s\nfirst:\n%s", again, brief)
	}
	var errb bytes.Buffer
	tables := onTerminal(t, &errb, "--db", db, "analyze", "--tables", "--no-ingest", "--out", out)
	pipe := wra(t, db, "analyze", "--no-ingest", "--out", out)
	if pipe.code != 0 {
		t.Fatalf("analyze on a pipe: exit %d: %s", pipe.code, pipe.stderr)
	}
	if tables != pipe.stdout {
		t.Errorf("--tables on a terminal differs from a pipe's stdout (%d and %d bytes)", len(tables), len(pipe.stdout))
	}
	if !strings.Contains(pipe.stdout, "┌") || strings.Contains(pipe.stdout, "Every table:") {
		t.Errorf("a pipe's stdout is not every table")
	}
	checkHeadlines(t, filepath.Join(out, "tables", "findings.csv"), []string{"go-pgx", "go-pq", "go-mysql", "node-pg", "node-mysql", "mysql-interp"})
}

// checkHeadlines reads a findings CSV: every finding has a headline of
// at most 120 characters that names one of the stacks, beside its
// evidence.
func checkHeadlines(t *testing.T, path string, stacks []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	if _, ok := col["headline"]; !ok {
		t.Fatalf("%s has no headline column: %q", path, rows[0])
	}
	if len(rows) < 2 {
		t.Fatalf("%s holds no finding", path)
	}
	for _, r := range rows[1:] {
		h, text := r[col["headline"]], r[col["finding"]]
		if n := utf8.RuneCountInString(h); n == 0 || n > 120 {
			t.Errorf("headline of %d characters: %q", n, h)
		}
		named := false
		for _, s := range stacks {
			named = named || strings.Contains(h, s)
		}
		if !named || text == "" || text == h {
			t.Errorf("headline %q names none of %q or stands without its evidence (%q)", h, stacks, text)
		}
	}
}

// TestHeadlinesOfTestCorpora: the findings of the test corpora (the
// published corpus of every rule, and the analyze corpus), as their
// golden tables hold them, each have a headline that names a stack.
func TestHeadlinesOfTestCorpora(t *testing.T) {
	checkHeadlines(t, "testdata/findings/published.csv", []string{"aspnet", "go-net", "stack-", "ins-"})
	checkHeadlines(t, "testdata/analyze/tables/findings.csv", []string{"go-gmp1", "go-gmp2", "nginx"})
}
