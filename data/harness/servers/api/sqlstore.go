package api

import (
	"context"
	"database/sql"
	"errors"
)

// The same queries with MySQL's placeholders (go-sql-driver/mysql, mysql2).
const (
	QueryOneMySQL  = "SELECT id, name, price_cents FROM items WHERE id = ?"
	QueryPageMySQL = "SELECT id, name, price_cents FROM items WHERE id > ? ORDER BY id LIMIT ?"
)

// SQLStore is a Store over database/sql with the driver's own statement
// handling: the two queries are passed as text on every call.
type SQLStore struct {
	DB                  *sql.DB
	OneQuery, PageQuery string // QueryOne, QueryPage in the driver's placeholders
}

// One reads the item with the given id.
func (s SQLStore) One(ctx context.Context, id int64) (Item, error) {
	var it Item
	err := s.DB.QueryRowContext(ctx, s.OneQuery, id).Scan(&it.ID, &it.Name, &it.PriceCents)
	if errors.Is(err, sql.ErrNoRows) {
		return it, ErrNotFound
	}
	return it, err
}

// Page reads up to limit items with ids above after, in id order.
func (s SQLStore) Page(ctx context.Context, after int64, limit int) ([]Item, error) {
	rows, err := s.DB.QueryContext(ctx, s.PageQuery, after, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var items []Item
	for rows.Next() {
		var it Item
		if err := rows.Scan(&it.ID, &it.Name, &it.PriceCents); err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return items, rows.Err()
}

// OpenSQL is an Opener for a database/sql driver: a pool of at most
// poolSize connections, all kept idle, checked with a ping.
func OpenSQL(driver, one, page string) Opener {
	return func(ctx context.Context, dsn string, poolSize int) (Store, func(), error) {
		db, err := sql.Open(driver, dsn)
		if err != nil {
			return nil, nil, err
		}
		db.SetMaxOpenConns(poolSize)
		db.SetMaxIdleConns(poolSize)
		if err := db.PingContext(ctx); err != nil {
			db.Close()
			return nil, nil, err
		}
		return SQLStore{DB: db, OneQuery: one, PageQuery: page}, func() { db.Close() }, nil
	}
}
