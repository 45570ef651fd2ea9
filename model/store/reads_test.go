package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/ingest/ingesttest"
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
