package ingest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

// sampleCounter counts the samples a reader stores, by metric.
type sampleCounter struct {
	model.Collector
	metrics map[string]int
	points  []model.Sample
}

func (c *sampleCounter) Sample(run int, s *model.Sample) error {
	if c.metrics == nil {
		c.metrics = map[string]int{}
	}
	c.metrics[s.Metric]++
	c.points = append(c.points, *s)
	return nil
}

// The Artillery JSON reports (PROVENANCE.md), with the numbers they hold.
func TestArtilleryJSON(t *testing.T) {
	const d = "testdata/wild/artillery/"
	for _, tc := range []loadToolCase{
		// 1.x: 1920 requests sent (rps.count), 1914 answered with 200,
		// 6 ESOCKETTIMEDOUT; no mean printed.
		{file: d + "cpu-bound-2021-v1.6-report12-socket-timeouts.json", format: "artillery-json",
			requests: 1920, ok2xx: 1914, non2xx: 0, errors: 6, rps: 8.21, p50: 64928.4, p99: 118186.6, mean: nullWant, max: 119932.4,
			spectrum: 3, startLine: 1, connections: nullWant, durationS: nullWant,
			labels: map[string]string{"error.ESOCKETTIMEDOUT": "6", "requests_completed": "1914", "scenarios_created": "1920", "latency_min_ms": "2506"}, samples: 120},
		{file: d + "fyp-server-2018-v1-output-null-p95.json", format: "artillery-json",
			requests: 60, ok2xx: 60, non2xx: 0, errors: 0, rps: 1.01, p50: 106.2, p99: 363.3, mean: nullWant, max: 363.3,
			spectrum: 3, startLine: 1, connections: nullWant, durationS: nullWant, samples: 26},
		// 2.x: http.requests 970241 over lastCounterAt - firstCounterAt
		// = 763.355 s; http.request_rate 1265 kept as reported_rps.
		{file: d + "task-manager-2025-v2-etimedout.json.gz", format: "artillery-json",
			requests: 970241, ok2xx: 32367, non2xx: 0, errors: 938125, rps: perSecond(970241, 763.355), p50: 8.9, p99: 9999.2, mean: 2398.8, max: 10088,
			spectrum: 6, startLine: 1, connections: nullWant, durationS: 763.355,
			labels: map[string]string{"error.ETIMEDOUT": "937970", "error.ECONNRESET": "134", "error.EADDRNOTAVAIL": "21", "reported_rps": "1265",
				"http_responses": "32367", "vusers_failed": "938125", "artillery_layout": "2.x"}, samples: 280},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// Each intermediate period is stored as samples at its time; a period's
// null p95 is left out, not stored as 0.
func TestArtilleryPeriods(t *testing.T) {
	for _, tc := range []struct {
		file    string
		metrics map[string]int
		first   string
	}{
		{"fyp-server-2018-v1-output-null-p95.json",
			map[string]int{"http_reqs": 7, "errors": 7, "http_req_duration_p50": 7, "http_req_duration_p95": 5, "http_req_duration_p99": 0},
			"2018-03-12T15:39:49.223Z http_reqs 9"},
		{"task-manager-2025-v2-etimedout.json.gz",
			map[string]int{"http_reqs": 77, "errors": 77, "http_req_duration_p50": 42, "http_req_duration_p95": 42, "http_req_duration_p99": 42},
			""},
	} {
		c := &sampleCounter{}
		if _, err := ReadFile("testdata/wild/artillery/"+tc.file, c); err != nil {
			t.Fatal(err)
		}
		for m, n := range tc.metrics {
			if c.metrics[m] != n {
				t.Errorf("%s: %d %s samples, want %d (all: %v)", tc.file, c.metrics[m], m, n, c.metrics)
			}
		}
		if tc.first != "" {
			p := c.points[0]
			if got := p.TS.Format("2006-01-02T15:04:05.000Z") + " " + p.Metric + " " + fmtLabelNum(p.Value); got != tc.first {
				t.Errorf("%s: first sample %s, want %s", tc.file, got, tc.first)
			}
		}
	}
}

func TestArtilleryErrors(t *testing.T) {
	v1 := readTestdata(t, "testdata/wild/artillery/cpu-bound-2021-v1.6-report.json")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "artillery-json", "", "f.txt:1:1: truncated Artillery JSON report: the document ends before it closes"},
		{"cut", "artillery-json", v1[:400], "f.txt:21:2: truncated Artillery JSON report: the document ends before it closes"},
		{"no aggregate", "artillery-json", `{"intermediate": []}`, "f.txt:1: Artillery JSON report: no aggregate"},
		{"1.x without rps", "artillery-json", `{"aggregate": {"scenariosCreated": 1, "latency": {"min": 1}}}`,
			"f.txt:1: Artillery JSON report: aggregate: no rps.count (the requests sent)"},
		{"2.x without requests", "artillery-json", `{"aggregate": {"counters": {"http.responses": 1}, "summaries": {}}}`,
			`f.txt:1: Artillery JSON report: aggregate: counters has no "http.requests"`},
		{"negative error count", "artillery-json", strings.Replace(v1, `"errors": {},`, `"errors": {"ETIMEDOUT": -2},`, 1),
			"f.txt:1: Artillery JSON report: aggregate: a negative count -2 of error ETIMEDOUT"},
		{"bad period time", "artillery-json", strings.Replace(v1, `"timestamp": "2021-05-07T15:59:33.510Z"`, `"timestamp": "yesterday"`, 1),
			`f.txt:1: Artillery JSON report: intermediate[0]: timestamp "yesterday" is not an RFC 3339 time`},
	})
}

