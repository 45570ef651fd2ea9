package store_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/ingest/ingesttest"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/store"
)

// TestBulkProgressFollowsDuckDB loads point streams through DuckDB's
// scanner and checks that the ingest's progress moves inside the file
// with DuckDB's reads of it: a gzip stream, which DuckDB reads in order
// 32 KiB of compressed input at a time, reports many growing positions
// before the file is done; a plain one, read 16 MiB at a time by any of
// DuckDB's threads, reaches its whole size before the file is done.
func TestBulkProgressFollowsDuckDB(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir)
	for _, tc := range []struct {
		name      string
		size      int64
		gzip      bool
		minInside int
	}{
		{"stream.ndjson.gz", 24 << 20, true, 5},
		{"stream.ndjson", 20 << 20, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			ingesttest.K6Stream(t, path, tc.size, tc.gzip)
			var reports []ingest.Progress
			res, err := ingest.Ingest(context.Background(), s, []string{path}, ingest.Options{
				Progress: func(p ingest.Progress) { reports = append(reports, p) },
			})
			if err != nil {
				t.Fatal(err)
			}
			if fr := res.Files[0]; fr.Status != ingest.Loaded || fr.Format != "k6-ndjson" {
				t.Fatalf("%v %q %v", fr.Status, fr.Format, fr.Err)
			}
			var inside []int64
			for _, p := range reports {
				if p.Files == 0 && p.Bytes > 0 {
					inside = append(inside, p.Bytes)
				}
			}
			if len(inside) < tc.minInside {
				t.Fatalf("%d reports within the file, want at least %d: %+v", len(inside), tc.minInside, reports)
			}
			total := reports[0].TotalBytes
			for i, b := range inside {
				if b > total || i > 0 && b <= inside[i-1] {
					t.Fatalf("positions within the file %v of %d bytes: each must grow and stay within the file", inside, total)
				}
			}
			if got := inside[len(inside)-1]; got != total {
				t.Errorf("the scan's last position is %d, want the file's %d bytes", got, total)
			}
			if tc.gzip && inside[0] > total/2 {
				t.Errorf("the first position within the gzip file is %d of %d bytes: not from DuckDB's reads", inside[0], total)
			}
		})
	}
}

// TestProgressCountsTheReadersPass loads JMeter JTLs, whose reader
// reads each whole to map its labels to runs before DuckDB's scanner
// reads it again, alone and as a group of two, and checks that the bar
// moves through the first half of the bytes during the readers' passes:
// as DuckDB's scan begins, the last report names the file and is
// within a step (64 KiB) of half the bytes, not at their end (alone)
// nor at their start (a group); and that the bar ends at every byte.
func TestProgressCountsTheReadersPass(t *testing.T) {
	b, err := os.ReadFile("../../ingest/testdata/wild/jmeter/perfaction-2020-one-label-100-samples.jtl")
	if err != nil {
		t.Fatal(err)
	}
	head, body, _ := bytes.Cut(b, []byte("\n"))
	jtl := append(append(head, '\n'), bytes.Repeat(body[:bytes.LastIndexByte(body, '\n')+1], 200)...)
	for _, files := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d files", files), func(t *testing.T) {
			dir := t.TempDir()
			folder := filepath.Join(dir, "jtl")
			if err := os.Mkdir(folder, 0o755); err != nil {
				t.Fatal(err)
			}
			var total int64
			for i := range files {
				if err := os.WriteFile(filepath.Join(folder, fmt.Sprintf("run%d.jtl", i)), jtl, 0o644); err != nil {
					t.Fatal(err)
				}
				total += int64(len(jtl))
			}
			var reports []ingest.Progress
			began := -1 // the number of reports when DuckDB's scan began
			s := atScan{openStore(t, dir), func() {
				if began < 0 {
					began = len(reports)
				}
			}}
			res, err := ingest.Ingest(context.Background(), s, []string{folder}, ingest.Options{
				Progress: func(p ingest.Progress) { reports = append(reports, p) },
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, fr := range res.Files {
				if fr.Status != ingest.Loaded || fr.Format != "jmeter-jtl-csv" || fr.Rows == 0 {
					t.Fatalf("%s: %v %q rows %d %v", fr.Source, fr.Status, fr.Format, fr.Rows, fr.Err)
				}
			}
			if began < 1 {
				t.Fatalf("DuckDB's scan began after %d reports", began)
			}
			last := reports[began-1]
			if !strings.Contains(last.Current, "run0.jtl") || last.Bytes < total/2-64<<10 || last.Bytes > total/2 {
				t.Errorf("as DuckDB's scan of %d bytes of JTL began, the bar was at %+v: want it named for the file, at half of them less a step at most", total, last)
			}
			if end := reports[len(reports)-1]; end.Bytes != total || end.Files != files {
				t.Errorf("the bar ends at %+v, want %d files and %d bytes", end, files, total)
			}
		})
	}
}

// atScan is a store that calls began as DuckDB's scanner is handed a
// file (BulkSamples) or a group of files (LoadStreams).
type atScan struct {
	*store.Store
	began func()
}

func (a atScan) LoadStreams(ctx context.Context, streams []model.BulkStream) ([]int64, error) {
	a.began()
	return a.Store.LoadStreams(ctx, streams)
}

func (a atScan) Load(ctx context.Context, f model.File, fill func(model.Sink) error) (int64, error) {
	return a.Store.Load(ctx, f, func(s model.Sink) error { return fill(scanHook{s, a.began}) })
}

// scanHook is a store's sink that calls began at its BulkSamples.
type scanHook struct {
	model.Sink
	began func()
}

func (h scanHook) BulkSamples(run int, in *model.BulkInput) (*model.BulkResult, error) {
	h.began()
	return h.Sink.(model.BulkSink).BulkSamples(run, in)
}
