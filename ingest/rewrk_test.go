package ingest

import (
	"strings"
	"testing"
)

// rewrk's README (testdata/wild/PROVENANCE.md): Total 91281, Req/Sec
// 18227.81, Avg 3.27ms, Max 9.39ms; no percentile.
func TestRewrkWild(t *testing.T) {
	checkLoadToolCase(t, loadToolCase{file: "testdata/wild/rewrk/readme-2021-windows-prompt-c60.txt", format: "rewrk",
		requests: 91281, ok2xx: nullWant, non2xx: nullWant, errors: 0, rps: 18227.81, p50: nullWant, p99: nullWant,
		mean: 3.27, max: 9.39, connections: 60, startLine: 3,
		labels: map[string]string{"latency_min_ms": "1.95", "requested_duration": "5 seconds", "url": "http://127.0.0.1:5000"}})
}

// The README's --pct table, printed after the report as rewrk prints it,
// its error lines and a second round: the table's rows are means of the
// slowest requests, labels only, never percentiles.
func TestRewrkPctTableErrorsRounds(t *testing.T) {
	report := readTestdata(t, "testdata/wild/rewrk/readme-2021-windows-prompt-c60.txt")
	table := readTestdata(t, "testdata/wild/notreport/rewrk-readme-pct-table-alone.txt")
	doc := "Beginning round 1...\n" + report + table + "\n3 Errors: connection closed\n1 Errors: error trying to connect\n\nBeginning round 2...\n" + report
	c, err := readAsFormat(t, "rewrk", "f.txt", doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 2 {
		t.Fatalf("%d runs, want 2", len(c.Runs))
	}
	r := c.Runs[0]
	expectI(t, "errors", r.Errors, 4)
	expectI(t, "requests", r.Requests, 91281)
	expectI(t, "round", r.Round, 1)
	expectI(t, "round", c.Runs[1].Round, 2)
	expectI(t, "errors", c.Runs[1].Errors, 0)
	for _, col := range []struct {
		name string
		v    float64
		ok   bool
	}{{"p50", r.LatencyP50MS.V, r.LatencyP50MS.Valid}, {"p90", r.LatencyP90MS.V, r.LatencyP90MS.Valid},
		{"p95", r.LatencyP95MS.V, r.LatencyP95MS.Valid}, {"p99", r.LatencyP99MS.V, r.LatencyP99MS.Valid}, {"p999", r.LatencyP999MS.V, r.LatencyP999MS.Valid}} {
		if col.ok {
			t.Errorf("%s = %v: the table's rows are no percentiles", col.name, col.v)
		}
	}
	if len(r.Percentiles) != 0 {
		t.Errorf("%d percentiles stored", len(r.Percentiles))
	}
	expectLabels(t, r, map[string]string{"mean_of_slowest_0.1%_ms": "6.88", "mean_of_slowest_1%_ms": "5.62", "mean_of_slowest_5%_ms": "4.62",
		"mean_of_slowest_10%_ms": "4.24", "mean_of_slowest_25%_ms": "3.78", "mean_of_slowest_50%_ms": "3.49",
		"error.connection closed": "3", "error.error trying to connect": "1"})
}

func TestRewrkCutTime(t *testing.T) {
	report := readTestdata(t, "testdata/wild/rewrk/readme-2021-windows-prompt-c60.txt")
	c, err := readAsFormat(t, "rewrk", "f.txt", strings.Replace(report, "9.39ms", "9.39m", 1))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Runs[0]
	expectF(t, "latency_max_ms", r.LatencyMaxMS, nullWant)
	expectF(t, "latency_mean_ms", r.LatencyMeanMS, 3.27)
	if w := r.Labels["warning"]; w != `line 6: rewrk Max "9.39m" has no complete unit (the line is cut short): not read` {
		t.Errorf("warning %q", w)
	}
}

func TestRewrkErrors(t *testing.T) {
	report := readTestdata(t, "testdata/wild/rewrk/readme-2021-windows-prompt-c60.txt")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "rewrk", "", `f.txt:1: rewrk report ends early: expected "Benchmarking N connections @ <url> for <duration>"`},
		{"no total", "rewrk", headLines(report, 7), `f.txt:8: rewrk report from line 3 ends before its "Total: N Req/Sec: R" line`},
		{"bad total", "rewrk", strings.Replace(report, "91281", "many", 1), `f.txt:8:1: rewrk Requests: expected a count, found "many"`},
		{"bad table row", "rewrk", report + "| Percentile | Avg Latency |\n|      97%      |     6.88ms      |\n",
			`f.txt:12:1: rewrk --pct table: expected a row 99.9%, 99%, 95%, 90%, 75% or 50%, found "|      97%      |     6.88ms      |"`},
		{"other text", "rewrk", "Benchmarking 60 connections @ http://x/ for 5 seconds\nsomething else\n",
			`f.txt:2:1: rewrk report from line 1: expected its Latencies and "Total: N Req/Sec: R", found "something else"`},
	})
}

func TestRewrkDetection(t *testing.T) { checkClaims(t, "rewrk", always("rewrk"), "rewrk") }

func FuzzRewrk(f *testing.F) {
	addFuzzSeeds(f, "testdata/plow/plow132_summary*.txt", "testdata/wrk/wrk_plain*.txt")
	addWildSeeds(f, "rewrk", "notreport", "wrk")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "rewrk") })
}
