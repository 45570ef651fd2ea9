package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// findingsCorpus copies testdata/findings/<name> (records built from
// published figures, see make_records.py) into a fresh folder, with a
// manifest when one is given.
func findingsCorpus(t *testing.T, name, manifest string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	copyTree(t, dir, map[string]string{
		"records.csv":            "testdata/findings/" + name + "/records.csv",
		"memory.csv":             "testdata/findings/" + name + "/memory.csv",
		"calibration-before.csv": "testdata/findings/" + name + "/calibration-before.csv",
		"calibration-after.csv":  "testdata/findings/" + name + "/calibration-after.csv",
	})
	if manifest != "" {
		if err := os.WriteFile(filepath.Join(dir, "wra.toml"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// wantFindings requires each text in the findings printed.
func wantFindings(t *testing.T, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("findings lack %q:\n%s", w, got)
		}
	}
}

func ingested(t *testing.T, dir string) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "s.duckdb")
	if r := wra(t, db, "--quiet", "ingest", dir); r.code != 0 {
		t.Fatalf("ingest: exit %d: %s", r.code, r.stderr)
	}
	return db
}

// The published figures give their findings, named, with their numbers
// and the runs behind them; golden in every format.
func TestFindingsPublished(t *testing.T) {
	db := ingested(t, findingsCorpus(t, "published", ""))
	for _, f := range []string{"table", "markdown", "csv", "json", "html"} {
		r := wra(t, db, "--format", f, "findings")
		if r.code != 0 {
			t.Fatalf("--format %s: exit %d: %s", f, r.code, r.stderr)
		}
		golden(t, "findings/published."+f, r.stdout)
		if f == "csv" {
			golden(t, "findings/published.csv.stderr", r.stderr)
		}
	}
	r := wra(t, db, "--format", "csv", "--quiet", "findings")
	wantFindings(t, r.stdout,
		"aspnet's stack CPU per request on json falls from 970 to 830 to 700 µs as the rate rises from 1,000 to 2,000 to 4,000 requests/s",
		"{stack-01 480 µs, stack-02 500 µs, stack-03 530 µs} and {stack-04 1,200 µs",
		"stack-11's p99 is 78.0 ms where the other 11 servers have 3.60–10.4 ms",
		"stack-07's memory growth moves between passes from 0.390 to 0.760 GiB per 1000",
		"At insert (records), every server reaches the same throughput",
		"Calibration published/calibration-*.csv: the fixed CPU job's time after the series over its time before was 1.30 with 1 process and 1.30 with 2 processes (tolerance 5.00%): the machine's speed changed while the series ran, and the 66 runs that started between 11:58:18 and 13:20:10 UTC",
		"go-net, the fixed-rate ladder of json (records): the first step (1,000 requests/s) already failed in 3 of 3 runs with a p95 of 78.9–81.0 ms",
		"records.csv:2,4,6,8,10,12,14,16,18")
	if strings.Contains(r.stdout, "go-net's") || strings.Contains(r.stdout, "bent slope") {
		t.Errorf("a finding about the flat stack's CPU or a second one about the moving slope:\n%s", r.stdout)
	}
}

// The same records with every effect removed give no finding.
func TestFindingsFlat(t *testing.T) {
	db := ingested(t, findingsCorpus(t, "flat", ""))
	r := wra(t, db, "--format", "table", "findings")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "findings/flat.table", r.stdout)
	if !strings.Contains(r.stdout, "no rule fired") {
		t.Errorf("no 'no rule fired' note:\n%s", r.stdout)
	}
}

// Counters that cannot be right, whichever way they reached the store.
func TestFindingsBrokenCounters(t *testing.T) {
	db := ingested(t, findingsCorpus(t, "flat", ""))
	for _, q := range []string{
		"UPDATE runs SET cpu_db_s = -0.4 WHERE server = 'ins-2' AND round = 2",
		"UPDATE runs SET responses_2xx = requests + 5 WHERE server = 'go-net' AND round = 1 AND target_rps = 1000",
		"UPDATE runs SET rps = 1400 WHERE server = 'stack-05' AND round = 3",
		"UPDATE runs SET errors = 7 WHERE server = 'ins-3' AND round = 1",
	} {
		if r := wra(t, db, "sql", "--write", q); r.code != 0 {
			t.Fatalf("%s: %s", q, r.stderr)
		}
	}
	r := wra(t, db, "--format", "table", "findings")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "findings/counters.table", r.stdout)
	r = wra(t, db, "--quiet", "--format", "csv", "findings")
	wantFindings(t, r.stdout,
		"ins-2's records run on insert: the run has negative CPU seconds (database -0.400 s)",
		"go-net's records run on json: the run has more successful responses than requests (60005 successful of 60000)",
		"stack-05's records run on fortunes: the run has a rate more than 25.0% above the one asked for (1,400 requests/s for 1,000 asked)",
		"At insert (records, 64 connections), only ins-3 failed requests: 7 of",
		"flat/records.csv:58")
}

