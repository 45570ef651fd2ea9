package ingest

import (
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wra-bench/wra/model"
)

// abWant holds what an ab report says, read off the capture itself.
type abWant struct {
	file                     string
	conns                    int64
	requests, non2xx, errors int64
	ok2xx                    int64
	rps, durS                float64
	bytes                    int64
	mean, stdev, max         float64
	p50, p90, p95, p99       float64
	labels                   map[string]string
}

var abCaptures = []abWant{
	{
		// Concurrency Level: 10; Time taken for tests: 0.579 seconds; Complete
		// requests: 5000; Total transferred: 1425000 bytes; Requests per
		// second: 8636.38; Time per request: 1.158 [ms] (mean); Total: 0 1
		// 0.5 1 9; 50% 1, 90% 1, 95% 2, 99% 2
		file: "ab_plain_nginx_static_n5000_c10.txt", conns: 10, requests: 5000, ok2xx: 5000,
		rps: 8636.38, durS: 0.579, bytes: 1425000, mean: 1.158, stdev: 0.5, max: 9,
		p50: 1, p90: 1, p95: 2, p99: 2,
		labels: map[string]string{
			"ab_server_software": "nginx/1.22.1", "ab_server_hostname": "127.0.0.1", "ab_server_port": "8080",
			"ab_document_path": "/static.json", "ab_document_length": "47 bytes",
			"ab_html_transferred_bytes": "235000", "ab_time_per_request_ms": "1.158",
			"ab_time_per_request_across_ms": "0.116", "reported_transfer_bytes_per_s": "2461368.32",
			"ab_connect_max_ms": "8", "ab_processing_sd_ms": "0.4", "ab_waiting_max_ms": "2",
			"ab_total_min_ms": "0", "ab_total_mean_ms": "1", "ab_total_median_ms": "1",
			"ab_failed": "0", "ab_failed_length": "0", "ab_write_errors": "0",
			"ab_keepalive_requests": "", "ab_sanity": "",
		},
	},
	{
		// -k: Keep-Alive requests: 10000; three WARNING lines of ab's sanity check
		file: "ab_keepalive_go2_ping_n10000_c20.txt", conns: 20, requests: 10000, ok2xx: 10000,
		rps: 33829.73, durS: 0.296, bytes: 1430000, mean: 0.591, stdev: 0.6, max: 11,
		p50: 0, p90: 1, p95: 1, p99: 4,
		labels: map[string]string{
			"ab_keepalive_requests": "10000", "ab_server_software": "",
			"ab_sanity": "warning: processing time; warning: waiting time; warning: total time",
		},
	},
	{
		// Failed requests: 195 (Connect: 0, Receive: 0, Length: 195,
		// Exceptions: 0); Non-2xx responses: 195 (the 500s' bodies are one
		// byte longer, so each is also a Length failure: answered, not errors)
		file: "ab_non2xx_go1_err5pct_n4000_c8.txt", conns: 8, requests: 4000, non2xx: 195, ok2xx: 3805,
		rps: 7060.78, durS: 0.567, bytes: 479900, mean: 1.133, stdev: 1.3, max: 19,
		p50: 1, p90: 2, p95: 3, p99: 5,
		labels: map[string]string{
			"ab_failed": "195", "ab_failed_connect": "0", "ab_failed_receive": "0",
			"ab_failed_length": "195", "ab_failed_exceptions": "0", "ab_write_errors": "0",
		},
	},
	{
		file: "ab_percentiles_go2_wait2.txt", conns: 4, requests: 2000, ok2xx: 2000,
		rps: 1301.45, durS: 1.537, bytes: 266000, mean: 3.074, stdev: 0.4, max: 7,
		p50: 3, p90: 3, p95: 4, p99: 5,
	},
	{
		file: "ab_gnuplot_nginx_static.txt", conns: 5, requests: 1000, ok2xx: 1000,
		rps: 9168.42, durS: 0.109, bytes: 285000, mean: 0.545, stdev: 0.1, max: 1,
		p50: 1, p90: 1, p95: 1, p99: 1,
	},
	{
		file: "ab_gnuplot_go2_wait2_n3000_c30.txt", conns: 30, requests: 3000, ok2xx: 3000,
		rps: 1457.81, durS: 2.058, bytes: 399000, mean: 20.579, stdev: 43.0, max: 392,
		p50: 7, p90: 33, p95: 82, p99: 279,
	},
	{
		// ab -r against a server that resets one request in 25: Failed
		// requests: 240 (Connect: 0, Receive: 80, Length: 80, Exceptions: 80);
		// HTML transferred: 21120 bytes = 1920 answers of 11 bytes, so 80 of
		// the 2000 complete requests have no answer.
		file: "ab_r_reset_every25_n2000_c4.txt", conns: 4, requests: 2000, errors: 80, ok2xx: 1920,
		rps: 2841.12, durS: 0.704, bytes: 228480, mean: 1.408, stdev: 1.4, max: 16,
		p50: 1, p90: 2, p95: 4, p99: 7,
		labels: map[string]string{
			"ab_failed": "240", "ab_failed_connect": "0", "ab_failed_receive": "80",
			"ab_failed_length": "80", "ab_failed_exceptions": "80", "ab_write_errors": "0",
		},
	},
	{
		// ab -r posting 32 MiB bodies to a server that resets one request
		// in 5 as soon as it has read the headers: "Send request failed!"
		// twice among the progress dots; Failed requests: 20 (Connect: 0,
		// Receive: 6, Length: 8, Exceptions: 6); Write errors: 2; HTML
		// transferred: 352 bytes = 32 answers of 11 bytes, so the 6 + 2
		// failures are the 8 of the 40 complete requests without an answer.
		file: "ab_r_post_reset_upload_n40_c2.txt", conns: 2, requests: 40, errors: 8, ok2xx: 32,
		rps: 4.82, durS: 8.301, bytes: 3808, mean: 415.029, stdev: 246.9, max: 903,
		p50: 369, p90: 718, p95: 804, p99: 903,
		labels: map[string]string{
			"ab_failed": "20", "ab_failed_receive": "6", "ab_failed_length": "8",
			"ab_failed_exceptions": "6", "ab_write_errors": "2", "ab_body_sent_bytes": "1129863032",
		},
	},
	{
		// POST -p: Total body sent: 402000; 1763.13 kb/s sent, 3043.81 kb/s total
		file: "ab_post_go2_echo.txt", conns: 10, requests: 2000, ok2xx: 2000,
		rps: 8982.30, durS: 0.223, bytes: 292000, mean: 1.113, stdev: 0.5, max: 4,
		p50: 1, p90: 2, p95: 2, p99: 3,
		labels: map[string]string{
			"ab_body_sent_bytes": "402000", "reported_sent_bytes_per_s": "1805445.12", "reported_total_bytes_per_s": "3116861.44",
			"reported_transfer_bytes_per_s": "1311416.32", "ab_document_length": "38 bytes",
		},
	},
}

