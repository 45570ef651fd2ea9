package store

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wra-bench/wra/model"
)

// importFixture is a small store: two files of runs of two servers in
// three rounds, with labels, percentiles, samples (of two tools, so that
// samples is partitioned into several folders), a memory series and a
// calibration.
func importFixture(t *testing.T) *Store {
	t.Helper()
	s := openTemp(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 29, 20, 39, 20, 500000000, time.UTC)
	for i, tool := range []string{"wrk2", "k6"} {
		src := tool + "/runs.txt"
		_, err := s.Load(ctx, model.File{Source: src, SHA256: string(rune('a' + i)), Format: tool}, func(sk model.Sink) error {
			n := 0
			for _, server := range []string{"go-pgx", "node/pg"} {
				for round := int64(1); round <= 3; round++ {
					r := &model.Run{Index: n, Line: n + 1, Tool: tool, Server: server, Database: "postgres", Test: "db",
						Round: model.Some(round), Connections: model.Some(int64(64)), TargetRPS: model.Some(1000.0),
						Requests: model.Some(20000 + round), Responses2xx: model.Some(20000 + round), Errors: model.Some(int64(0)),
						RPS: model.Some(999.5 + float64(round)), LatencyP50MS: model.Some(1.25), LatencyP99MS: model.Some(3.0 + float64(round)/7),
						LatencyCorrected: tool == "wrk2", StartedAt: model.Some(at.Add(time.Duration(n) * time.Minute)),
						Labels:      map[string]string{"host": "box1", "note": "=1+2"},
						Percentiles: []model.Percentile{{Percentile: 50, LatencyMS: 1.25, Count: model.Some(int64(10000))}, {Percentile: 99, LatencyMS: 3.5}}}
					if err := sk.Run(r); err != nil {
						return err
					}
					if err := sk.Sample(n, &model.Sample{TS: at, Metric: "http_req_duration", Value: 1.5, Status: model.Some(int64(200)), Tags: `{"step":"1"}`}); err != nil {
						return err
					}
					n++
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err := s.Load(ctx, model.File{Source: "memory/series.csv", SHA256: "m", Format: "memory-csv"}, func(sk model.Sink) error {
		for c := int64(100); c <= 300; c += 100 {
			if err := sk.Memory(&model.MemoryPoint{Line: int(c / 100), Server: "go-pgx", Pass: model.Some(int64(1)), Concurrency: c, MemoryMB: float64(c) / 3}); err != nil {
				return err
			}
		}
		return sk.Calibration(&model.CalibrationPoint{Line: 1, Phase: "before", UTC: model.Some(at), Processes: 1, MS: 812.5})
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// rowsOf are the rows of a table or view, each as its JSON text, sorted.
func rowsOf(t *testing.T, s *Store, table string) []string {
	t.Helper()
	rows, err := s.db.Query(`SELECT to_json(t)::VARCHAR FROM ` + quoteIdent(table) + ` t`)
	if err != nil {
		t.Fatalf("%s: %v", table, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestImportExport exports a small store to Parquet, imports the export
// into an empty store, and compares every table it imports, and the
// views computed from them, row by row: the same values of the same
// columns, labels and tags as stored, times to the microsecond.
func TestImportExport(t *testing.T) {
	ctx := context.Background()
	src, dir, info := parquetFixture(t)
	if !IsExport(dir) {
		t.Fatal("IsExport is false for the export")
	}
	dst := openTemp(t)
	if err := dst.ImportExport(ctx, dir); err != nil {
		t.Fatal(err)
	}
	tables := []string{"runs", "latency_percentiles", "samples", "memory_series", "calibration", "ingested_files"}
	for _, f := range info.Files {
		if f.Kind == "table" && f.Name != "wra_migrations" && f.Name != "prices" && !slices.Contains(tables, f.Name) {
			tables = append(tables, f.Name)
		}
	}
	for _, table := range append(tables, "run_groups", "run_medians", "cpu_per_request") {
		if strings.HasPrefix(table, "wra_") {
			continue // the store's own bookkeeping, checked below
		}
		want, got := rowsOf(t, src, table), rowsOf(t, dst, table)
		if len(want) == 0 && table != "cpu_per_request" {
			t.Errorf("%s: the fixture has no rows", table)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s after import:\n%s\nwant:\n%s", table, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if n := count(t, dst, `SELECT count(DISTINCT server) FROM runs WHERE server = 'node/pg'`); n != 1 {
		t.Errorf("a server whose name has a /: %d", n)
	}
	// the store's bookkeeping stays its own: one generation, raised
	if n := count(t, dst, `SELECT count(*) FROM wra_generation WHERE generation > 0`); n != 1 || count(t, dst, `SELECT count(*) FROM wra_generation`) != 1 {
		t.Errorf("wra_generation after import: %d raised rows, want its one row raised", n)
	}
	if n := count(t, dst, `SELECT count(*) FROM wra_definitions`); n != 1 {
		t.Errorf("wra_definitions after import: %d rows, want 1", n)
	}
	// a second import into the now full store is refused, adding nothing
	before := count(t, dst, `SELECT count(*) FROM runs`)
	if err := dst.ImportExport(ctx, dir); err == nil || !strings.Contains(err.Error(), "already holds 12 runs") {
		t.Errorf("import into a store with runs: %v", err)
	}
	if n := count(t, dst, `SELECT count(*) FROM runs`); n != before {
		t.Errorf("runs after a refused import: %d, want %d", n, before)
	}
}

// TestImportExportRefused: a CSV export, an export of a newer schema and
// a folder without a manifest are refused, naming the folder, and leave
// the store empty.
func TestImportExportRefused(t *testing.T) {
	ctx := context.Background()
	src := importFixture(t)
	csvDir := filepath.Join(t.TempDir(), "corpus.csv")
	if _, err := src.Export(ctx, csvDir, "csv", false); err != nil {
		t.Fatal(err)
	}
	dst := openTemp(t)
	if err := dst.ImportExport(ctx, csvDir); err == nil || !strings.Contains(err.Error(), csvDir) || !strings.Contains(err.Error(), "--parquet") {
		t.Errorf("CSV export: %v, want an error naming %s and --parquet", err, csvDir)
	}

	pq := filepath.Join(t.TempDir(), "corpus.parquet")
	if _, err := src.Export(ctx, pq, "parquet", false); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(pq, ExportManifest)
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["schema_version"] = SchemaVersion() + 1
	b, _ = json.Marshal(m)
	if err := os.WriteFile(manifest, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := dst.ImportExport(ctx, pq); err == nil || !strings.Contains(err.Error(), "newer than this wra's") {
		t.Errorf("newer schema: %v", err)
	}
	if err := dst.ImportExport(ctx, t.TempDir()); err == nil {
		t.Error("a folder without a manifest was imported")
	}
	if n := count(t, dst, `SELECT count(*) FROM runs`); n != 0 {
		t.Errorf("runs after refused imports: %d, want 0", n)
	}
}

// TestImportExportIsAtomic: an export whose last table cannot be read
// leaves the store as empty as it was, the tables imported before it
// included, and the error names the file.
func TestImportExportIsAtomic(t *testing.T) {
	ctx := context.Background()
	_, dir, info := parquetFixture(t)
	var last string
	for _, f := range info.Files {
		if f.Kind == "table" && !strings.HasPrefix(f.Name, "wra_") && f.Name != "prices" && f.Name != "runs" && len(f.PartitionBy) == 0 {
			last = f.Path
		}
	}
	if last == "" {
		t.Fatal("the export has no unpartitioned table besides runs")
	}
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(last)), []byte("not parquet"), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := openTemp(t)
	err := dst.ImportExport(ctx, dir)
	if err == nil || !strings.Contains(err.Error(), last) {
		t.Fatalf("import with %s broken: %v, want an error naming it", last, err)
	}
	for _, table := range []string{"runs", "ingested_files", "samples", "latency_percentiles"} {
		if n := count(t, dst, `SELECT count(*) FROM `+table); n != 0 {
			t.Errorf("%s after the failed import: %d rows, want 0", table, n)
		}
	}
}

// parquetFixture is importFixture's store and its Parquet export.
func parquetFixture(t *testing.T) (*Store, string, *ExportInfo) {
	t.Helper()
	src := importFixture(t)
	dir := filepath.Join(t.TempDir(), "corpus.parquet")
	info, err := src.Export(context.Background(), dir, "parquet", false)
	if err != nil {
		t.Fatal(err)
	}
	return src, dir, info
}

// TestImportReadsTheFolderNamed: an export in a folder whose name is a
// glob pattern (corpus[1].parquet) imports its own rows, not those of
// the corpus1.parquet beside it that the pattern matches.
func TestImportReadsTheFolderNamed(t *testing.T) {
	ctx := context.Background()
	src := importFixture(t)
	parent := t.TempDir()
	dir := filepath.Join(parent, "corpus[1].parquet")
	if _, err := src.Export(ctx, dir, "parquet", false); err != nil {
		t.Fatal(err)
	}
	// The decoy: an export of a store with one run.
	other := openTemp(t)
	_, err := other.Load(ctx, model.File{Source: "other.txt", SHA256: "o", Format: "wrk2"}, func(sk model.Sink) error {
		return sk.Run(&model.Run{Index: 0, Line: 1, Tool: "wrk2", Server: "decoy", Test: "db", RPS: model.Some(1.0)})
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Export(ctx, filepath.Join(parent, "corpus1.parquet"), "parquet", false); err != nil {
		t.Fatal(err)
	}
	dst := openTemp(t)
	if err := dst.ImportExport(ctx, dir); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"runs", "samples", "memory_series"} {
		if want, got := rowsOf(t, src, table), rowsOf(t, dst, table); !slices.Equal(got, want) {
			t.Errorf("%s after import of %s:\n%s\nwant:\n%s", table, dir, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
