package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

func TestReadOnlyRefusesAnotherWrasDefinitions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.duckdb")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// As a store that an older wra wrote: other view definitions.
	if _, err := s.db.ExecContext(ctx, `UPDATE wra_definitions SET sha256 = 'older'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(ctx, path, Options{ReadOnly: true}); !errors.Is(err, ErrOldDefinitions) {
		t.Fatalf("read-only open of another wra's views: %v, want ErrOldDefinitions", err)
	}
	// A writable open applies this wra's views; then reading works.
	s, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("after a writable open: %v", err)
	}
	defer s.Close()
	if _, err := s.Query(ctx, `SELECT * FROM ladders(p95_ms := 100)`); err != nil {
		t.Errorf("the macros: %v", err)
	}
}
