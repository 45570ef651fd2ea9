package ingest

import (
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

// Locust's headless console: the table of its quickstart (PROVENANCE.md),
// printed while a test runs and read as the last table of an excerpt;
// and a test's end in the 2.x layout (no real capture with its
// percentile table: written here as Locust 2.x prints it), after a
// progress table that is read over.
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

	progress := "Type     Name                  # reqs      # fails |    Avg     Min     Max    Med |   req/s  failures/s\n" +
		"--------|--------------------|-------|-------------|-------|-------|-------|-------|--------|-----------\n" +
		"GET      /health                   2     0(0.00%) |    521       2    1040      2 |    0.00        0.00\n" +
		"--------|--------------------|-------|-------------|-------|-------|-------|-------|--------|-----------\n" +
		"         Aggregated                2     0(0.00%) |    521       2    1040      2 |    0.00        0.00\n\n"
	final := "[2025-04-29 17:39:24,388] host/INFO/locust.main: Shutting down (exit code 0)\n" +
		"Type     Name                  # reqs      # fails |    Avg     Min     Max    Med |   req/s  failures/s\n" +
		"--------|--------------------|-------|-------------|-------|-------|-------|-------|--------|-----------\n" +
		"GET      /health                   4     0(0.00%) |    521       2    2077      2 |    0.07        0.00\n" +
		"POST     /predict                 21     3(14.29%) |    488       1     823    580 |    0.36        0.05\n" +
		"--------|--------------------|-------|-------------|-------|-------|-------|-------|--------|-----------\n" +
		"         Aggregated               25     3(12.00%) |    493       1    2077    570 |    0.43        0.05\n\n" +
		"Response time percentiles (approximated)\n" +
		"Type     Name                          50%    66%    75%    80%    90%    95%    98%    99%  99.9% 99.99%   100% # reqs\n" +
		"--------|------------------------|--------|------|------|------|------|------|------|------|------|------|------|------\n" +
		"GET      /health                         2      2   2077   2077   2077   2077   2077   2077   2077   2077   2077      4\n" +
		"POST     /predict                      580    580    580    580    823    823    823    823    823    823    823     21\n" +
		"--------|------------------------|--------|------|------|------|------|------|------|------|------|------|------|------\n" +
		"         Aggregated                    570    580    580    580    823   2077   2077   2077   2077   2077   2077     25\n"
	c, err = readAsFormat(t, "locust-console", "f.txt", progress+final)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 3 {
		t.Fatalf("%d runs, want the 3 of the final table", len(c.Runs))
	}
	p := c.Runs[1]
	if p.Labels["request_type"] != "POST" || p.Labels["request_name"] != "/predict" || p.Requests.V != 21 || p.Errors.V != 3 || p.RPS.V != 0.36 ||
		len(p.Percentiles) != 11 || p.LatencyP90MS.V != 823 || p.LatencyP99MS.V != 823 || p.LatencyP50MS.V != 580 || p.Labels["failures_per_s"] != "0.05" {
		t.Errorf("POST /predict: %v %v %v %v %d p90 %v p99 %v", p.Labels, p.Requests, p.Errors, p.RPS, len(p.Percentiles), p.LatencyP90MS, p.LatencyP99MS)
	}
	if a := c.Runs[2]; a.Labels["aggregated"] != "true" || a.LatencyP95MS.V != 2077 || a.Requests.V != 25 {
		t.Errorf("Aggregated: %v p95 %v", a.Labels, a.LatencyP95MS)
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
