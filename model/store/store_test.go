package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "t.duckdb"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func count(t *testing.T, s *Store, q string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

func TestLoadRollsBackOnError(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	good := func(sk model.Sink) error {
		r := &model.Run{Index: 0, Tool: "records", Server: "go", Percentiles: []model.Percentile{{Percentile: 50, LatencyMS: 1}}}
		if err := sk.Run(r); err != nil {
			return err
		}
		return sk.Sample(0, &model.Sample{Metric: "m", Value: 1})
	}
	n, err := s.Load(ctx, model.File{Source: "a.csv", SHA256: "1", Format: "records-csv"}, good)
	if err != nil || n != 3 {
		t.Fatalf("Load = %d, %v; want 3 rows", n, err)
	}
	bad := errors.New("line 7: broken")
	_, err = s.Load(ctx, model.File{Source: "a.csv", SHA256: "2", Format: "records-csv"}, func(sk model.Sink) error {
		for i := 0; i < 5000; i++ { // more than one appender chunk
			if err := sk.Run(&model.Run{Index: i + 10, Tool: "records"}); err != nil {
				return err
			}
		}
		return bad
	})
	if !errors.Is(err, bad) {
		t.Fatalf("Load error = %v, want %v", err, bad)
	}
	if got := count(t, s, `SELECT count(*) FROM runs`); got != 1 {
		t.Errorf("runs after failed reload = %d, want the 1 row of the first load", got)
	}
	if sha, _, _ := s.IngestedHash(ctx, "a.csv"); sha != "1" {
		t.Errorf("ingested hash = %q, want 1", sha)
	}
	// A changed file replaces its rows and nothing else.
	if _, err := s.Load(ctx, model.File{Source: "b.csv", SHA256: "9", Format: "records-csv"}, good); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(ctx, model.File{Source: "a.csv", SHA256: "3", Format: "records-csv"}, func(sk model.Sink) error {
		return sk.Run(&model.Run{Index: 0, Tool: "records", Server: "rust"})
	}); err != nil {
		t.Fatal(err)
	}
	if got := count(t, s, `SELECT count(*) FROM runs WHERE source='a.csv' AND server='rust'`); got != 1 {
		t.Errorf("replaced runs = %d, want 1", got)
	}
	if got := count(t, s, `SELECT count(*) FROM latency_percentiles`); got != 1 {
		t.Errorf("percentiles = %d, want only b.csv's 1", got)
	}
	if got := count(t, s, `SELECT count(*) FROM samples`); got != 1 {
		t.Errorf("samples = %d, want only b.csv's 1", got)
	}
}

func TestSamplesWithoutRunFail(t *testing.T) {
	s := openTemp(t)
	_, err := s.Load(context.Background(), model.File{Source: "x", SHA256: "1", Format: "f"}, func(sk model.Sink) error {
		return sk.Sample(3, &model.Sample{Metric: "m", Value: 1})
	})
	if err == nil {
		t.Fatal("want an error for samples of a run never stored")
	}
	if got := count(t, s, `SELECT count(*) FROM samples`); got != 0 {
		t.Errorf("samples = %d, want 0", got)
	}
}

func TestLabelsAndTagsAreJSONObjects(t *testing.T) {
	s := openTemp(t)
	_, err := s.Load(context.Background(), model.File{Source: "j", SHA256: "1", Format: "f"}, func(sk model.Sink) error {
		if err := sk.Run(&model.Run{Tool: "records", Labels: map[string]string{"host": "box1", "b": "2"}}); err != nil {
			return err
		}
		return sk.Sample(0, &model.Sample{Metric: "m", Value: 1, Tags: `{"step":"400"}`})
	})
	if err != nil {
		t.Fatal(err)
	}
	var typ, host, step string
	if err := s.db.QueryRow(`SELECT json_type(labels), labels->>'host' FROM runs`).Scan(&typ, &host); err != nil {
		t.Fatal(err)
	}
	if typ != "OBJECT" || host != "box1" {
		t.Errorf("labels: json_type %s, host %q; want OBJECT and box1", typ, host)
	}
	if err := s.db.QueryRow(`SELECT json_type(tags), tags->>'step' FROM samples`).Scan(&typ, &step); err != nil {
		t.Fatal(err)
	}
	if typ != "OBJECT" || step != "400" {
		t.Errorf("tags: json_type %s, step %q; want OBJECT and 400", typ, step)
	}
}

// BeforeCommit sees each load's open transaction, with its files and
// rows, and its error rolls the transaction back.
func TestBeforeCommit(t *testing.T) {
	ctx := context.Background()
	var seen []Txn
	refuse := errors.New("held")
	s, err := Open(ctx, filepath.Join(t.TempDir(), "t.duckdb"), Options{BeforeCommit: func(_ context.Context, tx Txn) error {
		seen = append(seen, tx)
		if len(seen) == 2 {
			return refuse
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fill := func(sk model.Sink) error { return sk.Run(&model.Run{Index: 0, Tool: "records", Server: "go"}) }
	if _, err := s.Load(ctx, model.File{Source: "a.csv", SHA256: "1", Format: "records-csv"}, fill); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(ctx, model.File{Source: "b.csv", SHA256: "2", Format: "records-csv"}, fill); !errors.Is(err, refuse) {
		t.Fatalf("Load error = %v, want %v", err, refuse)
	}
	files := []model.File{{Source: "c.csv", SHA256: "3", Format: "records-csv"}, {Source: "d.csv", SHA256: "4", Format: "records-csv"}}
	if _, err := s.LoadBatch(ctx, files, []func(model.Sink) error{fill, fill}); err != nil {
		t.Fatal(err)
	}
	want := []string{"[a.csv] 1", "[b.csv] 1", "[c.csv d.csv] 2"}
	if len(seen) != len(want) {
		t.Fatalf("BeforeCommit called %d times, want %d", len(seen), len(want))
	}
	for i, tx := range seen {
		if got := fmt.Sprintf("%v %d", tx.Sources, tx.Rows); got != want[i] || tx.Bulk {
			t.Errorf("transaction %d: %s bulk=%v, want %s bulk=false", i+1, got, tx.Bulk, want[i])
		}
	}
	if got := count(t, s, `SELECT count(*) FROM ingested_files WHERE source = 'b.csv'`); got != 0 {
		t.Errorf("the refused transaction left %d rows", got)
	}
	if got := count(t, s, `SELECT count(*) FROM runs`); got != 3 {
		t.Errorf("runs = %d, want 3 (a, c, d)", got)
	}
}

// TestMemoryLimit: the store opens with DuckDB's memory_limit bounded
// (DefaultMemoryLimit, or Options.MemoryLimit) and a temporary directory
// beside the store to spill to; a limit DuckDB cannot read is refused
// with the value given.
func TestMemoryLimit(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	setting := func(s *Store, name string) string {
		t.Helper()
		v, err := s.scalar(ctx, `SELECT current_setting('`+name+`')`)
		if err != nil {
			t.Fatal(err)
		}
		return Text(v)
	}
	path := filepath.Join(dir, "m.duckdb")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := setting(s, "memory_limit"); got != "256.0 MiB" {
		t.Errorf("default memory_limit = %q, want 256.0 MiB (DefaultMemoryLimit %s)", got, DefaultMemoryLimit)
	}
	if got := setting(s, "temp_directory"); got != path+".tmp" {
		t.Errorf("temp_directory = %q, want %q", got, path+".tmp")
	}
	s.Close()
	s, err = Open(ctx, path, Options{ReadOnly: true, MemoryLimit: "1GiB", TempDirectory: filepath.Join(dir, "spill")})
	if err != nil {
		t.Fatal(err)
	}
	if got := setting(s, "memory_limit"); got != "1.0 GiB" {
		t.Errorf("memory_limit = %q, want 1.0 GiB", got)
	}
	if got := setting(s, "temp_directory"); got != filepath.Join(dir, "spill") {
		t.Errorf("temp_directory = %q, want %q", got, filepath.Join(dir, "spill"))
	}
	s.Close()
	// A query beyond the limit that cannot spill says which limit and how
	// to raise it.
	s, err = Open(ctx, path, Options{ReadOnly: true, MemoryLimit: "8MiB"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Query(ctx, `SELECT len(list(x)) FROM range(20000000) t(x)`)
	if err == nil || !strings.Contains(err.Error(), "Out of Memory Error") ||
		!strings.HasSuffix(err.Error(), "(the store's memory limit is 8MiB: give more with --memory-limit or WRA_MEMORY_LIMIT)") {
		t.Errorf("a query beyond 8MiB: %v, want DuckDB's out of memory error and the limit", err)
	}
	s.Close()
	_, err = Open(ctx, path, Options{MemoryLimit: "lots"})
	if err == nil || !strings.Contains(err.Error(), `memory limit "lots": expected a size such as 512MiB`) {
		t.Errorf("Open with memory limit lots: %v, want a memory limit error", err)
	}
}
