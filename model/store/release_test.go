package store_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/model/store"
)

// TestReleaseBuffers fills DuckDB's buffers with the blocks of a table of
// 8 million rows written and read in the store, well beyond 16 MiB. A load
// (here of one small report) first has DuckDB give them back, and so does
// ReleaseBuffers: the table blocks left in DuckDB's memory fall to 16 MiB
// or less each time, the memory limit is the store's again, and the table
// still reads the same.
func TestReleaseBuffers(t *testing.T) {
	s := openStore(t, t.TempDir())
	db := store.SQLDB(s)
	ctx := context.Background()
	var limit string
	if err := db.QueryRow(`SELECT current_setting('memory_limit')`).Scan(&limit); err != nil {
		t.Fatal(err)
	}
	tableMiB := func() float64 {
		t.Helper()
		var b sql.NullInt64
		if err := db.QueryRow(`SELECT sum(memory_usage_bytes) FROM duckdb_memory() WHERE tag = 'BASE_TABLE'`).Scan(&b); err != nil {
			t.Fatal(err)
		}
		return float64(b.Int64) / (1 << 20)
	}
	var sum int64
	fill := func() {
		t.Helper()
		if _, err := db.Exec(`CREATE OR REPLACE TABLE big AS SELECT i, hash(i) AS h, random() AS r FROM range(8000000) t(i)`); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(`SELECT sum(h % 1000000)::BIGINT FROM big`).Scan(&sum); err != nil {
			t.Fatal(err)
		}
		if m := tableMiB(); m <= 32 {
			t.Fatalf("%.1f MiB of table blocks in memory: too few to tell a release", m)
		}
	}
	check := func(what string) {
		t.Helper()
		if m := tableMiB(); m > 16 {
			t.Errorf("after %s: %.1f MiB of table blocks still in memory, want 16 MiB or less", what, m)
		}
		var now string
		if err := db.QueryRow(`SELECT current_setting('memory_limit')`).Scan(&now); err != nil {
			t.Fatal(err)
		}
		if now != limit {
			t.Errorf("after %s: memory limit %s, want the store's %s", what, now, limit)
		}
		var again int64
		if err := db.QueryRow(`SELECT sum(h % 1000000)::BIGINT FROM big`).Scan(&again); err != nil || again != sum {
			t.Errorf("after %s: the table reads %v (%v), want %v", what, again, err, sum)
		}
	}

	fill()
	if err := s.ReleaseBuffers(ctx); err != nil {
		t.Fatal(err)
	}
	check("ReleaseBuffers")

	fill()
	res, err := ingest.Ingest(ctx, s, []string{"../../ingest/testdata/wrk/wrk_plain_nginx_static.txt"}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if fr := res.Files[0]; fr.Status != ingest.Loaded {
		t.Fatalf("%v %v", fr.Status, fr.Err)
	}
	check("a load")
}
