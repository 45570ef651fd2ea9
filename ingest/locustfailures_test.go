package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

// The pairs under testdata/locust/ are a _stats.csv and the
// _failures.csv Locust wrote beside it in the same run (PROVENANCE.md
// there says where each comes from). The counts below are read off the
// failures files; each name's sum is its Failure Count in the statistics.
func TestLocustFailuresBreakdown(t *testing.T) {
	const e429, e400 = "HTTPError('429 Client Error: Too Many Requests for url: /api/login')", "HTTPError('400 Client Error: Bad Request for url: /api/login')"
	const remote = "RemoteDisconnected('Remote end closed connection without response')"
	for _, tc := range []struct {
		stats   string
		name    string // the run's request_name
		errors  int64
		want    map[string]int64
		source  string
		runs    int
		nobreak []string // request names without failures: no label
	}{
		// Locust 2.37, lines ending "\r\r\n": /api/login failed 44 times
		// with 429 and 28 times with 400, 72 in all.
		{stats: "rezanurridwan-2025-v2.37/result_stats.csv", name: "/api/login", errors: 72,
			want: map[string]int64{e429: 44, e400: 28}, runs: 4, nobreak: []string{"/api/users?page=2"}},
		{stats: "rezanurridwan-2025-v2.37/result_stats.csv", name: "Aggregated", errors: 90,
			want: map[string]int64{e429: 44, e400: 28, "HTTPError('429 Client Error: Too Many Requests for url: /api/register')": 18}, runs: 4},
		// Nine names failing with one error; the Aggregated row's 50.
		{stats: "odoo-locust-2025/results_stats.csv", name: "Fetch Partners Data", errors: 14, want: map[string]int64{remote: 14}, runs: 17,
			nobreak: []string{"Login", "Main Dashboard"}},
		{stats: "odoo-locust-2025/results_stats.csv", name: "Aggregated", errors: 50, want: map[string]int64{remote: 50}, runs: 17},
		// Error texts that Python's csv module quoted because they hold
		// quotes of their own: """RetriesExceeded(…)""" is
		// "RetriesExceeded(…)" with its quotes.
		{stats: "kei-gnu-2023-quoted-errors/example_stats.csv", name: "http://192.168.100.38:30946/?post_type=product&paged=2", errors: 142,
			want: map[string]int64{`"RetriesExceeded('http://192.168.100.38:30946/?post_type=product&paged=2', 1, original=timed out)"`: 142}, runs: 7},
		// Quotes doubled inside quoted fields: //addplayerurl's 2184
		// failures are 557 + 1049 + 578 of three errors.
		{stats: "jkim161-2024-escaped-quotes/results_stats.csv", name: "//addplayerurl", errors: 2184, runs: 7,
			want: map[string]int64{
				`OSError(49, "Can't assign requested address")`:        557,
				"ConnectionResetError(54, 'Connection reset by peer')": 578,
				"ConnectTimeoutError(<urllib3.connection.HTTPConnection object at 0x....>, 'Connection to 127.0.0.1 timed out. (connect timeout=None)')": 1049,
			}},
		{stats: "jkim161-2024-escaped-quotes/results_stats.csv", name: "Aggregated", errors: 12993, runs: 7,
			want: map[string]int64{
				`OSError(49, "Can't assign requested address")`:        605 + 557 + 599 + 572 + 569 + 571,
				"ConnectionResetError(54, 'Connection reset by peer')": 559 + 575 + 507 + 578 + 565 + 538,
				"ConnectTimeoutError(<urllib3.connection.HTTPConnection object at 0x....>, 'Connection to 127.0.0.1 timed out. (connect timeout=None)')": 1006 + 1059 + 1049 + 1057 + 985 + 1042,
			}},
	} {
		t.Run(tc.stats+"#"+tc.name, func(t *testing.T) {
			c := &model.Collector{}
			in := readWithWarnings(t, filepath.Join("testdata/locust", tc.stats), c)
			if len(in.warnings) > 0 {
				t.Errorf("warnings %q", in.warnings)
			}
			if len(c.Runs) != tc.runs {
				t.Fatalf("%d runs, want %d", len(c.Runs), tc.runs)
			}
			var r *model.Run
			for _, x := range c.Runs {
				if x.Labels["request_name"] == tc.name {
					r = x
				}
				for _, n := range tc.nobreak {
					if x.Labels["request_name"] == n && x.Labels["errors_breakdown"] != "" {
						t.Errorf("%s has no failure, but errors_breakdown %s", n, x.Labels["errors_breakdown"])
					}
				}
			}
			if r == nil {
				t.Fatalf("no run %q", tc.name)
			}
			expectI(t, "errors", r.Errors, tc.errors)
			var got map[string]int64
			if err := json.Unmarshal([]byte(r.Labels["errors_breakdown"]), &got); err != nil {
				t.Fatalf("errors_breakdown %q: %v", r.Labels["errors_breakdown"], err)
			}
			if len(got) != len(tc.want) {
				t.Errorf("errors_breakdown %v, want %v", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("errors_breakdown[%s] = %d, want %d", k, got[k], v)
				}
			}
			want := filepath.Base(tc.stats)
			want = strings.TrimSuffix(want, "_stats.csv") + "_failures.csv"
			if s := r.Labels["errors_breakdown_source"]; s != want {
				t.Errorf("errors_breakdown_source %q, want %q", s, want)
			}
		})
	}
}

