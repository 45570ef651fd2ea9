package ingest

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

const k6dir = "testdata/k6/"

func readK6(t *testing.T, file string) (*Format, *model.Collector) {
	t.Helper()
	var c model.Collector
	f, err := ReadFile(k6dir+file, &c)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(c.Runs) != 1 {
		t.Fatalf("%s: %d runs, want 1", file, len(c.Runs))
	}
	return f, &c
}

func k6OptF(v float64) model.Opt[float64] { return model.Some(v) }

func k6SameOpt(a, b model.Opt[float64]) bool {
	if a.Valid != b.Valid {
		return false
	}
	return !a.Valid || math.Abs(a.V-b.V) <= 1e-12*math.Max(1, math.Abs(b.V))
}

// TestK6Summaries checks every k6 summary capture against the numbers
// printed in the file itself (quoted in the comments).
func TestK6Summaries(t *testing.T) {
	none := model.Opt[float64]{}
	cases := []struct {
		file, format string
		requests     int64
		rps          float64
		errors       int64
		p50, p90     float64
		p95, p99     model.Opt[float64]
		spectrum     int
		corrected    bool
		thrFailed    string // thresholds_failed label, "" when none printed
		labels       map[string]string
	}{
		// "http_reqs": {"count": 1001, "rate": 100.07403516111103}, "med": 0.666758,
		// "p(90)": 1.108398, "p(95)": 1.397798; thresholds all false (= passed).
		{"k6_constant_go2_ping_summary_export.json", "k6-summary-export", 1001, 100.07403516111103, 0, 0.666758, 1.108398, k6OptF(1.397798), none, 5, false, "0",
			map[string]string{"threshold.http_req_duration.p(95)<50": "ok", "threshold.http_req_failed.rate<0.01": "ok",
				"submetric.http_req_duration{expected_response:true}.p95_ms": "1.397798"}},
		// http_req_failed "passes": 23 (true = failed requests), threshold "rate<0.01": true = FAILED.
		{"k6_constant_err_legacy_summary_export.json", "k6-summary-export", 596, 198.52748526727365, 23, 0.424732, 0.6696265, k6OptF(0.91568), none, 5, false, "1",
			map[string]string{"threshold.http_req_failed.rate<0.01": "failed", "dropped_iterations": "5"}},
		// "http_req_duration{step:6400}": "p(95)": 173.64...; its threshold true = failed.
		{"k6_ladder_go1_db_summary_export.json", "k6-summary-export", 51780, 1723.1614768232787, 0, 1.512697, 72.9240018, k6OptF(116.79085799999993), none, 5, false, "2",
			map[string]string{"threshold.http_req_duration{step:6400}.p(95)<50": "failed", "threshold.http_req_duration{step:3200}.p(95)<50": "ok",
				"submetric.http_req_duration{step:6400}.p95_ms": "173.648833", "dropped_iterations": "16658"}},
		{"k6_ladder_go1_wait10_summary_export.json", "k6-summary-export", 34653, 1154.6205493975287, 0, 11.000622, 15.494792599999998, k6OptF(21.1544838), none, 5, false, "0", nil},
		{"k6_ladder_go1_db_points_summary_export.json", "k6-summary-export", 63430, 3960.457779280881, 0, 5.022247, 29.1166612, k6OptF(38.9343441), none, 5, false, "1",
			map[string]string{"threshold.http_req_duration{step:12000}.p(95)<50": "failed"}},
		{"k6_ladder_go2_wait5_summary_export.json", "k6-summary-export", 25739, 1072.0414505845224, 0, 5.902635, 7.4507256, k6OptF(9.2574221), none, 5, false, "0", nil},
		// Nothing listened: all 41 requests failed, durations 0 as k6 wrote them.
		{"k6_refused_summary_export.json", "k6-summary-export", 41, 20.433918923282306, 41, 0, 0, k6OptF(0), none, 5, false, "1",
			map[string]string{"threshold.http_req_failed.rate<0.01": "failed"}},
		// handleSummary: "ok": true = passed; state.testRunDurationMs 24009.332835.
		{"k6_ladder_go2_wait5_handle_summary.json", "k6-handle-summary", 25739, 1072.0414505845224, 0, 5.902635, 7.4507256, k6OptF(9.2574221), none, 5, false, "0",
			map[string]string{"threshold.http_req_duration{step:2400}.p(95)<50": "ok", "submetric.http_req_duration{step:300}.p95_ms": "7.292667999999998"}},
		// Machine-readable summary: no rate, rps = 1621 / config.duration 6.010828079;
		// the embedded script names executor 'ramping-arrival-rate'.
		{"k6_ladder_new_summary_export.json", "k6-summary-json", 1621, 1621 / 6.010828079, 0, 11.190447, 16.794191, k6OptF(28.529242), none, 5, true, "",
			map[string]string{"executor": "ramping-arrival-rate", "submetric.http_req_duration{step:400}.p95_ms": "31.2933345", "summary_schema_version": "1.0.0"}},
		{"k6_ladder_new_handle_summary.json", "k6-summary-json", 1691, 1691 / 6.019502737, 0, 11.259748, 14.669375, k6OptF(19.376326), none, 5, true, "", nil},
		{"k6_constant_new_p99_summary_export.json", "k6-summary-json", 401, 401 / 2.00267062, 0, 0.525799, 2.065483, k6OptF(5.348519), none, 5, true, "",
			map[string]string{"executor": "constant-arrival-rate"}},
		// Text, compact: "http_reqs......................: 1001   100.074035/s",
		// "med=666.75µs", "p(90)=1.1ms  p(95)=1.39ms", threshold line "p(99)=3.53ms";
		// banner "* steady: 100.00 iterations/s for 10s" = constant-arrival-rate.
		{"k6_constant_go2_ping_stdout.txt", "k6-text", 1001, 100.074035, 0, 0.66675, 1.1, k6OptF(1.39), k6OptF(3.53), 6, true, "0",
			map[string]string{"executor": "constant-arrival-rate"}},
		// Full mode: the SCENARIO block repeats the metrics and is not read twice.
		{"k6_constant_nginx_full_stdout.txt", "k6-text", 2401, 300.051884, 0, 0.39763, 0.66961, k6OptF(0.84757), k6OptF(2.96), 6, true, "0", nil},
		// "✗ 'p(95)<50' p(95)=173.64ms" under {step:6400}; "* ladder: Up to 6400.00 iterations/s".
		{"k6_ladder_go1_db_stdout.txt", "k6-text", 51780, 1723.161477, 0, 1.51, 72.92, k6OptF(116.79), none, 5, true, "2",
			map[string]string{"executor": "ramping-arrival-rate", "threshold.http_req_duration{step:6400}.p(95)<50": "failed",
				"submetric.http_req_duration{step:6400}.p95_ms": "173.64", "dropped_iterations": "16658"}},
		// -q: no banner, so no executor and no correction claimed.
		{"k6_ladder_go1_db_points_stdout.txt", "k6-text", 63430, 3960.457779, 0, 5.02, 29.11, k6OptF(38.93), none, 5, false, "1",
			map[string]string{"threshold.http_req_duration{step:12000}.p(95)<50": "failed"}},
		{"k6_ladder_go1_wait10_stdout.txt", "k6-text", 34653, 1154.620549, 0, 11, 15.49, k6OptF(21.15), none, 5, true, "0", nil},
		{"k6_ladder_new_summary_stdout.txt", "k6-text", 1621, 269.679981, 0, 11.19, 16.79, k6OptF(28.52), none, 5, true, "0", nil},
		{"k6_ladder_csv_stdout.txt", "k6-text", 547, 136.399375, 0, 11.15, 11.89, k6OptF(12.95), none, 5, true, "0", nil},
		// Legacy text: "✗ http_req_failed................: 3.85%  23 out of 596".
		{"k6_constant_err_legacy_stdout.txt", "k6-text", 596, 198.527485, 23, 0.42473, 0.66962, k6OptF(0.91568), none, 5, true, "1",
			map[string]string{"threshold.http_req_failed": "failed", "threshold.http_req_duration": "ok"}},
		{"k6_refused_stdout.txt", "k6-text", 41, 20.433919, 41, 0, 0, k6OptF(0), k6OptF(0), 6, true, "1", nil},
		// Thresholds on sub-metrics whose metric has none, headed in full
		// ("http_reqs{step:120}" then "✓ 'count>0' count=1182"); every
		// step's failures and requests kept: "{ step:80 }: 4.24%  33 out
		// of 778", "{ step:80 }: 778    19.44958/s".
		{"k6_ladder_steps_stdout.txt", "k6-text", 2549, 63.723625, 260, 0.26597, 1.59, k6OptF(3.59), none, 5, true, "3",
			map[string]string{"threshold.http_reqs{step:120}.count>0": "ok", "submetric.http_reqs{step:80}.count": "778",
				"submetric.http_req_failed{step:80}.passes": "33", "submetric.http_req_failed{step:80}.fails": "745",
				"threshold.http_req_failed{step:80}.rate<0.01": "failed", "executor": "ramping-arrival-rate"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			f, col := readK6(t, c.file)
			r := col.Runs[0]
			if f.Name != c.format {
				t.Errorf("format %s, want %s", f.Name, c.format)
			}
			if r.Tool != "k6" || r.Requests != model.Some(c.requests) || !k6SameOpt(r.RPS, k6OptF(c.rps)) || r.Errors != model.Some(c.errors) {
				t.Errorf("requests %v rps %v errors %v, want %d %v %d", r.Requests, r.RPS, r.Errors, c.requests, c.rps, c.errors)
			}
			if !k6SameOpt(r.LatencyP50MS, k6OptF(c.p50)) || !k6SameOpt(r.LatencyP90MS, k6OptF(c.p90)) || !k6SameOpt(r.LatencyP95MS, c.p95) || !k6SameOpt(r.LatencyP99MS, c.p99) {
				t.Errorf("p50 %v p90 %v p95 %v p99 %v, want %v %v %v %v", r.LatencyP50MS, r.LatencyP90MS, r.LatencyP95MS, r.LatencyP99MS, c.p50, c.p90, c.p95, c.p99)
			}
			if len(r.Percentiles) != c.spectrum {
				t.Errorf("spectrum %v, want %d points", r.Percentiles, c.spectrum)
			}
			if r.LatencyCorrected != c.corrected {
				t.Errorf("latency_corrected %v, want %v", r.LatencyCorrected, c.corrected)
			}
			for _, p := range r.Percentiles {
				if p.Corrected != c.corrected {
					t.Errorf("percentile %v corrected %v, want %v", p.Percentile, p.Corrected, c.corrected)
				}
			}
			if got := r.Labels["thresholds_failed"]; got != c.thrFailed {
				t.Errorf("thresholds_failed %q, want %q", got, c.thrFailed)
			}
			for k, v := range c.labels {
				if r.Labels[k] != v {
					t.Errorf("label %s = %q, want %q", k, r.Labels[k], v)
				}
			}
			if len(col.Samples) != 0 {
				t.Errorf("%d sample runs from a summary", len(col.Samples))
			}
		})
	}
}

