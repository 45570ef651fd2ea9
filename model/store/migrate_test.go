package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"
)

// makeV1Store writes a store as a wra of schema version 1 left it.
func makeV1Store(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := migrations()[0]
	for _, q := range []string{
		`CREATE TABLE wra_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)`,
		m.sql,
		`INSERT INTO wra_migrations VALUES (1, '001_init.sql', TIMESTAMP '2026-11-01 00:00:00')`,
		`INSERT INTO ingested_files VALUES ('a.csv', 'abc', 'records-csv', 1, TIMESTAMP '2026-11-01 00:00:00')`,
		`INSERT INTO runs (run_id, source, source_sha256, tool, server, latency_corrected) VALUES ('a.csv:0', 'a.csv', 'abc', 'records', 'go', false)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func TestMigrateOlderStoreKeepsBackup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.duckdb")
	makeV1Store(t, path)
	s, err := Open(context.Background(), path, Options{Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var v int
	if err := s.db.QueryRow(`SELECT max(version) FROM wra_migrations`).Scan(&v); err != nil || v != SchemaVersion() {
		t.Fatalf("version after migration = %d (%v), want %d", v, err, SchemaVersion())
	}
	var server string
	if err := s.db.QueryRow(`SELECT server FROM runs`).Scan(&server); err != nil || server != "go" {
		t.Errorf("data after migration: %q, %v", server, err)
	}
	backup := path + ".v1.bak"
	if _, err := os.Stat(backup); err != nil {
		t.Fatalf("no backup copy: %v", err)
	}
	// The backup is the old store, still at version 1.
	db, err := sql.Open("duckdb", backup+"?access_mode=READ_ONLY")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow(`SELECT max(version) FROM wra_migrations`).Scan(&v); err != nil || v != 1 {
		t.Errorf("backup version = %d (%v), want 1", v, err)
	}
}

func TestNewerStoreRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.duckdb")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`INSERT INTO wra_migrations VALUES (99, '099_future.sql', now())`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, ro := range []bool{false, true} {
		_, err := Open(context.Background(), path, Options{ReadOnly: ro})
		if !errors.Is(err, ErrNewerStore) {
			t.Fatalf("read-only %v: err = %v, want ErrNewerStore", ro, err)
		}
		want := "has schema version 99, this wra knows up to " + itoa(SchemaVersion())
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestFingerprint(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	f0, err := s.Fingerprint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if f1, _ := s.Fingerprint(ctx); f1 != f0 {
		t.Error("fingerprint changed without a write")
	}
	if err := s.Bump(ctx); err != nil {
		t.Fatal(err)
	}
	f2, _ := s.Fingerprint(ctx)
	if f2 == f0 {
		t.Error("fingerprint unchanged after Bump")
	}
}
