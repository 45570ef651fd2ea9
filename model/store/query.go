package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// Table is the result of a query: its columns and its rows, every value
// typed as Value says.
type Table struct {
	Columns []Column
	Rows    [][]any
}

// Column is a column of a result.
type Column struct {
	Name string
	// Type is DuckDB's name of the column's type: BIGINT, HUGEINT,
	// DECIMAL(18,3), VARCHAR, ...
	Type string
}

// Names are the names of the columns, in order.
func (t *Table) Names() []string {
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	return names
}

// Query runs a statement and returns its rows. On a store opened
// read-only a statement that writes fails.
func (s *Store) Query(ctx context.Context, query string, args ...any) (*Table, error) {
	t := &Table{}
	cols, err := s.each(ctx, query, args, func(row []any) error {
		t.Rows = append(t.Rows, row)
		return nil
	})
	t.Columns = cols
	if err != nil {
		return nil, err
	}
	return t, nil
}

// each is the one way the store reads: it runs query and hands every row
// to fn, each value typed by Value. The slice is fn's to keep.
func (s *Store) each(ctx context.Context, query string, args []any, fn func(row []any) error, onCols ...func([]Column) error) (cols []Column, err error) {
	defer func() { err = s.outOfMemory(err) }()
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	cols = make([]Column, len(types))
	for i, t := range types {
		cols[i] = Column{Name: t.Name(), Type: t.DatabaseTypeName()}
	}
	for _, f := range onCols {
		if err := f(cols); err != nil {
			return cols, err
		}
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return cols, err
		}
		for i, v := range vals {
			vals[i] = Value(v)
		}
		if err := fn(vals); err != nil {
			return cols, err
		}
	}
	return cols, rows.Err()
}

// exec runs a statement that returns no rows and gives the number of rows
// it changed (or, for COPY, wrote).
func (s *Store) exec(ctx context.Context, stmt string, args ...any) (int64, error) {
	res, err := s.db.ExecContext(ctx, stmt, args...)
	if err != nil {
		return 0, s.outOfMemory(err)
	}
	return res.RowsAffected()
}

// outOfMemory adds to DuckDB's "Out of Memory Error" the limit it ran
// into and how to raise it; any other error is returned as it is.
func (s *Store) outOfMemory(err error) error {
	var de *duckdb.Error
	if !errors.As(err, &de) || de.Type != duckdb.ErrorTypeOutOfMemory {
		return err
	}
	return fmt.Errorf("%w (the store's memory limit is %s: give more with --memory-limit or WRA_MEMORY_LIMIT)", err, s.memoryLimit())
}

// Value turns a value as DuckDB's driver gives it into one of: nil (NULL),
// bool, int64, float64, string, time.Time, or json.Number, the exact
// decimal text of a number that int64 and float64 cannot hold (a DECIMAL,
// or a HUGEINT, UBIGINT or UHUGEINT beyond int64). Every integer type
// that fits gives int64; UUID and BLOB give text; nested values (LIST,
// STRUCT, MAP, JSON that is not text) give their JSON text.
func Value(v any) any {
	switch x := v.(type) {
	case nil, string, bool, int64, float64, time.Time:
		return x
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int:
		return int64(x)
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x)
		}
		return json.Number(fmt.Sprint(x))
	case *big.Int:
		if x == nil {
			return nil
		}
		if x.IsInt64() {
			return x.Int64()
		}
		return json.Number(x.String())
	case float32:
		return float64(x)
	case duckdb.Decimal:
		if x.Value == nil {
			return nil
		}
		return json.Number(x.String())
	case []byte:
		return string(x)
	case duckdb.UUID:
		return x.String()
	case *duckdb.UUID:
		if x == nil {
			return nil
		}
		return x.String()
	}
	if b, err := json.Marshal(jsonable(v)); err == nil {
		return string(b)
	}
	return fmt.Sprint(v)
}

// jsonable converts DuckDB's nested values (maps with non-string keys)
// for encoding/json.
func jsonable(v any) any {
	switch x := v.(type) {
	case duckdb.Map:
		m := make(map[string]any, len(x))
		for k, val := range x {
			m[fmt.Sprint(k)] = jsonable(val)
		}
		return m
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, val := range x {
			m[k] = jsonable(val)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = jsonable(val)
		}
		return out
	}
	return v
}

// Float reads a numeric value as given by Value: NaN for NULL or for a
// value that is no number.
func Float(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return math.NaN()
		}
		return f
	}
	return math.NaN()
}

// Text reads a text value as given by Value: "" for NULL.
func Text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// Int reads an integer value as given by Value; false (and 0) for NULL
// and for a value that is no integer int64 holds.
func Int(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
			return int64(x), true
		}
	}
	return 0, false
}

// Bool reads a boolean value as given by Value: false for NULL.
func Bool(v any) bool {
	b, _ := v.(bool)
	return b
}
