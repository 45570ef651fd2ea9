package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// The typed readers of the views and table macros (views/*.sql): every
// figure wra publishes is read from its one definition in SQL here, into
// the structs of package model, and nowhere else.

// integer reads an integer value: 0 for NULL.
func integer(v any) int64 {
	n, _ := Int(v)
	return n
}

// timeOf reads a time value: the zero time for NULL.
func timeOf(v any) time.Time {
	t, _ := v.(time.Time)
	return t
}

// splitLabels reads the factors of a run's group beside the columns
// (run_groups.factors, a JSON object): the labels that tell experiments
// apart. A run without them gives nil.
func splitLabels(text string) map[string]string {
	var factors map[string]string
	if text == "" || json.Unmarshal([]byte(text), &factors) != nil || len(factors) == 0 {
		return nil
	}
	return factors
}

// CPURuns reads the runs of run_groups (each run counted once, in its
// group) whose cpu_per_request figures (the record's, where a harness
// record pairs with a report) have a stack CPU figure, ordered by test,
// target rate (full speed first), server, database, connections, group
// and round.
func (s *Store) CPURuns(ctx context.Context) ([]model.CPURun, error) {
	return scanAll[model.CPURun](ctx, s, "cpu_per_request", `
SELECT g.run_id, coalesce(g.test, '') AS test, g.target_rps, coalesce(g.server, '') AS server, coalesce(g.database, '') AS database,
       coalesce(g.connections, -1) AS connections,
       c.cpu_server_us_per_req AS stack_us, c.cpu_user_us_per_req AS user_us, c.cpu_kernel_us_per_req AS kernel_us, c.cpu_db_us_per_req AS db_us,
       c.cpu_total_us_per_req AS total_us, coalesce(c.divisor_from, '') AS divisor_from, r.latency_p50_ms AS p50_ms, r.latency_p99_ms AS p99_ms, o.failed,
       c.source, coalesce(c.source_line, 0) AS line, g.factors AS split, g.tool, g.group_id, g.mode, g.variant, coalesce(g.block, '') AS block
FROM run_groups g
JOIN runs r ON r.run_id = g.run_id
JOIN run_outcomes o ON o.run_id = g.run_id
JOIN cpu_per_request c ON c.run_id = coalesce(g.record_id, g.run_id)
WHERE c.cpu_stack_s IS NOT NULL
ORDER BY 2, 3 NULLS FIRST, 4, 5, 6, g.group_id, r.round, g.run_id`, nil)
}

// CostGroups reads the table macro cost_groups under rule, for the
// stacks that match f, ordered by server, database, test, variant and
// target rate.
func (s *Store) CostGroups(ctx context.Context, rule model.DesignRule, f model.StackFilter) ([]model.CostGroup, error) {
	return scanAll[model.CostGroup](ctx, s, "cost_groups", `
SELECT coalesce(server, '') AS server, coalesce(database, '') AS database, coalesce(test, '') AS test, variant, group_id,
       mode = 'fixed-rate' AS fixed_rate, target_rps, coalesce(connections, -1) AS connections, passes,
       cpu_server_us_per_req AS stack_us, cpu_db_us_per_req AS db_us, latency_p50_ms AS p50_ms, latency_p95_ms AS p95_ms, rps,
       held_passes, held, run_ids, sources, source_lines AS lines
FROM cost_groups(`+ruleParams+`)
WHERE ($4 = '' OR server = $4) AND ($5 = '' OR database = $5) AND ($6 = '' OR test = $6)
ORDER BY 1, 2, 3, 4, target_rps NULLS FIRST, connections, group_id`,
		append(ruleArgs(rule.LadderRule), f.Server, f.Database, f.Test))
}

// Servers lists the servers of the runs that match f ("" for runs
// without a server label), sorted.
func (s *Store) Servers(ctx context.Context, f model.StackFilter) ([]string, error) {
	return column[string](ctx, s, "runs", `
SELECT DISTINCT coalesce(server, '') AS v FROM runs
WHERE ($1 = '' OR server = $1) AND ($2 = '' OR database = $2) AND ($3 = '' OR test = $3) ORDER BY 1`,
		[]any{f.Server, f.Database, f.Test})
}

