package pg

import (
	"context"
	"net"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestCluster starts a real cluster (skipped where PostgreSQL's server
// binaries are not installed), reads the items table and stops it.
func TestCluster(t *testing.T) {
	if _, err := FindBinDir(); err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := Start(ctx, Options{Port: freePort(t), Rows: 300})
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
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("cluster folder %s left behind: %v", dir, err)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("postmaster %d still running", pid)
	}
	if err := c.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
}

func TestStartBadOptions(t *testing.T) {
	if _, err := Start(context.Background(), Options{BinDir: t.TempDir(), Port: 1, Rows: 0}); err == nil {
		t.Error("rows 0: no error")
	}
	_, err := Start(context.Background(), Options{BinDir: t.TempDir(), Port: freePort(t), Rows: 10})
	if err == nil {
		t.Error("a folder without PostgreSQL: no error")
	}
	if major("/usr/lib/postgresql/15/bin") != 15 || major("/x/bin") != 0 {
		t.Error("major")
	}
}