func checkABRun(t *testing.T, r *model.Run, w abWant, excerpt bool) {
	t.Helper()
	if r.Tool != "ab" || r.LatencyCorrected {
		t.Errorf("tool %s corrected %v", r.Tool, r.LatencyCorrected)
	}
	if !excerpt && (r.ToolVersion != "2.3" || r.Line != 1) {
		t.Errorf("version %q line %d, want 2.3 1", r.ToolVersion, r.Line)
	}
	expectI(t, "connections", r.Connections, w.conns)
	expectI(t, "requests", r.Requests, w.requests)
	expectI(t, "non_2xx", r.Non2xx, w.non2xx)
	expectI(t, "errors", r.Errors, w.errors)
	expectI(t, "responses_2xx", r.Responses2xx, w.ok2xx)
	expectF(t, "rps", r.RPS, w.rps)
	expectF(t, "duration_s", r.DurationS, w.durS)
	expectI(t, "bytes_read", r.BytesRead, w.bytes)
	expectF(t, "latency_mean_ms", r.LatencyMeanMS, w.mean)
	expectF(t, "latency_stdev_ms", r.LatencyStdevMS, w.stdev)
	expectF(t, "latency_max_ms", r.LatencyMaxMS, w.max)
	expectF(t, "latency_p50_ms", r.LatencyP50MS, w.p50)
	expectF(t, "latency_p90_ms", r.LatencyP90MS, w.p90)
	expectF(t, "latency_p95_ms", r.LatencyP95MS, w.p95)
	expectF(t, "latency_p99_ms", r.LatencyP99MS, w.p99)
	expectF(t, "latency_p999_ms", r.LatencyP999MS, nullWant)
	if len(r.Percentiles) != 9 {
		t.Fatalf("percentage table rows %d, want 9 (50 66 75 80 90 95 98 99 100)", len(r.Percentiles))
	}
	for i, pct := range []float64{50, 66, 75, 80, 90, 95, 98, 99, 100} {
		if p := r.Percentiles[i]; p.Percentile != pct || p.Corrected || p.Count.Valid {
			t.Errorf("row %d = %+v, want percentile %v, uncorrected, no count", i, p, pct)
		}
	}
	if last := r.Percentiles[8].LatencyMS; last != w.max {
		t.Errorf("100%% row %v, want the longest request %v", last, w.max)
	}
	expectLabels(t, r, w.labels)
}

func TestABCaptures(t *testing.T) {
	for _, w := range abCaptures {
		t.Run(w.file, func(t *testing.T) {
			r, format := readFixture(t, filepath.Join("testdata/ab", w.file))
			if format != "ab" {
				t.Fatalf("format %s", format)
			}
			checkABRun(t, r, w, false)
		})
	}
}

