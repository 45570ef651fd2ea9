package ingest

import (
	"path/filepath"
	"strings"
	"testing"
)

// The numbers are the reports' own (PROVENANCE.md says where each comes
// from): requests succeeded + failed, errors errored, the times in ms.
func TestH2loadWild(t *testing.T) {
	const d = "testdata/wild/h2load/"
	for _, tc := range []loadToolCase{
		// "finished in 38.44ms, 2601.59 req/s", 100 succeeded, request
		// time mean 8.74ms, max 13.72ms, traffic (203690) bytes.
		{file: d + "h2load-benchmarks-2023-tls13-h2-progress.txt", format: "h2load", requests: 100, ok2xx: 100, non2xx: 0, errors: 0,
			rps: 2601.59, p50: nullWant, p99: nullWant, mean: 8.74, max: 13.72, durationS: 0.03844, startLine: 20, connections: nullWant,
			labels: map[string]string{"latency_min_ms": "1.7", "connect_mean_ms": "7.5", "ttfb_mean_ms": "30.03", "client_rps_mean": "329.72",
				"client_rps_min": "280.64", "client_rps_max": "390.65", "client_rps_stdev": "51.35", "client_rps_within_stdev_pct": "70",
				"reported_transfer_bytes_per_s": "5295308.8", // 5.05MB/s, MB of 1048576
				"timeout":                       "0", "requests_done": "100"}},
		// 2014: the time in parts; the rate "2591 req/s" was total / time
		// truncated to an integer, so rps is recomputed.
		{file: d + "nghttp2-howto-2014-sec-millisec-microsec.txt", format: "h2load", requests: 1000, ok2xx: 1000, non2xx: 0, errors: 0,
			rps: perSecond(1000, 0.385851), p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, durationS: 0.385851, startLine: 1,
			connections: nullWant, labels: map[string]string{"reported_rps": "2591", "reported_transfer_bytes_per_s": "1729536"}}, // 1689 kbytes/s
		{file: d + "nghttp2-howto-2015-indented-table.txt", format: "h2load", requests: 1000000, ok2xx: 1000000, non2xx: 0, errors: 0,
			rps: 141164.80, p50: nullWant, p99: nullWant, mean: 69.78, max: 146.85, durationS: 7.08, startLine: 1, connections: nullWant,
			labels: map[string]string{"client_rps_mean": "1426.52", "reported_transfer_bytes_per_s": "582305710.08"}}, // 555.33MB/s
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// Failed and errored requests, and a run stopped before its table.
func TestH2loadLayouts(t *testing.T) {
	doc := readTestdata(t, "testdata/wild/h2load/nghttp2-howto-2015-indented-table.txt")
	failed := strings.Replace(doc, "1000000 done, 1000000 succeeded, 0 failed, 0 errored, 0 timeout",
		"999000 done, 998000 succeeded, 2000 failed, 1500 errored, 3 timeout", 1)
	failed = strings.Replace(failed, "1000000 2xx, 0 3xx, 0 4xx, 0 5xx", "998000 2xx, 0 3xx, 0 4xx, 500 5xx", 1)
	c, err := readAsFormat(t, "h2load", "f.txt", failed+"\n"+headLines(doc, 4))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 2 {
		t.Fatalf("%d runs, want 2", len(c.Runs))
	}
	r := c.Runs[0]
	expectI(t, "requests", r.Requests, 1000000)
	expectI(t, "errors", r.Errors, 1500)
	expectI(t, "non_2xx", r.Non2xx, 500)
	expectF(t, "rps", r.RPS, perSecond(1000000, 7.08)) // h2load's rate counts the answered ones
	if r.Labels["reported_rps"] != "141164.80" || r.Labels["timeout"] != "3" {
		t.Errorf("labels %v", r.Labels)
	}
	expectF(t, "latency_mean_ms", c.Runs[1].LatencyMeanMS, nullWant)
	expectI(t, "round", c.Runs[1].Round, 2)
}

func TestH2loadErrors(t *testing.T) {
	doc := readTestdata(t, "testdata/wild/h2load/nghttp2-howto-2015-indented-table.txt")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "h2load", "", `f.txt:1: h2load report ends early: expected "finished in …, N req/s, …"`},
		{"no counts", "h2load", headLines(doc, 1), `f.txt:2: h2load report from line 1 ends before its "requests:" line`},
		{"counts cut", "h2load", strings.Replace(doc, ", 0 errored, 0 timeout", ", 0 err", 1),
			`f.txt:2:1: h2load report from line 1: expected "requests: N total, N started, N done, N succeeded, N failed, N errored", found "requests: 1000000 total, 1000000 started, 1000000 done, 1000…"`},
		{"unit cut", "h2load", strings.Replace(doc, "69.78ms", "69.78m", 1),
			`f.txt:6:1: h2load time for request: expected a time in us, ms or s, found "69.78m"`},
		{"duration unit cut", "h2load", strings.Replace(doc, "finished in 7.08s,", "finished in 7.08m,", 1),
			`f.txt:1:13: h2load finished in: expected a time in us, ms or s, found "7.08m"`},
	})
}

func TestH2loadDetection(t *testing.T) { checkClaims(t, "h2load", always("h2load"), "h2load") }

func FuzzH2load(f *testing.F) {
	addWildSeeds(f, "h2load", "siege", "notreport", "wrk")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "h2load") })
}
