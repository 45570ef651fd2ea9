package mariadb

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wra-bench/wra/data/harness/internal/dbproc/dbproctest"
)

// TestServer starts a real MariaDB (skipped where its server binaries are
// not installed), reads the items table and stops it.
func TestServer(t *testing.T) {
	_, err := FindBinaries("")
	dbproctest.NeedServer(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var log strings.Builder
	s, err := Start(ctx, Options{Port: dbproctest.FreePort(t), Rows: 300, Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	dir, pid := s.dir, s.PID()
	defer s.Stop()
	db, err := sql.Open("mysql", s.DSN())
	if err != nil {
		t.Fatal(err)
	}
	var n, sum int64
	var name string
	if err := db.QueryRowContext(ctx, "SELECT count(*), sum(price_cents), max(CASE WHEN id = 42 THEN name END) FROM items").Scan(&n, &sum, &name); err != nil {
		t.Fatal(err)
	}
	// The same rows as PostgreSQL's: sum over id 1..300 of (7 id) mod 10000 = 7 * 300 * 301 / 2.
	if n != 300 || sum != 7*300*301/2 || name != "item-42" {
		t.Errorf("items: count %d, sum %d, name %q", n, sum, name)
	}
	// Only 127.0.0.1: the server answers there and nowhere else it was told.
	var bind string
	if err := db.QueryRowContext(ctx, "SELECT @@bind_address").Scan(&bind); err != nil || bind != "127.0.0.1" {
		t.Errorf("bind_address %q, %v", bind, err)
	}
	db.Close()
	if !strings.Contains(s.Version, "MariaDB") {
		t.Errorf("version %q", s.Version)
	}
	dbproctest.Stopped(t, dir, pid, s.Stop)
}

func TestStartBadOptions(t *testing.T) {
	if _, err := Start(context.Background(), Options{BinDir: t.TempDir(), Port: 1, Rows: 0}); err == nil {
		t.Error("rows 0: no error")
	}
	_, err := Start(context.Background(), Options{BinDir: t.TempDir(), Port: dbproctest.FreePort(t), Rows: 10})
	if err == nil || !strings.Contains(err.Error(), "mariadbd") {
		t.Errorf("a folder without MariaDB: %v", err)
	}
}

func TestServerArgs(t *testing.T) {
	args := ServerArgs("/w", 3307, []string{"--innodb-flush-log-at-trx-commit=2", "query-cache-type=0"})
	for _, want := range []string{"--no-defaults", "--port=3307", "--bind-address=127.0.0.1",
		"--socket=/w/mysqld.sock", "--datadir=/w/data", "--innodb-flush-log-at-trx-commit=2", "--query-cache-type=0"} {
		if !slices.Contains(args, want) {
			t.Errorf("no %s in %q", want, args)
		}
	}
	if args[0] != "--no-defaults" {
		t.Errorf("--no-defaults must come first (mariadbd reads it only there): %q", args)
	}
	load := LoadStatements(10000)
	if !strings.Contains(load[2], "seq_1_to_10000") || !strings.Contains(load[2], "(seq * 7) % 10000") {
		t.Errorf("load %q", load[2])
	}
}
