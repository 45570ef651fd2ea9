package ingest

import (
	"path/filepath"
	"strings"
	"testing"
)

// The numbers are the documents' own (PROVENANCE.md says where each comes
// from): requests requests.total, errors errors, rps requests.total /
// duration, latencies the latency summary in ms.
func TestAutocannonWild(t *testing.T) {
	const d = "testdata/wild/autocannon/"
	for _, tc := range []loadToolCase{
		// 13 error events, 7775 2xx and 2333 5xx: 10108 completed over
		// 10.02 s; latency p50 132, p99 7969, mean 818.2, max 9521.
		{file: d + "watt-poc-2025-05-01-tcp-13-errors.json", format: "autocannon-json", requests: 10108, ok2xx: 7775, non2xx: 2333,
			errors: 13, rps: perSecond(10108, 10.02), p50: 132, p99: 7969, mean: 818.2, max: 9521, spectrum: 15,
			connections: 100, durationS: 10.02, startLine: 1,
			labels: map[string]string{"requests_sent": "11238", "timeouts": "0", "pipelining": "10", "reported_rps_mean": "1010.8",
				"reported_rps_p97_5": "1281", "reported_transfer_bytes_per_s_mean": "191692.8",
				"status_codes": `{"200":7775,"500":2333}`, "url": "http://localhost:3043/tsfastify/tcp", "percentile_method": autocannonPercentMethod}},
		{file: d + "watt-poc-2025-05-06-tcp-500s.json", format: "autocannon-json", requests: 10440, ok2xx: 8223, non2xx: 2217,
			errors: 0, rps: perSecond(10440, 10.02), p50: 181, p99: 8076, mean: 808.35, max: 8110, spectrum: 15,
			connections: 100, durationS: 10.02},
		// The text tables of autocannon's own README: latency in ms
		// (2.5% 13 ms, 50% 17 ms, 97.5% 33 ms, 99% 40 ms, Avg 18.53 ms);
		// "26k requests in 5s" is rounded and no 2xx line is printed, so
		// requests stays NULL and rps is the Req/Sec Avg (rps_basis says
		// so); every cell of the Req/Sec and Bytes/Sec rows is kept
		// (Bytes/Sec in pretty-bytes' MB of 10^6).
		{file: d + "autocannon-readme-2018-v2.4-plain-tables.txt", format: "autocannon", requests: noCount, ok2xx: noCount, non2xx: noCount,
			errors: 0, rps: 5259, p50: 17, p99: 40, mean: 18.53, max: 113.75, spectrum: 4, connections: 100, durationS: 5, startLine: 1,
			labels: map[string]string{"reported_requests": "26000", "reported_rps_mean": "5259", "reported_bytes_read": "37000000",
				"rps_basis": acRPSBasis, "reported_rps_p1": "3399", "reported_rps_p2_5": "3399", "reported_rps_p50": "5699",
				"reported_rps_p97_5": "5879", "reported_rps_stdev": "936.69", "reported_rps_min": "3399",
				"reported_transfer_bytes_per_s_mean": "7400000", "reported_transfer_bytes_per_s_p50": "8020000",
				"reported_transfer_bytes_per_s_stdev": "1320000", "reported_transfer_bytes_per_s_min": "4780000"}},
		{file: d + "autocannon-readme-2018-v3.1-box-tables.txt", format: "autocannon", requests: noCount, ok2xx: noCount, non2xx: noCount,
			errors: 0, rps: 25131.2, p50: 0, p99: 1, mean: 0.02, max: 16.45, spectrum: 4, connections: 10, durationS: 10.05, startLine: 1,
			labels: map[string]string{"reported_requests": "251000", "reported_rps_mean": "25131.2", "url": "http://localhost:3000",
				"reported_bytes_read": "27900000", "reported_rps_min": "20615", "reported_transfer_bytes_per_s_stdev": "171000"}},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// The text report's other lines: the 2xx line gives the exact count of
// completed requests, the errors line the error events; the tables of
// autocannon before 2.4 ("Stat Avg Stdev Max", "Latency (ms)").
func TestAutocannonTextLayouts(t *testing.T) {
	box := readTestdata(t, "testdata/wild/autocannon/autocannon-readme-2018-v3.1-box-tables.txt")
	withCounts := strings.Replace(box, "251k requests in", "250100 2xx responses, 900 non 2xx responses\n251k requests in", 1) +
		"12 errors (3 timeouts)\n"
	c, err := readAsFormat(t, "autocannon", "f.txt", withCounts)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Runs[0]
	expectI(t, "requests", r.Requests, 251000)
	expectI(t, "non_2xx", r.Non2xx, 900)
	expectI(t, "errors", r.Errors, 12)
	expectF(t, "rps", r.RPS, perSecond(251000, 10.05))
	if r.Labels["timeouts"] != "3" {
		t.Errorf("timeouts %q", r.Labels["timeouts"])
	}
	old := "Running 10s test @ http://localhost:3000\n100 connections with 10 pipelining factor\n\n" +
		"Stat         Avg     Stdev   Max\nLatency (ms) 0.14    0.68    27\nReq/Sec      46080   1846.78 48319\nBytes/Sec    5.17 MB 208 kB  5.42 MB\n\n" +
		"461k requests in 10s, 51.7 MB read\n1k errors (0 timeouts)\n"
	c, err = readAsFormat(t, "autocannon", "f.txt", old)
	if err != nil {
		t.Fatal(err)
	}
	r = c.Runs[0]
	expectF(t, "latency_mean_ms", r.LatencyMeanMS, 0.14)
	expectF(t, "latency_max_ms", r.LatencyMaxMS, 27)
	expectI(t, "errors", r.Errors, noCount) // "1k": rounded
	if r.Labels["pipelining"] != "10" || r.Labels["reported_errors"] != "1000" {
		t.Errorf("labels %v", r.Labels)
	}
}

func TestAutocannonTextErrors(t *testing.T) {
	box := readTestdata(t, "testdata/wild/autocannon/autocannon-readme-2018-v3.1-box-tables.txt")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "autocannon", "", `f.txt:1: autocannon report ends early: expected "Running …s test @ …" or the Latency table`},
		{"cut", "autocannon", headLines(box, 12), `f.txt:13: autocannon report from line 1 ends before its "N requests in Ns, … read" line`},
		{"unit cut", "autocannon", strings.Replace(box, "16.45 ms", "16.45 m ", 1),
			`f.txt:7:1: autocannon Latency table: Max: expected "N ms", found "16.45 m"`},
		{"two reports, the first cut", "autocannon", headLines(box, 8) + box,
			`f.txt:9:1: autocannon report from line 1 ends early: expected its "requests in" line, found the start of another report`},
	})
}

