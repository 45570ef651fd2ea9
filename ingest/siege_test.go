package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The numbers are the summaries' own (PROVENANCE.md says where each comes
// from): requests Transactions + Failed transactions, errors Failed
// transactions, the times in ms.
func TestSiegeWild(t *testing.T) {
	const d = "testdata/wild/siege/"
	for _, tc := range []loadToolCase{
		// 2.71 stopped with Ctrl-C: 3820 hits, 0 failed, 39.78 trans/sec,
		// Response time 5.59 secs, Longest 6.03 (seconds: no unit).
		{file: d + "async-micro-bench-2012-v2.71-ctrl-c.txt", format: "siege", requests: 3820, ok2xx: noCount, non2xx: noCount, errors: 0,
			rps: 39.78, p50: nullWant, p99: nullWant, mean: 5590, max: 6030, durationS: 96.04, startLine: 8, connections: nullWant,
			labels: map[string]string{"transactions": "3820", "successful_transactions": "3820", "latency_min_ms": "530",
				"concurrency": "222.37", "reported_success_pct": "100"}},
		{file: d + "async-micro-bench-2012-v2.71-process-log-lines.txt", format: "siege", requests: 4925, ok2xx: noCount, non2xx: noCount,
			errors: 0, rps: 49.26, p50: nullWant, p99: nullWant, mean: 510, max: 560, durationS: 99.98, startLine: 7, connections: nullWant},
		// 8036 hits and 109 failed: 8145 requests over 30.62 s; siege's
		// rate 262.44 counts the hits only.
		{file: d + "easyengine-docs-pre-block-109-failed.txt", format: "siege", requests: 8145, ok2xx: noCount, non2xx: noCount, errors: 109,
			rps: perSecond(8145, 30.62), p50: nullWant, p99: nullWant, mean: 2340, max: 23830, durationS: 30.62, startLine: 2, connections: nullWant,
			labels: map[string]string{"reported_rps": "262.44", "reported_success_pct": "98.66"}},
		// 4.1: "516.77 ms", "13130.00 ms", "2610    hits", lines ending
		// in two spaces.
		{file: d + "beast-issue2831-2024-v4.1-ms-trailing-spaces.txt", format: "siege", requests: 3653, ok2xx: noCount, non2xx: noCount,
			errors: 1043, rps: perSecond(3653, 14.17), p50: nullWant, p99: nullWant, mean: 516.77, max: 13130, durationS: 14.17, startLine: 1,
			connections: nullWant, labels: map[string]string{"latency_min_ms": "40", "reported_rps": "184.19"}},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

const noCount = int64(nullWant)

// Two summaries in one file are two runs, numbered as rounds; a summary
// needs its Transactions and Failed transactions lines only.
func TestSiegeLayouts(t *testing.T) {
	a := readTestdata(t, "testdata/wild/siege/async-micro-bench-2012-v2.71-process-log-lines.txt")
	b := readTestdata(t, "testdata/wild/siege/beast-issue2831-2024-v4.1-ms-trailing-spaces.txt")
	c, err := readAsFormat(t, "siege", "f.txt", a+"\n$ siege -c 4 …\n"+b)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 2 {
		t.Fatalf("%d runs, want 2", len(c.Runs))
	}
	expectI(t, "requests", c.Runs[0].Requests, 4925)
	expectI(t, "requests", c.Runs[1].Requests, 3653)
	// the command line above the second gives its connections, which the
	// first does not have: two settings, no rounds
	expectI(t, "connections", c.Runs[1].Connections, 4)
	if c.Runs[1].Round.Valid {
		t.Errorf("round %d, want none", c.Runs[1].Round.V)
	}
	short := "Transactions:\t\t          88 hits\nFailed transactions:\t          68\n"
	c, err = readAsFormat(t, "siege", "f.txt", short)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Runs[0]
	expectI(t, "requests", r.Requests, 156)
	expectI(t, "errors", r.Errors, 68)
	expectF(t, "rps", r.RPS, nullWant)
	expectF(t, "latency_mean_ms", r.LatencyMeanMS, nullWant)
}

func TestSiegeErrors(t *testing.T) {
	b := readTestdata(t, "testdata/wild/siege/beast-issue2831-2024-v4.1-ms-trailing-spaces.txt")
	a := readTestdata(t, "testdata/wild/siege/async-micro-bench-2012-v2.71-ctrl-c.txt")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "siege", "", `f.txt:1: siege report ends early: expected "Transactions: N hits"`},
		{"cut before Failed", "siege", headLines(b, 9), `f.txt:10: siege summary from line 1 ends before its "Failed transactions:" line`},
		{"unit cut", "siege", strings.Replace(b, "516.77 ms", "516.77 m", 1),
			`f.txt:5:23: siege Response time: expected "N secs" or "N ms", found "516.77 m"`},
		{"bare beside ms", "siege", strings.Replace(b, "13130.00 ms", "13130.00", 1),
			"f.txt:1: siege summary from line 1: a Longest transaction without a unit beside a Response time in ms: no siege prints that, and the unit is not guessed"},
		{"bad count", "siege", strings.Replace(a, "3820 hits", "3,820 hits", 1), `f.txt:8:24: siege Transactions: expected a count, found "3,820"`},
		{"line after the end", "siege", a + "Failed transactions:\t           0\n",
			`f.txt:21:1: unexpected line in a siege report: "FILE: /usr/local/var/siege.log" (the report's lines go on at line 25)`},
	})
}