// TestK6Points reads the point streams with the Go reader and checks them
// against the summary k6 itself wrote for the same run: k6 computes p(N)
// by the same linear interpolation, so the percentiles agree exactly.
func TestK6Points(t *testing.T) {
	cases := []struct {
		file, format, summary string
		points                int // Point lines (grep -c '"type":"Point"') or CSV rows
		ok2xx, non2xx         int64
		step                  string // a step tag value found in the points, "" when none
	}{
		{"k6_constant_go2_ping_points.ndjson", "k6-ndjson", "k6_constant_go2_ping_summary_export.json", 14034, 1001, 0, ""},
		{"k6_constant_go2_ping_points.csv", "k6-csv", "k6_constant_go2_ping_summary_export.json", 14034, 1001, 0, ""},
		{"k6_constant_err_points.ndjson", "k6-ndjson", "k6_constant_err_legacy_summary_export.json", 8355, 573, 23, ""},
		{"k6_constant_err_points.csv", "k6-csv", "k6_constant_err_legacy_summary_export.json", 8355, 573, 23, ""},
		{"k6_ladder_points.ndjson.gz", "k6-ndjson", "k6_ladder_points_summary_export.json", 7680, 548, 0, "200"},
		{"k6_ladder_csv_points.csv", "k6-csv", "", 7666, 547, 0, "100"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			f, col := readK6(t, c.file)
			r := col.Runs[0]
			if f.Name != c.format {
				t.Errorf("format %s, want %s", f.Name, c.format)
			}
			pts := col.Samples[0]
			if len(pts) != c.points || r.Labels["points"] != k6Itoa(c.points) {
				t.Errorf("%d points (label %s), want %d", len(pts), r.Labels["points"], c.points)
			}
			if r.Responses2xx != model.Some(c.ok2xx) || r.Non2xx != model.Some(c.non2xx) || r.Requests != model.Some(c.ok2xx+c.non2xx) {
				t.Errorf("2xx %v non-2xx %v requests %v, want %d %d", r.Responses2xx, r.Non2xx, r.Requests, c.ok2xx, c.non2xx)
			}
			if r.Errors != model.Some(c.non2xx) { // /err answers 500, which k6 counts as failed
				t.Errorf("errors %v, want %d", r.Errors, c.non2xx)
			}
			if len(r.Percentiles) != len(k6Percentiles) || r.LatencyCorrected {
				t.Errorf("spectrum %v corrected %v", r.Percentiles, r.LatencyCorrected)
			}
			steps := 0
			for _, p := range pts {
				if p.Tags == "" || p.Metric == "" || p.TS.IsZero() {
					t.Fatalf("point %+v", p)
				}
				if c.step != "" && strings.Contains(p.Tags, `"step":"`+c.step+`"`) {
					steps++
				}
			}
			if c.step != "" && steps == 0 {
				t.Errorf("no point tagged step %s", c.step)
			}
			if c.summary == "" {
				return
			}
			_, sc := readK6(t, c.summary)
			s := sc.Runs[0]
			if r.Requests != s.Requests || r.Errors != s.Errors || r.BytesRead != s.BytesRead {
				t.Errorf("requests %v errors %v bytes %v; k6's summary %v %v %v", r.Requests, r.Errors, r.BytesRead, s.Requests, s.Errors, s.BytesRead)
			}
			for _, p := range []struct {
				name      string
				got, want model.Opt[float64]
			}{{"p50", r.LatencyP50MS, s.LatencyP50MS}, {"p90", r.LatencyP90MS, s.LatencyP90MS}, {"p95", r.LatencyP95MS, s.LatencyP95MS},
				{"max", r.LatencyMaxMS, s.LatencyMaxMS}, {"mean", r.LatencyMeanMS, s.LatencyMeanMS}} {
				if !k6SameOpt(p.got, p.want) {
					t.Errorf("%s %v, k6's summary %v", p.name, p.got, p.want)
				}
			}
		})
	}
}