// ab -S prints Connection Times as "min avg max", -d no percentage table,
// -l "Document Length: Variable". Values from the capture: Concurrency
// Level: 5; Time taken for tests: 0.618 seconds; Complete requests: 500;
// Total transferred: 59500 bytes; Requests per second: 809.05; Time per
// request: 6.180 [ms] (mean); Total: 0 6 59.
func TestABNoConfidenceNoPercentiles(t *testing.T) {
	r, format := readFixture(t, "testdata/ab/ab_S_d_l_go2_ping_n500_c5.txt")
	if format != "ab" {
		t.Fatalf("format %s", format)
	}
	expectI(t, "connections", r.Connections, 5)
	expectI(t, "requests", r.Requests, 500)
	expectI(t, "responses_2xx", r.Responses2xx, 500)
	expectI(t, "errors", r.Errors, 0)
	expectF(t, "rps", r.RPS, 809.05)
	expectF(t, "duration_s", r.DurationS, 0.618)
	expectI(t, "bytes_read", r.BytesRead, 59500)
	expectF(t, "latency_mean_ms", r.LatencyMeanMS, 6.18)
	expectF(t, "latency_stdev_ms", r.LatencyStdevMS, nullWant)
	expectF(t, "latency_max_ms", r.LatencyMaxMS, 59)
	expectF(t, "latency_p50_ms", r.LatencyP50MS, nullWant)
	expectF(t, "latency_p99_ms", r.LatencyP99MS, nullWant)
	if len(r.Percentiles) != 0 {
		t.Errorf("percentiles %d, want none", len(r.Percentiles))
	}
	expectLabels(t, r, map[string]string{
		"ab_document_length": "Variable", "ab_total_min_ms": "0", "ab_total_mean_ms": "6", "ab_total_max_ms": "59",
		"ab_connect_max_ms": "40", "ab_total_sd_ms": "", "ab_total_median_ms": "", "ab_server_port": "18382",
	})
}

// abExcerpt turns a real capture into what a web page shows of it: runs
// of spaces collapsed to one, leading spaces dropped, and everything
// before "Concurrency Level" (the banner, the server and document lines)
// cut off.
func abExcerpt(report string) string {
	i := strings.Index(report, "Concurrency Level:")
	var b strings.Builder
	for _, line := range strings.Split(report[i:], "\n") {
		b.WriteString(strings.Join(strings.Fields(line), " "))
		b.WriteString("\n")
	}
	return b.String()
}

func TestABExcerpt(t *testing.T) {
	for _, w := range abCaptures {
		t.Run(w.file, func(t *testing.T) {
			ex := abExcerpt(readTestdata(t, filepath.Join("testdata/ab", w.file)))
			if f := Detect([]byte(ex)); f == nil || f.Name != "ab" {
				t.Fatalf("excerpt detected as %v", f)
			}
			c, err := readAsFormat(t, "ab", "excerpt.txt", ex)
			if err != nil {
				t.Fatal(err)
			}
			r := c.Runs[0]
			if r.ToolVersion != "" || r.Line != 1 {
				t.Errorf("excerpt version %q line %d, want none and 1", r.ToolVersion, r.Line)
			}
			w.labels = map[string]string{"ab_server_software": "", "ab_document_path": ""}
			checkABRun(t, r, w, true)
		})
	}
}

