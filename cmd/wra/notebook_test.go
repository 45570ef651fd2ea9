package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// brokenNotebook has a good block, a chart, and blocks that fail: a
// missing column, a write, a file read, two statements, a bad chart
// column.
const brokenNotebook = `# Broken on purpose

Rounds per server:

` + "```sql chart=bar x=server y=cpu_server_s title=\"Server CPU per run (s)\"" + `
SELECT server, round, test, cpu_server_s FROM runs ORDER BY server, round, test, cpu_server_s
` + "```" + `

A misspelt column:

` + "```sql" + `
SELECT nope FROM runs
` + "```" + `

A write:

` + "```sql" + `
DELETE FROM runs
` + "```" + `

A file outside the store:

` + "```sql" + `
SELECT * FROM read_csv('/etc/hostname')
` + "```" + `

Two statements, the first a write:

` + "```sql" + `
DROP VIEW cpu_per_request; SELECT 1
` + "```" + `

A chart of a column the query lacks:

` + "```sql chart=line x=concurrency y=memory_gib" + `
SELECT concurrency, memory_mb FROM memory_series ORDER BY ALL
` + "```" + `
`

func ingestedSamples(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "s.duckdb")
	if r := wra(t, db, "--quiet", "ingest", samplesDir(t)); r.code != 0 {
		t.Fatalf("ingest: exit %d: %s", r.code, r.stderr)
	}
	return db
}

func TestNotebookBrokenBlocks(t *testing.T) {
	db := ingestedSamples(t)
	dir := t.TempDir()
	nb := filepath.Join(dir, "broken.md")
	if err := os.WriteFile(nb, []byte(brokenNotebook), 0o644); err != nil {
		t.Fatal(err)
	}
	r := wra(t, db, "notebook", "run", nb)
	if r.code != exitError {
		t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, exitError, r.stderr)
	}
	out, err := os.ReadFile(nb)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "notebook_broken.md", string(out))
	// stderr names each failed block by its line in the updated file,
	// where its error now stands; the golden file shows the same lines.
	stderr := strings.ReplaceAll(r.stderr, dir+string(filepath.Separator), "")
	golden(t, "notebook_broken.stderr", stderr)
	lines := strings.Split(string(out), "\n")
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		m := regexp.MustCompile(`^broken\.md:(\d+): `).FindStringSubmatch(l)
		if m == nil {
			continue
		}
		line, _ := strconv.Atoi(m[1])
		if !strings.HasPrefix(lines[line-1], "```sql") || !strings.Contains(string(out), "**Error** in the block at line "+strconv.Itoa(line)+":") {
			t.Errorf("stderr names line %d, which is %q and has no error under it", line, lines[line-1])
		}
	}
	if got := len(regexp.MustCompile(`(?m)^broken\.md:\d+: `).FindAllString(stderr, -1)); got != 5 {
		t.Errorf("stderr names %d failed blocks, want 5:\n%s", got, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "broken.1.svg")); err != nil {
		t.Errorf("the chart of block 1: %v", err)
	}
	// Nothing was written: the store still has its rows and its view.
	q := wra(t, db, "sql", "--format", "csv", "SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM cpu_per_request) > 0 AS view_ok")
	if q.stdout != "runs,view_ok\n48,true\n" {
		t.Errorf("store after the notebook: %q", q.stdout)
	}
	// A second run of the updated notebook changes nothing.
	r2 := wra(t, db, "--quiet", "notebook", "run", nb)
	again, _ := os.ReadFile(nb)
	if r2.code != exitError || string(again) != string(out) {
		t.Errorf("second run: exit %d, output changed: %v", r2.code, string(again) != string(out))
	}
}

func TestNotebookOutHTMLAndUsage(t *testing.T) {
	db := ingestedSamples(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "n.md")
	text := "# Memory\n\n```sql chart=line x=concurrency y=memory_mb series=server\nSELECT server, concurrency, memory_mb FROM memory_series ORDER BY ALL\n```\n"
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "n.html")
	if r := wra(t, db, "--quiet", "notebook", "run", "--out", out, src); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	page, _ := os.ReadFile(out)
	for _, want := range []string{"<title>Memory</title>", "<figure>\n<svg", "<td class=\"num\">"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if b, _ := os.ReadFile(src); string(b) != text {
		t.Errorf("--out changed the notebook")
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"notebook", "run", "--out", filepath.Join(dir, "x.txt"), src}, "expected a file ending in .md or .html"},
		{[]string{"notebook", "run", "--out", out, src, src}, "--out takes one notebook"},
		{[]string{"notebook", "run"}, "requires at least 1 arg"},
	} {
		r := wra(t, db, tc.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.msg) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", tc.args, r.code, r.stderr, tc.msg)
		}
	}
	// An interrupted run leaves the notebook as it was.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr strings.Builder
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	if code := run(ctx, e, []string{"--db", db, "notebook", "run", src}); code != exitInterrupted {
		t.Errorf("interrupted run: exit %d, %q", code, stderr.String())
	}
	if b, _ := os.ReadFile(src); string(b) != text {
		t.Errorf("an interrupted run changed the notebook")
	}
	// An unclosed block is an error of the whole notebook, with its line.
	bad := filepath.Join(dir, "bad.md")
	os.WriteFile(bad, []byte("text\n\n```sql\nSELECT 1\n"), 0o644)
	r := wra(t, db, "notebook", "run", bad)
	if r.code != exitError || !strings.Contains(r.stderr, bad+":3: the ```sql block is not closed") {
		t.Errorf("unclosed block: exit %d, %q", r.code, r.stderr)
	}
}
