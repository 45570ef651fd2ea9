package store_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/store"
)

// ingestCopies copies real captures of ingest/testdata into one folder
// and ingests it.
func ingestCopies(t *testing.T, st *store.Store, files ...string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "runs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join("../../ingest/testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := ingest.Ingest(context.Background(), st, []string{dir}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Count(ingest.Failed) + res.Count(ingest.Skipped); n != 0 {
		t.Fatalf("%d files failed or skipped: %+v", n, res.Files)
	}
}

// TestRunReported: run_reported has one typed column per name of the
// canonical set, in its order, and run_figures appends them; the values
// are the statistics the tools printed, read off the captures by hand.
func TestRunReported(t *testing.T) {
	st := openStore(t, t.TempDir())
	ctx := context.Background()
	ingestCopies(t, st,
		"wild/autocannon/autocannon-readme-2018-v3.1-box-tables.txt", // Req/Sec Avg 25131.2, Stdev 1540.94, 50% 25583, Bytes/Sec Avg 2.79 MB
		"bombardier/bombardier_json_go1_wait5.json",                  // rps.mean 2577.06511389266, percentiles 50: 2506.509531
		"wrk2/wrk2_plain_go2_ping_R2000.txt",                         // Transfer/sec 231.96KB, Req/Sec 1.06k 195.10 2.33k 81.15%
	)
	tab, err := st.Query(ctx, `SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = 'run_reported' ORDER BY column_index`)
	if err != nil {
		t.Fatal(err)
	}
	var cols []string
	for _, r := range tab.Rows {
		if store.Text(r[0]) == "run_id" {
			continue
		}
		cols = append(cols, store.Text(r[0]))
		if store.Text(r[1]) != "DOUBLE" {
			t.Errorf("run_reported.%s is %s, want DOUBLE", store.Text(r[0]), store.Text(r[1]))
		}
	}
	if !slices.Equal(cols, model.ReportedFigures()) {
		t.Errorf("run_reported columns %v, want model.ReportedFigures() %v", cols, model.ReportedFigures())
	}
	tab, err = st.Query(ctx, `SELECT tool, reported_rps_mean, reported_rps_stdev, reported_rps_p50, reported_transfer_bytes_per_s,
	       reported_transfer_bytes_per_s_mean, thread_rps_mean, thread_rps_within_stdev_pct, reported_requests, rps
	FROM run_figures ORDER BY tool`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]float64{
		// NaN: NULL
		"autocannon": {25131.2, 1540.94, 25583, nan, 2790000, nan, nan, 251000, 25131.2},
		"bombardier": {2577.06511389266, 313.44073912606177, 2506.509531, nan, nan, nan, nan, nan, 15462 / 6.006185843},
		"wrk2":       {nan, nan, nan, 231.96 * 1024, nan, 1060, 81.15, nan, 1996.06},
	}
	if len(tab.Rows) != len(want) {
		t.Fatalf("%d runs, want %d", len(tab.Rows), len(want))
	}
	for _, r := range tab.Rows {
		w := want[store.Text(r[0])]
		for i, x := range w {
			got := store.Float(r[i+1])
			if !(x != x && got != got) && !closeEnough(got, x) {
				t.Errorf("%s %s = %v, want %v", store.Text(r[0]), tab.Names()[i+1], got, x)
			}
		}
	}
}

var nan = func() float64 { var z float64; return z / z }()

func closeEnough(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= 1e-9*max(1, b, -b)
}

// TestRunFiguresFailedJMeter: run_figures' failed, errors + non_2xx, is
// JMeter's own count of failed samples (the dashboard's errorCount,
// beside the JTL), each sample once: 490 answered 404s are 490 failed,
// an error rate of 1, not 980 and 2; 936 followed 302s none.
func TestRunFiguresFailedJMeter(t *testing.T) {
	st := openStore(t, t.TempDir())
	ctx := context.Background()
	ingestCopies(t, st, "wild/jmeter/silapor-2025-redirects-404s-socket-timeouts.jtl.gz",
		"wild/jmeter/silapor-2025-redirects-404s-socket-timeouts-statistics.json")
	tab, err := st.Query(ctx, `SELECT j.labels->>'request_name', j.failed, j.error_rate, d.errors, d.requests
	FROM run_figures j JOIN run_figures d ON (d.labels->>'request_name') = (j.labels->>'request_name') AND d.format = 'jmeter-statistics-json'
	WHERE j.format = 'jmeter-jtl-csv' ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 22 {
		t.Fatalf("%d labels, want 22", len(tab.Rows))
	}
	for _, r := range tab.Rows {
		name, failed, rate, dash, n := store.Text(r[0]), store.Float(r[1]), store.Float(r[2]), store.Float(r[3]), store.Float(r[4])
		if failed != dash || rate != dash/n {
			t.Errorf("%s: failed %v, error_rate %v; the dashboard's errorCount %v of %v", name, failed, rate, dash, n)
		}
		switch name {
		case "Report Form Page":
			if failed != 490 || rate != 1 {
				t.Errorf("%s: failed %v, error_rate %v, want 490 and 1", name, failed, rate)
			}
		case "Login Mahasiswa-0":
			if failed != 0 {
				t.Errorf("%s: failed %v, want 0 (936 redirects)", name, failed)
			}
		}
	}
}