func TestABBadInput(t *testing.T) {
	plain := readTestdata(t, "testdata/ab/ab_plain_nginx_static_n5000_c10.txt")
	non2xx := readTestdata(t, "testdata/ab/ab_non2xx_go1_err5pct_n4000_c8.txt")
	cases := []struct {
		name, content, want string
	}{
		// ab's stdout when nothing listens: the banner and
		// "Benchmarking 127.0.0.1 (be patient)..." without a line end.
		{"refused port", readTestdata(t, "testdata/ab/ab_refused_port.txt"), "x.txt:5: ab printed no results (connection refused?)"},
		{"empty", "", `x.txt:1: ab report ends early: expected ab's banner "This is ApacheBench, Version …" or the first line of its results`},
		// ab without -r gives up at the first reset: "apr_socket_recv:
		// Connection reset by peer (104)" on stderr, this on stdout.
		{"stopped", readTestdata(t, "testdata/ab/ab_reset_stopped_n2000_c4.txt"),
			"x.txt:6:1: ab stopped after 22 requests without printing its results (its standard error says why)"},
		{"cut in the times table", headLines(plain, 29), "x.txt:30: ab report ends early: expected the Waiting: row of the Connection Times table"},
		{"cut after the table title", headLines(plain, 33), "x.txt:34: ab report ends early: expected the rows of the percentage table up to 100%"},
		{"second report cut short", plain + headLines(plain, 30) + plain, "x.txt:73:1: ab report ends early: expected the Total: row of the Connection Times table, found the start of another report"},
		{"key twice", strings.Replace(plain, "Total transferred:", "Failed requests:        0\nTotal transferred:", 1),
			`x.txt:19:1: "Failed requests" appears a second time in one report (first at line 18)`},
		{"other tool", readTestdata(t, "testdata/wrk/wrk_plain_nginx_static.txt"),
			`x.txt:1:1: no ab report: expected ab's banner "This is ApacheBench, Version …" or the first line of its results, found "Running 8s test @ http://127.0.0.1:8080/static.json"`},
		{"bad count", strings.Replace(plain, "Complete requests:      5000", "Complete requests:      5k", 1),
			`x.txt:17:25: expected a count, found "5k"`},
		{"bad rate", strings.Replace(plain, "8636.38 [#/sec]", "8636.38 [#/min]", 1),
			`x.txt:21:25: expected "<rate> [#/sec] (mean)", found "8636.38 [#/min] (mean)"`},
		{"bad breakdown", strings.Replace(non2xx, "Length: 195", "Length: many", 1),
			`x.txt:19:1: expected a count of Length failures, found "many"`},
		{"percentages out of order", strings.Replace(plain, " 95%      2", " 95%      0", 1),
			`x.txt:39:1: percentage table rows out of order at "95% 0"`},
		// Found by FuzzAB: a row shorter than the table's header.
		{"short times row", strings.Replace(plain, "Total:          0    1   0.5      1       9", "Total:          0    1   9", 1),
			`x.txt:31:1: expected min, mean, [+/-sd], median and max in the Total: row, found "0 1 9"`},
		{"garbage", strings.Replace(plain, "HTML transferred", "HTML received", 1),
			`x.txt:20:1: unexpected line in an ab report: "HTML received:       235000 bytes" (the report's lines go on at line 21)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			col, err := readAsFormat(t, "ab", "x.txt", c.content)
			if err == nil || err.Error() != c.want {
				t.Errorf("error\n got %v\nwant %s", err, c.want)
			}
			if len(col.Runs) != 0 {
				t.Errorf("a run was stored from a bad input")
			}
		})
	}
}

// ab -e writes the time of request floor(0.5 + n*i/100) of the n requests
// sorted by time, in ms with three decimals; its printed table takes
// request floor(n*p/100) rounded to whole ms (ab.c, ap_round_ms). For the
// run of ab_percentiles_go2_wait2 (n = 2000) both pick the same request,
// so each CSV value rounded half up must equal the table's row.
func TestABPercentilesCSV(t *testing.T) {
	c := &model.Collector{}
	f, err := ReadFile("testdata/ab/ab_percentiles_go2_wait2.csv", c)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "ab-percentiles-csv" || len(c.Runs) != 1 {
		t.Fatalf("format %s runs %d", f.Name, len(c.Runs))
	}
	r := c.Runs[0]
	if len(r.Percentiles) != 101 || r.Tool != "ab" || r.LatencyCorrected {
		t.Fatalf("rows %d tool %s", len(r.Percentiles), r.Tool)
	}
	// 0,2.253  50,2.967  90,3.401  95,3.620  99,5.203  100,6.512
	if p := r.Percentiles[0]; p.Percentile != 0 || p.LatencyMS != 2.253 {
		t.Errorf("row 0 = %+v", p)
	}
	expectF(t, "latency_p50_ms", r.LatencyP50MS, 2.967)
	expectF(t, "latency_p90_ms", r.LatencyP90MS, 3.401)
	expectF(t, "latency_p95_ms", r.LatencyP95MS, 3.620)
	expectF(t, "latency_p99_ms", r.LatencyP99MS, 5.203)
	expectF(t, "latency_max_ms", r.LatencyMaxMS, 6.512)
	expectI(t, "requests", r.Requests, int64(nullWant)) // the CSV does not say
	report, _ := readFixture(t, "testdata/ab/ab_percentiles_go2_wait2.txt")
	for _, tp := range report.Percentiles {
		csv := r.Percentiles[int(tp.Percentile)].LatencyMS
		if got := math.Floor(csv + 0.5); got != tp.LatencyMS {
			t.Errorf("%v%%: CSV %v rounds to %v, the table says %v", tp.Percentile, csv, got, tp.LatencyMS)
		}
	}
}

// ab before 2.4.17 (httpd's ab.c looped "for (i = 0; i < 100; i++)")
// wrote no 100% row: the same file without its last row, as that ab
// would have written it for the same run, loads every row it has and
// leaves the maximum NULL.
func TestABPercentilesCSVBefore2417(t *testing.T) {
	csv := readTestdata(t, "testdata/ab/ab_percentiles_go2_wait2.csv")
	old := strings.TrimSuffix(csv, "100,6.512\n")
	if old == csv {
		t.Fatal("the capture's last row is no longer 100,6.512")
	}
	col, err := readAsFormat(t, "ab-percentiles-csv", "x.csv", old)
	if err != nil {
		t.Fatal(err)
	}
	if len(col.Runs) != 1 {
		t.Fatalf("%d runs", len(col.Runs))
	}
	r := col.Runs[0]
	if n := len(r.Percentiles); n != 100 || r.Percentiles[99].Percentile != 99 || r.Percentiles[99].LatencyMS != 5.203 {
		t.Fatalf("%d rows, last %+v; want 100 rows, the last 99,5.203", n, r.Percentiles[n-1])
	}
	expectF(t, "latency_p50_ms", r.LatencyP50MS, 2.967)
	expectF(t, "latency_p90_ms", r.LatencyP90MS, 3.401)
	expectF(t, "latency_p95_ms", r.LatencyP95MS, 3.620)
	expectF(t, "latency_p99_ms", r.LatencyP99MS, 5.203)
	expectF(t, "latency_max_ms", r.LatencyMaxMS, nullWant)
	if f := Detect([]byte(old)); f == nil || f.Name != "ab-percentiles-csv" {
		t.Errorf("detected as %v", f)
	}
}

func TestABPercentilesCSVBad(t *testing.T) {
	csv := readTestdata(t, "testdata/ab/ab_percentiles_go2_wait2.csv")
	cases := []struct{ name, content, want string }{
		{"cut", headLines(csv, 60), "x.csv:61: ab percentile CSV ends early: expected the 59% row (rows 0 to 99, and 100 since ab 2.4.17)"},
		{"cut inside the 99% row", strings.TrimSuffix(csv, ".203\n100,6.512\n") + ".2", `x.csv:101: ab percentile CSV ends early: the 99% row's time "5.2" is cut (ab prints three decimals), and no 100% row follows`},
		{"cut before 99", headLines(csv, 99), "x.csv:100: ab percentile CSV ends early: expected the 98% row (rows 0 to 99, and 100 since ab 2.4.17)"},
		{"two files", csv + csv, `x.csv:103:1: unexpected line after the 100% row: "Percentage served,Time in ms"`},
		{"row missing", strings.Replace(csv, "\n7,2.637\n", "\n", 1), `x.csv:9:1: expected the 7% row, found "8"`},
		{"going down", strings.Replace(csv, "\n7,2.637\n", "\n7,2.037\n", 1), "x.csv:9:3: time 2.037 is below the row above"},
		{"bad time", strings.Replace(csv, "\n7,2.637\n", "\n7,2.6.37\n", 1), `x.csv:9:3: expected a time in ms, found "2.6.37"`},
		{"header", "Percentage,Time\n", `x.csv:1:1: expected the header "Percentage served,Time in ms", found "Percentage,Time"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			col, err := readAsFormat(t, "ab-percentiles-csv", "x.csv", c.content)
			if err == nil || err.Error() != c.want {
				t.Errorf("error\n got %v\nwant %s", err, c.want)
			}
			if len(col.Runs) != 0 {
				t.Errorf("a run was stored from a bad input")
			}
		})
	}
}

// The run row of an ab -g TSV is recomputed from its requests. Reference
// values: the percentage table ab printed for the same run (its .txt), and
// Python's statistics.mean/stdev (exact rational arithmetic) over the
// ttime column: for ab_gnuplot_go2_wait2_n3000_c30.tsv mean
// 19.233333333333334, stdev 43.04604367628864 (ab printed 43.0); for
// ab_gnuplot_nginx_static.tsv 0.521 and 0.49980877224075293. The TSV holds
// whole ms, so for sub-millisecond requests its spread is mostly rounding:
// ab, which keeps microseconds, printed 0.1 for the nginx run.
func TestABGnuplotTSV(t *testing.T) {
	cases := []struct {
		tsv         string
		n           int64
		mean, stdev float64
		first, min  int64 // seconds of the first row, earliest seconds
		abSD        bool  // the stdev rounds to the one ab printed
	}{
		{"ab_gnuplot_go2_wait2_n3000_c30", 3000, 19.233333333333334, 43.04604367628864, 1795983637, 1795983635, true},
		{"ab_gnuplot_nginx_static", 1000, 0.521, 0.49980877224075293, 1795978255, 1795978255, false},
	}
	for _, w := range cases {
		t.Run(w.tsv, func(t *testing.T) {
			c := &model.Collector{}
			f, err := ReadFile("testdata/ab/"+w.tsv+".tsv", c)
			if err != nil {
				t.Fatal(err)
			}
			if f.Name != "ab-gnuplot-tsv" || len(c.Runs) != 1 {
				t.Fatalf("format %s runs %d", f.Name, len(c.Runs))
			}
			r := c.Runs[0]
			report, _ := readFixture(t, "testdata/ab/"+w.tsv+".txt")
			expectI(t, "requests", r.Requests, report.Requests.V) // Complete requests of the same run
			if len(r.Percentiles) != len(report.Percentiles) {
				t.Fatalf("percentiles %d, the report has %d", len(r.Percentiles), len(report.Percentiles))
			}
			for i, p := range report.Percentiles {
				if r.Percentiles[i] != p {
					t.Errorf("recomputed %+v, ab printed %+v", r.Percentiles[i], p)
				}
			}
			for _, col := range []struct {
				name      string
				got, want model.Opt[float64]
			}{{"p50", r.LatencyP50MS, report.LatencyP50MS}, {"p90", r.LatencyP90MS, report.LatencyP90MS},
				{"p95", r.LatencyP95MS, report.LatencyP95MS}, {"p99", r.LatencyP99MS, report.LatencyP99MS},
				{"max", r.LatencyMaxMS, report.LatencyMaxMS}} {
				if col.got != col.want {
					t.Errorf("%s = %v, ab printed %v", col.name, showOptF(col.got), showOptF(col.want))
				}
			}
			expectF(t, "latency_mean_ms", r.LatencyMeanMS, w.mean)
			if math.Abs(r.LatencyStdevMS.V-w.stdev) > 1e-12*w.stdev {
				t.Errorf("stdev %v, want %v", r.LatencyStdevMS.V, w.stdev)
			}
			if w.abSD && math.Round(r.LatencyStdevMS.V*10)/10 != report.LatencyStdevMS.V {
				t.Errorf("stdev %v does not round to ab's %v", r.LatencyStdevMS.V, report.LatencyStdevMS.V)
			}
			if !r.StartedAt.Valid || r.StartedAt.V != time.Unix(w.min, 0).UTC() {
				t.Errorf("started_at %v, want the earliest start %v", r.StartedAt.V, w.min)
			}
			s := c.Samples[0]
			if int64(len(s)) != w.n {
				t.Fatalf("samples %d, want %d", len(s), w.n)
			}
			if s[0].TS.Unix() != w.first || s[0].Metric != "http_req_duration" || s[0].Status.Valid {
				t.Errorf("first sample %+v", s[0])
			}
			tags := regexp.MustCompile(`^\{"ctime_ms":"\d+","dtime_ms":"\d+","wait_ms":"\d+"\}$`)
			for _, x := range s {
				if !tags.MatchString(x.Tags) {
					t.Fatalf("tags %s", x.Tags)
				}
			}
		})
	}
	// First row of ab_gnuplot_go2_wait2_n3000_c30.tsv:
	// "Sun Nov 29 20:20:37 2026	1795983637	0	3	3	2"
	c := &model.Collector{}
	if _, err := ReadFile("testdata/ab/ab_gnuplot_go2_wait2_n3000_c30.tsv", c); err != nil {
		t.Fatal(err)
	}
	if s := c.Samples[0][0]; s.Value != 3 || s.Tags != `{"ctime_ms":"0","dtime_ms":"3","wait_ms":"2"}` {
		t.Errorf("first sample %+v", s)
	}
}

func TestABGnuplotTSVBad(t *testing.T) {
	tsv := readTestdata(t, "testdata/ab/ab_gnuplot_nginx_static.tsv")
	cases := []struct{ name, content, want string }{
		{"header only", headLines(tsv, 1), "x.tsv:2: ab gnuplot TSV has a header but no rows"},
		{"two runs", tsv + tsv, "x.tsv:1002:1: a second header: a file holds one run"},
		{"cut in a row", tsv[:len(tsv)-3], "x.tsv:1001:1: expected 6 tab-separated fields (starttime, seconds, ctime, dtime, ttime, wait), found 5"},
		{"bad number", strings.Replace(tsv, "1795978255\t0\t0\t0\t0", "1795978255\t0\t0\tx\t0", 1),
			`x.tsv:2:41: expected a whole number >= 0, found "x"`},
		{"spaces", strings.ReplaceAll(tsv, "\t", " "), `x.tsv:1:1: expected the header "starttime seconds ctime dtime ttime wait", found "starttime seconds ctime dtime ttime wait"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			col, err := readAsFormat(t, "ab-gnuplot-tsv", "x.tsv", c.content)
			if err == nil || err.Error() != c.want {
				t.Errorf("error\n got %v\nwant %s", err, c.want)
			}
			if len(col.Runs) != 0 {
				t.Errorf("a run was stored from a bad input")
			}
		})
	}
}

