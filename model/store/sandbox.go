package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
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

// check asks DuckDB's parser whether text is exactly one query. A
// syntax error is left for the query itself to report, with DuckDB's
// position.
func (b *Sandbox) check(ctx context.Context, text string) error {
	n, queries, err := b.s.parseQueries(ctx, text)
	switch {
	case err != nil:
		return err
	case n < 0:
		return nil // DuckDB reports the syntax error as it runs the text
	case !queries:
		return ErrNotAQuery
	case n == 0:
		return errors.New("the block holds no query")
	case n > 1:
		return fmt.Errorf("the block holds %d statements; a notebook block is one query", n)
	}
	return nil
}

// parseQueries asks DuckDB's parser (json_serialize_sql, which
// serializes only SELECT statements, DESCRIBE, SHOW and SUMMARIZE among
// them) whether every statement of text is a query, and how many there
// are; n is -1 for text DuckDB cannot parse, which counts as queries:
// running it reports the syntax error with its position, and runs
// nothing.
func (s *Store) parseQueries(ctx context.Context, text string) (n int, queries bool, err error) {
	// DuckDB reads its parse as JSON itself: the parse writes a constant
	// beyond float64 (1e999) as Infinity, which is no JSON to Go.
	type parse struct {
		Failed     bool   `db:"failed"`
		Kind       string `db:"kind"`
		Statements int    `db:"statements"`
	}
	rows, err := scanAll[parse](ctx, s, "the parse", `SELECT coalesce((j->>'$.error')::BOOLEAN, false) AS failed, coalesce(j->>'$.error_type', '') AS kind,
       coalesce(json_array_length(j, '$.statements'), 0) AS statements
FROM (SELECT json_serialize_sql(?::VARCHAR) AS j)`, []any{text})
	if err != nil {
		return 0, false, err
	}
	row := rows[0]
	failed, kind := row.Failed, row.Kind
	switch {
	case failed && kind == "parser":
		return -1, true, nil
	case failed:
		return 0, false, nil
	}
	return row.Statements, true, nil
}

// ReadOnlyError is a statement refused on a store opened read-only
// because it is not a query: it would change the store, write a file
// (COPY ... TO, EXPORT DATABASE), attach another database, install or
// load an extension, or change a setting.
type ReadOnlyError struct {
	// Kind names the statement (COPY, ATTACH, SET ...) by the word text
	// starts with, "" where that word names no such statement.
	Kind string
}

func (e *ReadOnlyError) Error() string {
	what := "a statement that is not a query"
	if e.Kind != "" {
		what = e.Kind
	}
	return fmt.Sprintf("the store is open read-only, and %s may write (the store, a file, an extension or a setting): only queries run (SELECT, WITH, FROM, VALUES, DESCRIBE, SHOW, SUMMARIZE)", what)
}

// QueryReadOnly runs text, one statement or several, on a store opened
// read-only, after DuckDB's parser has found every statement to be a
// query; anything else is refused with a *ReadOnlyError before any of it
// runs. Queries may read files (read_csv, read_parquet); none writes one.
func (s *Store) QueryReadOnly(ctx context.Context, text string, args ...any) (*Table, error) {
	if !s.opts.ReadOnly {
		return nil, errors.New("QueryReadOnly needs a store opened read-only")
	}
	_, queries, err := s.parseQueries(ctx, text)
	if err != nil {
		return nil, err
	}
	if !queries {
		return nil, &ReadOnlyError{Kind: statementKind(text)}
	}
	return s.Query(ctx, text, args...)
}

// statementWords are the first words of the statements a read-only
// store refuses, with the name its message gives them.
var statementWords = map[string]string{
	"INSERT": "INSERT", "UPDATE": "UPDATE", "DELETE": "DELETE", "TRUNCATE": "TRUNCATE", "CREATE": "CREATE", "DROP": "DROP",
	"ALTER": "ALTER", "COPY": "COPY", "EXPORT": "EXPORT DATABASE", "IMPORT": "IMPORT DATABASE", "ATTACH": "ATTACH",
	"DETACH": "DETACH", "INSTALL": "INSTALL or LOAD", "LOAD": "INSTALL or LOAD", "FORCE": "INSTALL or LOAD", "SET": "SET",
	"RESET": "SET", "PRAGMA": "PRAGMA", "CALL": "CALL", "VACUUM": "VACUUM", "ANALYZE": "ANALYZE", "CHECKPOINT": "CHECKPOINT",
	"EXPLAIN": "EXPLAIN", "BEGIN": "a transaction statement", "COMMIT": "a transaction statement",
	"ROLLBACK": "a transaction statement", "PREPARE": "PREPARE", "EXECUTE": "EXECUTE", "USE": "USE",
}

// statementKind names the statement text starts with, for the message
// only (DuckDB's parser has already refused it): its first word, past
// blanks and comments. Preparing the statement to ask DuckDB its type is
// no way: binding EXPORT DATABASE already makes its folder. "" where the
// first word names none of them.
func statementKind(text string) string {
	for {
		text = strings.TrimLeft(text, " \t\r\n;")
		switch {
		case strings.HasPrefix(text, "--"):
			_, text, _ = strings.Cut(text, "\n")
			continue
		case strings.HasPrefix(text, "/*"):
			_, text, _ = strings.Cut(text, "*/")
			continue
		}
		break
	}
	word, _, _ := strings.Cut(text, " ")
	word, _, _ = strings.Cut(word, "\n")
	return statementWords[strings.ToUpper(strings.TrimSpace(word))]
}
