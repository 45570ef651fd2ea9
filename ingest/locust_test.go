package ingest

import (
	"path/filepath"
	"strings"
	"testing"
)

// The numbers below are read off each file (testdata/wild/PROVENANCE.md
// says where it comes from): requests the Request Count (# requests),
// errors the Failure Count, rps the Requests/s, p50 the Median Response
// Time, mean the Average Response Time, max the Max Response Time, p99 the
// 99% column, all in ms as Locust writes them.
func TestLocustWild(t *testing.T) {

	const d = "testdata/wild/locust/"
	for _, tc := range []loadToolCase{
		// Locust 1.x, CRLF, "99.999%": POST /login 44 requests, median 87,
		// 99% 340, Requests/s 0.10951704707231524.
		{file: d + "esmy1990-2020-v1-crlf-99.999.csv", format: "locust-stats-csv", runs: 3, run: 0, requests: 44, ok2xx: noCount, non2xx: noCount,
			errors: 0, rps: 0.10951704707231524, p50: 87, p99: 340, mean: 110.68587936054575, max: 336.75479888916016, spectrum: 12,
			connections: nullWant, durationS: nullWant, startLine: 2,
			labels: map[string]string{"request_type": "POST", "request_name": "/login", "latency_min_ms": "68.13168525695801",
				"failures_per_s": "0", "average_content_size_bytes": "54"}},
		// Its ",Aggregated" row: 39444 requests, 99% 390.
		{file: d + "esmy1990-2020-v1-crlf-99.999.csv", format: "locust-stats-csv", runs: 3, run: 2, requests: 39444, ok2xx: noCount, non2xx: noCount,
			errors: 0, rps: 98.17705465273642, p50: 84, p99: 390, mean: 100.16650936881834, max: 1840.8079147338867, spectrum: 12,
			connections: nullWant, durationS: nullWant, startLine: 4,
			labels: map[string]string{"request_name": "Aggregated", "aggregated": "true", "percentile_method": locustPercentMethod}},
		// Locust 2.37, lines ending "\r\r\n": POST /api/login 72 requests,
		// all 72 failed; the Aggregated row 231 requests, 90 failures.
		{file: d + "rezanurridwan-2025-v2.37-failures.csv", format: "locust-stats-csv", runs: 4, run: 0, requests: 72, ok2xx: noCount, non2xx: noCount,
			errors: 72, rps: 2.3892822009399497, p50: 410, p99: 990, mean: 422.8204888888361, max: 994.2822999996679, spectrum: 11,
			connections: nullWant, durationS: nullWant, startLine: 2,
			labels: map[string]string{"failures_per_s": "2.3892822009399497"}},
		{file: d + "rezanurridwan-2025-v2.37-failures.csv", format: "locust-stats-csv", runs: 4, run: 3, requests: 231, ok2xx: noCount, non2xx: noCount,
			errors: 90, rps: 7.665613728015672, p50: 130, p99: 520, mean: 234.59425584413697, max: 994.2822999996679, spectrum: 11,
			connections: nullWant, durationS: nullWant, startLine: 5},
		// --csv-percentiles of its own (50, 60, 70, 80, 90, 95, 99, 100):
		// no 99.9% column, so no p99.9; a gRPC request type.
		{file: d + "load-testing-hub-grpc-custom-percentiles.csv", format: "locust-stats-csv", runs: 2, run: 0, requests: 11779, ok2xx: noCount, non2xx: noCount,
			errors: 0, rps: 67.3845746547201, p50: 5100, p99: 8200, mean: 4663.453389015252, max: 10975.36463898723, spectrum: 8,
			connections: nullWant, durationS: nullWant, startLine: 2, labels: map[string]string{"request_type": "grpc"}},
		// Locust 1.0 from git, every field quoted, "None","Aggregated", no
		// newline after the last row.
		{file: d + "parkietje-2020-quoted-none-aggregated.csv", format: "locust-stats-csv", runs: 2, run: 1, requests: 41, ok2xx: noCount, non2xx: noCount,
			errors: 0, rps: 0.09, p50: 47000, p99: 122000, mean: 59502, max: 121838, spectrum: 12,
			connections: nullWant, durationS: nullWant, startLine: 3, labels: map[string]string{"aggregated": "true"}},
		// Sixteen names, the slow ones failing (RemoteDisconnected in the
		// same run's failures file): Create Partner 6 of 6.
		{file: d + "odoo-locust-2025-sixteen-names.csv", format: "locust-stats-csv", runs: 17, run: 2, requests: 6, ok2xx: noCount, non2xx: noCount,
			errors: 6, rps: 0.0342254649537995, p50: 172000, p99: 174000, mean: 171330.46239599996, max: 173768.44295800003, spectrum: 11,
			connections: nullWant, durationS: nullWant, startLine: 4},
		// Locust 0.x ("Method", "# requests", "Total", no percentiles): a
		// name without failures keeps its count.
		{file: d + "chatops-2018-v0.x-method-total.csv", format: "locust-stats-csv", runs: 4, run: 1, requests: 204, ok2xx: noCount, non2xx: noCount,
			errors: 0, rps: 3.41, p50: 4, p99: nullWant, mean: 4, max: 10, spectrum: 0,
			connections: nullWant, durationS: nullWant, startLine: 3, labels: map[string]string{"request_type": "GET"}},
		// ... and the Total row, with 1 failure, cannot say whether its 635
		// counts it (Locust 0.10 to 0.12) or not (before 0.10).
		{file: d + "chatops-2018-v0.x-method-total.csv", format: "locust-stats-csv", runs: 4, run: 3, requests: noCount, ok2xx: noCount, non2xx: noCount,
			errors: 1, rps: nullWant, p50: 4, p99: nullWant, mean: 4, max: 51, spectrum: 0,
			connections: nullWant, durationS: nullWant, startLine: 5,
			labels: map[string]string{"reported_requests": "635", "reported_rps": "10.6", "aggregated": "true", "request_name": "Total",
				"warning": `line 5: Locust before 0.13 (a "Total" row) counted failed requests in "# requests" from 0.10 on and not before: with 1 failures the request count and rate are ambiguous and not stored`}},
	} {
		t.Run(filepath.Base(tc.file)+"#"+string(rune('0'+tc.run)), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

func TestLocustErrors(t *testing.T) {
	csv := readTestdata(t, "testdata/wild/locust/rezanurridwan-2025-v2.37-failures.csv")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "locust-stats-csv", "", "f.txt:1: empty file: expected a CSV header"},
		{"header only", "locust-stats-csv", headLines(csv, 1), "f.txt:2: Locust stats CSV has a header but no rows"},
		{"no failure count", "locust-stats-csv", "Type,Name,Request Count,Requests/s,Median Response Time,Average Response Time,Min Response Time,Max Response Time\nGET,/,1,1,2,2,2,2\n",
			"f.txt:1: Locust stats CSV: the header has no failures column"},
		{"row cut short", "locust-stats-csv", headLines(csv, 3) + "GET,/api/users?page=2,119,0,46\n",
			"f.txt:4:1: wrong number of fields: expected 22 as in the header (a truncated row?)"},
		{"negative count", "locust-stats-csv", strings.Replace(csv, "POST,/api/login,72,72,", "POST,/api/login,-72,72,", 1),
			"f.txt:2:17: Request Count: expected a count >= 0, found -72"},
		{"time with a unit", "locust-stats-csv", strings.Replace(csv, ",410.0,422.8204888888361,", ",410ms,422.8204888888361,", 1),
			`f.txt:2:23: Median Response Time: expected a bare number, found "410ms" (a number with the unit "ms": the column name gives the unit)`},
		{"no name", "locust-stats-csv", strings.Replace(csv, "POST,/api/login,", "POST,,", 1), "f.txt:2:6: Name: empty request name"},
	})
}

