package store

import (
	"context"
	"fmt"
	"strconv"
)

// heldViews are the views a command such as wra analyze reads many times
// over, each from the ones before it: the design of the experiment
// (run_groups) and its groups' figures (run_medians). Each costs its
// whole evaluation every time a query names it, ten times per analysis,
// and the evaluation's memory (sorts and windows over the runs' labels)
// lies outside DuckDB's memory_limit.
var heldViews = []string{"run_groups", "run_medians"}

// Hold evaluates the views a whole command reads many times over
// (heldViews) once each, into temporary tables of the same names on the
// store's one connection: until release is called, every query, view and
// macro that names one reads its rows as the view gave them, without
// evaluating it again. The views stay the one definition of their
// figures; a held table is their result at the time of Hold, so a
// command holds them only after it has written the store, and releases
// them before it writes again. Should the connection be replaced, the
// tables go with it and the queries read the views themselves.
func (s *Store) Hold(ctx context.Context) (release func() error, err error) {
	var held []string
	release = func() error {
		var first error
		for i := len(held) - 1; i >= 0; i-- {
			if _, err := s.exec(context.WithoutCancel(ctx), `DROP TABLE IF EXISTS temp.main.`+held[i]); err != nil && first == nil {
				first = fmt.Errorf("releasing %s: %w", held[i], err)
			}
		}
		held = nil
		return first
	}
	// The views are evaluated with one DuckDB thread: each thread of a
	// statement keeps its own states of every operator (hash tables,
	// parsed labels), and the analysis after a hold runs on one core
	// anyway. At 16 copies of data/, wra analyze --no-ingest peaked at
	// 214-220 MiB instead of 257-263, in the same time.
	threads, err := s.scalar(ctx, `SELECT current_setting('threads')::VARCHAR`)
	if err != nil {
		return nil, fmt.Errorf("holding: %w", err)
	}
	if _, err := s.exec(ctx, `SET threads = `+strconv.Itoa(holdThreads)); err != nil {
		return nil, fmt.Errorf("holding: %w", err)
	}
	defer func() {
		if _, rerr := s.exec(context.WithoutCancel(ctx), `SET threads = `+Text(threads)); rerr != nil && err == nil {
			release()
			release, err = nil, fmt.Errorf("holding: setting threads back to %s: %w", Text(threads), rerr)
		}
	}()
	for _, v := range heldViews {
		if _, err := s.exec(ctx, `CREATE TEMP TABLE `+v+` AS SELECT * FROM main.`+v); err != nil {
			release()
			return nil, fmt.Errorf("holding %s: %w", v, err)
		}
		held = append(held, v)
	}
	return release, nil
}

// holdThreads is the number of DuckDB threads Hold evaluates the views
// with.
const holdThreads = 1
