package store

import (
	"context"
	"errors"
	"testing"

	"github.com/wra-bench/wra/model"
)

// oneRun fills a file with one run of two percentiles and a sample.
func oneRun(server string) func(model.Sink) error {
	return func(sk model.Sink) error {
		r := &model.Run{Index: 0, Tool: "wrk2", Server: server, Percentiles: []model.Percentile{{Percentile: 50, LatencyMS: 1}, {Percentile: 99, LatencyMS: 2}}}
		if err := sk.Run(r); err != nil {
			return err
		}
		return sk.Sample(0, &model.Sample{Metric: "m", Value: 1})
	}
}

func TestLoadBatchReplacesAndCounts(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if _, err := s.Load(ctx, model.File{Source: "d/a.txt", SHA256: "1", Format: "wrk2"}, oneRun("old")); err != nil {
		t.Fatal(err)
	}
	files := []model.File{
		{Source: "d/a.txt", SHA256: "2", Format: "wrk2"},
		{Source: "d/b.txt", SHA256: "3", Format: "wrk2"},
	}
	rows, err := s.LoadBatch(ctx, files, []func(model.Sink) error{oneRun("new"), oneRun("b")})
	if err != nil {
		t.Fatal(err)
	}
	// A run, its two percentiles and its sample: 4 rows a file, as Load
	// counts them.
	if len(rows) != 2 || rows[0] != 4 || rows[1] != 4 {
		t.Errorf("rows = %v, want [4 4]", rows)
	}
	if got := count(t, s, `SELECT count(*) FROM runs WHERE server = 'old'`); got != 0 {
		t.Errorf("%d runs of the replaced file's old content", got)
	}
	if got := count(t, s, `SELECT count(*) FROM latency_percentiles`); got != 4 {
		t.Errorf("percentiles = %d, want 4 (2 files x 2)", got)
	}
	if got := count(t, s, `SELECT count(*) FROM ingested_files`); got != 2 {
		t.Errorf("ingested_files = %d, want 2", got)
	}
	if sha, _, _ := s.IngestedHash(ctx, "d/a.txt"); sha != "2" {
		t.Errorf("hash of d/a.txt = %q, want the new one", sha)
	}
	hs, err := s.IngestedHashes(ctx)
	if err != nil || len(hs) != 2 || hs["d/b.txt"] != "3" {
		t.Errorf("IngestedHashes = %v, %v", hs, err)
	}
}

func TestLoadBatchAllOrNothing(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if _, err := s.Load(ctx, model.File{Source: "d/a.txt", SHA256: "1", Format: "wrk2"}, oneRun("old")); err != nil {
		t.Fatal(err)
	}
	gen := count(t, s, `SELECT generation FROM wra_generation`)
	bad := errors.New("broken")
	files := []model.File{
		{Source: "d/a.txt", SHA256: "2", Format: "wrk2"},
		{Source: "d/b.txt", SHA256: "3", Format: "wrk2"},
		{Source: "d/c.txt", SHA256: "4", Format: "wrk2"},
	}
	_, err := s.LoadBatch(ctx, files, []func(model.Sink) error{oneRun("new"), oneRun("b"), func(model.Sink) error { return bad }})
	if !errors.Is(err, bad) {
		t.Fatalf("LoadBatch error = %v, want %v", err, bad)
	}
	if got := count(t, s, `SELECT count(*) FROM runs WHERE server = 'old'`); got != 1 {
		t.Errorf("the replaced file's old run is gone after a failed batch")
	}
	for q, want := range map[string]int{
		`SELECT count(*) FROM runs`:                1,
		`SELECT count(*) FROM latency_percentiles`: 2,
		`SELECT count(*) FROM samples`:             1,
		`SELECT count(*) FROM ingested_files`:      1,
		`SELECT generation FROM wra_generation`:    gen,
	} {
		if got := count(t, s, q); got != want {
			t.Errorf("%s = %d after a failed batch, want %d", q, got, want)
		}
	}
}
