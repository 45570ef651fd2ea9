package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// fixtureCorpus lays out a small corpus of real captures, with a manifest,
// the way a benchmarker's folder looks.
func fixtureCorpus(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "corpus")
	copyTree(t, dir, map[string]string{
		"records/records.csv":                "../../ingest/testdata/records/records.csv",
		"records/memory_waiting.csv":         "../../ingest/testdata/records/memory_waiting.csv",
		"calibration/calibration_before.csv": "../../ingest/testdata/calibration/calibration_before.csv",
		"calibration/calibration_after.csv":  "../../ingest/testdata/calibration/calibration_after.csv",
		"ab/nginx/static-c10.txt":            "../../ingest/testdata/ab/ab_plain_nginx_static_n5000_c10.txt",
		"ab/go2/ping-c20.txt":                "../../ingest/testdata/ab/ab_keepalive_go2_ping_n10000_c20.txt",
		"bombardier/go2/ping-c50.txt":        "../../ingest/testdata/bombardier/bombardier_default_go2_ping.txt",
		"hey/go2/ping-c20.txt":               "../../ingest/testdata/hey/hey_go2_ping_n5000_c20.txt",
		"wrk2/nginx/static-r5000.txt":        "../../ingest/testdata/wrk2/wrk2_latency_nginx_static_R5000.txt",
		"wrk2/go2/wait-r1000.txt":            "../../ingest/testdata/wrk2/wrk2_U_go2_wait5_R1000.txt",
		"wrk2/go1/ping-r500.txt":             "../../ingest/testdata/wrk2/wrk2_short_6s_go1_ping_R500.txt",
		"wrk2/go1/ping-r100000.txt":          "../../ingest/testdata/wrk2/wrk2_cannot_keep_up_go1_ping_R100000.txt",
		"k6/go1/ladder.ndjson.gz":            "../../ingest/testdata/k6/k6_ladder_points.ndjson.gz",
		"k6/go1-wait/ladder.json":            "../../ingest/testdata/k6/k6_ladder_go1_wait10_summary_export.json",
		"wra.toml":                           "testdata/analyze/wra.toml",
	})
	return dir
}

// readTree returns every file below dir with its bytes.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestAnalyzeCorpus(t *testing.T) {
	corpus := fixtureCorpus(t)
	outA := filepath.Join(t.TempDir(), "a")
	r := wra(t, filepath.Join(t.TempDir(), "a.duckdb"), "analyze", "--out", outA, corpus)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "analyze/stdout.table", r.stdout)
	golden(t, "analyze/stderr", strings.ReplaceAll(r.stderr, outA, "OUT"))
	files := readTree(t, outA)
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	golden(t, "analyze/files", strings.Join(names, "\n")+"\n")
	golden(t, "analyze/report.md", string(files["report.md"]))
	for _, n := range names {
		if strings.HasPrefix(n, "tables/") {
			golden(t, "analyze/"+n, string(files[n]))
		}
	}
	for _, want := range []string{"index.html", "report.md", "plots/throughput-db.svg", "plots/throughput-db.png", "plots/memory.svg"} {
		if len(files[want]) == 0 {
			t.Errorf("%s missing or empty", want)
		}
	}
	// The same data gives the same bytes, even through a fresh store and
	// another output folder; no absolute path of the machine leaks.
	outB := filepath.Join(t.TempDir(), "b")
	r2 := wra(t, filepath.Join(t.TempDir(), "b.duckdb"), "--quiet", "analyze", "--out", outB, corpus)
	if r2.code != 0 {
		t.Fatalf("second run exit %d: %s", r2.code, r2.stderr)
	}
	if r2.stdout != r.stdout {
		t.Error("stdout differs between two runs on the same data")
	}
	again := readTree(t, outB)
	if len(again) != len(files) {
		t.Errorf("second run wrote %d files, first %d", len(again), len(files))
	}
	for n, b := range files {
		if !bytes.Equal(again[n], b) {
			t.Errorf("%s differs between two runs on the same data", n)
		}
		if bytes.Contains(b, []byte(corpus)) || bytes.Contains(b, []byte(os.TempDir()+"/")) {
			t.Errorf("%s holds a path of the machine", n)
		}
	}
	// Nothing changed: the cached tables are printed, the folder is kept.
	dbB := filepath.Join(t.TempDir(), "b.duckdb")
	wra(t, dbB, "--quiet", "analyze", "--out", outB, corpus)
	r3 := wra(t, dbB, "analyze", "--out", outB, corpus)
	if r3.code != 0 || r3.stdout != r.stdout || !strings.Contains(r3.stderr, "is up to date") {
		t.Errorf("unchanged rerun: exit %d, same stdout %v, stderr %q", r3.code, r3.stdout == r.stdout, r3.stderr)
	}
	// A write through wra sql --write makes the cache stale.
	if w := wra(t, dbB, "sql", "--write", "UPDATE runs SET server = 'renamed' WHERE tool = 'ab'"); w.code != 0 {
		t.Fatal(w.stderr)
	}
	r4 := wra(t, dbB, "analyze", "--out", outB, corpus)
	if strings.Contains(r4.stderr, "is up to date") || !strings.Contains(r4.stdout, "renamed") {
		t.Errorf("after a write the analysis must be made again: %q", r4.stderr)
	}
	// Every format prints the headline tables.
	for _, f := range []string{"markdown", "csv", "json"} {
		r := wra(t, filepath.Join(t.TempDir(), f+".duckdb"), "--quiet", "--format", f, "analyze", "--out", filepath.Join(t.TempDir(), f), corpus)
		if r.code != 0 {
			t.Fatalf("--format %s: exit %d: %s", f, r.code, r.stderr)
		}
		golden(t, "analyze/stdout."+f, r.stdout)
	}
}

// The same records kept twice as two experiments the manifest labels
// {date}_{variant}: every rounds and CPU table names its variant and holds
// 3 rounds per row, never the 6 of both pooled.
func TestAnalyzeTwoVariants(t *testing.T) {
	dir := variantsFolder(t)
	out := filepath.Join(t.TempDir(), "out")
	r := wra(t, filepath.Join(t.TempDir(), "s.duckdb"), "--quiet", "--format", "csv", "analyze", "--out", out, dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, name := range []string{"rounds-db-records-date-2026-11-05-variant-no-auth.csv", "rounds-db-records-date-2026-11-06-variant-jwt.csv"} {
		b, err := os.ReadFile(filepath.Join(out, "tables", name))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if lines[0] != "server,connections,rounds,rps,rps_min,rps_max,p99_ms,failed" || len(lines) != 5 {
			t.Fatalf("%s:\n%s", name, b)
		}
		for _, l := range lines[1:] {
			if f := strings.Split(l, ","); f[2] != "3" {
				t.Errorf("%s: %s rounds in %q, want 3", name, f[2], l)
			}
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Rounds: db, records, date 2026-11-05, variant no-auth", "CPU per request split: db, date 2026-11-06, variant jwt", "split by date, variant"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}
