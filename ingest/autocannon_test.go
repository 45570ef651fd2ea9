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
				"status_codes": `{"200":7775,"500":2333}`, "url": "http://localhost:3043/tsfastify/tcp", "percentile_method": autocannonPercentMethod}},
		{file: d + "watt-poc-2025-05-06-tcp-500s.json", format: "autocannon-json", requests: 10440, ok2xx: 8223, non2xx: 2217,
			errors: 0, rps: perSecond(10440, 10.02), p50: 181, p99: 8076, mean: 808.35, max: 8110, spectrum: 15,
			connections: 100, durationS: 10.02},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
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
	checkClaims(t, "autocannon", always("autocannon-json"), "autocannon-json")
}

func FuzzAutocannon(f *testing.F) {
	addWildSeeds(f, "autocannon", "oha", "jmeter", "notreport")
	addFuzzSeeds(f, "testdata/bombardier/*.json", "testdata/vegeta/*.json")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "autocannon-json") })
}
