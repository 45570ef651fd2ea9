package ingest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

// loadToolCase is the expected reading of one capture. The numbers are
// copied from the capture itself (the counts, the printed percentiles) or
// worked from them by hand as written beside each case; nullWant marks a
// column the capture does not carry.
type loadToolCase struct {
	file                      string
	format                    string
	requests, ok2xx, non2xx   int64
	errors                    int64
	rps                       float64
	p50, p99, mean, max       float64
	spectrum                  int
	connections, durationS    float64
	labels                    map[string]string
	samples                   int
	startLine                 int
	latencyCorrected, noCheck bool
	// runs is how many runs the file holds (0: one), run the one checked.
	runs, run int
}

// perSecond divides at run time, as the readers do; a constant expression
// would be computed exactly and rounded once, which can differ in the last
// bit.
func perSecond(n, s float64) float64 { return n / s }

func checkLoadToolCase(t *testing.T, tc loadToolCase) {
	t.Helper()
	c := &model.Collector{}
	f, err := ReadFile(tc.file, c)
	if err != nil {
		t.Fatalf("%s: %v", tc.file, err)
	}
	if f.Name != tc.format {
		t.Errorf("format %s, want %s", f.Name, tc.format)
	}
	if len(c.Runs) != max(tc.runs, 1) {
		t.Fatalf("%d runs, want %d", len(c.Runs), max(tc.runs, 1))
	}
	r := c.Runs[tc.run]
	expectI(t, "requests", r.Requests, tc.requests)
	expectI(t, "responses_2xx", r.Responses2xx, tc.ok2xx)
	expectI(t, "non_2xx", r.Non2xx, tc.non2xx)
	expectI(t, "errors", r.Errors, tc.errors)
	expectF(t, "rps", r.RPS, tc.rps)
	expectF(t, "latency_p50_ms", r.LatencyP50MS, tc.p50)
	expectF(t, "latency_p99_ms", r.LatencyP99MS, tc.p99)
	expectF(t, "latency_mean_ms", r.LatencyMeanMS, tc.mean)
	expectF(t, "latency_max_ms", r.LatencyMaxMS, tc.max)
	if tc.connections != 0 {
		expectI(t, "connections", r.Connections, int64(tc.connections))
	}
	if tc.durationS != 0 {
		expectF(t, "duration_s", r.DurationS, tc.durationS)
	}
	if len(r.Percentiles) != tc.spectrum {
		t.Errorf("spectrum of %d percentiles, want %d", len(r.Percentiles), tc.spectrum)
	}
	for _, p := range r.Percentiles {
		if p.Corrected {
			t.Errorf("percentile %v marked corrected", p.Percentile)
		}
	}
	if r.LatencyCorrected {
		t.Error("latency_corrected = true")
	}
	if got := len(c.Samples[0]); got != tc.samples {
		t.Errorf("%d samples, want %d", got, tc.samples)
	}
	if tc.startLine != 0 && r.Line != tc.startLine {
		t.Errorf("run starts at line %d, want %d", r.Line, tc.startLine)
	}
	for k, want := range tc.labels {
		if got, ok := r.Label(k); !ok || got != want {
			t.Errorf("label %s = %q, want %q", k, got, want)
		}
	}
}