// Thresholds come from the flags over the folder's wra.toml over the
// defaults; a bad one is refused with its name.
func TestFindingsThresholds(t *testing.T) {
	dir := findingsCorpus(t, "published", "[findings]\nidle_min_fall = 0.5\n")
	db := ingested(t, dir)
	idle := "aspnet's stack CPU per request"
	if r := wra(t, db, "--format", "csv", "findings"); !strings.Contains(r.stdout, idle) {
		t.Errorf("default thresholds: no idle-cost finding:\n%s", r.stdout)
	}
	if r := wra(t, db, "--format", "csv", "findings", dir); r.code != 0 || strings.Contains(r.stdout, idle) {
		t.Errorf("idle_min_fall = 0.5 in wra.toml: exit %d, idle-cost finding still there:\n%s", r.code, r.stdout)
	}
	if r := wra(t, db, "--format", "csv", "findings", "--find-idle-min-fall", "0.2", dir); !strings.Contains(r.stdout, idle) {
		t.Errorf("--find-idle-min-fall 0.2 over wra.toml's 0.5: no idle-cost finding:\n%s", r.stdout)
	}
	if r := wra(t, db, "findings", "--find-alpha", "2"); r.code != 2 || !strings.Contains(r.stderr, "--find-alpha: alpha must be in (0, 1), not 2") {
		t.Errorf("--find-alpha 2: exit %d, stderr %q; want 2 and the rule", r.code, r.stderr)
	}
	bad := findingsCorpus(t, "flat", "[findings]\nalpah = 0.01\n")
	if r := wra(t, db, "findings", bad); r.code != 1 || !strings.Contains(r.stderr, "wra.toml [findings]: unknown finding threshold \"alpah\": expected one of min_passes, alpha,") {
		t.Errorf("a misspelt threshold: exit %d, stderr %q", r.code, r.stderr)
	}
}

// wra analyze opens with the answer: the summary, then its context,
// then the findings, on stdout, in report.md and on the page, where the
// summary and the context come before the contents and before any table;
// tables/findings.{csv,json,md} are the same as wra findings.
func TestAnalyzeSummaryFirst(t *testing.T) {
	dir := findingsCorpus(t, "published", "")
	db := filepath.Join(t.TempDir(), "s.duckdb")
	out := filepath.Join(t.TempDir(), "out")
	r := wra(t, db, "--quiet", "--format", "markdown", "analyze", "--out", out, dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "### Summary\n") || !strings.Contains(r.stdout, "\n### Context\n") || !strings.Contains(r.stdout, "\n### Findings\n") {
		t.Errorf("stdout does not start with the summary, its context and the findings:\n%.300s", r.stdout)
	}
	files := readTree(t, out)
	md := string(files["report.md"])
	if !strings.HasPrefix(md, "# Benchmark report\n\n## Summary\n\n- **") {
		t.Errorf("report.md does not start with the summary:\n%.300s", md)
	}
	if c, f := strings.Index(md, "\n## Context\n"), strings.Index(md, "\n## Findings\n"); c < 0 || f < c || strings.Contains(md, "### Findings") {
		t.Errorf("report.md: context at %d, findings at %d (want after the summary, in that order, with one heading each)", c, f)
	}
	page := string(files["index.html"])
	summary := strings.Index(page, "<section id=\"s1\" class=\"opening\">\n<h2>Summary</h2>\n<ul class=\"bullets\">")
	context := strings.Index(page, "<section id=\"s2\" class=\"opening\">\n<h2>Context</h2>")
	if summary < 0 || strings.Index(page, "<section") != summary || context < summary {
		t.Errorf("the page does not open with the summary and its context")
	}
	for _, later := range []string{"<nav>", "<table", "<h2>Findings</h2>"} {
		if i := strings.Index(page, later); i < context {
			t.Errorf("%s at %d, before the context at %d", later, i, context)
		}
	}
	if strings.Count(page, ">Findings<") != 2 { // the contents and the heading
		t.Errorf("the page names the findings %d times, want the contents and one heading", strings.Count(page, ">Findings<"))
	}
	for _, f := range []string{"csv", "markdown", "json"} {
		ext := map[string]string{"csv": "csv", "markdown": "md", "json": "json"}[f]
		direct := wra(t, db, "--format", f, "findings")
		if got := string(files["tables/findings."+ext]); got != direct.stdout {
			t.Errorf("tables/findings.%s differs from wra findings --format %s:\n%s\n---\n%s", ext, f, got, direct.stdout)
		}
	}
}

// The shipped corpus shows go-pq's database CPU per request above
// go-pgx's at equal load (lib/pq prepares every statement, pgx caches
// them); a re-recording keeps that, whatever else it shows.
func TestFindingsShippedCorpus(t *testing.T) {
	db := ingested(t, "../../data")
	r := wra(t, db, "--quiet", "--format", "csv", "findings")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	split := 0
	for _, row := range rows[1:] {
		text := row[col["finding"]]
		if row[col["rule_id"]] != "split" || !strings.Contains(strings.ToLower(text), "database cpu per request") {
			continue
		}
		cut := strings.Index(text, "} and {")
		pgx, pq := strings.Index(text, "go-pgx"), strings.Index(text, "go-pq")
		if pgx < 0 && pq < 0 {
			continue // a split of other servers (on MariaDB, say)
		}
		if cut < 0 || pgx < 0 || pq < 0 || !(pgx < cut && cut < pq) {
			t.Errorf("a split of database CPU with go-pgx not below go-pq: %s", text)
			continue
		}
		if !strings.HasPrefix(row[col["runs"]], "data/records/fixed-rate.csv:") {
			t.Errorf("split without its runs: %q", row[col["runs"]])
		}
		split++
		t.Log(text)
	}
	if split == 0 {
		t.Errorf("no split of database CPU per request between go-pgx and go-pq:\n%s", r.stdout)
	}
	for _, row := range rows[1:] {
		if row[col["rule_id"]] == "idle-cost" && strings.HasPrefix(row[col["finding"]], "node-pg's stack CPU") {
			t.Log(row[col["finding"]])
		}
	}
}
