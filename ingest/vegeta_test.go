package ingest

import (
	"bytes"
	"encoding/gob"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wra-bench/wra/model"
)

func TestVegetaCaptures(t *testing.T) {
	const d = "testdata/vegeta/"
	const null = int64(nullWant)
	for _, tc := range []loadToolCase{
		// Requests 3000, 500.21; Duration attack 5.997s; Latencies
		// min 88.96µs, mean 425.457µs, 50 305.234µs, ..., 99 2.492ms, max 18.116ms.
		{file: d + "vegeta_report_go2_ping.txt", format: "vegeta-text", requests: 3000, ok2xx: 3000, errors: 0,
			rps: 500.21, p50: 0.305234, p99: 2.492, mean: 0.425457, max: 18.116, spectrum: 4, durationS: 5.997, startLine: 1,
			labels: map[string]string{"reported_success_rps": "500.17", "latency_min_ms": "0.08896", "reported_success_pct": "100", "reported_bytes_sent": "0"}},
		// Status Codes 200:1418 500:82; Error Set holds the 500's status text.
		{file: d + "vegeta_report_go1_err5pct.txt", format: "vegeta-text", requests: 1500, ok2xx: 1418, non2xx: 82, errors: 0,
			rps: 300.35, p50: 0.352829, p99: 2.28, mean: 0.418636, max: 7.043, spectrum: 4, durationS: 4.994,
			labels: map[string]string{"error_set": `["500 Internal Server Error"]`}},
		// Every request refused: code 0 for all 50.
		{file: d + "vegeta_report_refused.txt", format: "vegeta-text", requests: 50, ok2xx: 0, non2xx: 0, errors: 50,
			rps: 51.04, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, spectrum: 0, durationS: 0.979668},
		// JSON: nanoseconds; rps = requests / duration 5997435250 ns.
		{file: d + "vegeta_report_go2_ping.json", format: "vegeta-json", requests: 3000, ok2xx: 3000, errors: 0,
			rps: perSecond(3000, 5.99743525), p50: 0.305234, p99: 2.491875, mean: 0.425457, max: 18.115703, spectrum: 4,
			durationS: 5.99743525, labels: map[string]string{"reported_rps": "500.2138205660495"}},
		{file: d + "vegeta_report_go1_err5pct.json", format: "vegeta-json", requests: 1500, ok2xx: 1418, non2xx: 82, errors: 0,
			rps: perSecond(1500, 4.994223207), p50: 0.352829, p99: 2.279893, mean: 0.418636, max: 7.043456, spectrum: 4},
		{file: d + "vegeta_report_refused.json", format: "vegeta-json", requests: 50, errors: 50,
			rps: perSecond(50, 0.979668003), p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant},
		{file: d + "vegeta_report_json_buckets.json", format: "vegeta-json", requests: 3000, ok2xx: 3000, errors: 0,
			rps: perSecond(3000, 5.99743525), p50: 0.305234, p99: 2.491875, mean: 0.425457, max: 18.115703, spectrum: 4,
			labels: map[string]string{"buckets": `{"0":2890,"1000000":101,"5000000":6,"10000000":3}`}},
		// hist[0,1ms,5ms,10ms]: 2890 + 101 + 6 + 3 requests; three finite bounds.
		{file: d + "vegeta_report_go2_ping_hist.txt", format: "vegeta-hist", requests: 3000, ok2xx: null, non2xx: null, errors: null,
			rps: nullWant, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, spectrum: 3},
		// hdrplot: 94 rows of vegeta's logarithmic quantiles; 0.5 row
		// 0.305234, the 1.0 row is the maximum 18.115703 and counts 3000.
		{file: d + "vegeta_hdrplot_go2_ping_results.txt", format: "vegeta-hdrplot", requests: 3000, ok2xx: null, non2xx: null, errors: null,
			rps: nullWant, p50: 0.305234, p99: nullWant, mean: nullWant, max: 18.115703, spectrum: 94},
		{file: d + "vegeta_hdrplot_go1_err5pct_results.txt", format: "vegeta-hdrplot", requests: 1500, ok2xx: null, non2xx: null, errors: null,
			rps: nullWant, p50: 0.352829, p99: nullWant, mean: nullWant, max: 7.043456, spectrum: 94},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// TestVegetaHist checks the cumulative points of the histogram by hand:
// 2890 of 3000 below 1 ms, 2991 below 5 ms, 2997 below 10 ms.
func TestVegetaHist(t *testing.T) {
	r, _ := readFixture(t, "testdata/vegeta/vegeta_report_go2_ping_hist.txt")
	want := []model.Percentile{
		{Percentile: 2890.0 / 3000 * 100, LatencyMS: 1, Count: model.Some[int64](2890)},
		{Percentile: 2991.0 / 3000 * 100, LatencyMS: 5, Count: model.Some[int64](2991)},
		{Percentile: 2997.0 / 3000 * 100, LatencyMS: 10, Count: model.Some[int64](2997)},
	}
	for i, w := range want {
		if g := r.Percentiles[i]; g.LatencyMS != w.LatencyMS || g.Count != w.Count || g.Percentile-w.Percentile > 1e-12 || w.Percentile-g.Percentile > 1e-12 {
			t.Errorf("point %d = %+v, want %+v", i, g, w)
		}
	}
}

// TestVegetaResultsMatchReport recomputes the run from vegeta's results
// (CSV, JSON and gob encodings of the same attack) and compares it with
// `vegeta report -type=json` of that attack, the independent reference:
// vegeta's t-digest percentiles, mean, max, rate and counts must come out
// identical, to the nanosecond.
func TestVegetaResultsMatchReport(t *testing.T) {
	const d = "testdata/vegeta/"
	for _, tc := range []struct {
		results []string
		report  string
		samples int
	}{
		{[]string{"vegeta_go2_ping_results.csv", "vegeta_go2_ping_results.json"}, "vegeta_report_go2_ping.json", 3000},
		{[]string{"vegeta_go1_err5pct_results.csv", "vegeta_go1_err5pct_results.bin"}, "vegeta_report_go1_err5pct.json", 1500},
		{[]string{"vegeta_refused_results.csv", "vegeta_refused_results.bin"}, "vegeta_report_refused.json", 50},
	} {
		want, _ := readFixture(t, d+tc.report)
		for _, f := range tc.results {
			t.Run(f, func(t *testing.T) {
				c := &model.Collector{}
				if _, err := ReadFile(d+f, c); err != nil {
					t.Fatal(err)
				}
				got := c.Runs[0]
				expectI(t, "requests", got.Requests, want.Requests.V)
				expectI(t, "responses_2xx", got.Responses2xx, want.Responses2xx.V)
				expectI(t, "non_2xx", got.Non2xx, want.Non2xx.V)
				expectI(t, "errors", got.Errors, want.Errors.V)
				expectI(t, "bytes_read", got.BytesRead, want.BytesRead.V)
				expectF(t, "rps", got.RPS, want.RPS.V)
				expectF(t, "duration_s", got.DurationS, want.DurationS.V)
				expectF(t, "latency_mean_ms", got.LatencyMeanMS, optWant(want.LatencyMeanMS))
				expectF(t, "latency_max_ms", got.LatencyMaxMS, optWant(want.LatencyMaxMS))
				expectF(t, "latency_p50_ms", got.LatencyP50MS, optWant(want.LatencyP50MS))
				expectF(t, "latency_p90_ms", got.LatencyP90MS, optWant(want.LatencyP90MS))
				expectF(t, "latency_p95_ms", got.LatencyP95MS, optWant(want.LatencyP95MS))
				expectF(t, "latency_p99_ms", got.LatencyP99MS, optWant(want.LatencyP99MS))
				if !got.StartedAt.V.Equal(want.StartedAt.V) {
					t.Errorf("started_at %v, want %v", got.StartedAt.V, want.StartedAt.V)
				}
				for _, k := range []string{"latency_min_ms", "status_codes"} {
					if got.Labels[k] != want.Labels[k] {
						t.Errorf("label %s = %q, want %q", k, got.Labels[k], want.Labels[k])
					}
				}
				if got.Labels["throughput"] != want.Labels["reported_success_rps"] {
					t.Errorf("throughput %s, vegeta reports %s", got.Labels["throughput"], want.Labels["reported_success_rps"])
				}
				if n := len(c.Samples[0]); n != tc.samples {
					t.Errorf("%d samples, want %d", n, tc.samples)
				}
			})
		}
	}
}

func TestVegetaResultSamples(t *testing.T) {
	c := &model.Collector{}
	if _, err := ReadFile("testdata/vegeta/vegeta_refused_results.csv", c); err != nil {
		t.Fatal(err)
	}
	// Row 1: 1795983171772591431,0,6329834,0,0,"Get ""http://127.0.0.1:18499/"": dial tcp ...",,,0,GET,http://127.0.0.1:18499/,
	s := c.Samples[0][0]
	if s.TS.UnixNano() != 1795983171772591431 || s.Value != 6.329834 || s.Status.Valid {
		t.Errorf("first sample %+v", s)
	}
	want := `{"error":"Get \"http://127.0.0.1:18499/\": dial tcp 0.0.0.0:0-\u003e127.0.0.1:18499: connect: connection refused","method":"GET","url":"http://127.0.0.1:18499/"}`
	if s.Tags != want {
		t.Errorf("tags\n got %s\nwant %s", s.Tags, want)
	}
}

func TestVegetaErrors(t *testing.T) {
	const d = "testdata/vegeta/"
	text := readTestdata(t, d+"vegeta_report_go1_err5pct.txt")
	js := readTestdata(t, d+"vegeta_report_go2_ping.json")
	hist := readTestdata(t, d+"vegeta_report_go2_ping_hist.txt")
	res := headLines(readTestdata(t, d+"vegeta_refused_results.csv"), 3)
	resJSON := headLines(readTestdata(t, d+"vegeta_go2_ping_results.json"), 3)
	bin := readTestdata(t, d+"vegeta_refused_results.bin")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"text empty", "vegeta-text", "", `f.txt:1: vegeta report ends early: expected "Requests [total, rate, …]"`},
		{"text cut", "vegeta-text", headLines(text, 6), "f.txt:7: vegeta report from line 1 ends before its Status Codes"},
		{"text cut by the fence of its code block", "vegeta-text", "```\n" + headLines(text, 6) + "```\n",
			"f.txt:8: vegeta report from line 2 ends before its Status Codes"},
		{"text cut, then another report", "vegeta-text", headLines(text, 6) + readTestdata(t, d+"vegeta_report_go2_ping.txt"),
			"f.txt:7: vegeta report from line 1 ends before its Status Codes"},
		{"text a line twice", "vegeta-text", strings.Replace(text, "Success", "Latencies", 1),
			"f.txt:6:1: vegeta report from line 1: a second Latencies line"},
		{"text bad duration", "vegeta-text", strings.Replace(text, "2.28ms", "2.28 ms", 1),
			`f.txt:3:109: vegeta Latencies 99: expected a duration with its unit, found "2.28 ms"`},
		{"text counts disagree", "vegeta-text", strings.Replace(text, "500:82", "500:81", 1),
			"f.txt:1: vegeta report: Status Codes add up to 1499, Requests total is 1500"},
		{"text no request", "vegeta-text", strings.Replace(text, "1500, 300.35", "0, 300.35", 1), "f.txt:1: vegeta report of no request"},
		{"json no request", "vegeta-json", strings.Replace(js, `"requests":3000`, `"requests":0`, 1), "f.txt:1: vegeta JSON report of no request"},
		{"text hey report", "vegeta-text", readTestdata(t, "testdata/hey/hey_go2_ping_n5000_c20.txt"),
			`f.txt:2:1: no vegeta report: expected "Requests [total, rate, …]", found "Summary:"`},
		{"json cut", "vegeta-json", js[:100], "f.txt:1:101: truncated JSON: the document ends before it closes"},
		{"json two", "vegeta-json", js + js, "f.txt:2:1: a second JSON document follows: a file holds one report"},
		{"json no status codes", "vegeta-json", strings.Replace(js, `"status_codes"`, `"codes"`, 1),
			"f.txt:1: vegeta JSON report: missing status_codes"},
		{"hist cut", "vegeta-hist", headLines(hist, 3), "f.txt:4: truncated vegeta histogram: expected a last bucket ending at +Inf"},
		{"hist gap", "vegeta-hist", strings.Replace(hist, "[5ms,", "[6ms,", 1),
			"f.txt:4:2: vegeta histogram: bucket starts at 6ms, not where the previous one ends"},
		{"results csv bad code", "vegeta-results-csv", strings.Replace(res, ",0,6329834,", ",x,6329834,", 1),
			`f.txt:1:21: vegeta results CSV: expected a status code, found "x"`},
		{"results csv cut", "vegeta-results-csv", res + "1795983171792784117,0,1307",
			"f.txt:4: vegeta results CSV: expected 7 or 12 fields, found 3"},
		{"results json cut", "vegeta-results-json", resJSON + resJSON[:50],
			"f.txt:4:51: truncated JSON: the document ends before it closes"},
		{"results json not a result", "vegeta-results-json", resJSON + "{}\n",
			"f.txt:4:1: vegeta result: expected code, timestamp and latency"},
		{"gob cut", "vegeta-results-gob", bin[:len(bin)/2], "f.txt: vegeta results (gob): result 25 is truncated"},
		{"gob huge message", "vegeta-results-gob", "\xfc\x7f\xff\xff\xff",
			"f.txt: vegeta results (gob): not a gob stream of vegeta results: message 1 declares 2147483647 bytes, more than 67108864"},
		{"gob text", "vegeta-results-gob", text, "f.txt: vegeta results (gob): not a gob stream of vegeta results: gob: duplicate type received"},
	})
}

