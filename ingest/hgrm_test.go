package ingest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

func TestHgrmCaptures(t *testing.T) {
	const d = "testdata/hdrhistogram/"
	const null = int64(nullWant)
	for _, tc := range []loadToolCase{
		// hdrhistogram-go PercentilesPrint(…, 5, 1000): footer Mean 0.425,
		// StdDeviation 0.709, Max 18.127, Total count 3000; the 0.500000
		// row reads 0.304; no row at 0.99 and its neighbours 0.989062 (2.199)
		// and 0.990625 (2.581) differ, so p99 stays NULL.
		{file: d + "hdrhistogram_go_vegeta_go2_ping_ms.hgrm", format: "hdrhistogram", requests: 3000, ok2xx: null, non2xx: null, errors: null,
			rps: nullWant, p50: 0.304, p99: nullWant, mean: 0.425, max: 18.127, spectrum: 61,
			labels: map[string]string{"hdr_buckets": "16", "hdr_subbuckets": "2048"}},
		// The C library's hdr_percentiles_print(h, out, 5, 1000.0, CLASSIC)
		// and CSV of the same latencies.
		{file: d + "hdrhistogram_c_vegeta_go2_ping_ms.hgrm", format: "hdrhistogram", requests: 3000, ok2xx: null, non2xx: null, errors: null,
			rps: nullWant, p50: 0.304, p99: nullWant, mean: 0.425, max: 18.127, spectrum: 61},
		{file: d + "hdrhistogram_c_csv_vegeta_go2_ping_ms.hgrm", format: "hdrhistogram", requests: 3000, ok2xx: null, non2xx: null, errors: null,
			rps: nullWant, p50: 0.304, p99: nullWant, mean: nullWant, max: 18.127, spectrum: 61},
		// Java outputPercentileDistribution(out, 5, 1000.0) of the same latencies.
		{file: d + "hdrhistogram_java_vegeta_go2_ping_ms.hgrm", format: "hdrhistogram", requests: 3000, ok2xx: null, non2xx: null, errors: null,
			rps: nullWant, p50: 0.304, p99: nullWant, mean: 0.425, max: 18.127, spectrum: 61},
		// Java CSV form: no footer, so no mean; the percentile 1 row is the maximum.
		{file: d + "hdrhistogram_java_csv_vegeta_go2_ping_ms.hgrm", format: "hdrhistogram", requests: 3000, ok2xx: null, non2xx: null, errors: null,
			rps: nullWant, p50: 0.304, p99: nullWant, mean: nullWant, max: 18.127, spectrum: 61},
		// Java with ratio 1.0 (microseconds) read without a unit label:
		// read as milliseconds, as the format cannot tell (see TestHgrmUnitLabel).
		{file: d + "hdrhistogram_java_vegeta_go1_err5pct_us.hgrm", format: "hdrhistogram", requests: 1500, ok2xx: null, non2xx: null, errors: null,
			rps: nullWant, p50: 353, p99: nullWant, mean: 418.149, max: 7043, spectrum: 56},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// TestHgrmLayoutsAgree reads the distribution of the same 3000 latencies
// as written by three independent implementations, the C library,
// hdrhistogram-go and the Java HdrHistogram, in their plain and CSV
// layouts: every row must agree.
func TestHgrmLayoutsAgree(t *testing.T) {
	const d = "testdata/hdrhistogram/"
	ref, _ := readFixture(t, d+"hdrhistogram_java_vegeta_go2_ping_ms.hgrm")
	for _, f := range []string{"hdrhistogram_go_vegeta_go2_ping_ms.hgrm", "hdrhistogram_java_csv_vegeta_go2_ping_ms.hgrm",
		"hdrhistogram_c_vegeta_go2_ping_ms.hgrm", "hdrhistogram_c_csv_vegeta_go2_ping_ms.hgrm"} {
		r, _ := readFixture(t, d+f)
		if len(r.Percentiles) != len(ref.Percentiles) {
			t.Fatalf("%s: %d rows, Java has %d", f, len(r.Percentiles), len(ref.Percentiles))
		}
		for i, p := range r.Percentiles {
			w := ref.Percentiles[i]
			// C and Go print the fraction with 6 decimals, Java with 12: 1e-4 in percent.
			if p.LatencyMS != w.LatencyMS || p.Count != w.Count || p.Percentile-w.Percentile > 1e-4 || w.Percentile-p.Percentile > 1e-4 {
				t.Errorf("%s row %d: %+v, Java %+v", f, i, p, w)
			}
		}
	}
}

// The unit label rescales values: 418.149 us is 0.418149 ms.
func TestHgrmUnitLabel(t *testing.T) {
	content := readTestdata(t, "testdata/hdrhistogram/hdrhistogram_java_vegeta_go1_err5pct_us.hgrm")
	c := &model.Collector{}
	sink := &labelSink{Sink: c, manifest: map[string]string{"unit": "us"}, name: "f.txt"}
	if err := readHgrm(&Input{Name: "f.txt", R: strings.NewReader(content)}, sink); err != nil {
		t.Fatal(err)
	}
	r := c.Runs[0]
	expectF(t, "latency_mean_ms", r.LatencyMeanMS, 0.418149)
	expectF(t, "latency_stdev_ms", r.LatencyStdevMS, 0.395095)
	expectF(t, "latency_max_ms", r.LatencyMaxMS, 7.043)
	expectF(t, "latency_p50_ms", r.LatencyP50MS, 0.353)
	sink.manifest["unit"] = "minutes"
	err := readHgrm(&Input{Name: "f.txt", R: strings.NewReader(content)}, sink)
	if err == nil || err.Error() != `f.txt: label unit="minutes": want one of ns, us, ms, s` {
		t.Errorf("error %v", err)
	}
}

// TestSpectrumColumns works the fill rule by hand: a row at the level
// gives the column; between two rows of equal value the level has that
// value too; between rows of different values the column stays NULL.
func TestSpectrumColumns(t *testing.T) {
	r := &model.Run{Percentiles: []model.Percentile{
		{Percentile: 50, LatencyMS: 1}, {Percentile: 89, LatencyMS: 2}, {Percentile: 91, LatencyMS: 2},
		{Percentile: 98, LatencyMS: 3}, {Percentile: 99.5, LatencyMS: 4}, {Percentile: 99.9, LatencyMS: 5},
	}}
	spectrumColumns(r)
	expectF(t, "p50", r.LatencyP50MS, 1)
	expectF(t, "p90", r.LatencyP90MS, 2)
	expectF(t, "p95", r.LatencyP95MS, nullWant)
	expectF(t, "p99", r.LatencyP99MS, nullWant)
	expectF(t, "p99.9", r.LatencyP999MS, 5)
}

func TestHgrmErrors(t *testing.T) {
	const d = "testdata/hdrhistogram/"
	plain := readTestdata(t, d+"hdrhistogram_java_vegeta_go2_ping_ms.hgrm")
	csvText := readTestdata(t, d+"hdrhistogram_java_csv_vegeta_go2_ping_ms.hgrm")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "hdrhistogram", "", "f.txt:1: HdrHistogram report ends early: expected the Value Percentile TotalCount 1/(1-Percentile) header"},
		{"header only", "hdrhistogram", headLines(plain, 2), "f.txt:3: truncated HdrHistogram distribution: header without rows"},
		{"cut in the rows", "hdrhistogram", headLines(plain, 40),
			"f.txt:41: truncated HdrHistogram distribution: expected rows up to the one of 1/(1-Percentile) inf and the #[Mean, #[Max and #[Buckets footer"},
		{"csv cut", "hdrhistogram", headLines(csvText, 30), "f.txt:31: truncated HdrHistogram distribution: expected rows up to percentile 1"},
		{"second one cut short", "hdrhistogram", headLines(plain, 40) + plain,
			"f.txt:41:1: truncated HdrHistogram distribution: the next one starts here before the row of 1/(1-Percentile) inf"},
		{"a row after the footer", "hdrhistogram", plain + "      18.127 1.000000000000       3000        4096.00\n",
			`f.txt:67:1: unexpected line in a HdrHistogram report: "18.127 1.000000000000       3000        4096.00" (the report's lines go on at line 67)`},
		{"bad value", "hdrhistogram", strings.Replace(plain, "0.171 0.1", "0,171 0.1", 1),
			`f.txt:4:8: Value: expected a number >= 0, not below the row above, found "0,171"`},
		{"count goes down", "hdrhistogram", strings.Replace(plain, "        303 ", "          0 ", 1),
			"f.txt:4:38: TotalCount 0 is below the previous row's 1"},
		{"bad footer", "hdrhistogram", strings.Replace(plain, "Total count    =", "Total  =", 1),
			`f.txt:65:27: footer: unknown field "Total"`},
	})
}