func FuzzAB(f *testing.F) {
	addFuzzSeeds(f, "testdata/ab/*.txt", "testdata/wrk/wrk_plain*.txt")
	addWildSeeds(f, "ab", "notreport")
	for _, p := range []string{"testdata/ab/ab_non2xx_go1_err5pct_n4000_c8.txt", "testdata/ab/ab_post_go2_echo.txt"} {
		f.Add([]byte(abExcerpt(readTestdata(f, p))))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		formatByName(t, "ab").Detect(data)
		fuzzReader(t, "ab", data)
	})
}

func FuzzABPercentilesCSV(f *testing.F) {
	addFuzzSeeds(f, "testdata/ab/*.csv", "testdata/ab/ab_gnuplot_nginx_static.tsv")
	f.Fuzz(func(t *testing.T, data []byte) {
		formatByName(t, "ab-percentiles-csv").Detect(data)
		fuzzReader(t, "ab-percentiles-csv", data)
	})
}

func FuzzABGnuplotTSV(f *testing.F) {
	// Real files cut to a few dozen rows: whole files of thousands of rows
	// would make each execution slow.
	for _, p := range []string{"testdata/ab/ab_gnuplot_nginx_static.tsv", "testdata/ab/ab_gnuplot_go2_wait2_n3000_c30.tsv"} {
		tsv := readTestdata(f, p)
		f.Add([]byte(headLines(tsv, 40)))
		f.Add([]byte(headLines(tsv, 3)))
		f.Add([]byte(headLines(tsv, 40)[:len(headLines(tsv, 40))-7]))
	}
	addFuzzSeeds(f, "testdata/ab/*.csv")
	f.Add([]byte(abGnuplotHead + "\nSun Nov 29 18:50:55 2026\t1795978255\t0\t0\t0\t0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		formatByName(t, "ab-gnuplot-tsv").Detect(data)
		fuzzReader(t, "ab-gnuplot-tsv", data)
	})
}