// The console summaries (PROVENANCE.md): the numbers as printed; 1.x's
// requests are Requests completed plus the Errors counts.
func TestArtilleryText(t *testing.T) {
	const d = "testdata/wild/artillery/"
	for _, tc := range []loadToolCase{
		// 452 completed + 548 ESOCKETTIMEDOUT.
		{file: d + "coen241-2020-v1-four-tests-socket-timeouts-502.md", format: "artillery", runs: 3, run: 1,
			requests: 1000, ok2xx: 452, non2xx: 0, errors: 548, rps: 7.66, p50: 37959.1, p99: 116222.5, mean: nullWant, max: 119551.3,
			spectrum: 3, startLine: 372, connections: nullWant, durationS: nullWant,
			labels: map[string]string{"requests_completed": "452", "error.ESOCKETTIMEDOUT": "548", "scenarios_launched": "1000", "artillery_layout": "1.x"}},
		{file: d + "coen241-2020-v1-four-tests-socket-timeouts-502.md", format: "artillery", runs: 3, run: 2,
			requests: 1500, ok2xx: 396, non2xx: 683, errors: 421, rps: 11.5, p50: 36191.8, p99: 111388, mean: nullWant, max: 112796.2,
			spectrum: 3, startLine: 623, connections: nullWant, durationS: nullWant},
		// Before 1.6: "RPS sent", "Request latency".
		{file: d + "hisstori-api-2020-v1-rps-sent-periods-then-summary.md", format: "artillery",
			requests: 2400, ok2xx: 1200, non2xx: 1200, errors: 0, rps: 39.39, p50: 101.4, p99: 875.7, mean: nullWant, max: 1785.4,
			spectrum: 3, startLine: 117, connections: nullWant, durationS: nullWant},
		// 2.x: the Metrics for period block above it is read over.
		{file: d + "testkube-docs-2022-v2-period-then-summary.txt", format: "artillery",
			requests: 6469, ok2xx: 6469, non2xx: 0, errors: 0, rps: 36, p50: 1, p99: 4, mean: nullWant, max: 17,
			spectrum: 3, startLine: 38, connections: nullWant, durationS: nullWant,
			labels: map[string]string{"http_responses": "6469", "vusers_failed": "0", "artillery_layout": "2.x"}},
	} {
		t.Run(filepath.Base(tc.file)+"#"+string(rune('0'+tc.run)), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

func TestArtilleryTextErrors(t *testing.T) {
	v1 := readTestdata(t, "testdata/wild/artillery/hisstori-api-2020-v1-rps-sent-periods-then-summary.md")
	v2 := readTestdata(t, "testdata/wild/artillery/testkube-docs-2022-v2-period-then-summary.txt")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "artillery", "", `f.txt:1: artillery report ends early: expected "Summary report @ …"`},
		{"periods only", "artillery", headLines(v2, 34),
			`f.txt:1:1: no artillery report: expected "Summary report @ …", found "Phase started: Warm up (index: 0, duration: 6s) 08:21:22(+00…"`},
		{"cut before requests", "artillery", headLines(v2, 42),
			`f.txt:43: Artillery summary from line 38 ends before its "http.requests:" line`},
		{"a unit in a count", "artillery", strings.Replace(v2, "........ 6469\nhttp.request_rate", "........ 6.5k\nhttp.request_rate", 1),
			`f.txt:41:82: Artillery http.codes.200: expected a count, found "6.5k"`},
		{"1.x bad latency", "artillery", strings.Replace(v1, "    median: 101.4", "    median: 101.4ms", 1),
			`f.txt:125:13: Artillery median: expected a number >= 0, found "101.4ms"`},
	})
}

func TestArtilleryDetection(t *testing.T) {
	want := func(p string) string {
		if strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".gz") {
			return "artillery-json"
		}
		return "artillery"
	}
	checkClaims(t, "artillery", want, "artillery-json", "artillery")
}

func FuzzArtilleryText(f *testing.F) {
	addWildSeeds(f, "artillery", "gatling", "notreport")
	addFuzzSeeds(f, "testdata/wrk/wrk_plain*.txt")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "artillery") })
}

func FuzzArtilleryJSON(f *testing.F) {
	addWildSeeds(f, "artillery", "autocannon", "notreport")
	addFuzzSeeds(f, "testdata/k6/*.json", "testdata/bombardier/*.json")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "artillery-json") })
}
