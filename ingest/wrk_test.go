package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

// formatByName returns a registered format.
func formatByName(t testing.TB, name string) *Format {
	t.Helper()
	for _, f := range Formats() {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("format %s is not registered", name)
	return nil
}

// readAsFormat reads content with the named format, bypassing detection, as a
// file called name.
func readAsFormat(t testing.TB, format, name, content string) (*model.Collector, error) {
	t.Helper()
	c := &model.Collector{}
	err := formatByName(t, format).Read(&Input{Name: name, R: strings.NewReader(content)}, c)
	return c, err
}

// readFixture reads a capture from testdata with its detected format.
func readFixture(t *testing.T, path string) (*model.Run, string) {
	t.Helper()
	c := &model.Collector{}
	f, err := ReadFile(path, c)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(c.Runs) != 1 {
		t.Fatalf("%s: %d runs, want 1", path, len(c.Runs))
	}
	return c.Runs[0], f.Name
}

// readTestdata returns the content of a capture in testdata.
func readTestdata(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// showOptF and showOptI show optional values in failure messages.
func showOptF(o model.Opt[float64]) any {
	if !o.Valid {
		return "NULL"
	}
	return o.V
}

func showOptI(o model.Opt[int64]) any {
	if !o.Valid {
		return "NULL"
	}
	return o.V
}

// nullWant is the expected value of a column the file does not carry.
const nullWant = -1.0

// optWant is an expected figure read from another file: nullWant where
// that file has none.
func optWant(o model.Opt[float64]) float64 {
	if !o.Valid {
		return nullWant
	}
	return o.V
}

func expectF(t *testing.T, name string, got model.Opt[float64], want float64) {
	t.Helper()
	if want == nullWant {
		if got.Valid {
			t.Errorf("%s = %v, want NULL", name, got.V)
		}
		return
	}
	if !got.Valid || got.V != want {
		t.Errorf("%s = %v, want %v", name, showOptF(got), want)
	}
}

func expectI(t *testing.T, name string, got model.Opt[int64], want int64) {
	t.Helper()
	if want == int64(nullWant) {
		if got.Valid {
			t.Errorf("%s = %v, want NULL", name, got.V)
		}
		return
	}
	if !got.Valid || got.V != want {
		t.Errorf("%s = %v, want %v", name, showOptI(got), want)
	}
}

func expectLabels(t *testing.T, r *model.Run, want map[string]string) {
	t.Helper()
	for k, v := range want {
		got, ok := r.Label(k)
		if v == "" && ok {
			t.Errorf("label %s = %q, want unset", k, got)
		} else if v != "" && got != v {
			t.Errorf("label %s = %q, want %q", k, got, v)
		}
	}
}

// Every expected value below is read off the capture itself (the numbers
// are quoted in the comments); bytes are the printed size times 1024^n,
// rounded, as wrk's units.c prints binary multiples.
func TestWrkCaptures(t *testing.T) {
	type want struct {
		file                       string
		format                     string
		threads, conns             int64
		requests, errors, non2xx   int64
		rps, durS                  float64
		bytes                      int64
		mean, stdev, max           float64
		p50, p90, p95, p99, p999   float64
		corrected, uncorrected     int // spectrum rows
		labels                     map[string]string
		firstPct, lastPct, lastCnt float64
	}
	cases := []want{
		{
			// 29943 requests in 15.00s, 3.40MB read / Requests/sec: 1996.06
			// Latency 1.24ms 1.11ms 20.05ms 96.28%; Req/Sec 1.06k 195.10 2.33k 81.15%
			file: "wrk2/wrk2_plain_go2_ping_R2000.txt", format: "wrk2", threads: 2, conns: 20,
			requests: 29943, rps: 1996.06, durS: 15, bytes: 3565158, // 3.40*1048576 = 3565158.4
			mean: 1.24, stdev: 1.11, max: 20.05, p50: nullWant, p90: nullWant, p95: nullWant, p99: nullWant, p999: nullWant,
			labels: map[string]string{
				"calibration_mean_latency_ms": "1.321,1.289", "calibration_interval_ms": "10,10",
				"thread_rps_mean": "1060", "thread_rps_stdev": "195.1", "thread_rps_max": "2330",
				"thread_rps_within_stdev_pct": "81.15", "latency_within_stdev_pct": "96.28",
				"socket_connect": "0", "socket_timeout": "0", "url": "http://127.0.0.1:8082/ping",
				"requested_duration": "15s", "reported_bytes_read": "3565158.4", "reported_transfer_bytes_per_s": "237527.04", // 231.96*1024
			},
		},
		{
			// Recorded Latency: 50.000% 1.34ms, 90.000% 2.40ms, 99.000% 6.01ms,
			// 99.900% 25.33ms; spectrum row 3.181 0.950000; #[Mean = 1.573,
			// StdDeviation = 1.526] #[Max = 29.856, Total count = 24351];
			// 69962 requests in 15.00s, 19.35MB read; Requests/sec: 4665.12
			file: "wrk2/wrk2_latency_nginx_static_R5000.txt", format: "wrk2", threads: 2, conns: 50,
			requests: 69962, rps: 4665.12, durS: 15, bytes: 20289946, // 19.35*1048576 = 20289945.6
			mean: 1.573, stdev: 1.526, max: 29.856, p50: 1.34, p90: 2.40, p95: 3.181, p99: 6.01, p999: 25.33,
			corrected: 76, firstPct: 0, lastPct: 100, lastCnt: 24351,
			labels: map[string]string{"hdr_total_count": "24351", "thread_rps_mean": "2640", "reported_latency_mean": "1.57ms"},
		},
		{
			// Two blocks of 57 rows; Recorded 50% 6.33ms 99% 9.13ms, #[Mean = 6.373,
			// StdDeviation = 0.620] #[Max = 12.168 …]; Uncorrected #[Mean = 5.649,
			// StdDeviation = 0.374] #[Max = 11.384, Total count = 1950], 50% 5.62ms, 99% 7.03ms;
			// 11983 requests in 12.00s, 1.52MB read; Requests/sec: 998.43
			file: "wrk2/wrk2_U_go2_wait5_R1000.txt", format: "wrk2", threads: 2, conns: 20,
			requests: 11983, rps: 998.43, durS: 12, bytes: 1593836, // 1.52*1048576 = 1593835.52
			mean: 6.373, stdev: 0.620, max: 12.168, p50: 6.33, p90: 6.92, p95: 7.139, p99: 9.13, p999: 11.62,
			corrected: 57, uncorrected: 57, firstPct: 0, lastPct: 100, lastCnt: 1950,
			labels: map[string]string{
				"uncorrected_latency_mean_ms": "5.649", "uncorrected_latency_stdev_ms": "0.374",
				"uncorrected_latency_max_ms": "11.384", "uncorrected_latency_p50_ms": "5.62",
				"uncorrected_latency_p99_ms": "7.03", "uncorrected_hdr_total_count": "1950",
				"calibration_mean_latency_ms": "6.594,6.58", "calibration_interval_ms": "14,14",
			},
		},
		{
			// No calibration line (6 s run), Req/Sec -nan -nan 0.00 0.00%;
			// 2995 requests in 6.00s, 348.05KB read; Total count 2993
			file: "wrk2/wrk2_short_6s_go1_ping_R500.txt", format: "wrk2", threads: 1, conns: 8,
			requests: 2995, rps: 499.13, durS: 6, bytes: 356403, // 348.05*1024 = 356403.2
			mean: 1.057, stdev: 0.648, max: 14.080, p50: 0.99, p90: 1.60, p95: 1.869, p99: 3.39, p999: 6.04,
			corrected: 61, firstPct: 0, lastPct: 100, lastCnt: 2993,
			labels: map[string]string{"thread_rps_mean": "", "thread_rps_within_stdev_pct": "", "calibration_mean_latency_ms": "", "hdr_total_count": "2993"},
		},
		{
			// Overload: Latency 7.59s 603.93ms 9.09s; 50.000% 7.59s ; #[Mean = 7593.433,
			// StdDeviation = 603.931] #[Max = 9093.120, Total count = 42867];
			// 265482 requests in 12.00s, 30.13MB read; Requests/sec: 22131.17
			file: "wrk2/wrk2_cannot_keep_up_go1_ping_R100000.txt", format: "wrk2", threads: 2, conns: 100,
			requests: 265482, rps: 22131.17, durS: 12, bytes: 31593595, // 30.13*1048576 = 31593594.88
			mean: 7593.433, stdev: 603.931, max: 9093.12, p50: 7590, p90: 8400, p95: 8577.023, p99: 8870, p999: 9030,
			corrected: 75, firstPct: 0, lastPct: 100, lastCnt: 42867,
			labels: map[string]string{"calibration_mean_latency_ms": "3745.706,3850.985", "calibration_interval_ms": "13025,12681", "reported_latency_mean": "7.59s"},
		},
		{
			// Latency 9.94s 512.62ms 10.81s 57.89%; 2332 requests in 12.02s,
			// 305.16KB read; Requests/sec: 194.06
			file: "wrk2/wrk2_cannot_keep_up_go2_wait50_R2000.txt", format: "wrk2", threads: 2, conns: 10,
			requests: 2332, rps: 194.06, durS: 12.02, bytes: 312484, // 305.16*1024 = 312483.84
			mean: 9940, stdev: 512.62, max: 10810, p50: nullWant, p90: nullWant, p95: nullWant, p99: nullWant, p999: nullWant,
		},
		{
			// Non-2xx or 3xx responses: 708 of 14978 requests in 10.00s, 1.71MB read
			file: "wrk2/wrk2_non2xx_go1_err5pct_R1500.txt", format: "wrk2", threads: 2, conns: 16,
			requests: 14978, non2xx: 708, rps: 1497.93, durS: 10, bytes: 1793065, // 1.71*1048576 = 1793064.96
			mean: 1.151, stdev: 0.776, max: 11.176, p50: 1.05, p90: 1.77, p95: 2.133, p99: 4.64, p999: 7.62,
			corrected: 72, firstPct: 0, lastPct: 100, lastCnt: 14976,
		},
		{
			// Socket errors: connect 0, read 9, write 109695, timeout 24;
			// 7820 requests in 12.00s, 0.89MB read; Requests/sec: 651.51
			file: "wrk2/wrk2_socket_errors_flap_R1000.txt", format: "wrk2", threads: 2, conns: 16,
			requests: 7820, errors: 109728, rps: 651.51, durS: 12, bytes: 933233, // 0.89*1048576 = 933232.64
			mean: 85.09, stdev: 127.53, max: 505.34, p50: nullWant, p90: nullWant, p95: nullWant, p99: nullWant, p999: nullWant,
			labels: map[string]string{"socket_connect": "0", "socket_read": "9", "socket_write": "109695", "socket_timeout": "24"},
		},
		{
			// Latency 1.76ms 3.61ms 53.53ms; Req/Sec 12.79k 3.33k 25.74k 66.25%;
			// 204051 requests in 8.07s, 56.43MB read; Requests/sec: 25280.18
			file: "wrk/wrk_plain_nginx_static.txt", format: "wrk", threads: 2, conns: 32,
			requests: 204051, rps: 25280.18, durS: 8.07, bytes: 59171144, // 56.43*1048576 = 59171143.68
			mean: 1.76, stdev: 3.61, max: 53.53, p50: nullWant, p90: nullWant, p95: nullWant, p99: nullWant, p999: nullWant,
			labels: map[string]string{"thread_rps_mean": "12790", "thread_rps_stdev": "3330", "thread_rps_max": "25740", "calibration_mean_latency_ms": ""},
		},
		{
			// 50% 4.24ms 75% 4.95ms 90% 5.99ms 99% 19.07ms; 111471 requests in 8.08s, 14.14MB read
			file: "wrk/wrk_latency_go2_wait3.txt", format: "wrk", threads: 2, conns: 64,
			requests: 111471, rps: 13802.98, durS: 8.08, bytes: 14826865, // 14.14*1048576 = 14826864.64
			mean: 4.83, stdev: 3.64, max: 73.62, p50: 4.24, p90: 5.99, p95: nullWant, p99: 19.07, p999: nullWant,
			uncorrected: 4, firstPct: 50, lastPct: 99,
		},
		{
			// 50% 617.00us; Non-2xx or 3xx responses: 7808 of 154391 requests in 6.01s, 17.67MB read
			file: "wrk/wrk_non2xx_go1_err5pct.txt", format: "wrk", threads: 2, conns: 16,
			requests: 154391, non2xx: 7808, rps: 25696.74, durS: 6.01, bytes: 18528338, // 17.67*1048576 = 18528337.92
			mean: 1.05, stdev: 1.61, max: 24.12, p50: 0.617, p90: 2.66, p95: nullWant, p99: 7.75, p999: nullWant,
			uncorrected: 4, firstPct: 50, lastPct: 99,
		},
		{
			// Every request exceeded --timeout 1s: Latency 0.00us 0.00us 0.00us -nan%
			// (nothing recorded, so the latency columns stay NULL);
			// 24 requests in 5.02s, 3.19KB read; timeout 24; Transfer/sec: 650.71B
			file: "wrk/wrk_timeouts_go1_wait1500.txt", format: "wrk", threads: 1, conns: 8,
			requests: 24, errors: 24, rps: 4.78, durS: 5.02, bytes: 3267, // 3.19*1024 = 3266.56
			mean: nullWant, stdev: nullWant, max: nullWant, p50: nullWant, p90: nullWant, p95: nullWant, p99: nullWant, p999: nullWant,
			labels: map[string]string{"socket_timeout": "24", "latency_within_stdev_pct": "", "reported_latency_mean": "0.00us", "reported_transfer_bytes_per_s": "650.71", "reported_bytes_read": "3266.56"},
		},
		{
			// The same with --latency: its four lines print 0.00us too, and
			// are dropped with the rest of the latency.
			file: "wrk/wrk_latency_timeouts_go2_wait1500.txt", format: "wrk", threads: 1, conns: 8,
			requests: 24, errors: 24, rps: 4.77, durS: 5.03, bytes: 3267, // 3.19*1024 = 3266.56
			mean: nullWant, stdev: nullWant, max: nullWant, p50: nullWant, p90: nullWant, p95: nullWant, p99: nullWant, p999: nullWant,
			labels: map[string]string{"socket_timeout": "24", "thread_rps_mean": "4.67"},
		},
	}
	for _, w := range cases {
		t.Run(filepath.Base(w.file), func(t *testing.T) {
			r, format := readFixture(t, filepath.Join("testdata", w.file))
			if format != w.format || r.Tool != w.format {
				t.Errorf("format %s, tool %s, want %s", format, r.Tool, w.format)
			}
			if r.LatencyCorrected != (w.format == "wrk2") {
				t.Errorf("latency_corrected = %v", r.LatencyCorrected)
			}
			if r.Line != 1 || r.Index != 0 {
				t.Errorf("line %d index %d, want 1 0", r.Line, r.Index)
			}
			expectI(t, "threads", r.Threads, w.threads)
			expectI(t, "connections", r.Connections, w.conns)
			expectI(t, "requests", r.Requests, w.requests)
			expectI(t, "errors", r.Errors, w.errors)
			expectI(t, "non_2xx", r.Non2xx, w.non2xx)
			expectI(t, "responses_2xx", r.Responses2xx, w.requests-w.non2xx)
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
			expectF(t, "latency_p999_ms", r.LatencyP999MS, w.p999)
			expectF(t, "target_rps", r.TargetRPS, nullWant) // wrk2 does not print its -R
			var corr, uncorr int
			for _, p := range r.Percentiles {
				if p.Corrected {
					corr++
				} else {
					uncorr++
				}
			}
			if corr != w.corrected || uncorr != w.uncorrected {
				t.Errorf("spectrum rows corrected %d uncorrected %d, want %d %d", corr, uncorr, w.corrected, w.uncorrected)
			}
			if n := len(r.Percentiles); n > 0 {
				first := r.Percentiles[0]
				last := r.Percentiles[w.corrected+w.uncorrected-1]
				if w.corrected > 0 {
					last = r.Percentiles[w.corrected-1]
				}
				if first.Percentile != w.firstPct || last.Percentile != w.lastPct {
					t.Errorf("spectrum from %v to %v, want %v to %v", first.Percentile, last.Percentile, w.firstPct, w.lastPct)
				}
				if w.lastCnt > 0 && (!last.Count.Valid || float64(last.Count.V) != w.lastCnt) {
					t.Errorf("last spectrum count %v, want %v", showOptI(last.Count), w.lastCnt)
				}
			}
			expectLabels(t, r, w.labels)
		})
	}
}

// The spectrum rows are stored as printed, percentile scaled from 0-1 to
// 0-100 without binary rounding ("0.550000" is 55, not 55.00000000000001).
func TestWrk2Spectrum(t *testing.T) {
	r, _ := readFixture(t, "testdata/wrk2/wrk2_U_go2_wait5_R1000.txt")
	want := []struct {
		i         int
		pct, ms   float64
		count     int64
		corrected bool
	}{
		{0, 0, 5.147, 1, true},              //        5.147     0.000000            1         1.00
		{6, 55, 6.387, 1080, true},          //        6.387     0.550000         1080         2.22
		{38, 99.4531, 9.847, 1940, true},    //        9.847     0.994531         1940       182.86
		{56, 100, 12.175, 1950, true},       //       12.175     1.000000         1950          inf
		{57, 0, 5.075, 1, false},            //        5.075     0.000000            1         1.00
		{63, 55, 5.639, 1076, false},        //        5.639     0.550000         1076         2.22
		{112, 99.9512, 11.391, 1950, false}, //       11.391     0.999512         1950      2048.00
		{113, 100, 11.391, 1950, false},     //       11.391     1.000000         1950          inf
	}
	for _, w := range want {
		p := r.Percentiles[w.i]
		if p.Percentile != w.pct || p.LatencyMS != w.ms || p.Count.V != w.count || p.Corrected != w.corrected {
			t.Errorf("row %d = %+v, want %v %v %v %v", w.i, p, w.pct, w.ms, w.count, w.corrected)
		}
	}
}

// firstLines keeps the first n lines of a capture.
func headLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	return strings.Join(lines[:n], "")
}

func TestWrkBadInput(t *testing.T) {
	latency := readTestdata(t, "testdata/wrk2/wrk2_latency_nginx_static_R5000.txt")
	plain := readTestdata(t, "testdata/wrk/wrk_plain_nginx_static.txt")
	flap := readTestdata(t, "testdata/wrk2/wrk2_socket_errors_flap_R1000.txt")
	stripped := readTestdata(t, "testdata/wild/wrk2/taoensso-2015-egrep-stripped-two-reports-no-thread-stats-header.txt")
	cases := []struct {
		name, format, content, want string
	}{
		{"usage", "wrk", readTestdata(t, "testdata/wrk/wrk_usage_error_timeout_500ms.txt"),
			"x.txt:1: wrk printed its usage text, not a report (a command-line option was rejected)"},
		{"empty", "wrk", "", `x.txt:1: wrk report ends early: expected "Running <duration> test @ <url>"`},
		{"firstLines in thread stats", "wrk2", headLines(latency, 6),
			`x.txt:7: wrk2 report ends early: expected "<N> requests in <duration>, <size> read"`},
		{"firstLines in spectrum", "wrk2", headLines(latency, 40), "x.txt:41: wrk2 report ends early: expected a spectrum row or the #[Mean = …] footer"},
		{"firstLines before Requests/sec", "wrk", headLines(plain, 6), `x.txt:7: wrk report ends early: expected "Requests/sec: <rate>"`},
		{"two runs, second cut short", "wrk2", flap + headLines(flap, 3), `x.txt:15: wrk2 report ends early: expected the "Thread Stats" table`},
		{"a report cut short by the next", "wrk", headLines(plain, 6) + plain, `x.txt:7:1: wrk report ends early: expected "Requests/sec: <rate>", found the start of another report`},
		{"other tool", "wrk", readTestdata(t, "testdata/ab/ab_plain_nginx_static_n5000_c10.txt"),
			`x.txt:1:1: no wrk report: expected "Running <duration> test @ <url>", found "This is ApacheBench, Version 2.3 <$Revision$>"`},
		{"bad threads", "wrk", strings.Replace(plain, "2 threads", "two threads", 1),
			`x.txt:2:3: expected a whole number, found "two"`},
		{"bad latency unit", "wrk", strings.Replace(plain, "1.76ms", "1.76xs", 1),
			`x.txt:4:17: expected a time such as 1.24ms or a percentage, found "1.76xs"`},
		{"bad bytes", "wrk", strings.Replace(plain, "56.43MB", "56.43MiB", 1),
			`x.txt:6:29: expected a size such as 3.40MB, found "56.43MiB"`},
		{"bad socket errors", "wrk2", strings.Replace(flap, "write 109695", "write many", 1),
			`x.txt:9:43: expected a count of write errors, found "many"`},
		{"non-2xx above requests", "wrk", strings.Replace(readTestdata(t, "testdata/wrk/wrk_non2xx_go1_err5pct.txt"), "154391 requests", "7000 requests", 1),
			"x.txt:12:29: 7808 Non-2xx or 3xx responses exceed the 7000 requests"},
		{"garbage line", "wrk", strings.Replace(plain, "Requests/sec:", "Reqs/sec:", 1),
			`x.txt:7:1: unexpected line in a wrk report: "Reqs/sec:  25280.18"`},
		{"spectrum percentile going down", "wrk2", strings.Replace(latency, "0.200000", "0.050000", 1),
			`x.txt:23:18: Percentile: expected a fraction from 0 to 1, not below the row above, found "0.050000"`},
		{"total count differs", "wrk2", strings.Replace(latency, "Total count    =        24351", "Total count    =        24350", 1),
			"x.txt:98:1: Total count 24350 differs from the last spectrum row's count 24351"},
		{"Latency line after the requests line", "wrk", strings.Replace(plain, "Requests/sec:", "    Latency     1.76ms    3.61ms  53.53ms   96.79%\nRequests/sec:", 1),
			`x.txt:7:1: unexpected Latency line outside the "Thread Stats" table`},
		{"a second Latency line, no table header", "wrk", strings.Replace(plain, "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n", "    Latency     1.76ms    3.61ms  53.53ms   96.79%\n", 1),
			`x.txt:4:1: unexpected Latency line outside the "Thread Stats" table`},
		{"filtered report, spectrum header without rows", "wrk2", strings.Replace(stripped, "#[Mean", "  Detailed Percentile spectrum:\n#[Mean", 1),
			`x.txt:15:1: expected the spectrum header "Value Percentile TotalCount 1/(1-Percentile)", found "#[Mean    =    23101.664, StdDeviation   =     9466.834]"`},
		{"calibration in wrk", "wrk", latency, "x.txt:3:1: wrk2's calibration line in a wrk report"},
		{"hdr block in wrk", "wrk", readTestdata(t, "testdata/wrk2/wrk2_short_6s_go1_ping_R500.txt"), "x.txt:6:1: wrk2's HdrHistogram block in a wrk report"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			col, err := readAsFormat(t, c.format, "x.txt", c.content)
			if err == nil || err.Error() != c.want {
				t.Errorf("error\n got %v\nwant %s", err, c.want)
			}
			if len(col.Runs) != 0 {
				t.Errorf("a run was stored from a bad input")
			}
		})
	}
}

