package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
)

// driverRow is a row of a query run on a connection of a load's
// transaction, read by the names of its columns (as namedRow is for the
// store's queries).
type driverRow struct {
	cols map[string]int
	vals []driver.Value
}

// get is the value of the column named; a column the query does not
// have is a mistake of the caller's, which panics.
func (r driverRow) get(name string) driver.Value {
	i, ok := r.cols[name]
	if !ok {
		panic("store: the query has no column " + name)
	}
	return r.vals[i]
}

// newDriverRow makes the row of a result with these columns.
func newDriverRow(names []string) driverRow {
	r := driverRow{cols: make(map[string]int, len(names)), vals: make([]driver.Value, len(names))}
	for i, n := range names {
		r.cols[n] = i
	}
	return r
}

// eachRow runs a query on a connection of a load's transaction and hands
// each row to row, read by name; the row is reused from row to row.
func eachRow(ctx context.Context, q driver.QueryerContext, query string, args []driver.NamedValue, row func(driverRow)) error {
	rows, err := q.QueryContext(ctx, query, args)
	if err != nil {
		return err
	}
	defer rows.Close()
	r := newDriverRow(rows.Columns())
	for {
		if err := rows.Next(r.vals); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		row(r)
	}
}
