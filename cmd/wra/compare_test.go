package main

import (
	"encoding/csv"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// compareStore ingests the harness records (go-gmp1, go-gmp2 and nginx,
// three rounds each) into a fresh store.
func compareStore(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "c.duckdb")
	if r := wra(t, db, "--quiet", "ingest", samplesDir(t)); r.code != 0 {
		t.Fatalf("ingest: exit %d: %s", r.code, r.stderr)
	}
	return db
}

// csvRows parses CSV output into maps keyed by column name.
func csvRows(t *testing.T, out string) []map[string]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var rows []map[string]string
	for _, rec := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = rec[i]
		}
		rows = append(rows, m)
	}
	return rows
}

func TestCompareServers(t *testing.T) {
	db := compareStore(t)
	r := wra(t, db, "compare", "--format", "table", "--by", "server", "--base", "go-gmp1", "--vs", "go-gmp2")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "compare/servers.table", r.stdout)

	r = wra(t, db, "compare", "--format", "csv", "--holm=false", "--by", "server", "--base", "go-gmp1", "--vs", "go-gmp2")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "compare/servers.csv", r.stdout)
	golden(t, "compare/servers_csv.stderr", r.stderr)
	// Reference values from R on records.csv (the same rounds):
	//   a <- rps of go-gmp1, ping, 16 connections = 18479.79 27022.04 29756.64
	//   b <- go-gmp2 = 19440.22 19244.37 31914.70
	//   wilcox.test(a, b, exact = TRUE) -> W = 4, p-value = 1
	//   cpu_server_s / responses_2xx * 1e6 for db, 64 connections:
	//   a = 62.336617735773174 58.86733572112486 64.444853618118216
	//   b = 68.57384527082138 71.187302509715607 57.842803674719292
	//   wilcox.test(a, b, exact = TRUE) -> W = 3, p-value = 0.7;
	//   (median(b)/median(a) - 1) * 100 = 10.005720171546685
	want := map[string][3]float64{ // U, p, delta %
		"rps|ping|16":                 {4, 1, math.NaN()},
		"cpu_server_us_per_req|db|64": {3, 0.7, 10.005720171546685},
	}
	seen := 0
	for _, row := range csvRows(t, r.stdout) {
		w, ok := want[row["metric"]+"|"+row["test"]+"|"+row["connections"]]
		if !ok {
			continue
		}
		seen++
		u, _ := strconv.ParseFloat(row["u"], 64)
		p, _ := strconv.ParseFloat(row["p"], 64)
		delta, _ := strconv.ParseFloat(row["delta_pct"], 64)
		if u != w[0] || math.Abs(p-w[1]) > 1e-12 || row["exact"] != "true" || row["p_adjusted"] != "false" ||
			(!math.IsNaN(w[2]) && math.Abs(delta-w[2]) > 1e-9) {
			t.Errorf("%s %s %s: u=%v p=%v delta=%v exact=%s; R gives %v", row["metric"], row["test"], row["connections"], u, p, delta, row["exact"], w)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d reference rows", seen, len(want))
	}
}

func TestCompareSignificant(t *testing.T) {
	// nginx against go-gmp1 on ping, 16 connections: every nginx round is
	// faster (R: wilcox.test(c(38133.86, 37695.68, 51179.50),
	// c(18479.79, 27022.04, 29756.64)) -> W = 9, p-value = 0.1), so at
	// alpha 0.1 the change is significant: 38133.86/27022.04 - 1 = +41.12%.
	db := compareStore(t)
	r := wra(t, db, "compare", "--format", "table", "--by", "server", "--base", "go-gmp1", "--vs", "nginx",
		"--metric", "rps", "--alpha", "0.1", "--holm=false")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "compare/nginx_alpha.table", r.stdout)
	if !strings.Contains(r.stdout, "+41.12% (p=0.100 n=3)") {
		t.Errorf("missing the significant ping/16 row:\n%s", r.stdout)
	}
	r = wra(t, db, "compare", "--format", "markdown", "--by", "server", "--base", "go-gmp1", "--vs", "nginx", "--metric", "rps,latency_p99_ms")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "compare/nginx.markdown", r.stdout)
	// wra table's name of the server's CPU per request is the same
	// metric.
	var out []string
	for _, m := range []string{"cpu_server_us_per_req", "cpu_server_us"} {
		r = wra(t, db, "compare", "--format", "csv", "--by", "server", "--base", "go-gmp1", "--vs", "nginx", "--metric", m)
		if r.code != 0 {
			t.Fatalf("--metric %s: exit %d: %s", m, r.code, r.stderr)
		}
		out = append(out, r.stdout)
	}
	if out[0] != out[1] || !strings.Contains(out[1], "\ncpu_server_us_per_req,") {
		t.Errorf("--metric cpu_server_us:\n%s\nwant as --metric cpu_server_us_per_req:\n%s", out[1], out[0])
	}
}

func TestCompareUsage(t *testing.T) {
	db := compareStore(t)
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"compare"}, exitUsage, "give --by, --base and --vs"},
		{[]string{"compare", "--by", "server", "--base", "a"}, exitUsage, "give --by, --base and --vs"},
		{[]string{"compare", "a"}, exitUsage, "give two folders, or --by with --base and --vs"},
		{[]string{"compare", "--by", "server", "--base", "a", "--vs", "b", "x", "y"}, exitUsage, "not both"},
		{[]string{"compare", "--by", "server", "--base", "a", "--vs", "a"}, exitUsage, `--base and --vs are the same: "a"`},
		{[]string{"compare", "--by", "no such", "--base", "a", "--vs", "b"}, exitUsage, `--by "no such": expected a runs column`},
		{[]string{"compare", "--by", "server", "--base", "go-gmp1", "--vs", "go-gmp2", "--metric", "speed"}, exitUsage,
			`--metric must be one of rps, latency_p50_ms, latency_p90_ms, latency_p99_ms, cpu_server_us_per_req, cpu_db_us_per_req, working_set_mb, highest_held_rps, or a column of run_reported (reported_rps_mean, ...), not "speed"`},
		{[]string{"compare", "--by", "server", "--base", "go-gmp1", "--vs", "go-gmp2", "--alpha", "1.5"}, exitUsage, "--alpha must be between 0 and 1"},
		{[]string{"compare", "--by", "server", "--base", "go-gmp1", "--vs", "rust"}, exitError, `no runs with server = "rust"`},
		{[]string{"compare", "x", "y"}, exitError, "no runs from x"},
	} {
		r := wra(t, db, tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.msg) {
			t.Errorf("wra %v: exit %d, stderr %q; want exit %d and %q", tc.args, r.code, r.stderr, tc.code, tc.msg)
		}
	}
	// A label key that is not a column selects through runs.labels: no
	// run carries "region", so neither side has runs.
	r := wra(t, db, "compare", "--by", "region", "--base", "eu", "--vs", "us")
	if r.code != exitError || !strings.Contains(r.stderr, `no runs with region = "eu"`) {
		t.Errorf("label key: exit %d, %q", r.code, r.stderr)
	}
}
