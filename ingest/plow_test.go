package ingest

import (
	"path/filepath"
	"strings"
	"testing"
)

// The numbers are the captures' own (testdata/plow/SOURCES.md says how
// each was made): requests Count, errors the Error block, rps RPS, the
// times in ms from Go durations; duration_s is Count / RPS, since plow
// prints Elapsed truncated.
func TestPlowCaptures(t *testing.T) {
	const d = "testdata/plow/"
	for _, tc := range []loadToolCase{
		// 1.0 with -i 0: the banner and terminal codes on stdout; 2xx 1883,
		// 5xx 117; P50 128µs, P99 29.985ms; Latency mean 1.921ms, max 43.969ms.
		{file: d + "plow100_i0_err5pct_n2000.txt", format: "plow", requests: 2000, ok2xx: 1883, non2xx: 117, errors: 0,
			rps: 2078.255, p50: 0.128, p99: 29.985, mean: 1.921, max: 43.969, spectrum: 7, connections: 4,
			durationS: perSecond(2000, 2078.255), startLine: 1,
			labels: map[string]string{"requested_requests": "2000", "url": "http://127.0.0.1:18530/err?p=0.05", "reported_elapsed": "962ms",
				"status_5xx": "117", "latency_min_ms": "0.019"}},
		{file: d + "plow100_i0_ping_c8_d2s.txt", format: "plow", requests: 82453, ok2xx: 82453, non2xx: 0, errors: 0,
			rps: 41218.534, p50: 0.148, p99: 1.286, mean: 0.193, max: 17.774, spectrum: 7, connections: 8,
			labels: map[string]string{"requested_duration": "2s", "reported_rps_mean": "41927.82"}},
		// 198577 "no free connections available to host" + 25 "timeout":
		// every request failed; P50 "0s".
		{file: d + "plow100_i0_timeouts.txt", format: "plow", requests: 198602, ok2xx: 0, non2xx: 0, errors: 198602,
			rps: 99216.390, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, spectrum: 0, connections: 4,
			labels: map[string]string{"error.timeout": "25", "error.no free connections available to host": "198577"}},
		// -i 400ms to a file: three snapshots redrawn with cursor codes,
		// then the final report (percentages): one run, the last one's.
		{file: d + "plow100_snapshots_ping_d1s_i400ms.txt", format: "plow", requests: 10450, ok2xx: 10450, non2xx: 0, errors: 0,
			rps: 10437.168, p50: 0.096, p99: 6.055, mean: 0.381, max: 24.157, spectrum: 7, connections: 4, startLine: 1,
			labels: map[string]string{"reported_elapsed": "1.001s"}},
		{file: d + "plow132_snapshots_ping_d2s_i500ms.txt", format: "plow", requests: 45222, ok2xx: 45222, non2xx: 0, errors: 0,
			rps: 22606.822, p50: 0.068, p99: 3.308, mean: 0.175, max: 22.138, spectrum: 7, connections: nullWant, startLine: 1,
			labels: map[string]string{"reported_rps_mean": "22360.01", "reported_rps_max": "28496.65"}},
		// --summary, stdout only: no banner, so no connections.
		{file: d + "plow132_summary_err5pct_n2000.txt", format: "plow", requests: 2000, ok2xx: 1919, non2xx: 81, errors: 0,
			rps: 9790.156, p50: 0.051, p99: 9.488, mean: 0.405, max: 24.213, spectrum: 7, durationS: perSecond(2000, 9790.156),
			labels: map[string]string{"reported_elapsed": "200ms"}},
		{file: d + "plow132_summary_ping_c8_d3s.txt", format: "plow", requests: 56388, ok2xx: 56388, non2xx: 0, errors: 0,
			rps: 18795.794, p50: 0.144, p99: 5.203, mean: 0.424, max: 52.681, spectrum: 7},
		{file: d + "plow132_summary_refused_port.txt", format: "plow", requests: 17604, ok2xx: 0, non2xx: 0, errors: 17604,
			rps: 17603.598, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant},
		// --seconds: bare numbers of seconds, 0.002246 s is 2.246 ms.
		{file: d + "plow132_summary_seconds_rate500.txt", format: "plow", requests: 993, ok2xx: 993, non2xx: 0, errors: 0,
			rps: 496.443, p50: 2.246, p99: 5.853, mean: 2.502, max: 15.974, spectrum: 7,
			labels: map[string]string{"time_unit": "s", "latency_min_ms": "2.072"}},
		{file: d + "plow132_summary_timeouts.txt", format: "plow", requests: 76, ok2xx: 0, non2xx: 0, errors: 76,
			rps: 37.991, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant},
		// 1.4: Concurrency; the banner through 2>&1.
		{file: d + "plow140_summary_n500_rate.txt", format: "plow", requests: 500, ok2xx: 500, non2xx: 0, errors: 0,
			rps: 843.029, p50: 0.075, p99: 13.718, mean: 0.424, max: 20.03, spectrum: 7, connections: 2,
			durationS: perSecond(500, 843.029), labels: map[string]string{"concurrency": "2", "reported_elapsed": "500ms"}},
		{file: d + "plow140_terminal_summary_err5pct.txt", format: "plow", requests: 101978, ok2xx: 96774, non2xx: 5204, errors: 0,
			rps: 50987.540, p50: 0.116, p99: 0.826, mean: 0.155, max: 18.847, spectrum: 7, connections: 8, startLine: 1},
		// --json --summary.
		{file: d + "plow132_json_summary_ping.json", format: "plow-json", requests: 30766, ok2xx: 30766, non2xx: 0, errors: 0,
			rps: 15376.806, p50: 0.149, p99: 6.983, mean: 0.519, max: 111.713, spectrum: 7, startLine: 1,
			labels: map[string]string{"reported_rps_mean": "15363.18", "reads": "1.745MB/s"}},
		{file: d + "plow132_json_summary_errors.json", format: "plow-json", requests: 76, ok2xx: 0, non2xx: 0, errors: 76,
			rps: 37.988, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, spectrum: 0,
			labels: map[string]string{"error.timeout": "76"}},
		// --json -i 500ms: four snapshots of one run; the last is the run.
		{file: d + "plow132_json_snapshots_i500ms.json", format: "plow-json", requests: 76450, ok2xx: 72525, non2xx: 3925, errors: 0,
			rps: 38217.007, p50: 0.059, p99: 1.703, mean: 0.102, max: 9.924, spectrum: 7, startLine: 1},
		// 82 counted 2xx beside 4 timeouts of 84 requests: plow counted two
		// failed requests under an earlier answer's class too; the one
		// class printed is the 80 answered.
		{file: d + "plow140_terminal_json_timeouts_mixed.json", format: "plow-json", requests: 84, ok2xx: 80, non2xx: 0, errors: 4,
			rps: 41.995, p50: 90.64, p99: 100.865, mean: 91.67, max: 100.865, spectrum: 7, connections: 4, startLine: 4,
			labels: map[string]string{"status_2xx": "82", "url": "http://127.0.0.1:18530/wait?ms=90", "concurrency": "4"}},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// A time cut inside its unit is left NULL with a warning naming its line,
// never read as minutes; two status classes that add up to more than the
// answered requests leave both columns NULL.
func TestPlowCutAndOvercount(t *testing.T) {
	doc := readTestdata(t, "testdata/plow/plow132_summary_ping_c8_d3s.txt")
	cut := headLines(doc, 10)
	if !strings.HasSuffix(cut, "52.681ms\n") {
		t.Fatalf("line 10 is not the Latency row: %q", cut)
	}
	c, err := readAsFormat(t, "plow", "f.txt", strings.TrimSuffix(cut, "s\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Runs[0]
	expectF(t, "latency_max_ms", r.LatencyMaxMS, nullWant)
	expectF(t, "latency_mean_ms", r.LatencyMeanMS, 0.424)
	expectI(t, "requests", r.Requests, 56388)
	if w := r.Labels["warning"]; w != `line 10: plow Latency Max "52.681m" has no complete unit (the line is cut short): not read` {
		t.Errorf("warning %q", w)
	}
	// A bare number beside times with units lost its unit too.
	c, err = readAsFormat(t, "plow", "f.txt", strings.TrimSuffix(cut, "ms\n"))
	if err != nil {
		t.Fatal(err)
	}
	expectF(t, "latency_max_ms", c.Runs[0].LatencyMaxMS, nullWant)

	over := strings.Replace(readTestdata(t, "testdata/plow/plow132_summary_refused_port.txt"), "  RPS ", "    2xx  3\n    5xx  2\n  RPS ", 1)
	c, err = readAsFormat(t, "plow", "f.txt", over)
	if err != nil {
		t.Fatal(err)
	}
	r = c.Runs[0]
	expectI(t, "responses_2xx", r.Responses2xx, nullWant)
	expectI(t, "non_2xx", r.Non2xx, nullWant)
	expectI(t, "errors", r.Errors, 17604)
	if w := r.Labels["warning"]; !strings.HasPrefix(w, "line 1: the status classes add up to 5, not Count - errors = 0") {
		t.Errorf("warning %q", w)
	}
}

// Two final reports are two runs, rounds of one another; a report cut
// before its Statistics table keeps NULL errors and latency.
func TestPlowLayouts(t *testing.T) {
	doc := readTestdata(t, "testdata/plow/plow132_summary_err5pct_n2000.txt")
	c, err := readAsFormat(t, "plow", "f.txt", doc+"\n"+doc+headLines(doc, 8))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 3 {
		t.Fatalf("%d runs, want 3", len(c.Runs))
	}
	expectI(t, "round", c.Runs[1].Round, 2)
	last := c.Runs[2]
	expectI(t, "requests", last.Requests, 2000)
	expectI(t, "responses_2xx", last.Responses2xx, 1919)
	expectI(t, "errors", last.Errors, nullWant)
	expectF(t, "latency_mean_ms", last.LatencyMeanMS, nullWant)
}

func TestPlowErrors(t *testing.T) {
	doc := readTestdata(t, "testdata/plow/plow132_summary_err5pct_n2000.txt")
	js := readTestdata(t, "testdata/plow/plow132_json_summary_ping.json")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "plow", "", `f.txt:1: plow report ends early: expected "Summary:" or "Benchmarking <url> … using N connection(s)."`},
		{"no count", "plow", headLines(doc, 2), `f.txt:3: plow report from line 1 ends before its "Count" line`},
		{"bad count", "plow", strings.Replace(doc, "Count         2000", "Count         many", 1),
			`f.txt:3:1: plow Count: expected a count, found "many"`},
		{"bad time", "plow", strings.Replace(doc, "405µs", "405xs", 1),
			`f.txt:11: plow Latency Mean: expected a time such as 276µs, 1.071ms or 1m2.5s, found "405xs"`},
		{"bad percentile name", "plow", strings.Replace(doc, "P75", "Q75", 1),
			`f.txt:14:1: plow Latency Percentile: expected names such as P50 or P99.9, found "Q75"`},
		{"statistics cut", "plow", headLines(doc, 10), `f.txt:11: plow Statistics table from line 10 ends before its Latency row`},
		{"banner then other text", "plow", "Benchmarking http://x/ for 2s using 8 connection(s).\nsomething else\n",
			`f.txt:2:1: plow report from line 1: expected "Summary:" after the banner, found "something else"`},
		{"hey report", "plow", readTestdata(t, "testdata/hey/hey_go2_ping_n5000_c20.txt"),
			`f.txt:3:1: plow report from line 2: expected "Count N" in its Summary block, found "Total:\t0.6593 secs"`},
		{"json cut", "plow-json", js[:len(js)/2], "f.txt:16:9: truncated plow JSON: the document ends before it closes"},
		{"json no count", "plow-json", `{"Summary": {"Elapsed": "2s"}}`, "f.txt:1: plow JSON: expected a Summary with a Count >= 0"},
		{"json bad time", "plow-json", strings.Replace(js, `"519µs"`, `"519xs"`, 1),
			`f.txt:1: plow Latency Mean: expected a time such as 276µs, 1.071ms or 1m2.5s, found "519xs"`},
	})
}

// isSnapshotStream tells the captures of plow's snapshots of one run one
// after another: a prefix of such a file is the stream of a shorter run,
// whose numbers differ from the whole run's.
func isSnapshotStream(path string) bool {
	return strings.HasPrefix(filepath.Base(path), "plow") && strings.Contains(path, "snapshots")
}

// plowBareSeconds tells the captures of plow --seconds, whose times are
// bare numbers: one cut short at the end of the file cannot be told from
// a shorter number.
func plowBareSeconds(path string) bool {
	return strings.HasPrefix(filepath.Base(path), "plow") && strings.Contains(path, "_seconds_")
}

func TestPlowDetection(t *testing.T) {
	checkClaims(t, "plow", func(p string) string {
		if strings.HasSuffix(p, ".json") {
			return "plow-json"
		}
		return "plow"
	}, "plow", "plow-json")
}

func FuzzPlow(f *testing.F) {
	addFuzzSeeds(f, "testdata/plow/*", "testdata/hey/hey_go2*.txt", "testdata/bombardier/*.json")
	addWildSeeds(f, "plow", "notreport", "h2load")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "plow", "plow-json") })
}
