package ingest

import (
	"path/filepath"
	"strings"
	"testing"
)

// The numbers are the captures' own (testdata/cassowary/SOURCES.md): Total
// Req, Failed Req as non_2xx, Req/s; no latency of the whole request.
func TestCassowaryCaptures(t *testing.T) {
	const d = "testdata/cassowary/"
	nl := nullWant
	for _, tc := range []loadToolCase{
		// 0.10: the bar drawn with | and █ on lines of its own, the wall
		// time after the last one.
		{file: d + "cassowary0100_d2_n400_c4_wait5.txt", format: "cassowary", requests: 400, ok2xx: 400, non2xx: 0, errors: 0,
			rps: 190.90, p50: nl, p99: nl, mean: nl, max: nl, connections: 4, startLine: 2,
			labels: map[string]string{"server_processing_mean_ms": "14.98", "server_processing_median_ms": "5.00", "server_processing_p95_ms": "61.00",
				"content_transfer_p95_ms": "7.00", "requested_requests": "400"}},
		{file: d + "cassowary0100_n1000_c8_err5pct.txt", format: "cassowary", requests: 1000, ok2xx: 947, non2xx: 53, errors: 0,
			rps: 8205.49, p50: nl, p99: nl, mean: nl, max: nl, connections: 8},
		{file: d + "cassowary0140_n1000_c8_err5pct.txt", format: "cassowary", requests: 1000, ok2xx: 963, non2xx: 37, errors: 0,
			rps: 1804.39, p50: nl, p99: nl, mean: nl, max: nl, connections: 8,
			labels: map[string]string{"server_processing_mean_ms": "1.57", "content_transfer_mean_ms": "2.17"}},
		// 0.17: the bar drawn with colour codes and carriage returns on
		// one line.
		{file: d + "cassowary0170_n2000_c4_ping.txt", format: "cassowary", requests: 2000, ok2xx: 2000, non2xx: 0, errors: 0,
			rps: 8315.90, p50: nl, p99: nl, mean: nl, max: nl, connections: 4,
			labels: map[string]string{"tcp_connect_mean_ms": "3.50", "tcp_connect_p95_ms": "7.00", "dns_median_ms": "0.00"}},
		{file: d + "cassowary0170_json_n1000_c4_err5pct.txt", format: "cassowary", requests: 1000, ok2xx: 959, non2xx: 41, errors: 0,
			rps: 825.09, p50: nl, p99: nl, mean: nl, max: nl, connections: 4},
		// -F: the same run's JSON, the means to three decimals.
		{file: d + "cassowary0170_json_n1000_c4_err5pct.json", format: "cassowary-json", requests: 1000, ok2xx: 959, non2xx: 41, errors: 0,
			rps: 825.09, p50: nl, p99: nl, mean: nl, max: nl, startLine: 1,
			labels: map[string]string{"server_processing_mean_ms": "1.395", "content_transfer_p95_ms": "4", "url": "http://127.0.0.1:18530/err?p=0.05"}},
		{file: d + "cassowary0100_json_n1000_c4_err5pct.json", format: "cassowary-json", requests: 1000, ok2xx: 940, non2xx: 60, errors: 0,
			rps: 8610.53, p50: nl, p99: nl, mean: nl, max: nl},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			checkLoadToolCase(t, tc)
		})
	}
}

// A time cut inside its unit is left out with a warning naming its line;
// the run always says it has no latency.
func TestCassowaryWarnings(t *testing.T) {
	doc := readTestdata(t, "testdata/cassowary/cassowary0140_n1000_c8_err5pct.txt")
	c, err := readAsFormat(t, "cassowary", "f.txt", strings.Replace(doc, "Avg/mean=1.57ms", "Avg/mean=1.57m", 1))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Runs[0]
	if _, ok := r.Labels["server_processing_mean_ms"]; ok {
		t.Errorf("a cut time kept: %v", r.Labels)
	}
	want := `line 8: cassowary Server Processing "1.57m" has no complete unit (the line is cut short): not read; ` + cassowaryNoLatency
	if got := r.Labels["warning"]; got != want {
		t.Errorf("warning\n got %q\nwant %q", got, want)
	}
}

func TestCassowaryErrors(t *testing.T) {
	doc := readTestdata(t, "testdata/cassowary/cassowary0170_n2000_c4_ping.txt")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "cassowary", "", `f.txt:1: cassowary report ends early: expected "Starting Load Test with N requests using C concurrent users" or "TCP Connect.....: Avg/mean=…"`},
		{"no total", "cassowary", headLines(doc, 8), `f.txt:9: cassowary report from line 2 ends before its "Total Req" line`},
		{"bad total", "cassowary", strings.Replace(doc, ": 2000\n", ": many\n", 1),
			`f.txt:12:1: cassowary Total Req: expected a count, found "many"`},
		{"bad rate", "cassowary", strings.Replace(doc, "8315.90", "fast", 1), `f.txt:15:1: cassowary Req/s: expected a rate, found "fast"`},
		{"json no total", "cassowary-json", `{"base_url":"x","failed_requests":0,"requests_per_second":1}`,
			"f.txt:1: cassowary JSON: expected total_requests >= 0 and requests_per_second"},
	})
}

func TestCassowaryDetection(t *testing.T) {
	checkClaims(t, "cassowary", func(p string) string {
		if strings.HasSuffix(p, ".json") {
			return "cassowary-json"
		}
		return "cassowary"
	}, "cassowary", "cassowary-json")
}

func FuzzCassowary(f *testing.F) {
	addFuzzSeeds(f, "testdata/cassowary/*", "testdata/plow/plow132_summary*.txt", "testdata/bombardier/*.json")
	addWildSeeds(f, "cassowary", "notreport")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "cassowary", "cassowary-json") })
}