func FuzzHgrm(f *testing.F) {
	addFuzzSeeds(f, "testdata/hdrhistogram/*", "testdata/vegeta/vegeta_hdrplot_go1*", "testdata/wrk2/wrk2_short*")
	addWildSeeds(f, "hgrm", "vegeta")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "hdrhistogram", "vegeta-hdrplot") })
}

// A distribution whose rows end at its last row (Java prints it without
// 1/(1-Percentile)) but whose footer was left out loads with what it has:
// requests and max from the last row (3000 at 18.127 ms), no mean, and a
// warning; rows printed as percentile 1 before that last row do not end
// it.
func TestHgrmNoFooterAndRowsAtOne(t *testing.T) {
	plain := readTestdata(t, "testdata/hdrhistogram/hdrhistogram_java_vegeta_go2_ping_ms.hgrm")
	noFooter := plain[:strings.Index(plain, "#[Mean")]
	c, err := readAsFormat(t, "hdrhistogram", "f.hgrm", noFooter)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Runs[0]
	expectI(t, "requests", r.Requests, 3000)
	expectF(t, "latency_max_ms", r.LatencyMaxMS, 18.127)
	expectF(t, "latency_mean_ms", r.LatencyMeanMS, nullWant)
	if !strings.Contains(r.Labels["warning"], "no #[Mean, #[Max and #[Buckets footer") {
		t.Errorf("warning %q", r.Labels["warning"])
	}
	// Several rows print 1.000000 before the last (C's layout, as wrk2
	// prints its spectrum): all are kept, and the inf row ends the rows.
	atOne := strings.Replace(plain, "      18.127 0.999707031250       3000        3413.33\n",
		"      18.127 0.999707031250       3000        3413.33\n      18.127 1.000000000000       3000        4096.00\n", 1)
	c, err = readAsFormat(t, "hdrhistogram", "f.hgrm", atOne)
	if err != nil {
		t.Fatal(err)
	}
	if n, m := len(c.Runs[0].Percentiles), len(r.Percentiles); n != m+1 {
		t.Errorf("%d rows, want %d", n, m+1)
	}
}