func TestSiegeDetection(t *testing.T) {
	want := func(p string) string {
		if strings.HasSuffix(p, ".log") {
			return "siege-log"
		}
		return "siege"
	}
	checkClaims(t, "siege", want, "siege", "siege-log")
}

func FuzzSiege(f *testing.F) {
	addWildSeeds(f, "siege", "notreport", "ab", "wrk")
	addFuzzSeeds(f, "testdata/hey/hey_go2*.txt")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "siege") })
}

// Captures of siege 4.0.7 (testdata/siege/SOURCES.md). A verbose run
// prints a line per request, and siege writes its summary among them
// (stderr into the same file): 1944 request lines, the summary at byte
// 110685, more lines after it. No format claims the head; detection
// looks past it for a Late format's report (detectBeyond), here through
// the gzip it is kept in. An aborted run against a refused port: 1027
// failed, siege prints 0.00 trans/sec, which is the rate (not 1027 over
// 0.09 s), and its 0.00 secs of response time is no latency.
func TestSiegeCaptures(t *testing.T) {
	const d = "testdata/siege/"
	for _, tc := range []loadToolCase{
		{file: d + "siege407_verbose_c2_r1000_summary_past_head.txt.gz", format: "siege", requests: 2000, ok2xx: noCount, non2xx: noCount,
			errors: 0, rps: 1503.76, p50: nullWant, p99: nullWant, mean: 0, max: 140, durationS: 1.33, startLine: 1945, connections: nullWant,
			labels: map[string]string{"transactions": "2000", "concurrency": "1.84", "reported_success_pct": "100"}},
		{file: d + "siege407_aborted_refused_port_c4.txt", format: "siege", requests: 1027, ok2xx: 0, non2xx: 0,
			errors: 1027, rps: 0, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, durationS: 0.09, startLine: 1034, connections: nullWant,
			labels: map[string]string{"rps_basis": "siege's Transaction rate: every transaction failed", "raw.latency_mean_ms": "0"}},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
	for _, f := range []string{"siege407_verbose_c2_r1000_summary_past_head.txt.gz", "siege407_aborted_refused_port_c4.txt"} {
		o, err := open(d+f, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(o.head) != HeadBytes || Detect(o.head) != nil {
			t.Errorf("%s: a head of %d bytes claimed by %v, want a full head claimed by none", f, len(o.head), Detect(o.head))
		}
		o.close()
		if got, err := DetectFile(d + f); err != nil || got == nil || got.Name != "siege" {
			t.Errorf("%s: DetectFile %v %v, want siege", f, got, err)
		}
	}
	// Through the walker, as wra ingest reads a folder.
	dir := t.TempDir()
	for _, f := range []string{"siege407_verbose_c2_r1000_summary_past_head.txt.gz", "siege407_aborted_refused_port_c4.txt"} {
		b, err := os.ReadFile(d + f)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	res, _ := ingestDir(t, dir)
	for name, r := range res {
		if r.Status != Loaded || r.Format != "siege" || r.Rows != 1 {
			t.Errorf("%s: %s as %q, %d rows, %v", name, r.Status, r.Format, r.Rows, r.Err)
		}
	}
}

// A text file of no format is looked through to its end, window by
// window, and still skipped: the request lines of the verbose capture
// without its summary.
func TestDetectBeyondNone(t *testing.T) {
	b := readContent(t, "testdata/siege/siege407_verbose_c2_r1000_summary_past_head.txt.gz")
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "HTTP/1.1 ") {
			lines = append(lines, l)
		}
	}
	p := filepath.Join(t.TempDir(), "requests.txt")
	os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	if len(lines) < 1900 {
		t.Fatalf("%d request lines", len(lines))
	}
	if f, err := DetectFile(p); err != nil || f != nil {
		t.Errorf("request lines alone: %v %v, want no format", f, err)
	}
}
