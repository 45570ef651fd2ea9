package store_test

import (
	"database/sql"
	"math"
	"slices"
	"testing"
)

// A memory series names its database by its database column, and only
// by it (a database label of its file is not applied); series of one
// server on two databases are two fits, and a series that names none is
// a third, never pooled with them.
func TestViewMemorySlopesPerDatabase(t *testing.T) {
	db := ingestFolder(t, map[string]string{
		"wra.toml": `[[files]]
glob = "memory/maria.csv"
labels = { database = "mariadb" }
`,
		// node: 0.1 MiB per request on pg, 0.2 on mysql.
		"memory/two.csv": "server,database,pass,concurrency,rss_mb\n" +
			"node,pg,1,100,110\nnode,pg,1,200,120\nnode,pg,1,400,140\n" +
			"node,mysql,1,100,60\nnode,mysql,1,200,80\nnode,mysql,1,400,120\n",
		// node without a database: 0.3 MiB per request.
		"memory/plain.csv": "server,pass,concurrency,rss_mb\nnode,1,100,10\nnode,1,300,70\n",
		// go, whose file's label does not name its database: 0.4 MiB
		// per request.
		"memory/maria.csv": "server,pass,concurrency,rss_mb\ngo,1,100,0\ngo,1,200,40\n",
	})
	const per1000 = 1000.0 / 1024
	want := map[string]struct {
		slope  float64
		points int
	}{
		"go|": {0.4 * per1000, 2}, "node|mysql": {0.2 * per1000, 3}, "node|pg": {0.1 * per1000, 3}, "node|": {0.3 * per1000, 2},
	}
	var pooled, perPass []string
	queryRows(t, db, `SELECT server, coalesce(database, ''), pooled, slope_gib_per_1000, points, passes FROM memory_slopes ORDER BY ALL`, func(r *sql.Rows) error {
		var server, database string
		var isPooled bool
		var slope float64
		var points int
		var passes sql.NullInt64
		if err := r.Scan(&server, &database, &isPooled, &slope, &points, &passes); err != nil {
			return err
		}
		k := server + "|" + database
		w, ok := want[k]
		if !ok {
			t.Errorf("row of series %s", k)
		} else if math.Abs(slope-w.slope) > 1e-12 || points != w.points {
			t.Errorf("%s (pooled %v): slope %v GiB per 1000 over %d points, want %v over %d", k, isPooled, slope, points, w.slope, w.points)
		}
		if isPooled {
			pooled = append(pooled, k)
			if passes.Int64 != 1 {
				t.Errorf("%s: %v passes with a slope, want its own 1", k, passes)
			}
		} else {
			perPass = append(perPass, k)
		}
		return nil
	})
	keys := []string{"go|", "node|", "node|mysql", "node|pg"}
	if !slices.Equal(pooled, keys) || !slices.Equal(perPass, keys) {
		t.Errorf("pooled rows %q, per-pass rows %q; want one of each per series %q", pooled, perPass, keys)
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM memory_series WHERE database IS NULL`).Scan(&n); err != nil || n != 4 {
		t.Errorf("%d points without a database (%v), want plain.csv's and maria.csv's 4", n, err)
	}
}
