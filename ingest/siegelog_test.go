package ingest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

// siege.log rows (PROVENANCE.md), with the numbers they print.
func TestSiegeLog(t *testing.T) {
	const d = "testdata/wild/siege/"
	for _, tc := range []loadToolCase{
		// 91090 transactions + 1047 failed over 27.46 s; Resp Time 0.03
		// is seconds: Concurrent 95.78 / Trans Rate 3317.19 = 0.029 s.
		{file: d + "sohu-cloudscape-2014-siege-log-16-runs.log", format: "siege-log", runs: 16, run: 1,
			requests: 92137, ok2xx: nullCount, non2xx: nullCount, errors: 1047, rps: perSecond(92137, 27.46), p50: nullWant, p99: nullWant, mean: 30, max: nullWant,
			spectrum: 0, startLine: 3, connections: nullWant, durationS: 27.46,
			labels: map[string]string{"reported_rps": "3317.19", "transactions": "91090", "successful_transactions": "91090", "concurrency": "95.78",
				"reported_bytes_read": "2097152", "reported_transfer_bytes_per_s": "73400.32", // 2 MB, 0.07 MB/sec of 1048576 bytes
				"logged_at": "2014-02-25 14:49:55", "reported_response_time": "0.03"}},
		// No answer at all: Resp Time nan, no mean, no warning; the rate
		// is siege's Trans Rate 0.00, not the 34 failures over 59.95 s.
		{file: d + "sohu-cloudscape-2014-siege-log-16-runs.log", format: "siege-log", runs: 16, run: 6,
			requests: 34, ok2xx: 0, non2xx: 0, errors: 34, rps: 0, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant,
			spectrum: 0, startLine: 8, connections: nullWant, durationS: 59.95,
			labels: map[string]string{"rps_basis": "siege's Transaction rate: every transaction failed"}},
		{file: d + "node-clustering-2016-siege-log-inf-nan-rows.log", format: "siege-log", runs: 4, run: 0,
			requests: 1151, ok2xx: nullCount, non2xx: nullCount, errors: 0, rps: 19.18, p50: nullWant, p99: nullWant, mean: 30, max: nullWant,
			spectrum: 0, startLine: 2, connections: nullWant, durationS: 60},
	} {
		t.Run(filepath.Base(tc.file)+"#"+string(rune('0'+tc.run)), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
	// The unit of Resp Time is what Little's law shows: seconds as siege
	// 4.0 logs them, ms as 4.1.2 on print them; a row that shows neither
	// keeps no mean.
	for _, c := range []struct {
		resp, rate, conc float64
		ms               float64
		ok               bool
	}{{0.03, 3317.19, 95.78, 30, true}, {29.1, 3317.19, 95.78, 29.1, true}, {0.01, 14.09, 0.19, 10, true}, {0.5, 19.18, 0.52, 0, false}} {
		if ms, ok := siegeLogResponseMS(c.resp, c.rate, c.conc); ok != c.ok || ms != c.ms {
			t.Errorf("Resp Time %v, rate %v, concurrency %v: %v ms %v, want %v %v", c.resp, c.rate, c.conc, ms, ok, c.ms, c.ok)
		}
	}
}

func TestSiegeLogErrors(t *testing.T) {
	log := readTestdata(t, "testdata/wild/siege/node-clustering-2016-siege-log-inf-nan-rows.log")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"header only", "siege-log", headLines(log, 1), "f.txt:2: siege.log holds a header but no row"},
		{"a unit", "siege-log", strings.Replace(log, "      60.00,", "    60.00 s,", 1),
			`f.txt:2:33: siege.log Elap Time: expected a number >= 0 without a unit, found "60.00 s"`},
		{"a row cut short", "siege-log", headLines(log, 2) + "2016-05-22 17:32:55,      0,       4.60,\n",
			`f.txt:3:1: siege.log: expected the 10 fields of the header, found 4 in "2016-05-22 17:32:55,      0,       4.60,"`},
		{"bad count", "siege-log", strings.Replace(log, "   1151,      60.00", "  1.1k,      60.00", 1),
			`f.txt:2:23: siege.log Trans: expected a count, found "1.1k"`},
	})
}

func FuzzSiegeLog(f *testing.F) {
	addWildSeeds(f, "siege", "locust", "notreport")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "siege-log") })
}

// siege 4.0.7's own log (testdata/siege/SOURCES.md): a -m mark before a
// run ("**** echo c2 r1000 ****"), the row of a run against a refused
// port (0 trans, 1027 failed, Resp Time -nan) and the mark siege writes
// after it ("**** siege aborted due to excessive socket failure. ****"),
// then another marked run. The marks label their runs; the log loads.
func TestSiegeLogMarks(t *testing.T) {
	const f = "testdata/siege/siege407_log_marks_aborted.log"
	c := &model.Collector{}
	if _, err := ReadFile(f, c); err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 3 {
		t.Fatalf("%d runs, want 3", len(c.Runs))
	}
	for i, w := range []struct {
		line             int
		requests, failed int64
		rps              float64
		mark, aborted    string
	}{
		{3, 2000, 0, 1503.76, "echo c2 r1000", ""},
		{4, 1027, 1027, 0, "echo c2 r1000", "excessive socket failure"},
		{7, 400, 0, 3636.36, "echo c2 r200", ""},
	} {
		r := c.Runs[i]
		if r.Line != w.line || r.Labels["mark"] != w.mark || r.Labels["aborted"] != w.aborted {
			t.Errorf("run %d: line %d, mark %q, aborted %q; want %d, %q, %q", i, r.Line, r.Labels["mark"], r.Labels["aborted"], w.line, w.mark, w.aborted)
		}
		expectI(t, "requests", r.Requests, w.requests)
		expectI(t, "errors", r.Errors, w.failed)
		expectF(t, "rps", r.RPS, w.rps)
	}
	expectF(t, "run 1 latency_mean_ms", c.Runs[1].LatencyMeanMS, nullWant)
}
