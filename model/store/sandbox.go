package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Sandbox runs query text that someone else wrote (a notebook's blocks):
// only single queries, on a store that reads and writes no file.
type Sandbox struct{ s *Store }

// ErrNotAQuery is text that is not one query.
var ErrNotAQuery = errors.New("a notebook block must be one query (SELECT, WITH, FROM, VALUES, DESCRIBE, SHOW or SUMMARIZE): a notebook cannot change the store")

// Sandbox turns off the store's access to files (read_csv, COPY, ATTACH)
// and locks its configuration, so that no query can turn it back on, for
// as long as the store is open. Open the store read-only as well: a
// sandbox refuses statements that are not queries, and a read-only store
// refuses writes on top of that.
func (s *Store) Sandbox(ctx context.Context) (*Sandbox, error) {
	for _, stmt := range []string{"SET enable_external_access = false", "SET lock_configuration = true"} {
		if _, err := s.exec(ctx, stmt); err != nil {
			return nil, fmt.Errorf("%s: %w", stmt, err)
		}
	}
	return &Sandbox{s: s}, nil
}

// Query runs text after DuckDB's parser has found it to be exactly one
// query.
func (b *Sandbox) Query(ctx context.Context, text string) (*Table, error) {
	if err := b.check(ctx, text); err != nil {
		return nil, err
	}
	return b.s.Query(ctx, text)
}

// check asks DuckDB's parser (json_serialize_sql, which serializes only
// SELECT statements) whether text is exactly one query. A syntax error is
// left for the query itself to report, with DuckDB's position.
func (b *Sandbox) check(ctx context.Context, text string) error {
	row, err := b.s.queryRow(ctx, `SELECT json_serialize_sql(?::VARCHAR)::VARCHAR`, text)
	if err != nil {
		return err
	}
	var parsed struct {
		Error      bool              `json:"error"`
		ErrorType  string            `json:"error_type"`
		Statements []json.RawMessage `json:"statements"`
	}
	if err := json.Unmarshal([]byte(Text(row[0])), &parsed); err != nil {
		return fmt.Errorf("reading DuckDB's parse of the block: %w", err)
	}
	switch {
	case parsed.Error && parsed.ErrorType == "parser":
		return nil
	case parsed.Error:
		return ErrNotAQuery
	case len(parsed.Statements) == 0:
		return errors.New("the block holds no query")
	case len(parsed.Statements) > 1:
		return fmt.Errorf("the block holds %d statements; a notebook block is one query", len(parsed.Statements))
	}
	return nil
}
