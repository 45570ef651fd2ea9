package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
)

// eachRow runs a query on a connection of a load's transaction and hands
// each row, of n columns, to row; the slice is reused from row to row.
func eachRow(ctx context.Context, q driver.QueryerContext, query string, args []driver.NamedValue, n int, row func([]driver.Value)) error {
	rows, err := q.QueryContext(ctx, query, args)
	if err != nil {
		return err
	}
	defer rows.Close()
	vals := make([]driver.Value, n)
	for {
		if err := rows.Next(vals); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		row(vals)
	}
}
