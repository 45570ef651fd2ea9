// Command go-pgx serves the harness API with Go net/http and a pgx v5
// connection pool (pgxpool), which caches prepared statements per connection.
package main

import (
	"context"
	"errors"
	"os"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/wra-bench/wra/data/harness/servers/api"
)

type store struct{ pool *pgxpool.Pool }

func (s store) One(ctx context.Context, id int64) (api.Item, error) {
	var it api.Item
	err := s.pool.QueryRow(ctx, api.QueryOne, id).Scan(&it.ID, &it.Name, &it.PriceCents)
	if errors.Is(err, pgx.ErrNoRows) {
		return it, api.ErrNotFound
	}
	return it, err
}

func (s store) Page(ctx context.Context, after int64, limit int) ([]api.Item, error) {
	rows, err := s.pool.Query(ctx, api.QueryPage, after, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (api.Item, error) {
		var it api.Item
		err := r.Scan(&it.ID, &it.Name, &it.PriceCents)
		return it, err
	})
}

func open(ctx context.Context, dsn string, poolSize int) (api.Store, func(), error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, nil, err
	}
	cfg.MaxConns = int32(poolSize)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, nil, err
	}
	return store{pool}, pool.Close, nil
}

func main() {
	os.Exit(api.Main("go-pgx", os.Args[1:], os.Getenv("DATABASE_URL"), open, os.Stderr))
}
