package api_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"
	_ "github.com/lib/pq"

	"github.com/wra-bench/wra/data/harness/internal/dbproc/dbproctest"
	"github.com/wra-bench/wra/data/harness/internal/mariadb"
	"github.com/wra-bench/wra/data/harness/internal/pg"
	"github.com/wra-bench/wra/data/harness/servers/api"
)

// checkStore reads through a store opened by open the rows every stack
// serves: item 42 and the page after 100 (items are filled by one rule,
// name item-<id>, price id*7 % 10000).
func checkStore(t *testing.T, ctx context.Context, open api.Opener, dsn string) {
	t.Helper()
	st, closeStore, err := open(ctx, dsn, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer closeStore()
	it, err := st.One(ctx, 42)
	if err != nil || it != (api.Item{ID: 42, Name: "item-42", PriceCents: 294}) {
		t.Errorf("One(42) = %+v, %v", it, err)
	}
	if _, err := st.One(ctx, 100000); err != api.ErrNotFound {
		t.Errorf("One of a missing id: %v, want ErrNotFound", err)
	}
	page, err := st.Page(ctx, 100, 20)
	if err != nil || len(page) != 20 || page[0].ID != 101 || page[19] != (api.Item{ID: 120, Name: "item-120", PriceCents: 840}) {
		t.Errorf("Page(100, 20) = %d items %+v, %v", len(page), page, err)
	}
}

// TestSQLStoreMariaDB is the go-mysql stack's store in both of the
// driver's modes against a real MariaDB (skipped where it is not installed).
func TestSQLStoreMariaDB(t *testing.T) {
	_, err := mariadb.FindBinaries("")
	dbproctest.NeedServer(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, err := mariadb.Start(ctx, mariadb.Options{Port: dbproctest.FreePort(t), Rows: 300})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	admin, err := sql.Open("mysql", s.DSN())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	prepares := func() int64 {
		var name string
		var n int64
		if err := admin.QueryRowContext(ctx, "SHOW GLOBAL STATUS LIKE 'Com_stmt_prepare'").Scan(&name, &n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	open := api.OpenSQL("mysql", api.QueryOneMySQL, api.QueryPageMySQL)
	n0 := prepares()
	checkStore(t, ctx, open, s.DSN())
	n1 := prepares()
	checkStore(t, ctx, open, s.DSN()+"?interpolateParams=true")
	n2 := prepares()
	// The default mode prepares each of the 3 queries; interpolation none.
	if n1-n0 != 3 || n2-n1 != 0 {
		t.Errorf("server-side prepares: %d by the default mode (want 3), %d with interpolateParams (want 0)", n1-n0, n2-n1)
	}
}

// TestSQLStorePostgres is the go-pq stack's store against a real
// PostgreSQL (skipped where it is not installed).
func TestSQLStorePostgres(t *testing.T) {
	_, err := pg.FindBinDir()
	dbproctest.NeedServer(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := pg.Start(ctx, pg.Options{Port: dbproctest.FreePort(t), Rows: 300})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	checkStore(t, ctx, api.OpenSQL("postgres", api.QueryOne, api.QueryPage), c.DSN())
}