func FuzzVegeta(f *testing.F) {
	addFuzzSeeds(f, "testdata/vegeta/vegeta_report_*", "testdata/vegeta/vegeta_hdrplot_go2*", "testdata/vegeta/vegeta_refused_results.*",
		"testdata/hey/hey_refused_port.txt", "testdata/hdrhistogram/hdrhistogram_java_vegeta_go2_ping_ms.hgrm")
	addWildSeeds(f, "vegeta", "bombardier")
	for _, p := range []string{"testdata/vegeta/vegeta_go2_ping_results.csv", "testdata/vegeta/vegeta_go2_ping_results.json"} {
		f.Add([]byte(headLines(readTestdata(f, p), 20)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzFormats(t, data, "vegeta-text", "vegeta-json", "vegeta-hist", "vegeta-hdrplot",
			"vegeta-results-csv", "vegeta-results-json", "vegeta-results-gob")
	})
}

// BenchmarkVegetaResultsCSV reads vegeta results of 300,000 requests (the
// rows of a real capture repeated) and recomputes the run with the t-digest.
func BenchmarkVegetaResultsCSV(b *testing.B) {
	content := strings.Repeat(readTestdata(b, "testdata/vegeta/vegeta_go2_ping_results.csv"), 100)
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		c := &abCountSink{}
		err := formatByName(b, "vegeta-results-csv").Read(&Input{Name: "b.csv", R: strings.NewReader(content)}, c)
		if err != nil || c.samples != 300000 || c.Runs[0].Requests.V != 300000 {
			b.Fatal(err)
		}
	}
}

