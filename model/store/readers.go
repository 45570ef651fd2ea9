package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"time"

	"github.com/wra-bench/wra/model"
)

// The typed readers of the views and table macros (views/*.sql): every
// figure wra publishes is read from its one definition in SQL here, into
// the structs of package model, and nowhere else.

// queryAll runs q and scans each row with scan into a T.
func queryAll[T any](ctx context.Context, db *sql.DB, what, q string, args []any, scan func(*sql.Rows, *T) error) ([]T, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := scan(rows, &v); err != nil {
			return nil, fmt.Errorf("reading %s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", what, err)
	}
	return out, nil
}

// nf is a nullable number read as NaN when NULL.
type nf struct{ sql.NullFloat64 }

func (n nf) v() float64 {
	if !n.Valid {
		return math.NaN()
	}
	return n.Float64
}

// CPURuns reads the runs of cpu_per_request with a stack CPU figure,
// ordered by test, target rate (full speed first), server, database,
// connections and round.
func (s *Store) CPURuns(ctx context.Context) ([]model.CPURun, error) {
	return queryAll(ctx, s.db, "cpu_per_request", `
SELECT run_id, coalesce(test, ''), target_rps, coalesce(server, ''), coalesce(database, ''), coalesce(connections, -1),
       cpu_server_us_per_req, cpu_user_us_per_req, cpu_kernel_us_per_req, cpu_db_us_per_req, coalesce(divisor_from, ''),
       latency_p50_ms, latency_p99_ms, failed, source, coalesce(source_line, 0)
FROM cpu_per_request
WHERE cpu_stack_s IS NOT NULL
ORDER BY 2, 3 NULLS FIRST, 4, 5, 6, round, run_id`, nil, func(r *sql.Rows, c *model.CPURun) error {
		var target, stack, user, kernel, db, p50, p99 nf
		err := r.Scan(&c.RunID, &c.Test, &target, &c.Server, &c.Database, &c.Connections,
			&stack, &user, &kernel, &db, &c.DivisorFrom, &p50, &p99, &c.Failed, &c.Source, &c.Line)
		c.TargetRPS, c.StackUS, c.UserUS, c.KernelUS, c.DBUS, c.P50MS, c.P99MS = target.v(), stack.v(), user.v(), kernel.v(), db.v(), p50.v(), p99.v()
		return err
	})
}

// CostRuns reads the view cost_runs: per stack, the runs that price it,
// ordered by server, database, test and run.
func (s *Store) CostRuns(ctx context.Context, f model.StackFilter) ([]model.CostRun, error) {
	return queryAll(ctx, s.db, "cost_runs", `
SELECT coalesce(server, ''), coalesce(database, ''), coalesce(test, ''), run_id, fixed_rate, target_rps,
       cpu_server_us_per_req, cpu_db_us_per_req, latency_p50_ms, source, coalesce(source_line, 0)
FROM cost_runs
WHERE ($1 = '' OR server = $1) AND ($2 = '' OR database = $2) AND ($3 = '' OR test = $3)
ORDER BY 1, 2, 3, run_id`, []any{f.Server, f.Database, f.Test}, func(r *sql.Rows, c *model.CostRun) error {
		var target, stack, db, p50 nf
		err := r.Scan(&c.Server, &c.Database, &c.Test, &c.RunID, &c.FixedRate, &target, &stack, &db, &p50, &c.Source, &c.Line)
		c.TargetRPS, c.StackUS, c.DBUS, c.P50MS = target.v(), stack.v(), db.v(), p50.v()
		return err
	})
}

// Servers lists the servers of the runs that match f ("" for runs
// without a server label), sorted.
func (s *Store) Servers(ctx context.Context, f model.StackFilter) ([]string, error) {
	return queryAll(ctx, s.db, "runs", `
SELECT DISTINCT coalesce(server, '') FROM runs
WHERE ($1 = '' OR server = $1) AND ($2 = '' OR database = $2) AND ($3 = '' OR test = $3) ORDER BY 1`,
		[]any{f.Server, f.Database, f.Test}, func(r *sql.Rows, v *string) error { return r.Scan(v) })
}

// AllServers lists every server of the runs and the memory series, sorted
// ("" for rows without a server label).
func (s *Store) AllServers(ctx context.Context) ([]string, error) {
	return queryAll(ctx, s.db, "servers", `SELECT DISTINCT coalesce(server, '') FROM runs UNION SELECT DISTINCT coalesce(server, '') FROM memory_series ORDER BY 1`,
		nil, func(r *sql.Rows, v *string) error { return r.Scan(v) })
}

