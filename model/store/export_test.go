package store

import (
	"context"
	"database/sql"
	"strings"

	"github.com/wra-bench/wra/model"
)

// DefaultInsertSQL is the statement BulkSamples runs without the read
// options wra adds to DuckDB's defaults: the benchmark's DuckDB anchor.
func DefaultInsertSQL(in *model.BulkInput) (string, error) {
	q, err := bulkInsertSQL(in)
	return strings.Replace(q, csvReadOptions, "", 1), err
}

// ExecInTransaction runs one statement in a transaction of its own and
// gives the rows it changed: the benchmark's DuckDB anchor runs its
// INSERT this way.
func ExecInTransaction(ctx context.Context, s *Store, stmt string) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	r, err := tx.ExecContext(ctx, stmt)
	if err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return r.RowsAffected()
}

// SQLDB gives the external tests of this package the store's database,
// to check what was written with plain SQL.
func SQLDB(s *Store) *sql.DB { return s.db }
