package ingest

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wra-bench/wra/model"
)

func TestHeyCaptures(t *testing.T) {
	const d = "testdata/hey/"
	for _, tc := range []loadToolCase{
		// Summary: Total 0.6593 secs, Average 0.0026, Slowest 0.1183,
		// Requests/sec 7583.8081; 50%% in 0.0014, 99%% in 0.0306; [200] 5000.
		{file: d + "hey_go2_ping_n5000_c20.txt", format: "hey", requests: 5000, ok2xx: 5000, errors: 0,
			rps: 7583.8081, p50: 1.4, p99: 30.6, mean: 2.6, max: 118.3, spectrum: 7, durationS: 0.6593, startLine: 2,
			labels: map[string]string{"status_codes": `{"200":5000}`}},
		// [200] 1919 and [500] 81.
		{file: d + "hey_non2xx_go1_err5pct.txt", format: "hey", requests: 2000, ok2xx: 1919, non2xx: 81, errors: 0,
			rps: 9722.3466, p50: 0.5, p99: 5.9, mean: 0.8, max: 11.1, spectrum: 7, durationS: 0.2057},
		// Every request refused: NaN Average, no latency at all, [100] errors.
		{file: d + "hey_refused_port.txt", format: "hey", requests: 100, ok2xx: 0, non2xx: 0, errors: 100,
			rps: 7578.6018, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, durationS: 0.0132,
			labels: map[string]string{"errors_breakdown": `{"Get \"http://127.0.0.1:8099/\": dial tcp 127.0.0.1:8099: connect: connection refused":100}`}},
		// hey -t 1 against a 1.5 s handler: 20 timeouts over 10.0133 s.
		{file: d + "hey_timeouts_wait1500.txt", format: "hey", requests: 20, errors: 20,
			rps: 1.9973, p50: nullWant, p99: nullWant, mean: nullWant, max: nullWant, durationS: 10.0133},
		// CSV: reference values from the file with sort -g and awk (the
		// index of percentile p is ceil(p*n/100), hey's rule):
		// n=2000, sorted[1000]=0.0044, sorted[1980]=0.0075, sum 9.1594 s,
		// last end max(offset+response-time)=0.9417 s, max 0.0207.
		{file: d + "hey_csv_go1_wait3.csv", format: "hey-csv", requests: 2000, ok2xx: 2000, non2xx: 0, errors: int64(nullWant),
			rps: perSecond(2000, 0.9417), p50: 4.4, p99: 7.5, mean: 4.5797, max: 20.7, spectrum: 7, durationS: 0.9417,
			samples: 2000, startLine: 1},
		// n=500: sorted[250]=0.0006, sorted[495]=0.0066, sum 0.4339 s,
		// end 0.1199 s, 444 x 200 and 56 x 500.
		{file: d + "hey_csv_err10pct.csv", format: "hey-csv", requests: 500, ok2xx: 444, non2xx: 56, errors: int64(nullWant),
			rps: perSecond(500, 0.1199), p50: 0.6, p99: 6.6, mean: 0.8678, max: 10.2, spectrum: 7, durationS: 0.1199,
			samples: 500, labels: map[string]string{"status_codes": `{"200":444,"500":56}`}},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// The percentiles of hey's own definition, worked by hand: for n = 10
// sorted values the index of p is the first i with i*100/10 >= p, so 10%
// is sorted[1], 25% sorted[3] (30 >= 25), 50% sorted[5], 75% sorted[8],
// 90% sorted[9], and 95% and 99% find no index below 10 and are left out,
// as hey leaves them out of its report.
func TestHeyPercentiles(t *testing.T) {
	got := heyPercentiles([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	want := []model.Percentile{{Percentile: 10, LatencyMS: 2}, {Percentile: 25, LatencyMS: 4},
		{Percentile: 50, LatencyMS: 6}, {Percentile: 75, LatencyMS: 9}, {Percentile: 90, LatencyMS: 10}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("percentile %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestHeyCSVSamples(t *testing.T) {
	c := &model.Collector{}
	if _, err := ReadFile("testdata/hey/hey_csv_err10pct.csv", c); err != nil {
		t.Fatal(err)
	}
	// Row 1: 0.0050,0.0028,0.0000,0.0005,0.0006,0.0010,200,0.0051
	s := c.Samples[0][0]
	if s.Value != 5 || s.Status.V != 200 || !s.TS.Equal(time.Unix(0, 5100000)) || s.Metric != "http_req_duration" {
		t.Errorf("first sample %+v", s)
	}
	want := `{"dns_dialup_s":"0.0028","dns_s":"0.0000","request_write_s":"0.0005","response_delay_s":"0.0006","response_read_s":"0.0010"}`
	if s.Tags != want {
		t.Errorf("tags %s, want %s", s.Tags, want)
	}
}

func TestHeyErrors(t *testing.T) {
	text := readTestdata(t, "testdata/hey/hey_go2_ping_n5000_c20.txt")
	csvText := readTestdata(t, "testdata/hey/hey_csv_err10pct.csv")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "hey", "", `f.txt:1: hey report ends early: expected "Summary:"`},
		{"cut in the summary", "hey", headLines(text, 5),
			"f.txt:6: hey report from line 2 stops before its counts and its latency distribution: expected the Response time histogram, a distribution or the Status code distribution"},
		{"cut in the histogram", "hey", headLines(text, 16),
			"f.txt:17: hey report from line 2 ends inside its Response time histogram: expected the rest of it, or the next section"},
		{"bombardier report", "hey", readTestdata(t, "testdata/bombardier/bombardier_default_go2_ping.txt"),
			`f.txt:1:1: no hey report: expected "Summary:", found "Bombarding http://127.0.0.1:8082/ping for 8s using 50 connec…"`},
		{"bad percentile", "hey", strings.Replace(text, "50%% in 0.0014 secs", "50%% in 0.0014 msecs", 1),
			`f.txt:29:11: hey Latency distribution: expected "N secs", found "0.0014 msecs"`},
		{"bad status", "hey", strings.Replace(text, "[200]\t5000 responses", "[200]\tmany responses", 1),
			`f.txt:43:3: hey Status code distribution: expected "[code] N responses", found "[200]\tmany responses"`},
		{"no request", "hey", headLines(readTestdata(t, "testdata/hey/hey_refused_port.txt"), 22),
			"f.txt:2: hey report counts no request: no status code and no error"},
		{"oha line in a hey report", "hey", strings.Replace(text, "  Total:", "  Success rate:\t100.00%\n  Total:", 1),
			`f.txt:3:17: hey Summary: "Success rate:\t100.00%" is a line of oha's report, not of hey's`},
		{"csv refused port", "hey-csv", readTestdata(t, "testdata/hey/hey_csv_refused_port.csv"),
			"f.txt:2: hey CSV has a header but no rows: hey writes only answered requests, so a run where every request failed leaves no numbers here"},
		{"csv bad number", "hey-csv", strings.Replace(csvText, "0.0050,0.0028", "0.0050,fast", 1),
			`f.txt:2:8: DNS+dialup: expected seconds >= 0, found "fast"`},
		{"csv cut mid-row", "hey-csv", headLines(csvText, 3) + "0.0070,0.0034",
			"f.txt:4:1: wrong number of fields: expected 8 as in the header (a truncated row?)"},
		{"csv two runs", "hey-csv", csvText + csvText, "f.txt:502:1: a second hey CSV starts here: a file holds one run"},
		{"csv other header", "hey-csv", readTestdata(t, "testdata/vegeta/vegeta_refused_results.csv"),
			`f.txt:1:1: expected hey's CSV header "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset"`},
	})
}

func FuzzHey(f *testing.F) {
	addFuzzSeeds(f, "testdata/hey/*.txt", "testdata/hey/hey_csv_err10pct.csv", "testdata/hey/hey_csv_refused_port.csv",
		"testdata/bombardier/bombardier_refused_port.txt", "testdata/ab/ab_plain*.txt")
	addWildSeeds(f, "hey", "oha")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "hey", "hey-csv") })
}

// What the rules for excerpts and logs give a real report: cut after its
// Latency distribution, the histogram's counts are its requests (1 + 4903
// + 33 + 27 + 32 + 1 + 1 + 0 + 1 + 0 + 1 = 5000) and its errors are not
// known; twice in one file, it is two runs.
func TestHeyExcerpts(t *testing.T) {
	text := readTestdata(t, "testdata/hey/hey_go2_ping_n5000_c20.txt")
	c, err := readAsFormat(t, "hey", "f.txt", headLines(text, 38))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Runs[0]
	expectI(t, "requests", r.Requests, 5000)
	expectI(t, "errors", r.Errors, int64(nullWant))
	expectI(t, "responses_2xx", r.Responses2xx, int64(nullWant))
	expectF(t, "latency_p99_ms", r.LatencyP99MS, 30.6)
	c, err = readAsFormat(t, "hey", "f.txt", text+text)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 2 || c.Runs[1].Line != 48 || c.Runs[1].Index != 1 {
		t.Fatalf("%d runs, the second at line %d", len(c.Runs), c.Runs[len(c.Runs)-1].Line)
	}
	expectI(t, "requests", c.Runs[1].Requests, 5000)
}
