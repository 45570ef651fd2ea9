package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The harness records of data/ and wrk2's reports of the same runs are
// one run each (run_pairs): wra table lays out one row per run, with
// wrk2's rate and latencies and the record's CPU, and wra analyze has no
// second rounds table of the records.
func TestOneRunOneRow(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	files := map[string]string{"wra.toml": "../../data/wra.toml", "records/fixed-rate.csv": "../../data/records/fixed-rate.csv"}
	reports, err := filepath.Glob("../../data/wrk2/*/*/*.txt")
	if err != nil || len(reports) == 0 {
		t.Fatalf("%d wrk2 reports in data/ (%v)", len(reports), err)
	}
	for _, p := range reports {
		rel, _ := filepath.Rel("../../data", p)
		files[rel] = p
	}
	copyTree(t, dir, files)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	if r := wra(t, db, "--quiet", "ingest", dir); r.code != 0 {
		t.Fatalf("ingest: exit %d: %s", r.code, r.stderr)
	}
	if r := wra(t, db, "--format", "csv", "sql", "SELECT count(*) AS pairs, count(DISTINCT record_id) AS records, max(abs(rps_diff_pct)) AS diff FROM run_pairs"); r.stdout != fmt.Sprintf("pairs,records,diff\n%d,%d,0\n", len(reports), len(reports)) {
		t.Errorf("run_pairs: %q", r.stdout)
	}
	r := wra(t, db, "--format", "csv", "table", "--cell", "{rps} {cpu_server_us} {working_set_mb}", "--row", "server", "--col", "target_rps", "--where", "test = 'one'", "--spread")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "table/one_run_one_row.csv", r.stdout)
	if strings.Contains(r.stderr, "split by tool") || strings.Contains(r.stdout, ",,") {
		t.Errorf("one table with every figure filled, want; stderr %q\n%s", r.stderr, r.stdout)
	}
	out := filepath.Join(t.TempDir(), "out")
	a := wra(t, db, "--quiet", "analyze", "--no-ingest", "--out", out)
	if a.code != 0 || strings.Contains(a.stdout, "Rounds: one, records") || !strings.Contains(a.stdout, "Rounds: one, wrk2") {
		t.Errorf("analyze: exit %d; the rounds of one run must be one table of wrk2's", a.code)
	}
}

// The manifest's [[tables]] are published by wra analyze after the
// Findings, in every format and in the page, named by their titles.
func TestAnalyzeManifestTables(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bench")
	copyTree(t, dir, map[string]string{
		"records.csv": "../../ingest/testdata/records/records.csv",
		"wra.toml":    "testdata/table/layouts.toml",
	})
	out := filepath.Join(t.TempDir(), "out")
	r := wra(t, filepath.Join(t.TempDir(), "s.duckdb"), "--quiet", "analyze", "--out", out, dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, name := range []string{
		"table-requests-s-by-connections-median-of-3-rounds-p99-ms",
		"table-cpu-per-request-s-user-kernel-database",
		"table-requests-s-at-16-connections-highest-first",
	} {
		for _, ext := range []string{".csv", ".json", ".md"} {
			b, err := os.ReadFile(filepath.Join(out, "tables", name+ext))
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "table/layouts/"+name+ext, string(b))
		}
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Tables of the manifest", "CPU per request, µs: user + kernel; database", "27,022 (20.4)"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	for _, want := range []string{"CPU per request, µs: user + kernel; database", "27,022 (20.4)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
}