// abCountSink counts what a reader stores and keeps only the runs, so that
// a benchmark measures the reader, not the growth of a collector.
type abCountSink struct {
	model.Collector
	samples int
}

func (c *abCountSink) Sample(int, *model.Sample) error { c.samples++; return nil }

// BenchmarkABGnuplotTSV reads an ab -g file of 300,000 requests (the rows
// of a real capture repeated).
func BenchmarkABGnuplotTSV(b *testing.B) {
	tsv := readTestdata(b, "testdata/ab/ab_gnuplot_go2_wait2_n3000_c30.tsv")
	head, rows, _ := strings.Cut(tsv, "\n")
	content := head + "\n" + strings.Repeat(rows, 100)
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		c := &abCountSink{}
		err := formatByName(b, "ab-gnuplot-tsv").Read(&Input{Name: "b.tsv", R: strings.NewReader(content)}, c)
		if err != nil || c.samples != 300000 || c.Runs[0].Requests.V != 300000 {
			b.Fatal(err)
		}
	}
}

// abPublishedExcerpt is one of eight ab reports of a published framework
// comparison (ab -n 1000000 -c 2000), exactly as pasted there: no banner,
// no server lines, no "Total transferred:", single spaces.
const abPublishedExcerpt = `Concurrency Level: 2000
Time taken for tests: 63.777 seconds
Complete requests: 1000000
Failed requests: 0
Requests per second: 15679.63 [#/sec] (mean)
Time per request: 127.554 [ms] (mean)
Connection Times (ms)
min mean[+/-sd] median max
Connect: 0 0 1.0 0 472
Processing: 8 127 36.1 124 608
Waiting: 1 127 36.1 124 607
Total: 20 127 36.0 124 608
Percentage of the requests served within a certain time (ms)
50% 124
66% 126
75% 128
80% 129
90% 134
95% 138
98% 144
99% 151
100% 608 (longest request)
`