// readWithWarnings reads a file as ReadFile does and returns its Input,
// which holds the reader's warnings.
func readWithWarnings(t *testing.T, path string, sink model.Sink) *Input {
	t.Helper()
	o, err := open(path, filepath.Base(path))
	if err != nil {
		t.Fatal(err)
	}
	defer o.close()
	f := Detect(o.head)
	if f == nil {
		t.Fatalf("%s: no format", path)
	}
	if err := f.Read(&o.Input, sink); err != nil {
		t.Fatal(err)
	}
	return &o.Input
}

// copyPair copies a capture pair into a fresh folder, the failures file
// edited by edit, and returns the folder.
func copyPair(t *testing.T, pair, prefix string, edit func(string) string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"_stats.csv", "_failures.csv"} {
		b := readTestdata(t, filepath.Join("testdata/locust", pair, prefix+s))
		if s == "_failures.csv" && edit != nil {
			b = edit(b)
		}
		if err := os.WriteFile(filepath.Join(dir, prefix+s), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A failures file that does not count what the statistics count is a
// warning of the statistics naming the lines of both; the breakdown is
// stored as the failures file has it.
func TestLocustFailuresMismatch(t *testing.T) {
	dir := copyPair(t, "rezanurridwan-2025-v2.37", "result", func(s string) string {
		s = strings.Replace(s, "/api/login'),28\r", "/api/login'),27\r", 1)
		return s + "GET,/api/unknown,HTTPError('404 Client Error: Not Found for url: /api/unknown'),3\r\r\n"
	})
	res, st := ingestDir(t, dir)
	r := res["result_stats.csv"]
	want := "run/result_failures.csv beside it does not count the failures this table does (its breakdown stored as it is): " +
		"line 2 (POST /api/login): Failure Count 72 here, 71 there (lines 2, 4); " +
		"line 5 (Aggregated): Failure Count 90 here, 92 there (lines 2, 3, 4, 5); " +
		"its lines 5 (GET /api/unknown): no row here"
	if r.Status != Loaded || r.Warning != want {
		t.Errorf("stats: %s %v, warning\n%s\nwant\n%s", r.Status, r.Err, r.Warning, want)
	}
	if got := st.loads[r.Source].Runs[0].Labels["errors_breakdown"]; !strings.Contains(got, `/api/login')":27`) {
		t.Errorf("errors_breakdown %s: not the failures file's 27", got)
	}
	f := res["result_failures.csv"]
	if f.Status != Loaded || f.Rows != 0 || f.Reason != "92 failures in 4 rows, stored as the errors_breakdown of the runs of result_stats.csv beside it" {
		t.Errorf("failures: %s %d rows %q %v", f.Status, f.Rows, f.Reason, f.Err)
	}
}

// A failures file without its statistics is skipped, saying what it
// needs; one that cannot be read leaves the statistics without a
// breakdown and with a warning.
func TestLocustFailuresAlone(t *testing.T) {
	dir := copyPair(t, "odoo-locust-2025", "results", nil)
	os.Remove(filepath.Join(dir, "results_stats.csv"))
	res, _ := ingestDir(t, dir)
	want := "Locust's failures table counts failures per request name, not requests, so it makes no run of its own; wra reads it with the Locust statistics table results_stats.csv beside it, which is not there"
	if r := res["results_failures.csv"]; r.Status != Skipped || r.Reason != want {
		t.Errorf("%s %q %v, want skipped: %s", r.Status, r.Reason, r.Err, want)
	}
	c := &model.Collector{}
	_, err := ReadFile("testdata/wild/notreport/locust-failures-csv.csv", c)
	var sk *SkipError
	if !errors.As(err, &sk) || !strings.Contains(sk.Reason, "this file's name does not end in _failures.csv") {
		t.Errorf("ReadFile of a failures table named otherwise: %v", err)
	}

	dir = copyPair(t, "odoo-locust-2025", "results", func(s string) string { return s[:len(s)-30] })
	res, st := ingestDir(t, dir)
	r := res["results_stats.csv"]
	// Line 9's one request: Locust's Median is clamped to its exact time
	// (156346.88), its percentiles are rounded below it (156000): a p90 …
	// that rounding puts below the p50, kept as printed.
	if want := "no error breakdown from run/results_failures.csv beside it: run/results_failures.csv:10:1: wrong number of fields: expected 4 as in the header (a truncated row?)"; r.Status != Loaded || r.Warning != want {
		t.Errorf("stats with a cut failures file: %s, warning %q, want %q", r.Status, r.Warning, want)
	}
	for _, x := range st.loads[r.Source].Runs {
		if x.Labels["errors_breakdown"] != "" {
			t.Errorf("breakdown %s from a cut failures file", x.Labels["errors_breakdown"])
		}
	}
	if f := res["results_failures.csv"]; f.Status != Failed || f.Err == nil || !strings.HasPrefix(f.Err.Error(), "run/results_failures.csv:10:1: ") {
		t.Errorf("cut failures file: %s %v", f.Status, f.Err)
	}
}

// hashStore is a memStore that remembers the hash of each source, as the
// DuckDB store does.
type hashStore struct {
	memStore
	hashes map[string]string
}

func (h *hashStore) IngestedHash(_ context.Context, source string) (string, bool, error) {
	s, ok := h.hashes[source]
	return s, ok, nil
}

func (h *hashStore) Load(ctx context.Context, f model.File, fill func(model.Sink) error) (int64, error) {
	n, err := h.memStore.Load(ctx, f, fill)
	if err == nil {
		if h.hashes == nil {
			h.hashes = map[string]string{}
		}
		h.hashes[f.Source], err = f.Hash()
	}
	return n, err
}

// When the failures file changes and its statistics do not, the
// statistics are read again: their runs carry its counts.
func TestLocustFailuresChangeRereadsStats(t *testing.T) {
	dir := copyPair(t, "odoo-locust-2025", "results", nil)
	st := &hashStore{}
	status := func() map[string]Status {
		res, err := Ingest(context.Background(), st, []string{dir}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]Status{}
		for _, f := range res.Files {
			out[filepath.Base(f.Source)] = f.Status
		}
		return out
	}
	if s := status(); s["results_stats.csv"] != Loaded || s["results_failures.csv"] != Loaded {
		t.Fatalf("first ingest: %v", s)
	}
	if s := status(); s["results_stats.csv"] != Unchanged || s["results_failures.csv"] != Unchanged {
		t.Fatalf("second ingest: %v", s)
	}
	p := filepath.Join(dir, "results_failures.csv")
	b := strings.Replace(readTestdata(t, p), "response'),14", "response'),13", 1)
	if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := status(); s["results_stats.csv"] != Replaced || s["results_failures.csv"] != Replaced {
		t.Fatalf("after the failures changed: %v", s)
	}
	for _, r := range st.loads["run/results_stats.csv"].Runs {
		if r.Labels["request_name"] == "Fetch Partners Data" && !strings.Contains(r.Labels["errors_breakdown"], ":13}") {
			t.Errorf("Fetch Partners Data: errors_breakdown %s, want the changed 13", r.Labels["errors_breakdown"])
		}
	}
}

func TestLocustFailuresErrors(t *testing.T) {
	csv := readTestdata(t, "testdata/locust/rezanurridwan-2025-v2.37/result_failures.csv")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "locust-failures-csv", "", "f.txt:1: empty file: expected a CSV header"},
		{"no occurrences", "locust-failures-csv", "Method,Name,Error\nGET,/,x\n", "f.txt:1: Locust failures CSV: the header has no occurrences column"},
		{"negative count", "locust-failures-csv", strings.Replace(csv, "),44", "),-44", 1), "f.txt:2:86: Occurrences: expected a count >= 0, found -44"},
		{"no name", "locust-failures-csv", strings.Replace(csv, "POST,/api/login,", "POST,,", 1), "f.txt:2:6: Name: empty request name"},
		{"cut row", "locust-failures-csv", headLines(csv, 2) + "POST,/api/register\r\n", "f.txt:3:1: wrong number of fields: expected 4 as in the header (a truncated row?)"},
	})
}

