package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
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
}

// k6Steps computes a ladder a second way, straight from the k6 NDJSON:
// per step tag, the sorted http_req_duration values, p95 by linear
// interpolation at 0.95*(n-1), and the requests k6 tagged
// expected_response=false.
func k6Steps(t *testing.T, path string) (p95 map[string]float64, n, failed map[string]int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	durations := map[string][]float64{}
	n, failed = map[string]int{}, map[string]int{}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if !bytes.Contains(sc.Bytes(), []byte(`"metric":"http_req_duration","type":"Point"`)) {
			continue
		}
		var pt struct {
			Data struct {
				Value float64
				Tags  map[string]string
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &pt); err != nil {
			t.Fatal(err)
		}
		step := pt.Data.Tags["step"]
		durations[step] = append(durations[step], pt.Data.Value)
		n[step]++
		if pt.Data.Tags["expected_response"] != "true" {
			failed[step]++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	p95 = map[string]float64{}
	for step, d := range durations {
		sort.Float64s(d)
		h := 0.95 * float64(len(d)-1)
		i := int(h)
		p95[step] = d[i] + (h-float64(i))*(d[i+1]-d[i])
	}
	return p95, n, failed
}

func TestCompareLadders(t *testing.T) {
	const capture = "../../stats/testdata/k6_ladder_go1_db_points.ndjson.gz" // shared with the stats tests
	dir := t.TempDir()
	copyTree(t, dir, map[string]string{
		"before/ladder.ndjson.gz": capture,
		"after/ladder.ndjson.gz":  capture,
	})
	db := filepath.Join(t.TempDir(), "l.duckdb")
	for _, side := range []string{"before", "after"} {
		if r := wra(t, db, "--quiet", "ingest", "--label", "server=go-gmp1", filepath.Join(dir, side)); r.code != 0 {
			t.Fatalf("ingest %s: exit %d: %s", side, r.code, r.stderr)
		}
	}
	p95, n, failed := k6Steps(t, capture)
	// The highest held step, by hand from those: steps in rate order,
	// held while p95 < 50 ms and failed/n < 1%, up to the first failure.
	targets := []float64{}
	for s := range p95 {
		v, _ := strconv.ParseFloat(s, 64)
		targets = append(targets, v)
	}
	sort.Float64s(targets)
	highest := 0.0
	for _, tg := range targets {
		s := strconv.FormatFloat(tg, 'f', -1, 64)
		if !(p95[s] < 50 && float64(failed[s])/float64(n[s]) < 0.01) {
			break
		}
		highest = tg
	}
	if highest != 6000 || len(targets) != 4 {
		t.Fatalf("second way: highest %v of %v (k6's own thresholds failed only at 12000)", highest, targets)
	}

	// The sources are stored from the ingested folder's name down
	// (before/ladder.ndjson.gz), so the folders are named as such.
	r := wra(t, db, "compare", "--format", "csv", "--ladders", "before", "after")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	rows := csvRows(t, r.stdout)
	if len(rows) != 8 {
		t.Fatalf("%d step rows, want 4 per side:\n%s", len(rows), r.stdout)
	}
	for _, row := range rows {
		s := row["step"]
		got, _ := strconv.ParseFloat(row["p95_ms"], 64)
		if math.Abs(got-p95[s]) > 1e-12*p95[s] {
			t.Errorf("step %s p95 %v, computed %v", s, got, p95[s])
		}
		req, _ := strconv.Atoi(row["requests"])
		fl, _ := strconv.Atoi(row["failed"])
		er, _ := strconv.ParseFloat(row["error_rate"], 64)
		if req != n[s] || fl != failed[s] || er != float64(failed[s])/float64(n[s]) {
			t.Errorf("step %s: %d requests %d failed (rate %v), counted %d and %d", s, req, fl, er, n[s], failed[s])
		}
		tg, _ := strconv.ParseFloat(s, 64)
		if wantHeld := strconv.FormatBool(tg <= highest); row["held"] != wantHeld {
			t.Errorf("step %s held %s, want %s", s, row["held"], wantHeld)
		}
	}
	for _, side := range []string{"before", "after"} {
		want := side + ": highest step held 6000 rps (median of 1 run: " + side + "/ladder.ndjson.gz:0: 6000); step 6000 rps."
		if !strings.Contains(r.stderr, want) {
			t.Errorf("notes lack %q:\n%s", want, r.stderr)
		}
	}

	// The metric table: highest_held_rps 6000 on both sides, no change.
	r = wra(t, db, "compare", "--format", "table", "--metric", "highest_held_rps,latency_p99_ms", "before", "after")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "compare/ladder.table", r.stdout)
	// A folder given with its parents matches by its last element too.
	r = wra(t, db, "compare", "--format", "csv", "--metric", "highest_held_rps", filepath.Join(dir, "before"), "after")
	if rows := csvRows(t, r.stdout); r.code != 0 || len(rows) != 1 || rows[0]["base_median"] != "6000" || rows[0]["vs_median"] != "6000" {
		t.Errorf("full path: exit %d, %s %s", r.code, r.stdout, r.stderr)
	}

	// A looser rule holds every step: 12000+ (still holding).
	r = wra(t, db, "compare", "--format", "csv", "--ladders", "--p95", "60", "before", "after")
	if r.code != 0 || !strings.Contains(r.stderr, "highest step held 12000+ rps") {
		t.Errorf("--p95 60: exit %d, %s", r.code, r.stderr)
	}
	// and the metric table says that 12000 is a lower bound.
	r = wra(t, db, "compare", "--format", "table", "--metric", "highest_held_rps", "--p95", "60", "before", "after")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "compare/ladder_holding.table", r.stdout)
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
			`--metric must be one of rps, latency_p50_ms, latency_p90_ms, latency_p99_ms, cpu_server_us_per_req, cpu_db_us_per_req, working_set_mb, highest_held_rps, not "speed"`},
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
