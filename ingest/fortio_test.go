package ingest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

// fortio 1.63.0's own captures (testdata/fortio/SOURCES.md), each run's
// JSON and text report of the same calls: the numbers are the files'
// own, requests every call (DurationHistogram.Count, "Ended after … : N
// calls"), rps N over ActualDuration, the status columns from RetCodes
// (-1: no answer), the latency of DurationHistogram in ms.
func TestFortioCaptures(t *testing.T) {
	const d = "testdata/fortio/"
	for _, tc := range []loadToolCase{
		// -qps 200 -c 4 -t 3s: 600 calls over 3000965700 ns, Avg
		// 0.00033174586 s, p50 0.0005221095587248322, p99 0.0009951728238255034.
		{file: d + "fortio_qps200_c4_t3s.json", format: "fortio-json", requests: 600, ok2xx: 600, non2xx: 0, errors: 0,
			rps: perSecond(600, 3.0009657), p50: 0.5221095587248322, p99: 0.9951728238255034, mean: 0.33174585999999984, max: 4.949166,
			spectrum: 5, connections: 4, durationS: 3.0009657, startLine: 1,
			labels: map[string]string{"requested_qps": "200", "requested_duration": "3s", "reported_rps": "199.9356407172531",
				"error_cases": "0", "sockets_used": "4", "percentile_method": fortioPercentMethod}},
		{file: d + "fortio_qps200_c4_t3s.txt", format: "fortio", requests: 600, ok2xx: 600, non2xx: 0, errors: 0,
			rps: perSecond(600, 3.0009657), p50: 0.52211, p99: 0.995173, mean: 0.33174586, max: 4.949166,
			spectrum: 5, connections: 4, durationS: 3.0009657, startLine: 2,
			labels: map[string]string{"requested_qps": "200", "reported_rps": "199.94", "url": "http://127.0.0.1:18080/echo",
				"warmup_calls": "4", "latency_min_ms": "0.041001"}},
		// 20% of 503: Code 200 : 239, Code 503 : 61; fortio's "Error
		// cases" are the 61 non-200 answers, not requests without one.
		{file: d + "fortio_qps100_c2_503_20pct.json", format: "fortio-json", requests: 300, ok2xx: 239, non2xx: 61, errors: 0,
			rps: perSecond(300, 3.000886176), p50: 0.6430655767634853, p99: 16, mean: 1.3970225699999994, max: 62.579582,
			spectrum: 5, connections: 2, durationS: 3.000886176,
			labels: map[string]string{"status_codes": `{"200":239,"503":61}`, "error_cases": "61"}},
		{file: d + "fortio_qps100_c2_503_20pct.txt", format: "fortio", requests: 300, ok2xx: 239, non2xx: 61, errors: 0,
			rps: perSecond(300, 3.000886176), p50: 0.643066, p99: 16, mean: 1.3970226, max: 62.579582, spectrum: 5, connections: 2,
			labels: map[string]string{"status_codes": `{"200":239,"503":61}`}},
		// -qps 0 (full speed, "max"): no target rate.
		{file: d + "fortio_max_c8_n4000.json", format: "fortio-json", requests: 4000, ok2xx: 4000, non2xx: 0, errors: 0,
			rps: perSecond(4000, 0.128280216), p50: 0.5184558774160732, p99: 1.7714285714285682, mean: 0.24832356025, max: 20.898797,
			spectrum: 5, connections: 8, durationS: 0.128280216,
			labels: map[string]string{"requested_qps": "max", "requested_duration": "exactly 4000 calls"}},
		{file: d + "fortio_max_c8_n4000.txt", format: "fortio", requests: 4000, ok2xx: 4000, non2xx: 0, errors: 0,
			rps: perSecond(4000, 0.128280216), p50: 0.518456, p99: 1.77143, mean: 0.24832356, max: 20.898797, spectrum: 5, connections: 8,
			labels: map[string]string{"requested_qps": "max"}},
		// A refused port with -allow-initial-errors: Code -1 : 100, no
		// answer, so the times fortio measured (to the refusal) are no
		// latency.
		{file: d + "fortio_refused_port.json", format: "fortio-json", requests: 100, ok2xx: 0, non2xx: 0, errors: 100,
			rps: perSecond(100, 2.000908089), p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, spectrum: 0, connections: 2,
			labels: map[string]string{"status_codes": `{"-1":100}`, "raw.latency_mean_ms": "0.5635593000000001"}},
		{file: d + "fortio_refused_port.txt", format: "fortio", requests: 100, ok2xx: 0, non2xx: 0, errors: 100,
			rps: perSecond(100, 2.000908089), p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, spectrum: 0, connections: 2},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			checkLoadToolCase(t, tc)
			c := readCase(t, tc.file)
			if r := c.Runs[0]; r.ToolVersion != "1.63.0" || !r.TargetRPS.Valid && r.Labels["requested_qps"] != "max" {
				t.Errorf("version %q, target_rps %v", r.ToolVersion, r.TargetRPS)
			}
		})
	}
}

