package ingest

import (
	"path/filepath"
	"strings"
	"testing"
)

// drill's own threads (testdata/wild/PROVENANCE.md): the summary of all
// requests is the run; the blocks per request name above it are read
// over. Failed requests mix other statuses with unanswered requests, so
// errors and non_2xx stay NULL where some failed.
func TestDrillWild(t *testing.T) {
	const d = "testdata/wild/drill/"
	for _, tc := range []loadToolCase{
		{file: d + "pr21-2019-stats-per-job-concurrency-level.txt", format: "drill", requests: 1020, ok2xx: 899, non2xx: nullWant,
			errors: nullWant, rps: 171.64, p50: 115, p99: nullWant, mean: 111, max: nullWant, spectrum: 1, connections: 20, startLine: 23,
			labels: map[string]string{"failed_requests": "121", "time_taken_s": "5.9"}},
		// --nanosec: 116521979ns is 116.521979 ms.
		{file: d + "pr22-2019-nanosec.txt", format: "drill", requests: 1020, ok2xx: 900, non2xx: nullWant,
			errors: nullWant, rps: 174.20, p50: 116.521979, p99: nullWant, mean: 112.444793, max: nullWant, spectrum: 1, connections: 20},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// The layout since 2021: no Concurrency Level, the percentile lines of
// the HdrHistogram after the deviation; nothing failed.
func TestDrillPercentiles(t *testing.T) {
	doc := readTestdata(t, "testdata/wild/drill/pr21-2019-stats-per-job-concurrency-level.txt")
	doc = strings.Replace(doc, "Concurrency Level         20\n", "", 1)
	doc = strings.Replace(doc, "Successful requests       899\nFailed requests           121", "Successful requests       1020\nFailed requests           0", 1)
	doc += "99.0'th percentile        274ms\n99.5'th percentile        276ms\n99.9'th percentile        276ms\n"
	c, err := readAsFormat(t, "drill", "f.txt", doc)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Runs[0]
	expectI(t, "errors", r.Errors, 0)
	expectI(t, "non_2xx", r.Non2xx, 0)
	expectF(t, "latency_p99_ms", r.LatencyP99MS, 274)
	expectF(t, "latency_p999_ms", r.LatencyP999MS, 276)
	expectI(t, "connections", r.Connections, nullWant)
	if len(r.Percentiles) != 4 || r.Percentiles[2].Percentile != 99.5 || r.Percentiles[2].LatencyMS != 276 {
		t.Errorf("spectrum %+v", r.Percentiles)
	}
	// A time cut inside its unit is left NULL with a warning.
	c, err = readAsFormat(t, "drill", "f.txt", strings.TrimSuffix(doc, "s\n"))
	if err != nil {
		t.Fatal(err)
	}
	expectF(t, "latency_p999_ms", c.Runs[0].LatencyP999MS, nullWant)
	if w := c.Runs[0].Labels["warning"]; w != `line 33: drill 99.9'th percentile "276m" has no complete unit (the line is cut short): not read` {
		t.Errorf("warning %q", w)
	}
}

func TestDrillErrors(t *testing.T) {
	doc := readTestdata(t, "testdata/wild/drill/pr21-2019-stats-per-job-concurrency-level.txt")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "drill", "", `f.txt:1: drill report ends early: expected "Time taken for tests  N seconds" (or "Concurrency Level  N")`},
		{"no total", "drill", headLines(doc, 24), `f.txt:25: drill summary from line 23 ends before its "Total requests" line`},
		{"bad total", "drill", strings.Replace(doc, "Total requests            1020", "Total requests            many", 1),
			`f.txt:25:1: drill Total requests: expected a count, found "many"`},
		{"bad rate", "drill", strings.Replace(doc, "171.64 [#/sec]", "171.64", 1),
			`f.txt:28:1: drill Requests per second: expected "R [#/sec]", found "171.64"`},
		{"ab report", "drill", readTestdata(t, "testdata/wild/ab/katacoda-rev1663405-apache-c1.txt"),
			`f.txt:1:1: no drill report: expected "Time taken for tests  N seconds" (or "Concurrency Level  N"), found "This is ApacheBench, Version 2.3 <$Revision: 1663405 $>"`},
	})
}

func TestDrillDetection(t *testing.T) { checkClaims(t, "drill", always("drill"), "drill") }

func FuzzDrill(f *testing.F) {
	addFuzzSeeds(f, "testdata/ab/*.txt")
	addWildSeeds(f, "drill", "notreport", "ab")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "drill") })
}
