package ingest

import (
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

// Locust's headless console: the table of its quickstart (PROVENANCE.md),
// printed while a test runs and read as the last table of an excerpt.
func TestLocustConsole(t *testing.T) {
	c := &model.Collector{}
	f, err := ReadFile("testdata/wild/locust/locust-docs-quickstart-headless-progress-table.txt", c)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "locust-console" || len(c.Runs) != 3 {
		t.Fatalf("%s, %d runs; want locust-console, 3", f.Name, len(c.Runs))
	}
	// "GET /hello  1  0(0.00%)  |  115 115 115 115  |  0.00 0.00": the
	// method is part of the name before 2.x.
	r := c.Runs[0]
	if r.Labels["request_name"] != "GET /hello" || r.Requests.V != 1 || r.Errors.V != 0 || r.LatencyMeanMS.V != 115 || r.RPS.V != 0 || r.Line != 7 {
		t.Errorf("run 0: %v %v %v %v %v line %d", r.Labels, r.Requests, r.Errors, r.LatencyMeanMS, r.RPS, r.Line)
	}
	if a := c.Runs[2]; a.Labels["aggregated"] != "true" || a.Requests.V != 2 || a.LatencyP50MS.V != 117 || a.LatencyMaxMS.V != 119 || a.Labels["latency_min_ms"] != "115" {
		t.Errorf("Aggregated: %v %v %v %v", a.Labels, a.Requests, a.LatencyP50MS, a.LatencyMaxMS)
	}
}

// The end-of-test summaries of real runs (PROVENANCE.md): each
// statistics table with the percentile table after it is a test; the
// numbers below are read off the files.
func TestLocustConsoleSummaries(t *testing.T) {
	const d = "testdata/wild/locust/"
	for _, tc := range []struct {
		file     string
		runs     int
		run      int
		typ      string // request_type ("" before 2.x, where the method is in the name)
		name     string
		line     int
		requests int64
		errors   int64
		rps      float64
		mean     float64
		min      string
		p50, max float64
		pcts     []float64 // 50, 66, 75, 80, 90, 95, 98, 99, 99.9, 99.99, 100
	}{
		// Locust 1.4.3 stopped with Ctrl-C: its statistics table has no
		// Type column and "Median"; its percentile table has Type and
		// names the row of all requests "None Aggregated".
		{file: "lipemorais-2021-v1.4.3-headless-ctrl-c-summary.txt", runs: 2, run: 1, name: "Aggregated", line: 17,
			requests: 4698, rps: 97.35, mean: 9, min: "3", p50: 8, max: 116, pcts: []float64{8, 9, 11, 12, 16, 21, 33, 45, 95, 120, 120}},
		// Two tests of Locust 1.x in a README, failures in both, each
		// followed by its Error report: GET /group 37 requests, 3(8.11%)
		// failed.
		{file: "gsa-datagov-2021-v1.x-two-summaries-error-report.md", runs: 19, run: 1, name: "GET /group", line: 17,
			requests: 37, errors: 3, rps: 0.62, mean: 1737, min: "605", p50: 930, max: 6094, pcts: []float64{930, 1300, 1900, 2500, 4900, 5900, 6100, 6100, 6100, 6100, 6100}},
		// The second test's Aggregated row: 1305 requests, 24(1.84%).
		{file: "gsa-datagov-2021-v1.x-two-summaries-error-report.md", runs: 19, run: 18, name: "Aggregated", line: 90,
			requests: 1305, errors: 24, rps: 8.54, mean: 3606, min: "546", p50: 1300, max: 73101, pcts: []float64{1300, 2000, 2900, 4000, 8300, 9900, 32000, 37000, 70000, 73000, 73000}},
		// Locust 2.x: four tests in one write-up, the Type column in both
		// tables; the last, of vLLM, POST /v1/completions.
		{file: "dennislee22-locust-llm-2025-v2.x-four-summaries.md", runs: 8, run: 6, typ: "POST", name: "/v1/completions", line: 155,
			requests: 876, rps: 14.41, mean: 360, min: "136", p50: 150, max: 14481, pcts: []float64{150, 150, 150, 150, 160, 300, 2800, 14000, 14000, 14000, 14000}},
		{file: "dennislee22-locust-llm-2025-v2.x-four-summaries.md", runs: 8, run: 3, name: "Aggregated", line: 85,
			requests: 86, rps: 1.78, mean: 5036, min: "703", p50: 5200, max: 5792, pcts: []float64{5200, 5300, 5400, 5400, 5400, 5400, 5500, 5800, 5800, 5800, 5800}},
	} {
		t.Run(tc.file+"#"+tc.name, func(t *testing.T) {
			c := &model.Collector{}
			f, err := ReadFile(d+tc.file, c)
			if err != nil {
				t.Fatal(err)
			}
			if f.Name != "locust-console" || len(c.Runs) != tc.runs {
				t.Fatalf("%s, %d runs; want locust-console, %d", f.Name, len(c.Runs), tc.runs)
			}
			r := c.Runs[tc.run]
			if r.Labels["request_type"] != tc.typ || r.Labels["request_name"] != tc.name || r.Line != tc.line {
				t.Errorf("run %d: type %q name %q line %d, want %q %q %d", tc.run, r.Labels["request_type"], r.Labels["request_name"], r.Line, tc.typ, tc.name, tc.line)
			}
			if (tc.name == "Aggregated") != (r.Labels["aggregated"] == "true") {
				t.Errorf("aggregated label %q", r.Labels["aggregated"])
			}
			expectI(t, "requests", r.Requests, tc.requests)
			expectI(t, "errors", r.Errors, tc.errors)
			expectF(t, "rps", r.RPS, tc.rps)
			expectF(t, "mean", r.LatencyMeanMS, tc.mean)
			expectF(t, "p50", r.LatencyP50MS, tc.p50)
			expectF(t, "max", r.LatencyMaxMS, tc.max)
			if r.Labels["latency_min_ms"] != tc.min {
				t.Errorf("latency_min_ms %q, want %s", r.Labels["latency_min_ms"], tc.min)
			}
			levels := []float64{50, 66, 75, 80, 90, 95, 98, 99, 99.9, 99.99, 100}
			if len(r.Percentiles) != len(levels) {
				t.Fatalf("%d percentiles, want %d", len(r.Percentiles), len(levels))
			}
			for i, p := range r.Percentiles {
				if p.Percentile != levels[i] || p.LatencyMS != tc.pcts[i] {
					t.Errorf("percentile %d: %v %v, want %v %v", i, p.Percentile, p.LatencyMS, levels[i], tc.pcts[i])
				}
			}
			expectF(t, "p90", r.LatencyP90MS, tc.pcts[4])
			expectF(t, "p95", r.LatencyP95MS, tc.pcts[5])
			expectF(t, "p99", r.LatencyP99MS, tc.pcts[7])
			expectF(t, "p99.9", r.LatencyP999MS, tc.pcts[8])
		})
	}
}

// A statistics table that no percentile table follows is progress,
// printed while the test ran, and read over: the first test of the 2.x
// write-up with its percentile table left out, then its second test.
func TestLocustConsoleProgressReadOver(t *testing.T) {
	doc := strings.Split(readTestdata(t, "testdata/wild/locust/dennislee22-locust-llm-2025-v2.x-four-summaries.md"), "\n")
	progress := strings.Join(doc[49:55], "\n") + "\n\n" // lines 50-55: the first test's statistics table
	final := strings.Join(doc[80:93], "\n") + "\n"      // lines 81-93: the second test's two tables
	c, err := readAsFormat(t, "locust-console", "f.txt", progress+final)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 2 || c.Runs[0].Requests.V != 86 || c.Runs[1].Labels["aggregated"] != "true" || c.Runs[1].LatencyP99MS.V != 5800 {
		t.Errorf("%d runs, first %v requests; want the 2 of the second test, 86 requests", len(c.Runs), c.Runs[0].Requests)
	}
}

func TestLocustConsoleErrors(t *testing.T) {
	doc := readTestdata(t, "testdata/wild/locust/locust-docs-quickstart-headless-progress-table.txt")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "locust-console", "", `f.txt:1: no Locust statistics table: expected its header "Type Name # reqs # fails | Avg Min Max Med | req/s failures/s"`},
		{"cut before Aggregated", "locust-console", headLines(doc, 8),
			"f.txt:8: Locust statistics table ends before its Aggregated row"},
		{"a unit in a row", "locust-console", strings.Replace(doc, "|     115     115     115     115  |", "|   115ms     115     115     115  |", 1),
			`f.txt:7:1: Locust statistics table: expected a row "Name N F(P%) | Avg Min Max Med | req/s failures/s", found "GET /hello             1     0(0.00%)  |   115ms     115    …"`},
	})
}

func FuzzLocustConsole(f *testing.F) {
	addWildSeeds(f, "locust", "gatling", "notreport")
	addFuzzSeeds(f, "testdata/wrk/wrk_plain*.txt")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "locust-console") })
}
