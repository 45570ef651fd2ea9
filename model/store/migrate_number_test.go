package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"
)

// Migrations are applied by their number, not their place: a store that
// has a later migration and lacks an earlier one (two schema changes made
// side by side) is given the one it lacks, and none twice.
func TestMigrationsByNumber(t *testing.T) {
	ms := migrations()
	last := ms[len(ms)-1]
	if SchemaVersion() != last.version {
		t.Fatalf("SchemaVersion %d, want the number of the last migration, %s", SchemaVersion(), last.name)
	}
	path := filepath.Join(t.TempDir(), "gap.duckdb")
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	// Every migration but the second, recorded by number.
	if _, err := db.Exec(`CREATE TABLE wra_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		if i == 1 {
			continue
		}
		if _, err := db.Exec(m.sql); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		if _, err := db.Exec(`INSERT INTO wra_migrations VALUES (?, ?, TIMESTAMP '2026-11-01 00:00:00')`, m.version, m.name); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, err := Open(context.Background(), path, Options{Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil {
		t.Fatalf("open a store without %s: %v", ms[1].name, err)
	}
	defer s.Close()
	var n, top int
	if err := s.db.QueryRow(`SELECT count(*), max(version) FROM wra_migrations`).Scan(&n, &top); err != nil {
		t.Fatal(err)
	}
	if n != len(ms) || top != last.version {
		t.Errorf("after opening: %d migrations up to %d, want %d up to %d", n, top, len(ms), last.version)
	}
	// The second migration's table is there, and the memory series has
	// its database column.
	var g int64
	if err := s.db.QueryRow(`SELECT generation FROM wra_generation`).Scan(&g); err != nil {
		t.Errorf("wra_generation after the migration it lacked: %v", err)
	}
	if _, err := s.db.Exec(`SELECT database FROM memory_series`); err != nil {
		t.Errorf("memory_series.database: %v", err)
	}
}