// Locust's statistics and history tables are claimed by their own
// readers, and other tools' CSVs (and Locust's failures table, in
// notreport/) are not taken for its statistics. The head of a history
// written before the first request, in notreport/, is claimed by the
// history reader and refused (TestLocustHistoryErrors).
func TestLocustDetection(t *testing.T) {
	want := func(p string) string {
		switch {
		case strings.Contains(p, "history"):
			return "locust-history-csv"
		case strings.HasSuffix(p, ".txt") || strings.HasSuffix(p, ".md"):
			return "locust-console"
		}
		return "locust-stats-csv"
	}
	checkClaims(t, "locust", want, "locust-stats-csv", "locust-console")
}

func FuzzLocustStats(f *testing.F) {
	addWildSeeds(f, "locust", "notreport")
	addFuzzSeeds(f, "testdata/hey/*.csv", "testdata/vegeta/*_results.csv", "testdata/ab/*.csv", "testdata/records/*.csv")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "locust-stats-csv") })
}

// In the "Total" layout, failures beyond the request count can only be
// Locust before 0.10, which counted the successful requests: the
// requests are then the two counts summed. The chatops capture with its
// /third-task row edited so.
func TestLocustBefore010(t *testing.T) {
	csv := readTestdata(t, "testdata/wild/locust/chatops-2018-v0.x-method-total.csv")
	edited := strings.Replace(csv, `"GET","/third-task",323,1,`, `"GET","/third-task",2,3,`, 1)
	if edited == csv {
		t.Fatal("the /third-task row is no longer in the capture")
	}
	c, err := readAsFormat(t, "locust-stats-csv", "f.csv", edited)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Runs[2]
	expectI(t, "requests", r.Requests, 5)
	expectI(t, "errors", r.Errors, 3)
	expectF(t, "rps", r.RPS, nullWant)
	for k, want := range map[string]string{"reported_requests": "2", "reported_rps": "5.39",
		"requests_basis": "# requests + # failures: Locust before 0.10 counted the successful requests only"} {
		if got := r.Labels[k]; got != want {
			t.Errorf("label %s = %q, want %q", k, got, want)
		}
	}
	if w, ok := r.Labels["warning"]; ok {
		t.Errorf("warning %q", w)
	}
}

// A file cut at a row's end loses the rows after it, the Aggregated row
// last of all; a row cut inside its last percentile is out of order.
func TestLocustCut(t *testing.T) {
	csv := readTestdata(t, "testdata/wild/locust/odoo-locust-2025-sixteen-names.csv")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"cut at a row's end", "locust-stats-csv", headLines(csv, 10),
			"f.txt:11: Locust stats CSV ends early: expected the Aggregated (or Total) row after line 10"},
		{"cut inside the last percentile", "locust-stats-csv", strings.TrimSuffix(csv, "0\n"),
			"f.txt:18:196: 100%: 17400 is out of order with the 80% column (158000): a cut row?"},
	})
}
