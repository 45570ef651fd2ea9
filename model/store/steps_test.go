package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wra-bench/wra/model"
)

// ladderRun fills a file with one k6 run whose request samples are tagged
// with two steps: step 100 has n requests of 1, 2, … n ms one second
// apart, the last of them answered 500; step 200 one of 7 ms that k6
// tagged expected_response=false although it answered 200. A point of
// another metric, and a request without a step, are no step's.
func ladderRun(n int) func(model.Sink) error {
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	return func(sk model.Sink) error {
		if err := sk.Run(&model.Run{Index: 0, Tool: "k6", Server: "go"}); err != nil {
			return err
		}
		for i := 1; i <= n; i++ {
			status := int64(200)
			if i == n {
				status = 500
			}
			p := &model.Sample{TS: t0.Add(time.Duration(i) * time.Second), Metric: "http_req_duration", Value: float64(i),
				Status: model.Some(status), Tags: `{"step":"100"}`}
			if err := sk.Sample(0, p); err != nil {
				return err
			}
		}
		for _, p := range []*model.Sample{
			{TS: t0.Add(time.Hour), Metric: "http_req_duration", Value: 7, Status: model.Some(int64(200)), Tags: `{"step":"200","expected_response":"false"}`},
			{TS: t0.Add(2 * time.Hour), Metric: "http_reqs", Value: 1, Tags: `{"step":"200"}`},
			{TS: t0.Add(3 * time.Hour), Metric: "http_req_duration", Value: 1000, Status: model.Some(int64(200))},
		} {
			if err := sk.Sample(0, p); err != nil {
				return err
			}
		}
		return nil
	}
}

// sampleSteps is sample_steps as text, one line per row in order.
func sampleSteps(t *testing.T, db *sql.DB) string {
	t.Helper()
	rows, err := db.Query(`SELECT run_id, step, requests, failed, p95_ms, last_ts, median_us FROM sample_steps ORDER BY ALL`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, step string
		var req, failed int64
		var p95, median float64
		var last time.Time
		if err := rows.Scan(&id, &step, &req, &failed, &p95, &last, &median); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s %d %d %g %s %d\n", id, step, req, failed, p95, last.UTC().Format(time.TimeOnly), int64(median))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSampleStepsFollowTheirFile: a run's steps are stored with its
// samples, replaced with them when the file changes, kept when a reload
// fails, and the same through a batch.
func TestSampleStepsFollowTheirFile(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if _, err := s.Load(ctx, model.File{Source: "k6.ndjson", SHA256: "1", Format: "k6-ndjson"}, ladderRun(20)); err != nil {
		t.Fatal(err)
	}
	// Step 100: 20 requests, p95 = 1 + 19 × 0.95 (type 7, in floating
	// point as DuckDB works it out), the median of
	// the times 10.5 s after t0 (1793491200 s since the epoch).
	want := "k6.ndjson:0 100 20 1 19.05 00:00:20 1793491210500000\n" +
		"k6.ndjson:0 200 1 1 7 01:00:00 1793494800000000\n"
	if got := sampleSteps(t, s.db); got != want {
		t.Fatalf("sample_steps:\n%s\nwant:\n%s", got, want)
	}
	// The figures ladder_steps reads are these rows.
	if got := count(t, s, `SELECT count(*) FROM ladder_steps WHERE kind = 'samples' AND p95_ms = 19.05 AND requests = 20 AND failed = 1 AND error_rate = 0.05`); got != 1 {
		t.Errorf("ladder_steps has %d rows of step 100 as stored, want 1", got)
	}
	bad := errors.New("line 3: broken")
	if _, err := s.Load(ctx, model.File{Source: "k6.ndjson", SHA256: "2", Format: "k6-ndjson"}, func(sk model.Sink) error {
		if err := ladderRun(4)(sk); err != nil {
			return err
		}
		return bad
	}); !errors.Is(err, bad) {
		t.Fatalf("Load error = %v, want %v", err, bad)
	}
	if got := sampleSteps(t, s.db); got != want {
		t.Fatalf("sample_steps after a failed reload:\n%s\nwant the first load's:\n%s", got, want)
	}
	if _, err := s.Load(ctx, model.File{Source: "k6.ndjson", SHA256: "3", Format: "k6-ndjson"}, ladderRun(4)); err != nil {
		t.Fatal(err)
	}
	want4 := "k6.ndjson:0 100 4 1 3.8499999999999996 00:00:04 1793491202500000\n" +
		"k6.ndjson:0 200 1 1 7 01:00:00 1793494800000000\n"
	if got := sampleSteps(t, s.db); got != want4 {
		t.Fatalf("sample_steps after a changed file:\n%s\nwant:\n%s", got, want4)
	}
	files := []model.File{{Source: "k6.ndjson", SHA256: "4", Format: "k6-ndjson"}, {Source: "b.ndjson", SHA256: "5", Format: "k6-ndjson"}}
	if _, err := s.LoadBatch(ctx, files, []func(model.Sink) error{ladderRun(20), ladderRun(4)}); err != nil {
		t.Fatal(err)
	}
	wantBatch := strings.ReplaceAll(want4, "k6.ndjson", "b.ndjson") + want
	if got := sampleSteps(t, s.db); got != wantBatch {
		t.Fatalf("sample_steps after a batch:\n%s\nwant:\n%s", got, wantBatch)
	}
}

// TestMigrationFillsSampleSteps: a store without migration 004, whose
// samples have no sample_steps, gets them from its samples when opened.
func TestMigrationFillsSampleSteps(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v3.duckdb")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, src := range []string{"a.ndjson", "b.ndjson"} {
		if _, err := s.Load(ctx, model.File{Source: src, SHA256: "1", Format: "k6-ndjson"}, ladderRun(10*(i+1))); err != nil {
			t.Fatal(err)
		}
	}
	want := sampleSteps(t, s.db)
	if strings.Count(want, "\n") != 4 {
		t.Fatalf("sample_steps after ingest:\n%s\nwant two steps of two runs", want)
	}
	// As a wra without migration 004 left it.
	for _, q := range []string{`DROP TABLE sample_steps`, `DELETE FROM wra_migrations WHERE version = 4`} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()
	if s, err = Open(ctx, path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := sampleSteps(t, s.db); got != want {
		t.Errorf("sample_steps after migration:\n%s\nwant as ingest stores them:\n%s", got, want)
	}
	if _, err := os.Stat(fmt.Sprintf("%s.v%d.bak", path, SchemaVersion())); err != nil {
		t.Errorf("no backup of the store before its migration: %v", err)
	}
}
