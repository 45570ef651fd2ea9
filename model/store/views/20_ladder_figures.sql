-- ladder_figures(p95_ms := 50, max_error_rate := 0.01, min_achieved_ratio
-- := 0.95): one row per ladder
-- run of ladders() under the rule given, with the labels of the runs it
-- was measured by, under the names of run_figures, so that wra table lays
-- out highest_held_rps by server, database, test ... as it lays out the
-- figures of run_figures. run_id is the ladder run (ladders.run, after
-- its server for a fixed-rate ladder, whose run names repeat); for a
-- k6 ladder (kinds samples and summary) the labels are its run's; for a
-- fixed-rate ladder they are those of the runs at its rates (ladder_steps'
-- run_id of each step), the database the ladder run's (ladders.database:
-- a fixed-rate ladder is one per database): a label they do not all
-- share is NULL (the
-- JSON labels and the source: those of the run at the lowest rate),
-- round is the round, and drift_pct is the largest over them;
-- step_sources are where each of those runs was read (source and line),
-- in order: the groups whose caveats a table prints beside the ladder.
-- target_rps is NULL: the rates are the ladder's steps. The median over
-- runs and its "+" are stats.MedianLadder's.
CREATE OR REPLACE MACRO ladder_figures(p95_ms := 50, max_error_rate := 0.01, min_achieved_ratio := 0.95) AS TABLE
WITH l AS (
    SELECT * FROM ladders(p95_ms := p95_ms, max_error_rate := max_error_rate, min_achieved_ratio := min_achieved_ratio)
),
members AS (
    SELECT DISTINCT kind, server, test, tool, run, run_id AS member, target_rps
    FROM ladder_steps(p95_ms := p95_ms, max_error_rate := max_error_rate, min_achieved_ratio := min_achieved_ratio) WHERE target_rps IS NOT NULL
),
m AS (
    SELECT mb.kind, mb.server, mb.test, mb.tool, mb.run,
           CASE WHEN count(DISTINCT coalesce(f.format, '')) = 1 THEN any_value(f.format) END AS format,
           CASE WHEN count(DISTINCT coalesce(r.round, -1)) = 1 THEN any_value(r.round) END AS round,
           CASE WHEN count(DISTINCT coalesce(r.connections, -1)) = 1 THEN any_value(r.connections) END AS connections,
           CASE WHEN count(DISTINCT coalesce(r.threads, -1)) = 1 THEN any_value(r.threads) END AS threads,
           bool_and(coalesce(r.latency_corrected, TRUE)) AS latency_corrected,
           arg_min(r.source, (coalesce(mb.target_rps, 0), r.run_id)) AS source,
           arg_min(r.source_line, (coalesce(mb.target_rps, 0), r.run_id)) AS source_line,
           arg_min(r.labels, (coalesce(mb.target_rps, 0), r.run_id)) AS labels,
           max(d.drift_pct) AS drift_pct,
           list_sort(list_distinct(list({source: r.source, line: coalesce(r.source_line, 0)}))) AS step_sources
    FROM members mb
    JOIN runs r ON r.run_id = mb.member
    LEFT JOIN ingested_files f ON f.source = r.source
    LEFT JOIN (SELECT run_id, max(drift_pct) AS drift_pct FROM run_calibration GROUP BY 1) d ON d.run_id = r.run_id
    GROUP BY mb.kind, mb.server, mb.test, mb.tool, mb.run
)
SELECT
    CASE WHEN l.kind = 'fixed-rate' THEN coalesce(l.server, '') || ' ' || l.run ELSE l.run END AS run_id,
    m.source,
    m.source_line,
    l.tool,
    m.format,
    l.server,
    l.database,
    l.test,
    m.round,
    m.connections,
    m.threads,
    CAST(NULL AS DOUBLE) AS target_rps,
    l.kind,
    l.highest_held_rps,
    l.highest_held_achieved_rps,
    l.still_holding,
    l.step_rps,
    l.steps,
    l.first_failed_rps,
    l.first_step_rps,
    l.p95_threshold_ms,
    l.max_error_rate,
    l.min_achieved_ratio,
    m.latency_corrected,
    m.drift_pct,
    m.labels,
    m.step_sources
FROM l LEFT JOIN m ON m.kind = l.kind AND m.server IS NOT DISTINCT FROM l.server AND m.test IS NOT DISTINCT FROM l.test
               AND m.tool IS NOT DISTINCT FROM l.tool AND m.run = l.run;

COMMENT ON MACRO TABLE ladder_figures IS 'one row per ladder run of ladders() under the rule given, with the labels of the runs that measured it under the names of run_figures: what wra table --metric highest_held_rps lays out';
