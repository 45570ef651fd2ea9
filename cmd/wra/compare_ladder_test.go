package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

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

	// Under the default rule a step must also achieve 95% of its rate:
	// at 6000 k6 drove 91% of it (dropped iterations), so 3000 is held.
	r := wra(t, db, "compare", "--format", "csv", "--ladders", "before", "after")
	if r.code != 0 || !strings.Contains(r.stderr, "before: highest step held 3000 rps") {
		t.Errorf("default rule: exit %d, %s", r.code, r.stderr)
	}
	// The rest is the rule of p95 and errors alone, as worked out above
	// and as k6's thresholds judge it: --min-achieved 0.
	// The sources are stored from the ingested folder's name down
	// (before/ladder.ndjson.gz), so the folders are named as such.
	r = wra(t, db, "compare", "--format", "csv", "--ladders", "--min-achieved", "0", "before", "after")
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
		want := side + ": highest step held 6000 rps (median of 1 run: " + side + "/ladder.ndjson.gz:1 (6000)); step 6000 rps."
		if !strings.Contains(r.stderr, want) {
			t.Errorf("notes lack %q:\n%s", want, r.stderr)
		}
	}

	// The metric table: highest_held_rps 6000 on both sides, no change.
	r = wra(t, db, "compare", "--format", "table", "--metric", "highest_held_rps,latency_p99_ms", "--min-achieved", "0", "before", "after")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "compare/ladder.table", r.stdout)
	// A folder given with its parents matches by its last element too.
	r = wra(t, db, "compare", "--format", "csv", "--metric", "highest_held_rps", "--min-achieved", "0", filepath.Join(dir, "before"), "after")
	if rows := csvRows(t, r.stdout); r.code != 0 || len(rows) != 1 || rows[0]["base_median"] != "6000" || rows[0]["vs_median"] != "6000" {
		t.Errorf("full path: exit %d, %s %s", r.code, r.stdout, r.stderr)
	}

	// A looser rule holds every step: 12000+ (still holding).
	r = wra(t, db, "compare", "--format", "csv", "--ladders", "--p95", "60", "--min-achieved", "0", "before", "after")
	if r.code != 0 || !strings.Contains(r.stderr, "highest step held 12000+ rps") {
		t.Errorf("--p95 60: exit %d, %s", r.code, r.stderr)
	}
	// and the metric table says that 12000 is a lower bound.
	r = wra(t, db, "compare", "--format", "table", "--metric", "highest_held_rps", "--p95", "60", "--min-achieved", "0", "before", "after")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "compare/ladder_holding.table", r.stdout)
}
