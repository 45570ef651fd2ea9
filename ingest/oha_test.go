package ingest

import (
	"path/filepath"
	"strings"
	"testing"
)

// The numbers below are read off each file (PROVENANCE.md says where it
// comes from): requests are the Status code distribution's counts plus the
// errors other than "aborted due to deadline", the latencies are the
// printed ones in ms.
func TestOhaWild(t *testing.T) {
	const d = "testdata/wild/oha/"
	for _, tc := range []loadToolCase{
		// oha 0.4/0.5: "Success rate:\t1.0000", "Latency distribution:",
		// "10% in"; [200] 1000000, Total 7.5241 secs, 50% in 0.0056,
		// 99% in 0.0298, Average 0.0074, Slowest 0.1579.
		{file: d + "golang-fiber-api-readme-v0.4.txt", format: "oha", requests: 1000000, ok2xx: 1000000, errors: 0,
			rps: 132905.9865, p50: 5.6, p99: 29.8, mean: 7.4, max: 157.9, spectrum: 7, durationS: 7.5241, startLine: 1,
			labels: map[string]string{"reported_success_pct": "100", "reported_bytes_read": "29003612.16", "reported_transfer_bytes_per_s": "3858759.68"}},
		// Three 0.4 reports of one README, with the command lines and
		// Markdown between them: [200] 931991, 820929, 919380.
		{file: d + "rrgeo-three-runs-v0.4.txt", format: "oha", runs: 3, run: 0, requests: 931991, ok2xx: 931991, errors: 0,
			rps: 186333.98, p50: 0.3, p99: 0.6, mean: 0.3, max: 25.9, spectrum: 7, durationS: 5.0017, startLine: 3},
		{file: d + "rrgeo-three-runs-v0.4.txt", format: "oha", runs: 3, run: 1, requests: 820929, ok2xx: 820929, errors: 0,
			rps: 164159.8709, p50: 0.1, p99: 1.2, mean: 0.3, max: 250.5, spectrum: 7, durationS: 5.0008, startLine: 50},
		{file: d + "rrgeo-three-runs-v0.4.txt", format: "oha", runs: 3, run: 2, requests: 919380, ok2xx: 919380, errors: 0,
			rps: 183796.407, p50: 0.3, p99: 0.7, mean: 0.3, max: 15.8, spectrum: 7, durationS: 5.0022, startLine: 98},
		// oha 1.x before 1.9: "10.00% in", nine percentiles to 99.99%.
		{file: d + "tosic-http-axum-bench.txt", format: "oha", requests: 20000, ok2xx: 20000, errors: 0,
			rps: 3364.7592, p50: 1.5, p99: 2.0, mean: 1.5, max: 14.8, spectrum: 9, durationS: 5.944,
			labels: map[string]string{"reported_success_pct": "100", "status_codes": `{"200":20000}`}},
		{file: d + "tosic-http-tosic-http-bench.txt", format: "oha", requests: 20000, ok2xx: 20000, errors: 0,
			rps: 4472.2547, p50: 1.1, p99: 1.7, mean: 1.1, max: 36.7, spectrum: 9, durationS: 4.472},
		// oha 1.9+: times scaled to ms or sec; eight runs of a script,
		// each followed by its own echo ("Total results", a count).
		// Run 1: Total 35.0280 ms, 50.00% in 1.6696 ms, [200] 30.
		{file: d + "kupo-preprod-eight-runs.txt", format: "oha", runs: 8, run: 0, requests: 30, ok2xx: 30, errors: 0,
			rps: 856.4587, p50: 1.6696, p99: 34.2389, mean: 5.8548, max: 34.2389, spectrum: 9, durationS: 0.035028, startLine: 2},
		// Run 3, in sec: [503] 16 and [200] 14 (oha's success rate
		// counts every answer, 503s too: 100.00%).
		{file: d + "kupo-preprod-eight-runs.txt", format: "oha", runs: 8, run: 2, requests: 30, ok2xx: 14, non2xx: 16, errors: 0,
			rps: 9.3638, p50: 636.6, p99: 1553.2, mean: 747, max: 1553.2, spectrum: 9, durationS: 3.2038, startLine: 100,
			labels: map[string]string{"status_codes": `{"200":14,"503":16}`}},
		// The last run: Total 34.4610 ms, 99.00% in 28.3141 ms.
		{file: d + "kupo-preprod-eight-runs.txt", format: "oha", runs: 8, run: 7, requests: 30, ok2xx: 30, errors: 0,
			rps: 870.5493, p50: 2.525, p99: 28.3141, mean: 4.5104, max: 28.3141, spectrum: 9, durationS: 0.034461, startLine: 348},
		// -j before 1.13, indented by four spaces: [200] 470 and 10
		// aborted at the deadline, which are not requests of the run.
		{file: d + "rust-test-4space-indent-deadline.json", format: "oha-json", requests: 470, ok2xx: 470, errors: 0,
			rps: 47.99543754890706, p50: 199.783871, p99: 568.546159, mean: 209.36399922978707, max: 569.29248, spectrum: 9,
			durationS: 10.000950601, startLine: 1,
			labels: map[string]string{"aborted_at_deadline": "10", "reported_success_pct": "100", "reported_rps_mean": "234.28330827798993", "reported_rps_p99_9": "12532.898859508246"}},
		// -j with its keys sorted by a tool, "details" first.
		{file: d + "sorted-keys-readme.json", format: "oha-json", requests: 12, ok2xx: 12, errors: 0,
			rps: 13.962799611136033, p50: 29.952542, p99: 454.240625, mean: 103.57136808333334, max: 454.240625, spectrum: 9,
			durationS: 1.00266425, labels: map[string]string{"aborted_at_deadline": "2"}},
		// oha 1.16 -j on one line, with its "metrics" block.
		{file: d + "v1.16-compact.json", format: "oha-json", requests: 21636, ok2xx: 21636, errors: 0,
			rps: 7205.726530194245, p50: 0.635, p99: 31.008791, mean: 1.3785588666112064, max: 577.411167, spectrum: 9,
			durationS: 3.003860875, labels: map[string]string{"aborted_at_deadline": "9"}},
		// Every request aborted at the deadline: no answer, no error of
		// the server, null statistics.
		{file: d + "v1.16-all-aborted.json", format: "oha-json", requests: 0, ok2xx: 0, errors: 0,
			rps: 2.4947319568528683, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, durationS: 2.004223334,
			labels: map[string]string{"aborted_at_deadline": "5"}},
	} {
		t.Run(filepath.Base(tc.file)+"#"+string(rune('0'+tc.run)), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// The same layouts with what an excerpt keeps or a run adds.
func TestOhaLayouts(t *testing.T) {
	axum := readTestdata(t, "testdata/wild/oha/tosic-http-axum-bench.txt")
	for _, tc := range []struct {
		name                 string
		content              string
		requests, ok2xx      int64
		errors, p50, rps     float64
		percentiles, runsLen int
	}{
		// Summary and distribution only: no count, the latencies stay.
		{"no counts", headLines(axum, 7) + "\nResponse time distribution:\n  50.00% in 0.0015 secs\n  99.00% in 0.0020 secs\n",
			int64(nullWant), int64(nullWant), nullWant, 1.5, 3364.7592, 2, 1},
		// Without the Status code distribution the histogram counts the
		// answers: 1+19800+132+35+8+6+5+3+2+2+6 = 20000.
		{"histogram counts", headLines(axum, 40), 20000, int64(nullWant), nullWant, 1.5, 3364.7592, 9, 1},
		// An error other than the deadline is a request with no answer.
		{"errors", axum + "\nError distribution:\n  [3] connection closed before message completed\n  [7] aborted due to deadline\n",
			20003, 20000, 3, 1.5, 3364.7592, 9, 1},
		// Two reports, the second with single spaces (a paste).
		{"two reports", axum + "\n" + strings.ReplaceAll(axum, "\t", " "), 20000, 20000, 0, 1.5, 3364.7592, 9, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := readAsFormat(t, "oha", "f.txt", tc.content)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Runs) != tc.runsLen {
				t.Fatalf("%d runs, want %d", len(c.Runs), tc.runsLen)
			}
			r := c.Runs[len(c.Runs)-1]
			expectI(t, "requests", r.Requests, tc.requests)
			expectI(t, "responses_2xx", r.Responses2xx, tc.ok2xx)
			expectI(t, "errors", r.Errors, int64(tc.errors))
			expectF(t, "latency_p50_ms", r.LatencyP50MS, tc.p50)
			expectF(t, "rps", r.RPS, tc.rps)
			if len(r.Percentiles) != tc.percentiles {
				t.Errorf("%d percentiles, want %d", len(r.Percentiles), tc.percentiles)
			}
		})
	}
}

func TestOhaErrors(t *testing.T) {
	axum := readTestdata(t, "testdata/wild/oha/tosic-http-axum-bench.txt")
	js := readTestdata(t, "testdata/wild/oha/sorted-keys-readme.json")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "oha", "", `f.txt:1: oha report ends early: expected "Summary:"`},
		{"cut in the summary", "oha", headLines(axum, 4),
			"f.txt:5: oha report from line 1 stops before its counts and its latency distribution: expected the Response time histogram, a distribution or the Status code distribution"},
		{"cut in the histogram", "oha", headLines(axum, 18),
			"f.txt:19: oha report from line 1 ends inside its Response time histogram: expected the rest of it, or the next section"},
		{"unit hey does not print", "oha", strings.Replace(axum, "0.0148 secs", "0.0148 fortnights", 1),
			`f.txt:4:12: oha Slowest: expected "N secs|ms|us|ns|sec|min|hr", found "0.0148 fortnights"`},
		{"bad percentile", "oha", strings.Replace(axum, "50.00% in 0.0015 secs", "50.00% in fast", 1),
			`f.txt:29:13: oha Response time distribution: expected "N secs|ms|us|ns|sec|min|hr", found "fast"`},
		{"bad status", "oha", strings.Replace(axum, "[200] 20000 responses", "[200] lots responses", 1),
			`f.txt:43:3: oha Status code distribution: expected "[code] N responses", found "[200] lots responses"`},
		{"histogram against statuses", "oha", strings.Replace(axum, "[200] 20000 responses", "[200] 19999 responses", 1),
			"f.txt:1: oha report: the Status code distribution counts 19999 responses, the Response time histogram 20000: a truncated report?"},
		{"hey report", "oha", readTestdata(t, "testdata/hey/hey_go2_ping_n5000_c20.txt"),
			`f.txt:38:3: oha Details: expected one of DNS+dialup, DNS-lookup, found "req write:\t0.0000 secs, 0.0000 secs, 0.0118 secs"`},
		{"json empty", "oha-json", "", "f.txt:1:1: truncated oha JSON: the document ends before it closes"},
		{"json cut", "oha-json", js[:len(js)/2], "f.txt:38:13: truncated oha JSON: the document ends before it closes"},
		{"json two documents", "oha-json", js + js, "f.txt:72:1: a second JSON document follows: a file holds one report"},
		{"json no summary", "oha-json", `{"statusCodeDistribution":{},"errorDistribution":{}}`, "f.txt:1: oha JSON: missing summary"},
		{"json no request", "oha-json", `{"summary":{},"statusCodeDistribution":{},"errorDistribution":{}}`,
			"f.txt:1: oha JSON counts no request: no status code and no error"},
		{"json bombardier", "oha-json", readTestdata(t, "testdata/bombardier/bombardier_json_n2000_err5pct.json"),
			"f.txt:1:1: invalid oha JSON: invalid character 'B' looking for beginning of value"},
	})
}

// hey and oha print the same headings: each claims its own reports only.
func TestOhaDetection(t *testing.T) {
	paths, _ := filepath.Glob("testdata/wild/oha/*")
	hey, _ := filepath.Glob("testdata/hey/*.txt")
	for _, p := range append(paths, hey...) {
		f, err := DetectFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want := "oha"
		switch {
		case strings.HasSuffix(p, ".json"):
			want = "oha-json"
		case strings.Contains(p, "/hey/"):
			want = "hey"
		}
		if f == nil || f.Name != want {
			t.Errorf("%s detected as %v, want %s", p, f, want)
		}
	}
}

func FuzzOha(f *testing.F) {
	addFuzzSeeds(f, "testdata/wild/oha/*", "testdata/hey/hey_go2*.txt", "testdata/hey/hey_refused_port.txt",
		"testdata/bombardier/bombardier_json_n2000_err5pct.json", "testdata/vegeta/vegeta_report_go2_ping.json")
	addWildSeeds(f, "hey", "notreport")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "oha", "oha-json") })
}