func k6Itoa(n int) string { return strconv.Itoa(n) }

// TestK6Detect checks that every k6 capture is read as its format and
// that no k6 format claims another tool's capture.
func TestK6Detect(t *testing.T) {
	k6 := map[string]bool{}
	for _, f := range Formats() {
		if strings.HasPrefix(f.Name, "k6-") {
			k6[f.Name] = true
		}
	}
	if len(k6) != 6 {
		t.Fatalf("k6 formats %v, want 6", k6)
	}
	others, _ := filepath.Glob("testdata/*/*")
	for _, p := range others {
		if strings.HasPrefix(p, "testdata/k6/") || strings.HasPrefix(p, "testdata/fuzz/") || strings.HasPrefix(p, "testdata/wild/") {
			continue
		}
		head := k6HeadOf(t, p)
		for _, f := range Formats() {
			if k6[f.Name] && f.Detect(head) {
				t.Errorf("%s: detected as %s", p, f.Name)
			}
		}
	}
	for _, p := range []string{"constant_rate.js", "ladder.js", "MANIFEST.md"} {
		if f := Detect(k6HeadOf(t, k6dir+p)); f != nil {
			t.Errorf("%s: detected as %s", p, f.Name)
		}
	}
}

func k6HeadOf(t *testing.T, p string) []byte {
	t.Helper()
	o, err := open(p, p)
	if err != nil {
		t.Fatal(err)
	}
	defer o.close()
	return append([]byte(nil), o.head...)
}