func TestAutocannonErrors(t *testing.T) {
	js := readTestdata(t, "testdata/wild/autocannon/watt-poc-2025-05-01-tcp-13-errors.json")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "autocannon-json", "", "f.txt:1:1: truncated autocannon JSON: the document ends before it closes"},
		{"cut", "autocannon-json", js[:400], "f.txt:21:4: truncated autocannon JSON: the document ends before it closes"},
		{"two documents", "autocannon-json", js + js, "f.txt:100:1: a second JSON document follows: a file holds one report"},
		{"no total", "autocannon-json", `{"duration": 1, "errors": 0, "requests": {}}`, "f.txt:1: autocannon JSON: missing requests.total"},
		{"counts disagree", "autocannon-json", strings.Replace(js, `"2xx": 7775`, `"2xx": 7774`, 1),
			"f.txt:1: autocannon JSON: 2xx 7774 and non2xx 2333 do not add up to requests.total 10108"},
		{"negative latency", "autocannon-json", strings.Replace(js, `"p50": 132`, `"p50": -132`, 1),
			"f.txt:1: autocannon JSON: latency.p50 is -132: a latency is >= 0"},
		{"oha JSON", "autocannon-json", readTestdata(t, "testdata/wild/oha/v1.16-compact.json"), "f.txt:1: autocannon JSON: missing requests.total"},
	})
}

// autocannon's JSON is its own, and no other tool's file is taken for it.
func TestAutocannonDetection(t *testing.T) {
	want := func(p string) string {
		if strings.HasSuffix(p, ".json") {
			return "autocannon-json"
		}
		return "autocannon"
	}
	checkClaims(t, "autocannon", want, "autocannon-json", "autocannon")
}

func FuzzAutocannon(f *testing.F) {
	addWildSeeds(f, "autocannon", "oha", "jmeter", "notreport")
	addFuzzSeeds(f, "testdata/bombardier/*.json", "testdata/vegeta/*.json")
	addFuzzSeeds(f, "testdata/wrk/*.txt")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "autocannon-json", "autocannon") })
}

// autocannon v9.0.0 against a refused port (testdata/autocannon/
// SOURCES.md): every request errored. The text prints 0 ms throughout
// its Latency row and a Req/Sec average of 0 (no second saw a
// response): no answer, so no latency, and 0 completed requests; its
// "21k requests" (sent) and "21k errors" are rounded. The JSON counts
// 0 completed requests and 19976 error events.
func TestAutocannonRefused(t *testing.T) {
	const d = "testdata/autocannon/"
	for _, tc := range []loadToolCase{
		{file: d + "autocannon_refused_port_c4_d2.txt", format: "autocannon", requests: 0, ok2xx: 0, non2xx: 0, errors: noCount,
			rps: 0, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, spectrum: 0, connections: 4, durationS: 2.01, startLine: 1,
			labels: map[string]string{"reported_requests": "21000", "reported_errors": "21000", "raw.latency_mean_ms": "0"}},
		{file: d + "autocannon_refused_port_c4_d2.json", format: "autocannon-json", requests: 0, ok2xx: 0, non2xx: 0, errors: 19976,
			rps: 0, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, spectrum: 0, connections: 4, durationS: 2.01, startLine: 1,
			labels: map[string]string{"requests_sent": "19980"}},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}
