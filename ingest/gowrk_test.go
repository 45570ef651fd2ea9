package ingest

import (
	"path/filepath"
	"strings"
	"testing"
)

// The numbers are the captures' own (testdata/gowrk/SOURCES.md): requests
// are the answers counted plus Number of Errors; the rows named 10% …
// 99.99999% are labels, never percentiles.
func TestGoWrkCaptures(t *testing.T) {
	const d = "testdata/gowrk/"
	nl := nullWant
	for _, tc := range []loadToolCase{
		{file: d + "gowrk_head_c8_d2_ping.txt", format: "go-wrk", requests: 40687, ok2xx: 40687, non2xx: 0, errors: 0,
			rps: 20264.24, p50: nl, p99: nl, mean: 0.391, max: 26.295, connections: 8, startLine: 1,
			labels: map[string]string{"reported_rps_over_thread_time": "20419.4", "reported_rps": "20264.24", "reported_bytes_read": "4152360.96", "row_50%_ms": "0.025", "latency_min_ms": "0.024", "requested_duration": "2s"}},
		// 22421 answered + 1115 "received status code 500": 23536 requests,
		// at the Overall rate scaled from the answers to all of them.
		{file: d + "gowrk_head_c4_d2_err5pct.txt", format: "go-wrk", requests: 23536, ok2xx: 22421, non2xx: 1115, errors: 0,
			rps: goWrkScaled(23536, 11172.03, 22421), p50: nl, p99: nl, mean: 0.338, max: 113.279, connections: 4,
			labels: map[string]string{"reported_rps": "11172.03", "error.received status code 500": "1115"}},
		{file: d + "gowrk_head_c4_d2_some_timeouts.txt", format: "go-wrk", requests: 84, ok2xx: 66, non2xx: 0, errors: 18,
			rps: goWrkScaled(84, 31.50, 66), p50: nl, p99: nl, mean: 97.443, max: 101.911, connections: 4,
			labels: map[string]string{"row_50%_ms": "0", "row_99%_ms": "95.339"}},
		// "Error: No statistics collected": every request failed.
		{file: d + "gowrk_head_c2_d1_refused.txt", format: "go-wrk", requests: 4209, ok2xx: 0, non2xx: 0, errors: 4209,
			rps: nl, p50: nl, p99: nl, mean: nl, max: nl, connections: 2,
			labels: map[string]string{"error.connection refused": "4209"}},
		{file: d + "gowrk_head_c4_d2_timeouts.txt", format: "go-wrk", requests: 76, ok2xx: 0, non2xx: 0, errors: 76,
			rps: nl, p50: nl, p99: nl, mean: nl, max: nl, connections: 4},
		// Before 2024: no overall rate, no Error Counts, a line of its own
		// for each failed request before the report.
		{file: d + "gowrk_2023_c8_d2_ping.txt", format: "go-wrk", requests: 26085, ok2xx: 26085, non2xx: 0, errors: 0,
			rps: 13276.97, p50: nl, p99: nl, mean: 0.602547, max: 30.269156, connections: 8},
		{file: d + "gowrk_2023_c2_d1_err1pct.txt", format: "go-wrk", requests: 8148 + 89, ok2xx: 8148, non2xx: nullWant, errors: nullWant,
			rps: nl, p50: nl, p99: nl, mean: 0.240416, max: 105.836414, connections: 2, startLine: 1,
			labels: map[string]string{"errors_and_non_2xx": "89", "reported_rps_over_thread_time": "8318.91", "reported_bytes_read": "847390.72"}},
		{file: d + "gowrk_2023_c4_d2_timeouts.txt", format: "go-wrk", requests: 72, ok2xx: 4, non2xx: nullWant, errors: nullWant,
			rps: nl, p50: nl, p99: nl, mean: 247.870619, max: 248.113774, connections: 4,
			labels: map[string]string{"reported_bytes_read": "424"}},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// goWrkScaled is the Overall rate x of a answers scaled to n requests,
// computed at run time as the reader does.
func goWrkScaled(n, x, a float64) float64 { return n * x / a }

// A time cut inside its unit is left NULL with a warning naming its line.
func TestGoWrkCutTime(t *testing.T) {
	doc := readTestdata(t, "testdata/gowrk/gowrk_head_c8_d2_ping.txt")
	c, err := readAsFormat(t, "go-wrk", "f.txt", strings.Replace(doc, "26.295ms", "26.295m", 1))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Runs[0]
	expectF(t, "latency_max_ms", r.LatencyMaxMS, nullWant)
	expectF(t, "latency_mean_ms", r.LatencyMeanMS, 0.391)
	if w := r.Labels["warning"]; w != `line 10: go-wrk Slowest Request "26.295m" has no complete unit (the line is cut short): not read` {
		t.Errorf("warning %q", w)
	}
}

// June 2024 printed Error Counts as a Go map, which cannot be split where
// a message holds a colon or a space: kept whole, errors and non_2xx NULL.
func TestGoWrkErrorCountsMap(t *testing.T) {
	doc := readTestdata(t, "testdata/wild/gowrk/readme-2024-rows-error-counts-map.txt")
	doc = strings.Replace(doc, "Number of Errors:\t0", "Number of Errors:\t3", 1)
	doc = strings.Replace(doc, "map[]", "map[received status code 500:3]", 1)
	c, err := readAsFormat(t, "go-wrk", "f.txt", doc)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Runs[0]
	expectI(t, "requests", r.Requests, 439980)
	expectI(t, "errors", r.Errors, nullWant)
	expectI(t, "non_2xx", r.Non2xx, nullWant)
	expectF(t, "rps", r.RPS, nullWant)
	expectLabels(t, r, map[string]string{"errors_and_non_2xx": "3", "error_counts": "map[received status code 500:3]"})
}

func TestGoWrkErrors(t *testing.T) {
	doc := readTestdata(t, "testdata/gowrk/gowrk_head_c4_d2_err5pct.txt")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "go-wrk", "", `f.txt:1: go-wrk report ends early: expected "Running Ns test @ <url>" and "N goroutine(s) running concurrently"`},
		{"no result", "go-wrk", headLines(doc, 2), `f.txt:3: go-wrk report from line 1 ends before its "N requests in" line`},
		{"no errors line", "go-wrk", headLines(doc, 9), `f.txt:10: go-wrk report from line 1 ends before its "Number of Errors" line`},
		{"wrk report", "go-wrk", readTestdata(t, "testdata/wrk/wrk_plain_nginx_static.txt"),
			`f.txt:2:1: go-wrk report from line 1: expected "N goroutine(s) running concurrently", found "2 threads and 32 connections"`},
		{"bad time", "go-wrk", strings.Replace(doc, "338µs", "338xs", 1),
			`f.txt:9:1: go-wrk Avg Req Time: expected a time such as 338µs or 113.279ms, found "338xs"`},
		{"counts disagree", "go-wrk", strings.Replace(doc, "500=1115", "500=1000", 1),
			"f.txt:1: go-wrk report from line 1: Error Counts add up to 1000, not Number of Errors 1115"},
		{"no statistics, no count", "go-wrk", "Running 1s test @ http://x/\n  2 goroutine(s) running concurrently\nError: No statistics collected / no requests found\n\n",
			`f.txt:5: go-wrk report from line 1: no request answered, and no "Number of Errors" line (go-wrk before 2024 prints none then)`},
	})
}

func TestGoWrkDetection(t *testing.T) { checkClaims(t, "gowrk", always("go-wrk"), "go-wrk") }

func FuzzGoWrk(f *testing.F) {
	addFuzzSeeds(f, "testdata/gowrk/*", "testdata/wrk/wrk_plain*.txt", "testdata/plow/plow132_summary*.txt")
	addWildSeeds(f, "gowrk", "notreport", "wrk")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "go-wrk") })
}