// RateRuns reads the runs with a request rate for the rounds table
// (rounds true: runs with a round label) or the single-run ranking
// (rounds false), ordered by test, tool, server, connections and target
// rate.
func (s *Store) RateRuns(ctx context.Context, rounds bool) ([]model.RateRun, error) {
	not := ""
	if rounds {
		not = "NOT"
	}
	return queryAll(ctx, s.db, "runs", `
WITH formats AS (
    SELECT r.tool, count(DISTINCT f.format) AS n FROM runs r JOIN ingested_files f USING (source) GROUP BY 1)
SELECT coalesce(r.test, ''), r.tool || CASE WHEN t.n > 1 THEN ' (' || f.format || ')' ELSE '' END,
       coalesce(r.server, ''), coalesce(r.connections, -1), r.target_rps,
       r.rps, r.latency_mean_ms, r.latency_p50_ms, r.latency_p95_ms, r.latency_p99_ms,
       coalesce(r.errors, 0) + coalesce(r.non_2xx, 0), coalesce(r.requests, r.responses_2xx, 0), r.latency_corrected,
       r.source, coalesce(r.source_line, 0), coalesce(c.drift_pct, 0), coalesce(r.labels->>'warning', '')
FROM runs r JOIN ingested_files f USING (source) JOIN formats t ON t.tool = r.tool
LEFT JOIN (SELECT run_id, max(drift_pct) AS drift_pct FROM run_calibration GROUP BY 1) c ON c.run_id = r.run_id
WHERE r.rps IS NOT NULL AND r.round IS `+not+` NULL
ORDER BY 1, 2, 3, 4, 5 NULLS FIRST, r.round, r.run_id`, nil, func(r *sql.Rows, v *model.RateRun) error {
		var target, rps, mean, p50, p95, p99, drift nf
		err := r.Scan(&v.Test, &v.Tool, &v.Server, &v.Connections, &target, &rps, &mean, &p50, &p95, &p99,
			&v.Failed, &v.Requests, &v.Corrected, &v.Source, &v.Line, &drift, &v.Warning)
		v.TargetRPS, v.RPS, v.MeanMS, v.P50MS, v.P95MS, v.P99MS, v.DriftPct = target.v(), rps.v(), mean.v(), p50.v(), p95.v(), p99.v(), drift.v()
		return err
	})
}

// Spectra reads the latency spectra of fixed-rate runs (percentiles below
// 100), ordered by test, rate, server, corrected first, run and
// percentile.
func (s *Store) Spectra(ctx context.Context) ([]model.SpectrumRow, error) {
	return queryAll(ctx, s.db, "latency_percentiles", `
SELECT coalesce(r.test, ''), r.target_rps, coalesce(r.server, ''), p.corrected, r.run_id, p.percentile, p.latency_ms, coalesce(p.count, -1)
FROM latency_percentiles p JOIN runs r USING (run_id)
WHERE r.target_rps IS NOT NULL AND p.percentile < 100
ORDER BY 1, 2, 3, 4 DESC, 5, p.percentile, p.latency_ms`, nil, func(r *sql.Rows, v *model.SpectrumRow) error {
		var lat nf
		err := r.Scan(&v.Test, &v.TargetRPS, &v.Server, &v.Corrected, &v.RunID, &v.Percentile, &lat, &v.Count)
		v.LatencyMS = lat.v()
		return err
	})
}

// PeakMemory reads each server's highest working set and private memory
// over its runs, by server.
func (s *Store) PeakMemory(ctx context.Context) ([]model.PeakMemory, error) {
	return queryAll(ctx, s.db, "runs", `
SELECT coalesce(server, ''), max(working_set_mb), max(private_mb), count(*)
FROM runs WHERE working_set_mb IS NOT NULL OR private_mb IS NOT NULL
GROUP BY 1 ORDER BY 1`, nil, func(r *sql.Rows, v *model.PeakMemory) error {
		var ws, priv nf
		err := r.Scan(&v.Server, &ws, &priv, &v.Runs)
		v.WorkingSetMB, v.PrivateMB = ws.v(), priv.v()
		return err
	})
}

// MemorySeries reads every memory series point, ordered by server, pass,
// concurrency and source: the order the fits take them in.
func (s *Store) MemorySeries(ctx context.Context) ([]model.MemorySeriesPoint, error) {
	return queryAll(ctx, s.db, "memory_series", `
SELECT coalesce(server, ''), coalesce(pass, -1), concurrency, memory_mb, source, coalesce(source_line, 0)
FROM memory_series ORDER BY 1, 2, 3, source, source_line`, nil, func(r *sql.Rows, v *model.MemorySeriesPoint) error {
		return r.Scan(&v.Server, &v.Pass, &v.Concurrency, &v.MemoryMB, &v.Source, &v.Line)
	})
}