func TestBombardierCaptures(t *testing.T) {
	const d = "testdata/bombardier/"
	const text = "requests / -d duration (the text report prints no measured duration)"
	for _, tc := range []loadToolCase{
		// 2xx - 180899 over "for 8s"; Latency 2.21ms 1.51ms 51.03ms.
		{file: d + "bombardier_default_go2_ping.txt", format: "bombardier", requests: 180899, ok2xx: 180899, errors: 0,
			rps: 180899.0 / 8, p50: nullWant, p99: nullWant, mean: 2.21, max: 51.03, connections: 50, durationS: 8,
			labels: map[string]string{"rps_basis": text, "reported_rps_mean": "22636.22", "reported_transfer_bytes_per_s": "4183818.24"}},
		// -l: the five-row Latency Distribution, 50% 1.18ms and 99% 4.71ms.
		{file: d + "bombardier_latencies_nginx_static.txt", format: "bombardier", requests: 187716, ok2xx: 187716,
			rps: 187716.0 / 8, p50: 1.18, p99: 4.71, mean: 1.36, max: 120.11, spectrum: 5, connections: 32, durationS: 8},
		// 2xx - 109952, 5xx - 5703: 115655 requests over 6s.
		{file: d + "bombardier_non2xx_go1_err5pct.txt", format: "bombardier", requests: 115655, ok2xx: 109952, non2xx: 5703,
			rps: 115655.0 / 6, p50: nullWant, p99: nullWant, mean: 0.82743, max: 20.43, connections: 16, durationS: 6,
			labels: map[string]string{"status_5xx": "5703"}},
		// -n 20000: no duration printed, so no rps.
		{file: d + "bombardier_pipr_nginx_ping_n20000.txt", format: "bombardier", requests: 20000, ok2xx: 20000,
			rps: nullWant, p50: nullWant, p99: nullWant, mean: 0.32739, max: 14.98, connections: 10, durationS: nullWant,
			labels: map[string]string{"requests_planned": "20000", "reported_rps_mean": "30404.64"}},
		// 6403 over 8s; 50% 526.00us, 99% 2.84ms.
		{file: d + "bombardier_rate800_go2_ping.txt", format: "bombardier", requests: 6403, ok2xx: 6403,
			rps: 6403.0 / 8, p50: 0.526, p99: 2.84, mean: 0.6494, max: 27.58, spectrum: 5, connections: 20, durationS: 8},
		// every request refused: others - 90303, all of them errors.
		{file: d + "bombardier_refused_port.txt", format: "bombardier", requests: 90303, ok2xx: 0, non2xx: 0, errors: 90303,
			rps: 90303.0 / 3, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, connections: 4, durationS: 3,
			labels: map[string]string{"errors_breakdown": `{"dial tcp 127.0.0.1:8099: connect: connection refused":90303}`, "reported_transfer_bytes_per_s": "0"}},
		// Every request timed out: the Latency line (1.51s) is the time to
		// failure, no latency of an answer; NULL, kept in raw.* labels.
		{file: d + "bombardier_timeouts_go1_wait500.txt", format: "bombardier", requests: 24, errors: 24,
			rps: 24.0 / 4, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, connections: 8, durationS: 4,
			labels: map[string]string{"errors_breakdown": `{"timeout":24}`, "raw.latency_mean_ms": "1510", "raw.latency_max_ms": "1510"}},
		// -l with every request timed out: the distribution of the times
		// to failure is kept as text only.
		{file: d + "bombardier_latencies_timeouts.txt", format: "bombardier", requests: 16, errors: 16,
			rps: 16.0 / 2, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, spectrum: 0, connections: 4, durationS: 2,
			labels: map[string]string{"raw.latency_percentiles": "50=507.21 75=508.17 90=508.6 95=510.12 99=510.37"}},
		// JSON: rps = 15462 / timeTakenSeconds 6.006185843; latency in µs.
		{file: d + "bombardier_json_go1_wait5.json", format: "bombardier-json", requests: 15462, ok2xx: 15462,
			rps: perSecond(15462, 6.006185843), p50: nullWant, p99: nullWant, mean: 6200.196352347691 / 1000, max: 18.873,
			connections: 16, durationS: 6.006185843, startLine: 1,
			labels: map[string]string{"reported_rps_mean": "2577.06511389266", "reported_rps_p50": "2506.509531", "reported_rps_p99": "3214.510945", "duration_planned_s": "6"}},
		// -o json without -p r: the JSON line follows the progress lines.
		{file: d + "bombardier_json_latencies_ping.json", format: "bombardier-json", requests: 25074, ok2xx: 25074,
			rps: perSecond(25074, 1.992769582), p50: 0.418, p99: 3.977, mean: 629.3877721943048 / 1000, max: 109.58, spectrum: 5,
			connections: 8, durationS: 1.992769582, startLine: 4},
		{file: d + "bombardier_json_n2000_err5pct.json", format: "bombardier-json", requests: 2000, ok2xx: 1897, non2xx: 103,
			rps: perSecond(2000, 0.207986044), p50: 0.302, p99: 3.272, mean: 403.595 / 1000, max: 5.596, spectrum: 5, connections: 4,
			labels: map[string]string{"requests_planned": "2000"}},
		{file: d + "bombardier_json_refused_port.json", format: "bombardier-json", requests: 12843, errors: 12843,
			rps: perSecond(12843, 0.998263625), p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, connections: 2},
		{file: d + "bombardier_json_timeouts.json", format: "bombardier-json", requests: 16, errors: 16,
			rps: perSecond(16, 2.031749546), p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, connections: 4,
			labels: map[string]string{"errors_breakdown": `{"timeout":16}`}},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// A duration_s label gives a -n text report its rps.
func TestBombardierDurationLabel(t *testing.T) {
	c := &model.Collector{}
	content := readTestdata(t, "testdata/bombardier/bombardier_pipr_nginx_ping_n20000.txt")
	sink := &labelSink{Sink: c, override: map[string]string{"duration_s": "0.8"}, name: "f.txt"}
	if err := readBombardierText(&Input{Name: "f.txt", R: strings.NewReader(content)}, sink); err != nil {
		t.Fatal(err)
	}
	r := c.Runs[0]
	expectF(t, "rps", r.RPS, 20000/0.8)
	if got := r.Labels["rps_basis"]; got != "requests / duration_s label" {
		t.Errorf("rps_basis = %q", got)
	}
}

// loadToolErrorCase is a bad input and the exact error it must give.
type loadToolErrorCase struct {
	name    string
	format  string
	content string
	want    string
}

func checkLoadToolErrors(t *testing.T, cases []loadToolErrorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := readAsFormat(t, tc.format, "f.txt", tc.content)
			if err == nil {
				t.Fatalf("no error; runs %d", len(c.Runs))
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got: %v\nwant: %s", err, tc.want)
			}
			if len(c.Runs) != 0 {
				t.Errorf("%d runs stored with the error", len(c.Runs))
			}
		})
	}
}

