package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/wra-bench/wra/model"
)

// TestKnowTop checks the committed top a load's summaries start after:
// -1 in an empty store, then the highest row id committed, read before
// the transaction inserts its own samples (which DuckDB numbers above
// every committed row), and found again when the store's hint is above
// every row id, as after a vacuum that renumbered them.
func TestKnowTop(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "top.duckdb"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	load := func(source string, points int) (top int64) {
		t.Helper()
		_, err := s.Load(ctx, model.File{Source: source, SHA256: "1", Format: "k6-ndjson"}, func(ms model.Sink) error {
			sk := ms.(*sink)
			if err := sk.Run(&model.Run{Index: 0, Tool: "k6", Server: "go"}); err != nil {
				return err
			}
			for i := range points {
				if err := sk.Sample(0, &model.Sample{Metric: "http_req_duration", Value: float64(i)}); err != nil {
					return err
				}
			}
			if !sk.topKnown {
				t.Errorf("%s: no top read before its samples", source)
			}
			top = sk.top
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return top
	}
	if got := load("a", 3000); got != -1 {
		t.Errorf("top of an empty store = %d, want -1", got)
	}
	if got := load("b", 2000); got != 2999 {
		t.Errorf("top after 3000 samples = %d, want 2999", got)
	}
	if got := s.samplesTop.Load(); got != 2999 {
		t.Errorf("hint = %d, want the top read, 2999", got)
	}
	s.samplesTop.Store(1 << 40)
	if got := load("c", 10); got != 4999 {
		t.Errorf("top with a hint above every row = %d, want 4999", got)
	}
	if got := s.samplesTop.Load(); got != 4999 {
		t.Errorf("hint = %d after a hint above every row, want 4999", got)
	}
}