// A report needs only "Complete requests:" and the tables it opens in
// full: the columns of the lines an excerpt leaves out stay NULL, and a
// count that ab prints only when it is not zero is zero where the report
// goes on past its place.
func TestABExcerptsLoad(t *testing.T) {
	plain := readTestdata(t, "testdata/ab/ab_plain_nginx_static_n5000_c10.txt")
	non2xx := readTestdata(t, "testdata/ab/ab_non2xx_go1_err5pct_n4000_c8.txt")
	type want struct {
		requests, errors, non2xx, ok2xx int64
		rps, mean, stdev, max, p50, p99 float64
	}
	const null = nullWant
	cases := []struct {
		name, in string
		want     want
	}{
		// Read off the excerpt: the Total row gives sd 36.0, max 608.
		{"published excerpt", abPublishedExcerpt, want{1000000, 0, 0, 1000000, 15679.63, 127.554, 36.0, 608, 124, 151}},
		// Cut after "Complete requests: 5000": nothing of the failures.
		{"cut after the requests", headLines(plain, 17), want{5000, null, null, null, null, null, null, null, null, null}},
		// Cut after "HTML transferred:": Failed requests 0, and the
		// report went past the place of Write errors and Non-2xx.
		{"cut before the rates", headLines(plain, 20), want{5000, 0, 0, 5000, null, null, null, null, null, null}},
		// Failed requests: 195 without its breakdown: which failures, and
		// so the errors, are unknown; Non-2xx responses: 195 is printed.
		{"breakdown left out", strings.Replace(non2xx, "   (Connect: 0, Receive: 0, Length: 195, Exceptions: 0)\n", "", 1),
			want{4000, null, 195, null, 7060.78, 1.133, 1.3, 19, 1, 5}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if f := Detect([]byte(c.in)); f == nil || f.Name != "ab" {
				t.Fatalf("detected as %v, want ab", f)
			}
			col, err := readAsFormat(t, "ab", "x.txt", c.in)
			if err != nil {
				t.Fatal(err)
			}
			r, w := col.Runs[0], c.want
			expectI(t, "requests", r.Requests, w.requests)
			expectI(t, "errors", r.Errors, w.errors)
			expectI(t, "non_2xx", r.Non2xx, w.non2xx)
			expectI(t, "responses_2xx", r.Responses2xx, w.ok2xx)
			expectF(t, "rps", r.RPS, w.rps)
			expectF(t, "latency_mean_ms", r.LatencyMeanMS, w.mean)
			expectF(t, "latency_stdev_ms", r.LatencyStdevMS, w.stdev)
			expectF(t, "latency_max_ms", r.LatencyMaxMS, w.max)
			expectF(t, "latency_p50_ms", r.LatencyP50MS, w.p50)
			expectF(t, "latency_p99_ms", r.LatencyP99MS, w.p99)
		})
	}
}