func TestBombardierErrors(t *testing.T) {
	text := readTestdata(t, "testdata/bombardier/bombardier_latencies_nginx_static.txt")
	js := readTestdata(t, "testdata/bombardier/bombardier_json_latencies_ping.json")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "bombardier", "", `f.txt:1: bombardier report ends early: expected "Bombarding …" or the "Statistics  Avg  Stdev  Max" table`},
		{"cut after Latency", "bombardier", headLines(text, 6),
			`f.txt:7: bombardier report from line 1 is cut short (the file ends): expected "HTTP codes:" and its counts`},
		{"cut after HTTP codes", "bombardier", headLines(text, 14),
			`f.txt:15: bombardier report from line 1 is cut short (the file ends): expected "others - N"`},
		{"cut before Throughput", "bombardier", headLines(text, 15),
			`f.txt:16: bombardier report from line 1 is cut short (the file ends): expected "Throughput:"`},
		{"cut, then another report", "bombardier", headLines(text, 15) + text,
			`f.txt:16: bombardier report from line 1 is cut short (another report starts here): expected "Throughput:"`},
		{"wrk report", "bombardier", readTestdata(t, "testdata/wrk/wrk_plain_nginx_static.txt"),
			`f.txt:1:1: no bombardier report: expected "Bombarding …" or the "Statistics  Avg  Stdev  Max" table, found "Running 8s test @ http://127.0.0.1:8080/static.json"`},
		{"bad count", "bombardier", strings.Replace(text, "2xx - 187716", "2xx - many", 1),
			`f.txt:14:14: bombardier HTTP codes: expected "2xx -" and a count, found "2xx - many"`},
		{"bad latency unit", "bombardier", strings.Replace(text, "1.18ms", "1.18mq", 1),
			`f.txt:8:14: Latency Distribution: expected a duration with its unit, found "1.18mq"`},
		{"no request", "bombardier", strings.Replace(readTestdata(t, "testdata/bombardier/bombardier_refused_port.txt"), "others - 90303", "others - 0", 1),
			"f.txt:1: bombardier report counts no request"},
		{"json empty", "bombardier-json", "", "f.txt:1: truncated bombardier JSON: no JSON document"},
		{"json cut", "bombardier-json", js[:len(js)/2],
			"f.txt:4:292: truncated JSON: the document ends before it closes"},
		{"json no result", "bombardier-json", `{"spec":{"numberOfConnections":1}}`, "f.txt:1: bombardier JSON: missing result"},
		{"json text report", "bombardier-json", text,
			`f.txt:4:1: bombardier JSON: expected the JSON document, found "Statistics        Avg      Stdev        Max"`},
	})
}