// The outputs of other versions (testdata/wild/PROVENANCE.md): fortio's
// README of 2018 (1.2.0 text, 0.9.0 gRPC JSON) and 2022 (1.22 JSON of
// the REST API), 1.38's -quiet report in a write-up (no Ended after:
// rps is All done's qps, label rps_basis), and 21 excerpts of 2021 that
// keep only the targets, codes, sizes and All done.
func TestFortioWild(t *testing.T) {
	const d = "testdata/wild/fortio/"
	n := int64(nullWant)
	for _, tc := range []loadToolCase{
		{file: d + "fortio-readme-2018-v1.2.0-load-google.txt", format: "fortio", requests: 40, ok2xx: 40, non2xx: 0, errors: 0,
			rps: perSecond(40, 5.059691387), p50: 60.5556, p99: 85.936, mean: 60.587641, max: 89.893269, spectrum: 4, connections: 4,
			durationS: 5.059691387, startLine: 2,
			labels: map[string]string{"reported_rps": "7.9056", "warmup_calls": "4", "url": "http://www.google.com"}},
		// gRPC: RetCodes {"1": 40} are health statuses (1 is SERVING),
		// no HTTP statuses: the status columns stay NULL.
		{file: d + "fortio-readme-2018-v0.9.0-grpc-ping.json", format: "fortio-json", requests: 40, ok2xx: n, non2xx: n, errors: n,
			rps: perSecond(40, 5.28514474), p50: 277.2881634102564, p99: 280.53863092820513, mean: 277.319444925, max: 280.604967,
			spectrum: 5, connections: 8, durationS: 5.28514474,
			labels: map[string]string{"status_codes": `{"1":40}`, "run_type": "GRPC Ping Delay=250ms PayloadLength=11", "url": "https://fortio-stage.istio.io"}},
		{file: d + "fortio-readme-2022-rest-run-result.json", format: "fortio-json", requests: 4, ok2xx: 4, non2xx: 0, errors: 0,
			rps: perSecond(4, 0.104035637), p50: 0.4920823333333334, p99: 0.9216405066666667, mean: 0.58301175, max: 0.930407,
			spectrum: 5, connections: 2, durationS: 0.104035637,
			labels: map[string]string{"requested_qps": "40", "sockets_used": "2"}},
		{file: d + "fsm-start-demo-2022-v1.38-quiet-511-20pct.txt", format: "fortio", requests: 1000, ok2xx: 793, non2xx: 207, errors: 0,
			rps: 199.8, p50: nullWant, p99: nullWant, mean: 4.5255084, max: 28.708983, spectrum: 1, connections: nullWant, startLine: 1,
			labels: map[string]string{"rps_basis": "fortio's All done qps, to one decimal: the report prints no Ended after line", "error_cases": "207"}},
		// Ended after 1m40.026212379s : 100 calls; the sum of the sizes
		// 1.09277782e+09 is rounded: no bytes_read.
		{file: d + "dsa-config-2021-excerpts-of-twenty-runs.md", format: "fortio", runs: 21, run: 3, requests: 100, ok2xx: 100, non2xx: 0, errors: 0,
			rps: perSecond(100, 100.026212379), p50: nullWant, p99: nullWant, mean: 40.16697, max: 79.055158, durationS: 100.026212379, startLine: 22,
			connections: nullWant, labels: map[string]string{"reported_bytes_read": "1092777820", "reported_rps": "0.99974"}},
		// An excerpt from its targets: p50 0.00964399 s, p99 0.199765;
		// Code -1 : 109 got no answer.
		{file: d + "dsa-config-2021-excerpts-of-twenty-runs.md", format: "fortio", runs: 21, run: 17, requests: 1875760, ok2xx: 1875651, non2xx: 0,
			errors: 109, rps: 20171.7, p50: 9.64399, p99: 199.765, mean: 48.574, max: nullWant, spectrum: 5, startLine: 206, connections: nullWant},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

func TestFortioErrors(t *testing.T) {
	txt := readTestdata(t, "testdata/fortio/fortio_qps200_c4_t3s.txt")
	js := readTestdata(t, "testdata/fortio/fortio_qps200_c4_t3s.json")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"cut before All done", "fortio", headLines(txt, 30), `f.txt:31: fortio report from line 2 ends before its "All done N calls" line`},
		{"two reports, the first cut", "fortio", headLines(txt, 12) + txt,
			`f.txt:14:1: fortio report from line 2 ends early: expected its "All done N calls" line, found the start of another report`},
		{"a negative time", "fortio", replaceOnce(txt, "avg 0.00033174586", "avg -0.00033174586"),
			`f.txt:12:1: fortio Aggregated Function Time: expected a number >= 0, found "-0.00033174586"`},
		{"bad duration", "fortio", replaceOnce(txt, "Ended after 3.0009657s", "Ended after 3.0009657"),
			`f.txt:9:1: fortio Ended after: expected a Go duration, found "3.0009657"`},
		{"no count", "fortio-json", replaceOnce(js, `"Count": 600,`, ``), "f.txt:1: fortio JSON: missing DurationHistogram.Count"},
		{"bad code", "fortio-json", replaceOnce(js, `"200": 600`, `"ok": 600`), `f.txt:1: fortio JSON: RetCodes: expected "code": count, found "ok": 600`},
	})
}

func TestFortioDetection(t *testing.T) {
	want := func(p string) string {
		if filepath.Ext(p) == ".json" {
			return "fortio-json"
		}
		return "fortio"
	}
	checkClaims(t, "fortio", want, "fortio", "fortio-json")
}

func FuzzFortio(f *testing.F) {
	addWildSeeds(f, "fortio", "vegeta", "wrk")
	addFuzzSeeds(f, "testdata/fortio/*", "testdata/hey/hey_go2*.txt")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "fortio", "fortio-json") })
}

// readCase reads a capture through detection and the checks.
func readCase(t *testing.T, path string) *model.Collector {
	t.Helper()
	c := &model.Collector{}
	if _, err := ReadFile(path, c); err != nil {
		t.Fatal(err)
	}
	return c
}

func replaceOnce(s, old, new string) string { return strings.Replace(s, old, new, 1) }