// Real vegeta outputs of other versions (PROVENANCE.md); the numbers are
// the file's own.
func TestVegetaWild(t *testing.T) {
	const d = "testdata/wild/vegeta/"
	n := int64(nullWant)
	for _, tc := range []loadToolCase{
		// v5 README: "Requests [total, rate]", no min in Latencies, 0:535
		// (no answer) and 200:665, six lines of Error Set.
		{file: d + "readme-v5.7-text-error-set.txt", format: "vegeta-text", requests: 1200, ok2xx: 665, non2xx: 0, errors: 535,
			rps: 120, p50: 108.272568, p99: 247.771566, mean: 113.172398, max: 264.815246, spectrum: 3, durationS: 9.949883921, startLine: 1},
		// Three inputs merged: no Duration line.
		{file: d + "readme-v5.7-text-no-duration.txt", format: "vegeta-text", requests: 3600000, ok2xx: 3600000, non2xx: 0, errors: 0,
			rps: 60000, p50: nullWant, p99: 416.537743, mean: 223.340085, max: 7788.103259, spectrum: 2, durationS: nullWant},
		// The same README's -reporter=json, indented: rps = 1200 over the
		// attack's 9949883921 ns; the printed rate is kept as a label.
		{file: d + "readme-v5.7-report-pretty.json", format: "vegeta-json", requests: 1200, ok2xx: 140, non2xx: 0, errors: 1060,
			rps: perSecond(1200, 9.949883921), p50: 2401.2234, p99: 12604.629125, mean: 9093.653647, max: 12604.629125, spectrum: 3,
			durationS: 9.949883921, labels: map[string]string{"reported_rps": "1200"}},
		// Go before 1.7 printed a zero duration as "0": "[0,  2ms]";
		// 6007 + 5505 + 2117 + 4771 = 18400 requests.
		{file: d + "vegeta-readme-2014-hist-bare-zero-bucket.txt", format: "vegeta-hist", requests: 18400, ok2xx: n, non2xx: n, errors: n,
			rps: nullWant, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, spectrum: 3},
		// A text report, then the histogram of the same results: one run,
		// the histogram not counted again.
		{file: d + "govolutto-readme-text-then-hist.txt", format: "vegeta-text", requests: 2500, ok2xx: 2500, non2xx: 0, errors: 0,
			rps: 500.2, p50: 0.212602, p99: 5.781057, mean: 0.387021, max: 28.793267, spectrum: 3, durationS: 4.997979158, startLine: 2},
		// Three pods' reports, the second without its Requests line (it
		// starts at Duration): requests are its Status Codes (200:270000),
		// its rate is not printed; the reports around it read as usual.
		{file: d + "solo-io-2024-three-pods-one-without-requests-line.txt", format: "vegeta-text", runs: 3, run: 1,
			requests: 270000, ok2xx: 270000, non2xx: 0, errors: 0, rps: nullWant, p50: 4.096, p99: 5.098, mean: 4.142, max: 60.617,
			spectrum: 4, durationS: 600, startLine: 14,
			labels: map[string]string{"requests_basis": "the Status Codes: the report has no Requests line",
				"warning": "line 14: the vegeta report has no Requests line: requests are its Status Codes, its rate is not printed (rps NULL)"}},
		{file: d + "solo-io-2024-three-pods-one-without-requests-line.txt", format: "vegeta-text", runs: 3, run: 2,
			requests: 270000, ok2xx: 270000, non2xx: 0, errors: 0, rps: 450, p50: 4.261, p99: 7.159, mean: 4.615, max: 238.599,
			spectrum: 4, durationS: 600, startLine: 24},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// vegeta before v8.0.0 (2018) wrote Result without Attack and Seq (v7's
// lib.Result: Code, Timestamp, Latency, BytesOut, BytesIn, Error). No
// .bin of that version could be had (the module proxy serves none of
// vegeta's releases before v12, and the public corpus keeps no binary
// results): the real results of vegeta_go1_err5pct_results.bin are
// encoded here with v7's type, a gob stream that declares no Attack or
// Seq, and must be detected and read to the same run.
func TestVegetaGobBeforeV8(t *testing.T) {
	const d = "testdata/vegeta/"
	want := &model.Collector{}
	if _, err := ReadFile(d+"vegeta_go1_err5pct_results.bin", want); err != nil {
		t.Fatal(err)
	}
	// The real results, as today's reader decodes them.
	f, err := os.Open(d + "vegeta_go1_err5pct_results.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type v12 struct {
		Attack    string
		Seq       uint64
		Code      uint16
		Timestamp time.Time
		Latency   time.Duration
		BytesOut  uint64
		BytesIn   uint64
		Error     string
		Body      []byte
	}
	type Result struct { // v7.0.3 lib/results.go
		Code      uint16
		Timestamp time.Time
		Latency   time.Duration
		BytesOut  uint64
		BytesIn   uint64
		Error     string
	}
	var buf bytes.Buffer
	enc := gob.NewEncoder(&buf)
	dec := gob.NewDecoder(f)
	n := 0
	for {
		var r v12
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if err := enc.Encode(Result{r.Code, r.Timestamp, r.Latency, r.BytesOut, r.BytesIn, r.Error}); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if bytes.Contains(buf.Bytes()[:512], []byte("\x06Attack")) || Detect(buf.Bytes()) == nil || Detect(buf.Bytes()).Name != "vegeta-results-gob" {
		t.Fatalf("a stream without Attack: detected as %v", Detect(buf.Bytes()))
	}
	got, err := readWith(Detect(buf.Bytes()), "old.bin", &buf)
	if err != nil {
		t.Fatal(err)
	}
	g, w := got.Runs[0], want.Runs[0]
	expectI(t, "requests", g.Requests, w.Requests.V)
	expectI(t, "errors", g.Errors, w.Errors.V)
	expectI(t, "non_2xx", g.Non2xx, w.Non2xx.V)
	expectF(t, "rps", g.RPS, w.RPS.V)
	expectF(t, "latency_p99_ms", g.LatencyP99MS, w.LatencyP99MS.V)
	if int64(n) != w.Requests.V {
		t.Errorf("%d results re-encoded, the run has %d", n, w.Requests.V)
	}
}