// Reports one after another, whole or as excerpts, are runs of their own,
// rounds 1 and 2 of the same settings; ab 2.0's breakdown without
// "Receive" and ab 1.3's "Broken pipe errors:" and "Connnection Times"
// read like ab 2.3's lines.
func TestABReportsInOneFile(t *testing.T) {
	plain := readTestdata(t, "testdata/ab/ab_plain_nginx_static_n5000_c10.txt")
	for name, in := range map[string]string{
		"two reports":  plain + "\n+ sleep 5\n=== next ===\n" + plain,
		"two excerpts": abExcerpt(plain) + abExcerpt(plain),
	} {
		col, err := readAsFormat(t, "ab", "x.txt", in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(col.Runs) != 2 {
			t.Fatalf("%s: %d runs, want 2", name, len(col.Runs))
		}
		for i, r := range col.Runs {
			expectI(t, "requests", r.Requests, 5000)
			expectF(t, "rps", r.RPS, 8636.38)
			expectI(t, "round", r.Round, int64(i+1))
		}
	}
	old := strings.NewReplacer("Failed requests:        0\n", "Failed requests:        3\n   (Connect: 0, Length: 3, Exceptions: 0)\nBroken pipe errors:     1\n",
		"Connection Times", "Connnection Times").Replace(plain)
	col, err := readAsFormat(t, "ab", "x.txt", old)
	if err != nil {
		t.Fatal(err)
	}
	r := col.Runs[0]
	// 3 Length failures are answered; the 1 write error is not.
	expectI(t, "errors", r.Errors, 1)
	expectI(t, "responses_2xx", r.Responses2xx, 4999)
	expectLabels(t, r, map[string]string{"ab_failed_length": "3", "ab_write_errors": "1", "ab_total_max_ms": "9"})
}

// The Connection Times table pasted without its title, or without its
// header too: the columns are told by their count; the percentage table
// without its title starts at its first "N% ms" row.
func TestABTimesWithoutHeader(t *testing.T) {
	for name, in := range map[string]string{
		"no title":            strings.Replace(abPublishedExcerpt, "Connection Times (ms)\n", "", 1),
		"no header":           strings.Replace(abPublishedExcerpt, "min mean[+/-sd] median max\n", "", 1),
		"no title nor header": strings.Replace(abPublishedExcerpt, "Connection Times (ms)\nmin mean[+/-sd] median max\n", "", 1),
		"no percentage title": strings.Replace(abPublishedExcerpt, "Percentage of the requests served within a certain time (ms)\n", "", 1),
	} {
		c, err := readAsFormat(t, "ab", "x.txt", in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r := c.Runs[0]
		expectF(t, name+" stdev", r.LatencyStdevMS, 36.0)
		expectF(t, name+" max", r.LatencyMaxMS, 608)
		expectI(t, name+" requests", r.Requests, 1000000)
		expectF(t, name+" p99", r.LatencyP99MS, 151)
	}
	// Cut after two rows of a table without its header: still a cut table.
	cut := strings.Replace(abPublishedExcerpt, "min mean[+/-sd] median max\n", "", 1)
	cut = cut[:strings.Index(cut, "Waiting:")]
	if _, err := readAsFormat(t, "ab", "x.txt", cut); err == nil || err.Error() != "x.txt:10: ab report ends early: expected the Waiting: row of the Connection Times table" {
		t.Errorf("got %v", err)
	}
}
