package store

import (
	"context"
	"database/sql/driver"
	"testing"

	"github.com/wra-bench/wra/model"
)

// TestKnowTop checks the committed top a load's summaries start after:
// -1 in an empty store, then the highest row id committed, read before
// the transaction inserts its own samples (which DuckDB numbers above
// every committed row), and found again when the store's hint is above
// every row id, as after a vacuum that renumbered them.
func TestKnowTop(t *testing.T) {
	s := openTemp(t)
	load := func(source string, points int) (top int64) {
		t.Helper()
		loadPoints(t, s, source, points, func(sk *sink) error {
			if !sk.topKnown {
				t.Errorf("%s: no top read before its samples", source)
			}
			top = sk.top
			return nil
		})
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

// TestOwnRowsThreads checks the threads of the queries that read a
// transaction's own samples: one while the committed samples fill less
// than one of DuckDB's row groups, the store's own (and the threads
// restored after) once they fill one.
func TestOwnRowsThreads(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if _, err := s.db.ExecContext(ctx, `SET threads = 3`); err != nil {
		t.Fatal(err)
	}
	threads := func(sk *sink) string {
		t.Helper()
		var v string
		err := eachRow(ctx, sk.conn.(driver.QueryerContext), `SELECT current_setting('threads')::VARCHAR AS v`, nil, func(r driverRow) { v, _ = r.get("v").(string) })
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	load := func(source string, points int) (during, after string) {
		t.Helper()
		loadPoints(t, s, source, points, func(sk *sink) error {
			restore, err := sk.ownRowsThreads()
			if err != nil {
				return err
			}
			during = threads(sk)
			restore()
			after = threads(sk)
			return nil
		})
		return during, after
	}
	for _, c := range []struct {
		source            string
		points            int
		during, after     string
		committedBeforeIt int
	}{
		{"empty", duckdbRowGroupRows - 1, "1", "3", 0},
		{"one short of a row group", 10, "1", "3", duckdbRowGroupRows - 1},
		{"a row group", 10, "3", "3", duckdbRowGroupRows + 9},
	} {
		during, after := load(c.source, c.points)
		if during != c.during || after != c.after {
			t.Errorf("%s (%d samples committed before): threads %s while its samples are read, %s after; want %s and %s",
				c.source, c.committedBeforeIt, during, after, c.during, c.after)
		}
	}
}

// loadPoints loads into s a file of one k6 run of points samples of
// http_req_duration, read by Go's appender, and calls then, in the
// file's transaction, with its sink.
func loadPoints(t *testing.T, s *Store, source string, points int, then func(sk *sink) error) {
	t.Helper()
	_, err := s.Load(context.Background(), model.File{Source: source, SHA256: "1", Format: "k6-ndjson"}, func(ms model.Sink) error {
		sk := ms.(*sink)
		if err := sk.Run(&model.Run{Index: 0, Tool: "k6", Server: "go"}); err != nil {
			return err
		}
		for i := range points {
			if err := sk.Sample(0, &model.Sample{Metric: "http_req_duration", Value: float64(i)}); err != nil {
				return err
			}
		}
		return then(sk)
	})
	if err != nil {
		t.Fatal(err)
	}
}
