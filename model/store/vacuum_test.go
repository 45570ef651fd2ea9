package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/wra-bench/wra/model"
)

// TestVacuumOnlyAfterDeletes checks that a writable store's checkpoints
// do not vacuum (merge row groups over the whole store) while loads only
// add rows, and that loads which replaced files' rows make Close vacuum:
// the store is then smaller than the same store closed without one.
func TestVacuumOnlyAfterDeletes(t *testing.T) {
	ctx := context.Background()
	// Eight files of 100,000 samples: the row groups hold parts of
	// several files, so that replacing every other file leaves them
	// half deleted, which only a vacuum compacts.
	fill := func(sk model.Sink) error {
		if err := sk.Run(&model.Run{Index: 0, Tool: "k6", Server: "go"}); err != nil {
			return err
		}
		for i := 0; i < 100_000; i++ {
			if err := sk.Sample(0, &model.Sample{Metric: "http_req_duration", Value: float64(i)}); err != nil {
				return err
			}
		}
		return nil
	}
	blocks := map[bool]int{}
	for _, vacuum := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "v.duckdb")
		s, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := count(t, s, `SELECT current_setting('max_vacuum_tasks')`); got != 0 {
			t.Errorf("max_vacuum_tasks of a writable store = %d, want 0", got)
		}
		for i := 0; i < 8; i++ {
			if _, err := s.Load(ctx, model.File{Source: fmt.Sprint(i, ".ndjson"), SHA256: "1", Format: "k6-ndjson"}, fill); err != nil {
				t.Fatal(err)
			}
		}
		if s.deleted.Load() {
			t.Fatal("deleted set by loads of new files")
		}
		for i := 0; i < 8; i += 2 {
			if _, err := s.Load(ctx, model.File{Source: fmt.Sprint(i, ".ndjson"), SHA256: "2", Format: "k6-ndjson"}, func(sk model.Sink) error {
				return sk.Run(&model.Run{Index: 0, Tool: "k6", Server: "rust"})
			}); err != nil {
				t.Fatal(err)
			}
		}
		if !s.deleted.Load() {
			t.Fatal("deleted not set by the loads that replaced files")
		}
		if !vacuum {
			s.deleted.Store(false) // Close as if nothing was deleted
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := Open(ctx, path, Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		blocks[vacuum] = count(t, r, `SELECT used_blocks FROM pragma_database_size()`)
		if got := count(t, r, `SELECT count(*) FROM samples`); got != 400_000 {
			t.Errorf("%d samples, want the 400,000 of the files not replaced", got)
		}
		r.Close()
	}
	if blocks[true] >= blocks[false] {
		t.Errorf("used blocks %d closed with a vacuum, %d without: want fewer (the deleted rows reclaimed)", blocks[true], blocks[false])
	}
}
