// Command go-pq serves the harness API with Go net/http, database/sql and the
// lib/pq driver, which prepares every parameterised statement anew (an
// unnamed Parse/Describe round trip before each Bind/Execute).
package main

import (
	"context"
	"database/sql"
	"errors"
	"os"

	_ "github.com/lib/pq"

	"github.com/wra-bench/wra/data/harness/servers/api"
)

type store struct{ db *sql.DB }

func (s store) One(ctx context.Context, id int64) (api.Item, error) {
	var it api.Item
	err := s.db.QueryRowContext(ctx, api.QueryOne, id).Scan(&it.ID, &it.Name, &it.PriceCents)
	if errors.Is(err, sql.ErrNoRows) {
		return it, api.ErrNotFound
	}
	return it, err
}

func (s store) Page(ctx context.Context, after int64, limit int) ([]api.Item, error) {
	rows, err := s.db.QueryContext(ctx, api.QueryPage, after, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var items []api.Item
	for rows.Next() {
		var it api.Item
		if err := rows.Scan(&it.ID, &it.Name, &it.PriceCents); err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return items, rows.Err()
}

func open(ctx context.Context, dsn string, poolSize int) (api.Store, func(), error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, nil, err
	}
	db.SetMaxOpenConns(poolSize)
	db.SetMaxIdleConns(poolSize)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, nil, err
	}
	return store{db}, func() { db.Close() }, nil
}

func main() {
	os.Exit(api.Main("go-pq", os.Args[1:], os.Getenv("DATABASE_URL"), open, os.Stderr))
}