// AllServers lists every server of the runs and the memory series, sorted
// ("" for rows without a server label).
func (s *Store) AllServers(ctx context.Context) ([]string, error) {
	return column[string](ctx, s, "servers", `SELECT DISTINCT coalesce(server, '') AS v FROM runs UNION SELECT DISTINCT coalesce(server, '') FROM memory_series ORDER BY 1`, nil)
}

// RateRuns reads the runs of run_groups with a request rate, but ladder
// runs (their rate is the ladder's, not a throughput), for the rounds
// table (rounds true: runs of a group of two or more) or the single-run
// ranking (rounds false: a group's one run), ordered by test, tool,
// server, database, connections and target rate; the same reports give
// the same tables whether they are filed in one file or many. Each run is counted once (run_groups): a harness record
// paired with a tool report is the report, with the drift covering
// either; a k6 point stream and its summary are one run.
func (s *Store) RateRuns(ctx context.Context, rounds bool) ([]model.RateRun, error) {
	not := ""
	if rounds {
		not = "NOT"
	}
	return scanAll(ctx, s, "run_groups", `
SELECT coalesce(g.test, '') AS test, g.tool, coalesce(g.server, '') AS server, coalesce(g.connections, -1) AS connections, g.target_rps,
       r.rps, r.latency_mean_ms AS mean_ms, r.latency_p50_ms AS p50_ms, r.latency_p95_ms AS p95_ms, r.latency_p99_ms AS p99_ms,
       o.failed, coalesce(o.requests_counted, 0) AS requests, r.latency_corrected AS corrected,
       r.source, coalesce(r.source_line, 0) AS line, coalesce(g.drift_pct, 0) AS drift_pct, coalesce(r.labels->>'warning', '') AS warning, r.run_id,
       g.factors AS split, coalesce(g.database, '') AS database, g.group_id, coalesce(g.block, '') AS block, g.mode,
       o.goodput_rps, o.all_failed, coalesce(r.labels->>'errors_breakdown', '') AS failure
FROM run_groups g JOIN runs r ON r.run_id = g.run_id JOIN run_outcomes o ON o.run_id = g.run_id
WHERE r.rps IS NOT NULL AND g.mode <> 'ladder'
QUALIFY `+not+` (count(*) OVER (PARTITION BY g.group_id) < 2)
ORDER BY 1, 2, 3, 20, 4, 5 NULLS FIRST, g.group_id, r.round, r.run_id`, nil, func(r *model.RateRun) { r.Failure = failureText(r.Failure) })
}

