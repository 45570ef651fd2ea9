package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAnalyzeOnlyAB(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "abonly")
	copyTree(t, dir, map[string]string{
		"nginx-static.txt": "../../ingest/testdata/ab/ab_plain_nginx_static_n5000_c10.txt",
		"go2-ping.txt":     "../../ingest/testdata/ab/ab_keepalive_go2_ping_n10000_c20.txt",
		"go1-err5pct.txt":  "../../ingest/testdata/ab/ab_non2xx_go1_err5pct_n4000_c8.txt",
	})
	out := filepath.Join(t.TempDir(), "out")
	r := wra(t, filepath.Join(t.TempDir(), "s.duckdb"), "analyze", "--out", out, dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "analyze_ab/stdout", r.stdout)
	golden(t, "analyze_ab/stderr", strings.ReplaceAll(r.stderr, out, "OUT"))
	if !strings.Contains(r.stdout, "ranked by requests/s") {
		t.Error("no ranking table for a folder of ab reports")
	}
	for _, skipped := range []string{"skipped cpu per request at a fixed rate", "skipped held-rate ladders", "skipped calibration", "skipped throughput by rounds"} {
		if !strings.Contains(r.stderr, skipped) {
			t.Errorf("stderr lacks %q", skipped)
		}
	}
}

// abReport is an ab report of n requests at c connections in secs
// seconds, laid out as ab 2.3 prints it.
func abReport(n, c int, secs float64) string {
	return fmt.Sprintf(`This is ApacheBench, Version 2.3 <$Revision: 1903618 $>

Server Hostname:        127.0.0.1
Server Port:            8080

Document Path:          /
Document Length:        13 bytes

Concurrency Level:      %d
Time taken for tests:   %.3f seconds
Complete requests:      %d
Failed requests:        0
Total transferred:      %d bytes
HTML transferred:       %d bytes
Requests per second:    %.2f [#/sec] (mean)
Time per request:       %.3f [ms] (mean)
Time per request:       %.3f [ms] (mean, across all concurrent requests)
Transfer rate:          1000.00 [Kbytes/sec] received

Connection Times (ms)
              min  mean[+/-sd] median   max
Connect:        0    0   1.0      0     472
Processing:     8  127  36.1    124     608
Waiting:        1  127  36.1    124     607
Total:         20  127  36.0    124     608

Percentage of the requests served within a certain time (ms)
  50%%    124
  66%%    126
  75%%    128
  80%%    129
  90%%    134
  95%%    138
  98%%    144
  99%%    151
 100%%    608 (longest request)
`, c, secs, n, n*130, n*13, float64(n)/secs, secs*1000*float64(c)/float64(n), secs*1000/float64(n))
}

// Eight servers at full speed, one ab run each (ab -n 1000000 -c 2000),
// at the gaps of a published comparison: 1.4% and 0.03% apart share a
// place, 7% apart do not; one more run at other connections is ranked on
// its own, never against them.
func TestAnalyzeRankingTies(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ab8")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rps := map[string]float64{"a": 16600.40, "b": 16368.40, "c": 15684.33, "d": 15679.63, "e": 14582.06, "f": 12011.50, "g": 9120.00, "h": 4977.25}
	for name, r := range rps {
		if err := os.WriteFile(filepath.Join(dir, name+"-c2000.txt"), []byte(abReport(1000000, 2000, 1000000/r)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "a-c50.txt"), []byte(abReport(100000, 50, 4.2)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wra.toml"), []byte("[labels]\ntest = \"json\"\n[[files]]\npattern = \"{server}-c{connections}.txt\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	r := wra(t, filepath.Join(t.TempDir(), "s.duckdb"), "--quiet", "analyze", "--out", out, dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "analyze_ties/stdout", r.stdout)
	b, err := os.ReadFile(filepath.Join(out, "tables", "ranking-json-ab-c2000.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		f := strings.Split(line, ",")
		got = append(got, f[0]+" "+f[1]+" "+f[2])
	}
	want := []string{"1 true a", "1 true b", "3 true c", "3 true d", "5 false e", "6 false f", "7 false g", "8 false h"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("ranking at 2000 connections:\ngot  %v\nwant %v", got, want)
	}
	if !strings.Contains(r.stdout, "│   =1 │ a ") || !strings.Contains(r.stdout, "│   =3 │ d ") {
		t.Errorf("a shared place must print as =N:\n%s", r.stdout)
	}
}

// A wrk2 run that recorded no latency is stored with NULL latencies and
// the reader's warning, which analyze prints as a footnote of the table
// that shows the run.
func TestAnalyzeRunWarning(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nolat")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../../ingest/testdata/wrk2/wrk2_no_latency_stalled_after_calibration.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go-r100.txt"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	r := wra(t, filepath.Join(t.TempDir(), "s.duckdb"), "--quiet", "analyze", "--out", out, dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := "nolat/go-r100.txt:1: wrk2 recorded no latency (it printed -nanus -nanus for the mean and deviation): the latency columns are NULL"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("no footnote %q in:\n%s", want, r.stdout)
	}
}