// A wrk report run with a Lua script may end with the script's own lines.
func TestWrkScriptOutput(t *testing.T) {
	plain := readTestdata(t, "testdata/wrk/wrk_plain_nginx_static.txt")
	c, err := readAsFormat(t, "wrk", "x.txt", plain+"RESULT requests=204051\n")
	if err != nil {
		t.Fatal(err)
	}
	expectI(t, "requests", c.Runs[0].Requests, 204051)
}

// Between 2014-11-08 and 2014-11-09 wrk2 printed "mean lat.: 6594 usec,
// rate sampling interval: 14 msec" and its spectrum in microseconds
// (hdr_percentiles_print with a value scale of 1.0; giltene/wrk2 commit
// 1425f37 changed both to ms). The capture is wrk2 built at the commit before.
func TestWrk2OldCalibration(t *testing.T) {
	r, format := readFixture(t, "testdata/wrk2/wrk2_old_usec_go2_ping_R1000.txt")
	if format != "wrk2" {
		t.Fatalf("format %s", format)
	}
	// Thread calibration: mean lat.: 2477 usec, rate sampling interval: 10 msec (twice)
	expectLabels(t, r, map[string]string{
		"calibration_mean_latency_ms": "2.477,2.44", "calibration_interval_ms": "10,10",
		"hdr_spectrum_unit": "us", "hdr_total_count": "1800",
	})
	// #[Mean = 1791.722, StdDeviation = 723.289] #[Max = 6516.000, Total count = 1800]
	expectF(t, "latency_mean_ms", r.LatencyMeanMS, 1.791722)
	expectF(t, "latency_stdev_ms", r.LatencyStdevMS, 0.723289)
	expectF(t, "latency_max_ms", r.LatencyMaxMS, 6.516)
	// 50.000% 1.68ms, 99.000% 4.17ms; row "3205.000 0.950000 1710 20.00"
	expectF(t, "latency_p50_ms", r.LatencyP50MS, 1.68)
	expectF(t, "latency_p95_ms", r.LatencyP95MS, 3.205)
	expectF(t, "latency_p99_ms", r.LatencyP99MS, 4.17)
	// 11862 requests in 12.01s, 1.35MB read; Requests/sec: 987.95
	expectI(t, "requests", r.Requests, 11862)
	expectF(t, "rps", r.RPS, 987.95)
	expectF(t, "duration_s", r.DurationS, 12.01)
	if len(r.Percentiles) != 57 {
		t.Fatalf("spectrum rows %d, want 57", len(r.Percentiles))
	}
	// First row "362.000 0.000000 1 1.00", last "6519.000 1.000000 1800 inf".
	if p := r.Percentiles[0]; p.LatencyMS != 0.362 || p.Percentile != 0 || p.Count.V != 1 {
		t.Errorf("first row %+v", p)
	}
	if p := r.Percentiles[56]; p.LatencyMS != 6.519 || p.Percentile != 100 || p.Count.V != 1800 {
		t.Errorf("last row %+v", p)
	}
}