// Locust's failures tables are claimed by their reader and no other, and
// no other tool's file by it; the statistics beside them stay
// locust-stats-csv.
func TestLocustFailuresDetection(t *testing.T) {
	paths, _ := filepath.Glob("testdata/locust/*/*")
	for _, p := range paths {
		want := "locust-stats-csv"
		if strings.HasSuffix(p, "_failures.csv") {
			want = "locust-failures-csv"
		}
		if f, err := DetectFile(p); err != nil || f == nil || f.Name != want {
			t.Errorf("%s detected as %v (%v), want %s", p, f, err, want)
		}
	}
	all, _ := filepath.Glob("testdata/*/*")
	more, _ := filepath.Glob(filepath.Join(wildDir, "*", "*"))
	for _, p := range append(all, more...) {
		if f, err := DetectFile(p); err == nil && f != nil && f.Name == "locust-failures-csv" && p != "testdata/wild/notreport/locust-failures-csv.csv" {
			t.Errorf("%s, not a Locust failures table, detected as one", p)
		}
	}
}

// FuzzLocustFailures reads any input as a failures table, alone (it is
// refused at a line or skipped, and stores nothing) and beside a real
// statistics table, which loads its runs whatever the failures file
// holds, with a breakdown only where it could be read.
func FuzzLocustFailures(f *testing.F) {
	addFuzzSeeds(f, "testdata/locust/*/*", "testdata/hey/*.csv", "testdata/records/*.csv")
	addWildSeeds(f, "locust", "notreport")
	stats := readTestdata(f, "testdata/locust/rezanurridwan-2025-v2.37/result_stats.csv")
	f.Fuzz(func(t *testing.T, data []byte) {
		formatByName(t, "locust-failures-csv").Detect(data)
		c, err := readAsFormat(t, "locust-failures-csv", "f.txt", string(data))
		var se *SyntaxError
		var sk *SkipError
		switch {
		case err == nil:
			t.Fatal("a failures table read on its own without an error")
		case errors.As(err, &se) && se.File == "f.txt":
		case errors.As(err, &sk) && sk.File == "f.txt":
		default:
			t.Fatalf("error %v is neither a *SyntaxError nor a *SkipError of f.txt", err)
		}
		if len(c.Runs) != 0 {
			t.Fatalf("%d runs from a failures table", len(c.Runs))
		}
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "x_stats.csv"), []byte(stats), 0o644)
		os.WriteFile(filepath.Join(dir, "x_failures.csv"), data, 0o644)
		c = &model.Collector{}
		in := readWithWarnings(t, filepath.Join(dir, "x_stats.csv"), c)
		if len(c.Runs) != 4 {
			t.Fatalf("%d runs of the statistics beside it, want 4", len(c.Runs))
		}
		for _, r := range c.Runs {
			var m map[string]int64
			if b := r.Labels["errors_breakdown"]; b != "" {
				if err := json.Unmarshal([]byte(b), &m); err != nil {
					t.Fatalf("errors_breakdown %q: %v", b, err)
				}
			}
			var sum int64
			for _, n := range m {
				sum += n
			}
			if len(in.warnings) == 0 && sum != r.Errors.V {
				t.Fatalf("no warning, but line %d's breakdown sums to %d, its Failure Count %d", r.Line, sum, r.Errors.V)
			}
		}
	})
}