func k6ReadBytes(name string, data []byte, read func(*Input, model.Sink) error) (*model.Collector, error) {
	var c model.Collector
	err := read(&Input{Name: name, R: bytes.NewReader(data)}, &c)
	return &c, err
}

func k6MustRead(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(k6dir + file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestK6Errors: truncated, mixed, wrong-tool and error-message inputs are
// named with their line and never become a run.
func TestK6Errors(t *testing.T) {
	export := k6MustRead(t, "k6_constant_go2_ping_summary_export.json")
	text := k6MustRead(t, "k6_constant_go2_ping_stdout.txt")
	nd := k6MustRead(t, "k6_constant_go2_ping_points.ndjson")
	csvData := k6MustRead(t, "k6_constant_go2_ping_points.csv")
	lines := func(b []byte, n int) []byte {
		return []byte(strings.Join(strings.SplitAfter(string(b), "\n")[:n], ""))
	}
	cases := []struct {
		name string
		data []byte
		read func(*Input, model.Sink) error
		want string
	}{
		{"cut.json", export[:1000], readK6SummaryExport, "cut.json:38:1: truncated k6 summary JSON: the document ends before it closes"},
		{"nohttp.json", []byte(`{"root_group": {}, "metrics": {"vus": {"value": 1, "min": 0, "max": 1}}}`), readK6SummaryExport,
			"nohttp.json: no http_reqs metric: a k6 summary of an HTTP test has one"},
		{"two.json", append(append([]byte{}, export...), export...), readK6SummaryExport,
			"two.json:134:2: a second JSON document follows: a file holds one report"},
		{"badthr.json", bytes.Replace(export, []byte(`"rate<0.01": false`), []byte(`"rate<0.01": "no"`), 1), readK6SummaryExport,
			`badthr.json: metric http_req_failed: threshold "rate<0.01": want true (failed) or false, got a string`},
		{"str.json", bytes.Replace(export, []byte(`"count": 1001,`), []byte(`"count": "1001",`), 1), readK6SummaryExport,
			"str.json: metric http_reqs count: want a number, got a string"},
		{"cut.txt", lines(text, 62), readK6Text,
			"cut.txt:63: the k6 summary from line 9 ends here without an http_reqs line (it has http_req_duration, http_req_failed, checks_total, checks_succeeded, checks_fa...): a test that made no HTTP request, or a summary cut short"},
		{"badval.txt", bytes.Replace(text, []byte("1001   100.074035/s"), []byte("many"), 2), readK6Text,
			`badval.txt:70: k6 metric line http_reqs: "many" is no layout k6 prints for a metric: expected "count rate/s", "p% n out of m", "p% ✓ n ✗ m", "value min=… max=…" or "stat=value …"`},
		{"handle.txt", k6MustRead(t, "k6_ladder_go2_wait5_handlesummary_stdout.txt"), readK6Text,
			"handle.txt:92: k6 printed no end-of-test summary after its banner at line 9: no metric line (name....: values) follows; cut short, or replaced by handleSummary"},
		{"cut.ndjson", append(lines(nd, 9), []byte(`{"metric":"http_reqs","type":"Point","data":{"time":"2026-11-29T18:51:42.26`)...), readK6NDJSON,
			"cut.ndjson:10: not a JSON object: unexpected end of JSON input"},
		{"metrics.ndjson", []byte(`{"type":"Metric","data":{"name":"http_reqs","type":"counter"},"metric":"http_reqs"}` + "\n"), readK6NDJSON,
			"metrics.ndjson: no http_reqs points: a k6 point stream of an HTTP test has them"},
		{"vegeta.ndjson", []byte(`{"type":"Metric","data":{"name":"x"},"metric":"x"}` + "\n" + `{"attack":"","seq":0,"code":200,"timestamp":"2026-11-29T18:51:42Z"}` + "\n"), readK6NDJSON,
			`vegeta.ndjson:2: no "type": want a k6 Metric or Point line`},
		{"tags.ndjson", []byte(`{"metric":"http_reqs","type":"Point","data":{"time":"2026-11-29T18:51:42Z","value":1,"tags":{"status":200}}}` + "\n"), readK6NDJSON,
			"tags.ndjson:1: data.tags: want an object of strings: cannot unmarshal number into Go value of type string"},
		{"cut.csv", append(lines(csvData, 3), []byte("http_reqs,179597830")...), readK6CSV,
			"cut.csv:4:1: wrong number of fields: expected 19 as in the header (a truncated row?)"},
		{"time.csv", append(lines(csvData, 2), []byte("http_reqs,2026-11-29,1.000000,,,,true,,GET,x,HTTP/1.1,steady,,200,,,x,,\n")...), readK6CSV,
			`time.csv:3:11: timestamp "2026-11-29": want a whole Unix time like the first row's`},
		{"header.csv", []byte("metric_name,metric_value,timestamp\nhttp_reqs,1,1795978302\n"), readK6CSV,
			"header.csv:1: k6 CSV header must start with metric_name,timestamp,metric_value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			col, err := k6ReadBytes(c.name, c.data, c.read)
			if err == nil || err.Error() != c.want {
				t.Fatalf("error\n  %v\nwant\n  %s", err, c.want)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("%T is not a *SyntaxError", err)
			}
			if len(col.Runs) != 0 {
				t.Errorf("a run from a bad input: %+v", col.Runs[0])
			}
		})
	}
}

// TestK6ExecutorLabel: a summary that does not show its executor is
// corrected only when a label says the executor paces by arrival rate.
func TestK6ExecutorLabel(t *testing.T) {
	for _, c := range []struct {
		executor string
		want     bool
	}{{"ramping-arrival-rate", true}, {"constant-arrival-rate,ramping-arrival-rate", true}, {"constant-vus", false}, {"constant-arrival-rate,ramping-vus", false}} {
		_, col := readK6(t, "k6_ladder_go1_db_summary_export.json")
		r := col.Runs[0]
		if r.LatencyCorrected {
			t.Fatal("corrected without evidence")
		}
		r.SetLabel("executor", c.executor)
		applyExecutorLabel(r)
		if r.LatencyCorrected != c.want || r.Percentiles[0].Corrected != c.want {
			t.Errorf("executor %s: corrected %v, want %v", c.executor, r.LatencyCorrected, c.want)
		}
	}
}

// TestK6GzipStream reads a gzip k6 wrote itself (ReadFile decompresses).
func TestK6GzipStream(t *testing.T) {
	raw, err := os.ReadFile(k6dir + "k6_ladder_points.ndjson.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	col, err := k6ReadBytes("plain.ndjson", plain, readK6NDJSON)
	if err != nil {
		t.Fatal(err)
	}
	_, gz := readK6(t, "k6_ladder_points.ndjson.gz")
	if len(col.Samples[0]) != len(gz.Samples[0]) || col.Runs[0].LatencyP95MS != gz.Runs[0].LatencyP95MS {
		t.Errorf("gzip and plain differ: %d/%d points", len(gz.Samples[0]), len(col.Samples[0]))
	}
}

// k6Fuzz reads any input with one reader: it must not panic, and a run it
// returns has its requests.
func k6Fuzz(f *testing.F, read func(*Input, model.Sink) error, seeds ...[]byte) {
	for _, s := range seeds {
		f.Add(s)
		f.Add(s[:len(s)/2])
	}
	for _, other := range []string{"../wrk/", "../ab/", "../vegeta/"} {
		if ps, _ := filepath.Glob(k6dir + other + "*"); len(ps) > 0 {
			if b, err := os.ReadFile(ps[0]); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("unable to connect to 127.0.0.1:8099 Connection refused\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c model.Collector
		err := read(&Input{Name: "fuzz", R: bytes.NewReader(data)}, &c)
		if err != nil {
			if len(c.Runs) != 0 {
				t.Fatalf("error %v with a run", err)
			}
			return
		}
		if len(c.Runs) == 0 {
			t.Fatal("no error and no run")
		}
		for i, r := range c.Runs {
			if !r.Requests.Valid || r.Index != i {
				t.Fatalf("no error and run %d %+v", i, r)
			}
		}
	})
}

func k6FirstLines(t testing.TB, b []byte, n int) []byte {
	return []byte(strings.Join(strings.SplitAfterN(string(b), "\n", n+1)[:min(n, strings.Count(string(b), "\n"))], ""))
}

func k6Seed(f *testing.F, files ...string) [][]byte {
	var out [][]byte
	for _, p := range files {
		b, err := os.ReadFile(k6dir + p)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

func FuzzK6SummaryExport(f *testing.F) {
	k6Fuzz(f, readK6SummaryExport, append(k6Seed(f, "k6_constant_go2_ping_summary_export.json", "k6_ladder_go1_db_summary_export.json", "k6_ladder_new_summary_export.json"), wildSeeds(f, ".json", "k6")...)...)
}

func FuzzK6HandleSummary(f *testing.F) {
	k6Fuzz(f, readK6HandleSummary, append(k6Seed(f, "k6_ladder_go2_wait5_handle_summary.json", "k6_ladder_go2_wait5_summary_export.json"), wildSeeds(f, ".json", "k6")...)...)
}

func FuzzK6SummaryJSON(f *testing.F) {
	k6Fuzz(f, readK6SummaryJSON, append(k6Seed(f, "k6_ladder_new_summary_export.json", "k6_constant_new_p99_summary_export.json", "k6_ladder_go2_wait5_handle_summary.json"), wildSeeds(f, ".json", "k6")...)...)
}

func FuzzK6Text(f *testing.F) {
	k6Fuzz(f, readK6Text, append(k6Seed(f, "k6_constant_go2_ping_stdout.txt", "k6_constant_nginx_full_stdout.txt", "k6_ladder_go1_db_stdout.txt",
		"k6_constant_err_legacy_stdout.txt", "k6_refused_stdout.txt", "k6_ladder_steps_stdout.txt"), wildSeeds(f, ".txt", "k6", "notreport")...)...)
}

func FuzzK6NDJSON(f *testing.F) {
	s := k6Seed(f, "k6_constant_err_points.ndjson")
	k6Fuzz(f, readK6NDJSON, k6FirstLines(f, s[0], 40), k6FirstLines(f, s[0], 3))
}

func FuzzK6CSV(f *testing.F) {
	s := k6Seed(f, "k6_constant_err_points.csv", "k6_ladder_csv_points.csv")
	k6Fuzz(f, readK6CSV, k6FirstLines(f, s[0], 40), k6FirstLines(f, s[1], 20))
}

// Real text summaries of other k6 versions (PROVENANCE.md). requests are
// http_reqs, errors the ✓ count of http_req_failed (requests that failed:
// its "passes"), rps the printed rate; k6 counts no 2xx apart.
func TestK6TextWild(t *testing.T) {
	const d = "testdata/wild/k6/"
	n := int64(nullWant)
	for _, tc := range []loadToolCase{
		// k6 v0.4.2 (the README of v0.5.0): "    http_reqs: 17538", trends
		// "avg=5.26ms, max=31.48ms, med=4.3ms, …", no rate: rps is
		// 17538 over the 10s of "done [====] 10s / 10s".
		{file: d + "k6-readme-2016-v0.4.2-colon-layout.txt", format: "k6-text", requests: 17538, ok2xx: n, non2xx: n, errors: n,
			rps: perSecond(17538, 10), p50: 4.3, p99: nullWant, mean: 5.26, max: 31.48, spectrum: 5, durationS: 10, startLine: 4},
		// k6 0.4x: "█ test-group" heads the group's checks, the totals
		// follow; "http_req_failed: 0.00%  ✓ 0  ✗ 4546".
		{file: d + "xk6-clickhouse-readme-group-v0.4x.txt", format: "k6-text", requests: 4546, ok2xx: n, non2xx: n, errors: 0,
			rps: 56.826576, p50: 162.8, p99: nullWant, mean: 185.09, max: 981.62, spectrum: 5, startLine: 7,
			labels: map[string]string{"iterations": "903", "executor": "ramping-vus"}},
		// Five runs of one Markdown page, summaryTrendStats p(50) … p(99)
		// and count; run 3 prints min=-1151782ns for http_req_duration.
		{file: d + "bifrost-linux-amd64-five-runs.txt", format: "k6-text", runs: 5, run: 0, requests: 690871, ok2xx: n, non2xx: n,
			errors: 0, rps: 23029.874815, p50: 3.11, p99: 23.16, mean: 4.01, max: 60.52, spectrum: 6, startLine: 22},
		{file: d + "bifrost-linux-amd64-five-runs.txt", format: "k6-text", runs: 5, run: 2, requests: 573733, ok2xx: n, non2xx: n,
			errors: 0, rps: 19121.793807, p50: 3.04, p99: 32.43, mean: 4.74, max: 76.48, spectrum: 5, startLine: 84,
			labels: map[string]string{"reported_http_req_duration_min_ms": "-1.151782"}},
		{file: d + "bifrost-linux-amd64-five-runs.txt", format: "k6-text", runs: 5, run: 4, requests: 887938, ok2xx: n, non2xx: n,
			errors: 0, rps: 29596.936994, p50: 2.2, p99: 17.72, mean: 3.13, max: 49.36, spectrum: 6, startLine: 144},
	} {
		t.Run(filepath.Base(tc.file)+"#"+strconv.Itoa(tc.run), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// Two summaries in one file, with their banners (current layout) or
// without (legacy): two runs with the same numbers, the second from where
// it starts.
func TestK6TextSeveral(t *testing.T) {
	for _, name := range []string{"k6_constant_go2_ping_stdout.txt", "k6_constant_err_legacy_stdout.txt"} {
		text := k6MustRead(t, name)
		c, err := k6ReadBytes(name, append(append([]byte{}, text...), text...), readK6Text)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Runs) != 2 {
			t.Fatalf("%s: %d runs, want 2", name, len(c.Runs))
		}
		a, b := c.Runs[0], c.Runs[1]
		lines := bytes.Count(text, []byte("\n"))
		if a.Requests != b.Requests || a.RPS != b.RPS || a.LatencyP95MS != b.LatencyP95MS || b.Index != 1 || b.Line != a.Line+lines {
			t.Errorf("%s: runs %+v and %+v", name, a, b)
		}
	}
}

// A terminal that cuts the http_req_duration line inside a unit leaves a
// value that is no duration k6 prints: "p(95)=36.32m" is the start of
// "36.32ms", never 36.32 minutes. The figure stays NULL with a warning
// naming its line, and the rest of the summary loads. The summary is the
// wild capture nordfjord-express-2023-checkmarks.txt with its line 24 cut.
func TestK6TextCutUnit(t *testing.T) {
	full := readTestdata(t, "testdata/wild/k6/nordfjord-express-2023-checkmarks.txt")
	const line = "avg=18.41ms min=654µs   med=17.22ms max=178.63ms p(90)=30.32ms p(95)=36.32ms\n"
	if strings.Count(full, line) != 2 {
		t.Fatal("the http_req_duration line and its expected_response sub-metric are no longer in the capture")
	}
	cutAt := func(tail string) string {
		return strings.Replace(full, line, strings.TrimSuffix(line, "p(95)=36.32ms\n")+tail+"\n", 1)
	}
	warn := func(f string) string {
		return `line 24: http_req_duration "` + f + `" has no complete unit (the line is cut short): not read`
	}
	for _, tc := range []struct {
		name, content string
		p95           float64
		percentiles   int
		warning       string
	}{
		{"bare m", cutAt("p(95)=36.32m"), nullWant, 4, warn("p(95)=36.32m")},
		{"no unit", cutAt("p(95)=36.32"), nullWant, 4, warn("p(95)=36.32")},
		{"no value", cutAt("p(95)="), nullWant, 4, warn("p(95)=")},
		{"inside the name", cutAt("p(9"), nullWant, 4, warn("p(9")},
		{"micro sign", cutAt("p(95)=36.32µ"), nullWant, 4, warn("p(95)=36.32µ")},
		{"whole", full, 36.32, 5, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := readAsFormat(t, "k6-text", "f.txt", tc.content)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Runs) != 1 {
				t.Fatalf("%d runs, want 1", len(c.Runs))
			}
			r := c.Runs[0]
			expectI(t, "requests", r.Requests, 43404)
			expectF(t, "rps", r.RPS, 4334.681688)
			expectI(t, "errors", r.Errors, 0)
			expectF(t, "latency_mean_ms", r.LatencyMeanMS, 18.41)
			expectF(t, "latency_p50_ms", r.LatencyP50MS, 17.22)
			expectF(t, "latency_p90_ms", r.LatencyP90MS, 30.32)
			expectF(t, "latency_p95_ms", r.LatencyP95MS, tc.p95)
			expectF(t, "latency_max_ms", r.LatencyMaxMS, 178.63)
			if len(r.Percentiles) != tc.percentiles {
				t.Errorf("percentiles %v, want %d", r.Percentiles, tc.percentiles)
			}
			if got := r.Labels["warning"]; got != tc.warning {
				t.Errorf("warning\n got %q\nwant %q", got, tc.warning)
			}
		})
	}
	// k6 1.x: the same cut where the THRESHOLDS block prints the figure
	// whole ("✓ 'p(95)<50' p(95)=28.52ms"): the figure comes from there.
	ladder := readTestdata(t, "testdata/k6/k6_ladder_new_summary_stdout.txt")
	c, err := readAsFormat(t, "k6-text", "f.txt", strings.Replace(ladder, "p(90)=16.79ms p(95)=28.52ms\n", "p(90)=16.79ms p(95)=28.52m\n", 1))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Runs[0]
	expectI(t, "requests", r.Requests, 1621)
	expectF(t, "latency_p95_ms", r.LatencyP95MS, 28.52)
	if got, want := r.Labels["warning"], `line 60: http_req_duration "p(95)=28.52m" has no complete unit (the line is cut short): not read`; got != want {
		t.Errorf("warning\n got %q\nwant %q", got, want)
	}
}

// A unit cut inside a compound duration, or a threshold value cut after
// "m", is no number either; a trend that is not of time keeps its bare
// numbers.
func TestK6TextValue(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ms   float64
		unit int
	}{
		{"28.52ms", 28.52, k6UnitTime},
		{"1m2s", 62000, k6UnitTime},
		{"-3µs", -0.003, k6UnitTime},
		{"0", 0, k6UnitTime},
		{"21.44m", 0, k6UnitCut},
		{"2h", 0, k6UnitCut},
		{"1m2", 0, k6UnitCut},
		{"1m2.", 0, k6UnitCut},
		{"", 0, k6UnitCut},
		{"4.5", 4.5, k6UnitNone},
		{"fast", 0, k6UnitBad},
		{"12kB", 0, k6UnitBad},
	} {
		ms, u := k6TextValue(tc.in)
		if ms != tc.ms || u != tc.unit {
			t.Errorf("k6TextValue(%q) = %v, %d, want %v, %d", tc.in, ms, u, tc.ms, tc.unit)
		}
	}
	// The thresholds block of the same capture, its {step:400} p(95)
	// line cut after "m": the sub-metric keeps its own printed p(95).
	full := readTestdata(t, "testdata/k6/k6_ladder_new_summary_stdout.txt")
	c, err := readAsFormat(t, "k6-text", "f.txt", strings.Replace(full, "p(95)=31.29ms\n", "p(95)=31.29m\n", 1))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Runs[0].Labels["submetric.http_req_duration{step:400}.p95_ms"]; got != "31.29" {
		t.Errorf("{step:400} p95 %q, want 31.29", got)
	}
}

// A terminal narrower than k6's summary cuts its lines at the edge: a
// gauge cut after "min=" (vus_max … min=) loses that value with a
// warning, as a cut trend value does, instead of refusing the summary.
// No real log cut so could be had: the real legacy summary of
// k6_constant_err_legacy_stdout.txt is cut on its vus_max line here.
// data_received and data_sent are kept as printed (SI bytes: 71 kB is
// 71000, 24 kB/s 24000).
func TestK6TextGaugeCut(t *testing.T) {
	const f = "testdata/k6/k6_constant_err_legacy_stdout.txt"
	full := readTestdata(t, f)
	line := "vus_max........................: 11     min=11         max=11"
	if !strings.Contains(full, line) {
		t.Fatal("the capture's vus_max line changed")
	}
	cut := strings.Replace(full, line, "vus_max........................: 11     min=", 1)
	c, err := readAsFormat(t, "k6-text", "k6.txt", cut)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Runs[0]
	want := readCase(t, f).Runs[0]
	expectI(t, "requests", r.Requests, want.Requests.V)
	if w := r.Labels["warning"]; !strings.Contains(w, `vus_max "min=" has no complete unit`) && !strings.Contains(w, "vus_max") {
		t.Errorf("warning %q", w)
	}
	for k, v := range map[string]string{"reported_bytes_read": "71000", "reported_transfer_bytes_per_s": "24000",
		"reported_bytes_sent": "48000", "reported_sent_bytes_per_s": "16000"} {
		if want.Labels[k] != v {
			t.Errorf("label %s = %q, want %q", k, want.Labels[k], v)
		}
	}
}