// fuzzFormats runs the detection and the reader of each named format on a
// fuzzed input.
func fuzzFormats(t *testing.T, data []byte, names ...string) {
	for _, name := range names {
		formatByName(t, name).Detect(data)
		fuzzReader(t, name, data)
	}
}

func FuzzBombardier(f *testing.F) {
	addFuzzSeeds(f, "testdata/bombardier/*", "testdata/hey/hey_go2*.txt", "testdata/wrk/wrk_plain*.txt")
	addWildSeeds(f, "bombardier", "notreport")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "bombardier", "bombardier-json") })
}

// TestLoadToolDetection checks that each of these formats claims its own
// captures and no other tool's: every file under testdata is detected, and
// a file of these tools is detected as its format only.
func TestLoadToolDetection(t *testing.T) {
	want := map[string]string{}
	// Later globs override earlier ones.
	for _, g := range [][2]string{
		{"testdata/bombardier/*.txt", "bombardier"},
		{"testdata/bombardier/*.json", "bombardier-json"},
		{"testdata/hey/*.txt", "hey"},
		{"testdata/hey/*.csv", "hey-csv"},
		{"testdata/vegeta/vegeta_report_*.txt", "vegeta-text"},
		{"testdata/vegeta/vegeta_report_*hist.txt", "vegeta-hist"},
		{"testdata/vegeta/vegeta_report_*.json", "vegeta-json"},
		{"testdata/vegeta/vegeta_hdrplot_*.txt", "vegeta-hdrplot"},
		{"testdata/vegeta/*_results.csv", "vegeta-results-csv"},
		{"testdata/vegeta/*_results.json", "vegeta-results-json"},
		{"testdata/vegeta/*_results.bin", "vegeta-results-gob"},
		{"testdata/hdrhistogram/*.hgrm", "hdrhistogram"},
		{"testdata/plow/*.txt", "plow"},
		{"testdata/plow/*.json", "plow-json"},
		{"testdata/gowrk/*.txt", "go-wrk"},
		{"testdata/cassowary/*.txt", "cassowary"},
		{"testdata/cassowary/*.json", "cassowary-json"},
	} {
		paths, _ := filepath.Glob(g[0])
		for _, p := range paths {
			want[p] = g[1]
		}
	}
	mine := map[string]bool{}
	for _, f := range want {
		mine[f] = true
	}
	all, _ := filepath.Glob("testdata/*/*")
	for _, p := range all {
		if st, err := os.Stat(p); err != nil || st.IsDir() || strings.HasSuffix(p, ".md") {
			continue
		}
		f, err := DetectFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if f != nil {
			got = f.Name
		}
		switch w, ok := want[p]; {
		case ok && got != w:
			t.Errorf("%s detected as %q, want %s", p, got, w)
		case !ok && mine[got]:
			t.Errorf("%s, another tool's output, detected as %s", p, got)
		}
	}
}