// wrkTestStore is a Store that keeps what each file loads in a Collector.
type wrkTestStore struct{ files map[string]*model.Collector }

func (m *wrkTestStore) IngestedHash(context.Context, string) (string, bool, error) {
	return "", false, nil
}

func (m *wrkTestStore) Load(_ context.Context, f model.File, fill func(model.Sink) error) (int64, error) {
	c := &model.Collector{}
	if err := fill(c); err != nil {
		return 0, err
	}
	m.files[f.Source] = c
	return c.Rows(), nil
}

// wrk2 does not print its -R: the rate comes from the manifest, and the
// command line overrides it.
func TestWrk2TargetRateFromManifest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bench")
	sub := filepath.Join(dir, "wrk2", "go2")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "[[files]]\npattern = \"wrk2/{server}/{test}-R{target_rps}.txt\"\n"
	if err := os.WriteFile(filepath.Join(dir, ManifestName), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ping-R2000.txt", "keepup-R100000.txt"} {
		src := "testdata/wrk2/wrk2_plain_go2_ping_R2000.txt"
		if strings.HasPrefix(name, "keepup") {
			src = "testdata/wrk2/wrk2_cannot_keep_up_go1_ping_R100000.txt"
		}
		if err := os.WriteFile(filepath.Join(sub, name), []byte(readTestdata(t, src)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st := &wrkTestStore{files: map[string]*model.Collector{}}
	res, err := Ingest(context.Background(), st, []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Count(Loaded) != 2 {
		t.Fatalf("results %+v", res.Files)
	}
	ping := st.files["bench/wrk2/go2/ping-R2000.txt"].Runs[0]
	if ping.Server != "go2" || ping.Test != "ping" || !ping.LatencyCorrected || ping.Tool != "wrk2" {
		t.Errorf("run %+v", ping)
	}
	expectF(t, "target_rps", ping.TargetRPS, 2000)
	// 22131.17 requests/s of 100000 asked: the run could not keep up.
	keep := st.files["bench/wrk2/go2/keepup-R100000.txt"].Runs[0]
	expectF(t, "target_rps", keep.TargetRPS, 100000)
	expectF(t, "rps", keep.RPS, 22131.17)

	res, err = Ingest(context.Background(), st, []string{dir}, Options{Labels: map[string]string{"target_rps": "1500"}})
	if err != nil {
		t.Fatal(err)
	}
	expectF(t, "target_rps", st.files["bench/wrk2/go2/ping-R2000.txt"].Runs[0].TargetRPS, 1500)
}

// Each reader claims its own captures and none of any other tool in
// testdata, whichever reader wrote them.
func TestDetectWrkAB(t *testing.T) {
	mine := []string{"wrk2", "wrk", "ab", "ab-percentiles-csv", "ab-gnuplot-tsv"}
	owner := func(rel string) string {
		switch {
		case strings.HasPrefix(rel, "wrk2/"):
			return "wrk2"
		case strings.HasPrefix(rel, "wrk/"):
			return "wrk"
		case strings.HasPrefix(rel, "ab/") && strings.HasSuffix(rel, ".csv"):
			return "ab-percentiles-csv"
		case strings.HasPrefix(rel, "ab/") && strings.HasSuffix(rel, ".tsv"):
			return "ab-gnuplot-tsv"
		case strings.HasPrefix(rel, "ab/"):
			return "ab"
		}
		return ""
	}
	err := filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("testdata", p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "fuzz/") || strings.HasPrefix(rel, "wild/") || strings.HasSuffix(rel, ".md") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if len(b) > HeadBytes {
			b = b[:HeadBytes]
		}
		var claimed []string
		for _, name := range mine {
			if formatByName(t, name).Detect(b) {
				claimed = append(claimed, name)
			}
		}
		want := owner(rel)
		switch {
		case want == "" && len(claimed) > 0:
			t.Errorf("%s (another tool's) claimed by %v", rel, claimed)
		case want != "" && (len(claimed) != 1 || claimed[0] != want):
			t.Errorf("%s claimed by %v, want %s alone", rel, claimed, want)
		case want != "":
			if f := Detect(b); f == nil || f.Name != want {
				t.Errorf("%s detected as %v among all formats, want %s", rel, f, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkFuzzedRun asserts what holds for any run a reader accepts: its counts are
// present and consistent, and no number is NaN or infinite.
func checkFuzzedRun(t *testing.T, r *model.Run) {
	t.Helper()
	if !r.Requests.Valid && !r.LatencyP50MS.Valid && !r.LatencyMeanMS.Valid && len(r.Percentiles) == 0 && r.Labels["warning"] == "" {
		t.Fatalf("run with neither requests nor latency: %+v", r)
	}
	for _, o := range []model.Opt[int64]{r.Requests, r.Responses2xx, r.Non2xx, r.Errors, r.BytesRead, r.Threads, r.Connections} {
		if o.Valid && o.V < 0 {
			t.Fatalf("negative count in %+v", r)
		}
	}
	for _, o := range []model.Opt[float64]{r.RPS, r.DurationS, r.LatencyMeanMS, r.LatencyStdevMS, r.LatencyMaxMS,
		r.LatencyP50MS, r.LatencyP90MS, r.LatencyP95MS, r.LatencyP99MS, r.LatencyP999MS} {
		if o.Valid && (o.V != o.V || o.V < 0 || o.V > 1e300) {
			t.Fatalf("bad number %v in %+v", o.V, r)
		}
	}
	for _, p := range r.Percentiles {
		if p.Percentile < 0 || p.Percentile > 100 || p.LatencyMS != p.LatencyMS || p.LatencyMS < 0 {
			t.Fatalf("bad percentile %+v", p)
		}
	}
}

// fuzzReader runs a reader on arbitrary input: it must not panic, and it
// either fails with a *SyntaxError naming the file and a line, or stores
// well-formed runs.
func fuzzReader(t *testing.T, format string, data []byte) {
	c, err := readAsFormat(t, format, "f.txt", string(data))
	if err != nil {
		var se *SyntaxError
		if !errors.As(err, &se) || se.File != "f.txt" {
			t.Fatalf("error %v is not a *SyntaxError of f.txt", err)
		}
		if len(c.Runs) != 0 {
			t.Fatalf("a run stored before the error %v", err)
		}
		return
	}
	if len(c.Runs) == 0 {
		t.Fatal("no run and no error")
	}
	for _, r := range c.Runs {
		checkFuzzedRun(t, r)
	}
}

// addFuzzSeeds seeds a fuzz target with captures, their truncations and other
// tools' outputs.
func addFuzzSeeds(f *testing.F, globs ...string) {
	for _, g := range globs {
		paths, err := filepath.Glob(g)
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range paths {
			b := []byte(readTestdata(f, p))
			f.Add(b)
			f.Add(b[:len(b)/2])
			f.Add(b[:len(b)*9/10])
		}
	}
}

func FuzzWrk(f *testing.F) {
	addFuzzSeeds(f, "testdata/wrk/*.txt", "testdata/wrk2/wrk2_short*.txt", "testdata/ab/ab_plain*.txt")
	addWildSeeds(f, "wrk", "notreport")
	f.Fuzz(func(t *testing.T, data []byte) {
		formatByName(t, "wrk").Detect(data)
		fuzzReader(t, "wrk", data)
	})
}

func FuzzWrk2(f *testing.F) {
	addFuzzSeeds(f, "testdata/wrk2/*.txt", "testdata/wrk/wrk_latency*.txt", "testdata/ab/ab_plain*.txt")
	addWildSeeds(f, "wrk2", "hgrm")
	f.Fuzz(func(t *testing.T, data []byte) {
		formatByName(t, "wrk2").Detect(data)
		fuzzReader(t, "wrk2", data)
	})
}