// failureText names what failed a run's requests from its
// errors_breakdown label (a JSON object of error text to count), the
// commonest first: "connection refused × 90303"; "" without one.
func failureText(breakdown string) string {
	var counts map[string]float64
	if breakdown == "" || json.Unmarshal([]byte(breakdown), &counts) != nil || len(counts) == 0 {
		return ""
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var parts []string
	for i, k := range keys {
		if i == 2 {
			parts = append(parts, fmt.Sprintf("%d more", len(keys)-2))
			break
		}
		parts = append(parts, fmt.Sprintf("%s × %s", k, strconv.FormatFloat(counts[k], 'f', -1, 64)))
	}
	return strings.Join(parts, ", ")
}

// RatesHeld reads the table macro rate_held under the rule given: per
// run_id of a run at a fixed target rate, whether it held that rate.
func (s *Store) RatesHeld(ctx context.Context, rule stats.LadderRule) (map[string]bool, error) {
	type heldRow struct {
		RunID string `db:"run_id"`
		Held  bool   `db:"held"`
	}
	rows, err := scanAll[heldRow](ctx, s, "rate_held", `SELECT run_id, held FROM rate_held(`+ruleParams+`)`, ruleArgs(rule))
	out := map[string]bool{}
	for _, r := range rows {
		out[r.RunID] = r.Held
	}
	return out, err
}

// spectrumRuns numbers the fixed-rate runs of run_groups for Spectra: k
// by run_id, g by test, rate, server, database, tool and variant (a
// spectrum is never pooled across a factor).
const spectrumRuns = `WITH ro AS (
    SELECT run_id, coalesce(test, '') AS test, target_rps, coalesce(server, '') AS server, coalesce(database, '') AS database,
           coalesce(tool, '') AS tool, variant,
           row_number() OVER (ORDER BY run_id) AS k,
           dense_rank() OVER (ORDER BY coalesce(test, ''), target_rps, coalesce(server, ''), coalesce(database, ''), coalesce(tool, ''), variant) AS g
    FROM run_groups WHERE target_rps IS NOT NULL
)`

// Spectra reads the latency spectra of fixed-rate runs (percentiles below
// 100), ordered by test, rate, server, database, tool, variant, corrected first,
// run and percentile, and hands each row to fn as it is read, so that
// the rows need not all be held at once (670 thousand at 64 copies of
// data/). The runs are read once and their percentiles sorted by the
// runs' numbers (spectrumRuns), so that neither DuckDB's sort nor the
// rows repeat a run's texts: at 27 thousand runs and 670 thousand
// percentiles, sorting them with their texts took DuckDB about 290 MiB.
func (s *Store) Spectra(ctx context.Context, fn func(model.SpectrumRow) error) error {
	type spectrumRun struct {
		model.SpectrumRow
		K int64 `db:"k"`
	}
	list, err := scanAll[spectrumRun](ctx, s, "runs", spectrumRuns+` SELECT k, test, target_rps, server, database, tool, run_id, variant FROM ro`, nil)
	if err != nil {
		return err
	}
	runs := make(map[int64]model.SpectrumRow, len(list))
	for _, r := range list {
		runs[r.K] = r.SpectrumRow
	}
	if err := s.eachNamed(ctx, spectrumRuns+`
SELECT ro.k, p.corrected, p.percentile, p.latency_ms, coalesce(p.count, -1) AS count
FROM latency_percentiles p JOIN ro USING (run_id)
WHERE p.percentile < 100
ORDER BY ro.g, p.corrected DESC, ro.k, p.percentile, p.latency_ms`, nil, func(r namedRow) error {
		row := runs[r.int("k")]
		row.Corrected, row.Percentile, row.LatencyMS, row.Count = r.bool("corrected"), r.float("percentile"), r.float("latency_ms"), r.int("count")
		return fn(row)
	}); err != nil {
		return fmt.Errorf("reading latency_percentiles: %w", err)
	}
	return nil
}

// groupFigures are the columns of run_medians m that fill a
// model.GroupFigures, for every reader of a group's figures.
const groupFigures = `m.group_id, m.passes, m.rps_passes, m.rps_median, m.rps_min, m.rps_max,
       m.goodput_rps_median, m.goodput_rps_min, m.goodput_rps_max,
       m.latency_p50_ms_median, m.latency_p95_ms_median, m.latency_p99_ms_median, m.latency_p99_ms_min, m.latency_p99_ms_max,
       m.failed_total, m.all_failed, coalesce(m.errors_total, -1) AS errors_total,
       m.cpu_passes, m.cpu_server_us_per_req_median, m.cpu_server_us_per_req_min, m.cpu_server_us_per_req_max,
       m.cpu_user_us_per_req_median, m.cpu_kernel_us_per_req_median, m.cpu_db_us_per_req_median,
       m.cpu_total_us_per_req_median, m.cpu_total_us_per_req_min, m.cpu_total_us_per_req_max, m.working_set_mb_max`

// GroupFigures reads the figures of every group of the experiment
// (run_medians: each run counted once, medians of type 7), by group id.
func (s *Store) GroupFigures(ctx context.Context) (map[string]model.GroupFigures, error) {
	rows, err := scanAll[model.GroupFigures](ctx, s, "run_medians", `SELECT `+groupFigures+` FROM run_medians m`, nil)
	if err != nil {
		return nil, err
	}
	out := make(map[string]model.GroupFigures, len(rows))
	for _, r := range rows {
		out[r.GroupID] = r
	}
	return out, nil
}

// PeakMemory reads, per server, database and variant of the
// experiment (run_medians, whose groups count each run once and take a
// paired record's memory), the highest working set and private memory
// over the runs of its groups, ordered by server, database and variant.
func (s *Store) PeakMemory(ctx context.Context) ([]model.PeakMemory, error) {
	return scanAll[model.PeakMemory](ctx, s, "run_medians", `
SELECT coalesce(server, '') AS server, coalesce(database, '') AS database, variant, max(working_set_mb_max) AS working_set_mb,
       max(private_mb_max) AS private_mb, sum(passes) AS runs, list(group_id ORDER BY group_id) AS group_ids
FROM run_medians WHERE working_set_mb_max IS NOT NULL OR private_mb_max IS NOT NULL
GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`, nil)
}

// RunGroupRefs reads, for every run of run_groups and every harness
// record paired with one, its file and line and its group, ordered by
// file and line.
func (s *Store) RunGroupRefs(ctx context.Context) ([]model.RunGroupRef, error) {
	return scanAll[model.RunGroupRef](ctx, s, "run_groups", `
SELECT source, coalesce(source_line, 0) AS line, group_id FROM run_groups
UNION ALL
SELECT rec.source, coalesce(rec.source_line, 0), g.group_id FROM run_groups g JOIN runs rec ON rec.run_id = g.record_id
ORDER BY 1, 2, 3`, nil)
}

// Caveats reads the table macro group_caveats under rule: per group, the
// caveats every surface prints beside its figures, in their order.
func (s *Store) Caveats(ctx context.Context, rule model.DesignRule) (map[string][]model.Caveat, error) {
	rows, err := scanAll[model.Caveat](ctx, s, "group_caveats", `
SELECT group_id, kind, caveat AS text
FROM group_caveats(`+ruleParams+`, tolerance := $4::DOUBLE)`,
		append(ruleArgs(rule.LadderRule), rule.Tolerance))
	out := map[string][]model.Caveat{}
	for _, c := range rows {
		out[c.GroupID] = append(out[c.GroupID], c)
	}
	return out, err
}

// integers reads a list of integers (Value gives a list as its JSON
// text): nil for NULL.
func integers(v any) []int64 {
	var out []int64
	listOf(v, &out)
	return out
}

// texts reads a list of text values (Value gives a list as its JSON
// text): nil for NULL.
func texts(v any) []string {
	var out []string
	listOf(v, &out)
	return out
}

// column runs a query of one column, named v, and reads its values.
func column[T any](ctx context.Context, s *Store, what, query string, args []any) ([]T, error) {
	type one struct {
		V T `db:"v"`
	}
	rows, err := scanAll[one](ctx, s, what, query, args)
	out := make([]T, len(rows))
	for i, r := range rows {
		out[i] = r.V
	}
	return out, err
}

// listOf decodes a list that Value gave as JSON text into out; a NULL
// leaves out as it is. The store writes the lists it reads, so text that
// is not a JSON list does not occur.
func listOf(v any, out any) {
	if s, ok := v.(string); ok {
		_ = json.Unmarshal([]byte(s), out)
	}
}

// MemorySeries reads every memory series point, ordered by server,
// database (none first), pass, concurrency and source: the order the fits
// take them in.
func (s *Store) MemorySeries(ctx context.Context) ([]model.MemorySeriesPoint, error) {
	return scanAll[model.MemorySeriesPoint](ctx, s, "memory_series", `
SELECT coalesce(server, '') AS server, coalesce(pass, -1) AS pass, concurrency, memory_mb, source, coalesce(source_line, 0) AS line,
       coalesce(database, '') AS database
FROM memory_series ORDER BY 1, 7, 2, 3, source, source_line`, nil)
}

// MemorySlopes reads the view memory_slopes, ordered by server and
// database (none first), the per-pass rows (by pass) before the pooled
// one.
func (s *Store) MemorySlopes(ctx context.Context) ([]model.MemorySlope, error) {
	return scanAll[model.MemorySlope](ctx, s, "memory_slopes", `
SELECT coalesce(server, '') AS server, coalesce(pass, -1) AS pass, pooled, slope_gib_per_1000, slope_se_gib_per_1000, intercept_gib, r2,
       theil_sen_gib_per_1000, theil_sen_intercept_gib, points, coalesce(passes, 0) AS passes,
       pass_slope_min_gib_per_1000, pass_slope_median_gib_per_1000, pass_slope_max_gib_per_1000, coalesce(database, '') AS database
FROM memory_slopes ORDER BY 1, 15, pooled, 2`, nil)
}

// LadderSteps reads the table macro ladder_steps under the rule, with the variant of each step's run
// (run_groups), ordered by kind, server, database, test, tool, variant,
// run and target rate (fixed-rate ladders by test first, their rounds in
// numeric order).
func (s *Store) LadderSteps(ctx context.Context, rule stats.LadderRule) ([]model.LadderStepRow, error) {
	return s.LadderStepsOf(ctx, rule, nil)
}

// LadderStepsOf reads the steps of the ladder runs of the servers
// selected, as LadderSteps reads them all.
func (s *Store) LadderStepsOf(ctx context.Context, rule stats.LadderRule, servers *Servers) ([]model.LadderStepRow, error) {
	return scanAll[model.LadderStepRow](ctx, s, "ladder_steps", `
SELECT kind, coalesce(server, '') AS server, coalesce(test, '') AS test, coalesce(tool, '') AS tool, run, step, target_rps, achieved_rps,
       p95_ms, error_rate, held, requests, failed, coalesce(source, '') AS source, coalesce(source_line, 0) AS line, coalesce(round, -1) AS round,
       coalesce(database, '') AS database,
       coalesce((SELECT min(g.variant) FROM run_groups g WHERE (g.run_id = s.run_id OR g.record_id = s.run_id) AND `+serversWhere(servers, "s.server")+`), '') AS variant,
       coalesce(failures_from, '') AS failures_from, run_error_rate
FROM ladder_steps(`+ruleParams+`) s
WHERE `+serversWhere(servers, "s.server")+`
ORDER BY kind, CASE WHEN kind = 'fixed-rate' THEN coalesce(test, '') END, coalesce(server, ''), coalesce(database, ''), coalesce(test, ''), coalesce(tool, ''), variant,
         CASE WHEN kind = 'fixed-rate' THEN coalesce(tool, '') END, CASE WHEN kind = 'fixed-rate' THEN length(run) END,
         run, target_rps, step`, ruleArgs(rule))
}

// Ladders reads the table macro ladders under the same rule, ordered by
// kind, server, test, tool, run and database.
func (s *Store) Ladders(ctx context.Context, rule stats.LadderRule) ([]model.LadderRow, error) {
	return s.LaddersOf(ctx, rule, nil)
}

// LaddersOf reads the results of the ladder runs of the servers
// selected, as Ladders reads them all.
func (s *Store) LaddersOf(ctx context.Context, rule stats.LadderRule, servers *Servers) ([]model.LadderRow, error) {
	return scanAll[model.LadderRow](ctx, s, "ladders", `
SELECT kind, coalesce(server, '') AS server, coalesce(test, '') AS test, coalesce(tool, '') AS tool, run, highest_held_rps, still_holding, step_rps, steps,
       coalesce(database, '') AS database, first_step_rps, first_failed_rps, held_again_rps, highest_held_achieved_rps
FROM ladders(`+ruleParams+`)
WHERE `+serversWhere(servers, "server")+`
ORDER BY 1, 2, 3, 4, 5, 10`, ruleArgs(rule))
}

// CalibrationTimings reads the view calibration_pairs, ordered by pair,
// process count and source line.
func (s *Store) CalibrationTimings(ctx context.Context) ([]model.CalibrationTiming, error) {
	return scanAll[model.CalibrationTiming](ctx, s, "calibration_pairs", `
SELECT pair, phase, processes, ms, utc, source, coalesce(source_line, 0) AS line FROM calibration_pairs ORDER BY pair, processes, source, source_line`, nil)
}

// RunCounters reads the counters of every run, by test, server, tool and
// run.
func (s *Store) RunCounters(ctx context.Context) ([]model.RunCounters, error) {
	return scanAll[model.RunCounters](ctx, s, "runs", `
SELECT coalesce(server, '') AS server, coalesce(test, '') AS test, tool, target_rps, rps, coalesce(requests, -1) AS requests,
       coalesce(responses_2xx, -1) AS responses_2xx,
       cpu_server_s, cpu_server_user_s AS cpu_user_s, cpu_server_kernel_s AS cpu_kernel_s, cpu_db_s, source, coalesce(source_line, 0) AS line,
       array_to_string(list_transform(broken_values(labels), k -> substr(k, 5) || ' ' || (labels->>k)), ', ') AS broken
FROM runs ORDER BY 2, 1, 3, run_id`, nil)
}

// RunsStartedBetween reads the runs that started between from and to
// (both included), by start time.
func (s *Store) RunsStartedBetween(ctx context.Context, from, to time.Time) ([]model.RunRef, error) {
	return scanAll[model.RunRef](ctx, s, "runs", `
SELECT coalesce(server, '') AS server, source, coalesce(source_line, 0) AS line
FROM runs WHERE started_at >= ? AND started_at <= ? ORDER BY started_at, run_id`, []any{from, to})
}

// CalibrationDrift reads the table macro calibration_drift at the given
// tolerance, ordered by pair and process count.
func (s *Store) CalibrationDrift(ctx context.Context, tolerance float64) ([]model.DriftRow, error) {
	return scanAll[model.DriftRow](ctx, s, "calibration_drift", `
SELECT source AS pair, processes, before_ms, after_ms, ratio, flagged, n_before, n_after, tolerance, before_last_utc, after_first_utc
FROM calibration_drift(tolerance := $1::DOUBLE) ORDER BY 1, 2`, []any{tolerance})
}

// RunTools reads, per tool and version of the runs (the tool that made
// the load; records for harness rows), the number of runs and the first
// and last start time recorded, ordered by tool and version.
func (s *Store) RunTools(ctx context.Context) ([]model.ToolRuns, error) {
	return scanAll[model.ToolRuns](ctx, s, "runs", `
SELECT tool, coalesce(tool_version, '') AS version, count(*) AS runs, min(started_at) AS first, max(started_at) AS last
FROM runs GROUP BY 1, 2 ORDER BY 1, 2`, nil)
}

// RunLabels reads, for each of keys, the values the runs' labels give it
// and how many runs carry each, ordered by the order of keys, then value.
func (s *Store) RunLabels(ctx context.Context, keys []string) ([]model.LabelCount, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	quoted := make([]string, len(keys))
	for i, k := range keys {
		quoted[i] = "'" + strings.ReplaceAll(k, "'", "''") + "'"
	}
	return scanAll[model.LabelCount](ctx, s, "runs", `
WITH k AS (SELECT unnest(`+"["+strings.Join(quoted, ", ")+"]"+`) AS key, generate_subscripts(`+"["+strings.Join(quoted, ", ")+"]"+`, 1) AS ord)
SELECT k.key, json_extract_string(r.labels, '$."' || k.key || '"') AS value, count(*) AS runs
FROM runs r, k
WHERE json_extract_string(r.labels, '$."' || k.key || '"') IS NOT NULL
GROUP BY k.key, k.ord, value ORDER BY k.ord, value`, nil)
}