// Real reports of other versions (PROVENANCE.md); the numbers are the
// file's own: requests are the class counts plus others (errored).
func TestBombardierWild(t *testing.T) {
	const d = "testdata/wild/bombardier/"
	for _, tc := range []loadToolCase{
		// v0.3 README: "with 10000000 requests using 200 connections", the
		// bar "100.00 % 47s Done!", "errored - 0"; -n: no rps.
		{file: d + "readme-v0.3-errored-two-runs.txt", format: "bombardier", runs: 2, run: 0, requests: 10000000, ok2xx: 10000000,
			errors: 0, rps: nullWant, p50: nullWant, p99: nullWant, mean: 0.95, max: 37, connections: 200, durationS: nullWant, startLine: 2,
			labels: map[string]string{"requests_planned": "10000000", "reported_rps_max": "216847"}},
		// "for 10s using 200 connections", "[====…]10s Done!", 3xx - 54083
		// and errored - 2: 54085 requests over 10 s.
		{file: d + "readme-v0.3-errored-two-runs.txt", format: "bombardier", runs: 2, run: 1, requests: 54085, ok2xx: 0, non2xx: 54083,
			errors: 2, rps: 54085.0 / 10, p50: 34, p99: 45, mean: 36.96, max: 1440, spectrum: 4, connections: 200, durationS: 10, startLine: 15},
		// -o json through jq: 1220970 2xx over 120.254938734 s; µs.
		{file: d + "jq-pretty-nginx-c1000.json", format: "bombardier-json", requests: 1220970, ok2xx: 1220970, errors: 0,
			rps: perSecond(1220970, 120.254938734), p50: 57.069, p99: 281.684, mean: 98.32354741721746, max: 510.809, spectrum: 5,
			connections: 1000, durationS: 120.254938734, startLine: 1},
		// others 21, all of them EOF errors; max 1.356444e+06 µs.
		{file: d + "jq-pretty-haproxy-c10000-errors.json", format: "bombardier-json", requests: 4464786, ok2xx: 4464765, errors: 21,
			rps: perSecond(4464786, 120.352807808), p50: 229.685, p99: 457.333, mean: 268.80087887930125, max: 1356.444, spectrum: 5,
			connections: 10000, durationS: 120.352807808},
	} {
		t.Run(filepath.Base(tc.file)+"#"+strconv.Itoa(tc.run), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// A JSON report is detected by its content whatever its whitespace and
// key order: the captures re-indented and with their keys sorted (as
// json.MarshalIndent of a map writes them) read as the originals.
func TestJSONDetectionByContent(t *testing.T) {
	for _, tc := range []struct{ file, format string }{
		{"testdata/bombardier/bombardier_json_n2000_err5pct.json", "bombardier-json"},
		{"testdata/vegeta/vegeta_report_go2_ping.json", "vegeta-json"},
		{"testdata/wild/oha/v1.16-compact.json", "oha-json"},
	} {
		text := readTestdata(t, tc.file)
		doc := text[strings.Index(text, "{"):]
		var v map[string]any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		sorted, _ := json.MarshalIndent(v, "", "    ")
		var indented bytes.Buffer
		if err := json.Indent(&indented, []byte(doc), "\t", "  "); err != nil {
			t.Fatal(err)
		}
		for name, b := range map[string][]byte{"sorted": sorted, "indented": indented.Bytes()} {
			f := Detect(b)
			if f == nil || f.Name != tc.format {
				t.Errorf("%s %s: detected as %v, want %s", tc.file, name, f, tc.format)
				continue
			}
			want, got := &model.Collector{}, &model.Collector{}
			if err := formatByName(t, tc.format).Read(&Input{Name: "a", R: strings.NewReader(text)}, want); err != nil {
				t.Fatal(err)
			}
			if err := f.Read(&Input{Name: "b", R: bytes.NewReader(b)}, got); err != nil {
				t.Fatalf("%s %s: %v", tc.file, name, err)
			}
			w, g := want.Runs[0], got.Runs[0]
			if w.Requests != g.Requests || w.RPS != g.RPS || w.LatencyMeanMS != g.LatencyMeanMS || w.LatencyP99MS != g.LatencyP99MS {
				t.Errorf("%s %s: read %+v, the original %+v", tc.file, name, g, w)
			}
		}
	}
}
