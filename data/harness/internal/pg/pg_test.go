package pg

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wra-bench/wra/data/harness/internal/dbproc/dbproctest"
)

// TestCluster starts a real cluster (skipped where PostgreSQL's server
// binaries are not installed), reads the items table and stops it.
func TestCluster(t *testing.T) {
	_, err := FindBinDir()
	dbproctest.NeedServer(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := Start(ctx, Options{Port: dbproctest.FreePort(t), Rows: 300})
	if err != nil {
		t.Fatal(err)
	}
	dir, pid := c.dir, c.PID()
	defer c.Stop()
	conn, err := pgx.Connect(ctx, c.DSN())
	if err != nil {
		t.Fatal(err)
	}
	var n, sum int64
	var name string
	if err := conn.QueryRow(ctx, "SELECT count(*), sum(price_cents), max(name) FILTER (WHERE id = 42) FROM items").Scan(&n, &sum, &name); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	// sum over id 1..300 of (7 id) mod 10000 = 7 * 300 * 301 / 2 (all below 10000).
	if n != 300 || sum != 7*300*301/2 || name != "item-42" {
		t.Errorf("items: count %d, sum %d, name %q", n, sum, name)
	}
	if c.Version == "" {
		t.Error("no version")
	}
	dbproctest.Stopped(t, dir, pid, c.Stop)
}

func TestStartBadOptions(t *testing.T) {
	if _, err := Start(context.Background(), Options{BinDir: t.TempDir(), Port: 1, Rows: 0}); err == nil {
		t.Error("rows 0: no error")
	}
	_, err := Start(context.Background(), Options{BinDir: t.TempDir(), Port: dbproctest.FreePort(t), Rows: 10})
	if err == nil {
		t.Error("a folder without PostgreSQL: no error")
	}
	if major("/usr/lib/postgresql/15/bin") != 15 || major("/x/bin") != 0 {
		t.Error("major")
	}
}