// LadderSteps reads the table macro ladder_steps under the rule p95 <
// p95MS and error rate < maxErrorRate, ordered by kind, server, test,
// tool, run and target rate (fixed-rate ladders by test first, their
// rounds in numeric order).
func (s *Store) LadderSteps(ctx context.Context, p95MS, maxErrorRate float64) ([]model.LadderStepRow, error) {
	return queryAll(ctx, s.db, "ladder_steps", `
SELECT kind, coalesce(server, ''), coalesce(test, ''), coalesce(tool, ''), run, step, target_rps, achieved_rps,
       p95_ms, error_rate, held, requests, failed, coalesce(source, ''), coalesce(source_line, 0), coalesce(round, -1)
FROM ladder_steps(p95_ms := $1::DOUBLE, max_error_rate := $2::DOUBLE)
ORDER BY kind, CASE WHEN kind = 'fixed-rate' THEN coalesce(test, '') END, coalesce(server, ''),
         CASE WHEN kind = 'fixed-rate' THEN coalesce(tool, '') END, CASE WHEN kind = 'fixed-rate' THEN length(run) END,
         run, target_rps, step`, []any{p95MS, maxErrorRate}, func(r *sql.Rows, v *model.LadderStepRow) error {
		var target, achieved, p95, rate nf
		err := r.Scan(&v.Kind, &v.Server, &v.Test, &v.Tool, &v.Run, &v.Step, &target, &achieved, &p95, &rate,
			&v.Held, &v.Requests, &v.Failed, &v.Source, &v.Line, &v.Round)
		v.TargetRPS, v.AchievedRPS, v.P95MS, v.ErrorRate = target.v(), achieved.v(), p95.v(), rate.v()
		return err
	})
}

// Ladders reads the table macro ladders under the same rule, ordered by
// kind, server, test, tool and run.
func (s *Store) Ladders(ctx context.Context, p95MS, maxErrorRate float64) ([]model.LadderRow, error) {
	return queryAll(ctx, s.db, "ladders", `
SELECT kind, coalesce(server, ''), coalesce(test, ''), coalesce(tool, ''), run, highest_held_rps, still_holding, step_rps, steps
FROM ladders(p95_ms := $1::DOUBLE, max_error_rate := $2::DOUBLE)
ORDER BY 1, 2, 3, 4, 5`, []any{p95MS, maxErrorRate}, func(r *sql.Rows, v *model.LadderRow) error {
		var step nf
		err := r.Scan(&v.Kind, &v.Server, &v.Test, &v.Tool, &v.Run, &v.HighestHeldRPS, &v.StillHolding, &step, &v.Steps)
		v.StepRPS = step.v()
		return err
	})
}

// CalibrationTimings reads the view calibration_pairs, ordered by pair,
// process count and source line.
func (s *Store) CalibrationTimings(ctx context.Context) ([]model.CalibrationTiming, error) {
	return queryAll(ctx, s.db, "calibration_pairs", `
SELECT pair, phase, processes, ms, utc, source, coalesce(source_line, 0) FROM calibration_pairs ORDER BY pair, processes, source, source_line`, nil,
		func(r *sql.Rows, v *model.CalibrationTiming) error {
			var utc sql.NullTime
			err := r.Scan(&v.Pair, &v.Phase, &v.Processes, &v.MS, &utc, &v.Source, &v.Line)
			v.UTC = utc.Time
			return err
		})
}

// RunCounters reads the counters of every run, by test, server, tool and
// run.
func (s *Store) RunCounters(ctx context.Context) ([]model.RunCounters, error) {
	return queryAll(ctx, s.db, "runs", `
SELECT coalesce(server, ''), coalesce(test, ''), tool, target_rps, rps, coalesce(requests, -1), coalesce(responses_2xx, -1),
       cpu_server_s, cpu_server_user_s, cpu_server_kernel_s, cpu_db_s, source, coalesce(source_line, 0)
FROM runs ORDER BY 2, 1, 3, run_id`, nil, func(r *sql.Rows, v *model.RunCounters) error {
		var target, rps, cpu, user, kernel, db nf
		err := r.Scan(&v.Server, &v.Test, &v.Tool, &target, &rps, &v.Requests, &v.Responses2xx, &cpu, &user, &kernel, &db, &v.Source, &v.Line)
		v.TargetRPS, v.RPS, v.CPUServerS, v.CPUUserS, v.CPUKernelS, v.CPUDBS = target.v(), rps.v(), cpu.v(), user.v(), kernel.v(), db.v()
		return err
	})
}

// RunsStartedBetween reads the runs that started between from and to
// (both included), by start time.
func (s *Store) RunsStartedBetween(ctx context.Context, from, to time.Time) ([]model.RunRef, error) {
	return queryAll(ctx, s.db, "runs", `
SELECT coalesce(server, ''), source, coalesce(source_line, 0)
FROM runs WHERE started_at >= ? AND started_at <= ? ORDER BY started_at, run_id`, []any{from, to},
		func(r *sql.Rows, v *model.RunRef) error { return r.Scan(&v.Server, &v.Source, &v.Line) })
}

// CalibrationDrift reads the table macro calibration_drift at the given
// tolerance, ordered by pair and process count.
func (s *Store) CalibrationDrift(ctx context.Context, tolerance float64) ([]model.DriftRow, error) {
	return queryAll(ctx, s.db, "calibration_drift", `
SELECT source, processes, before_ms, after_ms, ratio, flagged, n_before, n_after
FROM calibration_drift(tolerance := $1::DOUBLE) ORDER BY 1, 2`, []any{tolerance}, func(r *sql.Rows, v *model.DriftRow) error {
		var b, a, ratio nf
		err := r.Scan(&v.Pair, &v.Processes, &b, &a, &ratio, &v.Flagged, &v.NBefore, &v.NAfter)
		v.BeforeMS, v.AfterMS, v.Ratio = b.v(), a.v(), ratio.v()
		return err
	})
}