// Distributions one after another are runs of their own; the spectrum of
// a wrk2 report, read as a distribution, has the rows the wrk2 reader
// reads (one set of rules for both).
func TestHgrmSeveralAndWrk2Spectrum(t *testing.T) {
	plain := readTestdata(t, "testdata/hdrhistogram/hdrhistogram_java_vegeta_go2_ping_ms.hgrm")
	c, err := readAsFormat(t, "hdrhistogram", "f.hgrm", plain+"\n"+plain)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 2 || c.Runs[1].Line != 68 || !c.Runs[1].Round.Valid || c.Runs[1].Round.V != 2 {
		t.Fatalf("%d runs, want 2, the second at line 68 as round 2", len(c.Runs))
	}
	short := readTestdata(t, "testdata/wrk2/wrk2_short_6s_go1_ping_R500.txt")
	w, err := readAsFormat(t, "wrk2", "x.txt", short)
	if err != nil {
		t.Fatal(err)
	}
	h, err := readAsFormat(t, "hdrhistogram", "x.txt", short)
	if err != nil {
		t.Fatal(err)
	}
	wp, hp := w.Runs[0].Percentiles, h.Runs[0].Percentiles
	if len(wp) == 0 || len(wp) != len(hp) {
		t.Fatalf("wrk2 %d rows, hgrm %d", len(wp), len(hp))
	}
	for i := range wp {
		if wp[i].Percentile != hp[i].Percentile || wp[i].LatencyMS != hp[i].LatencyMS || wp[i].Count != hp[i].Count {
			t.Errorf("row %d: wrk2 %+v, hgrm %+v", i, wp[i], hp[i])
		}
	}
}
