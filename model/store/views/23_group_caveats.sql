-- group_caveats(tolerance := 0.05, p95_ms := 50, max_error_rate := 0.01,
-- min_achieved_ratio := 0.95): what must be said beside every figure of a
-- group of run_groups, one row per (group, caveat), in the words every
-- surface of wra prints (the one place they are written):
--
--   drift     runs covered by a calibration drift above the tolerance
--             (run_calibration, by start time, calibration label or
--             folder).
--   passes    fewer than three runs: one run shows no spread and cannot
--             rank; two show only their min–max.
--   held      a fixed-rate group some of whose runs did not hold their
--             rate under the rule given (rate_held); a run without a p95
--             that met the rest of the rule counts as held.
--   latency   a group some of whose runs' latency is not corrected for
--             coordinated omission.
--   counters  a group whose CPU per request rests on fewer runs than it
--             has, where some run has CPU figures: the others' counters
--             are missing or broken.
--   failures  a group some of whose runs had more than max_error_rate of
--             their requests failed (run_outcomes), or every request:
--             its figures are of a server that did not answer everything.
--   precision runs whose CPU was read from /proc in clock ticks (their
--             record's cpu_source or db_cpu_source label is proc-ticks,
--             as wra record writes it where no cgroup could be had).
--   generator runs whose load generator used more than half a core on
--             average over the run (the record's loadgen_cpu_s over its
--             wall_s, as wra record writes them).
--
-- The plain view group_caveats is the macro at its defaults.
-- generator_cores(labels): the load generator's CPU seconds over the
-- seconds of the run (loadgen_cpu_s / wall_s of a wra record row): the
-- cores it kept busy on average; NULL where a record has neither. labels
-- is a label_map or the JSON labels.
CREATE OR REPLACE MACRO generator_cores(labels) AS
    TRY_CAST(label_map(labels)['loadgen_cpu_s'] AS DOUBLE) / nullif(TRY_CAST(label_map(labels)['wall_s'] AS DOUBLE), 0);

COMMENT ON MACRO generator_cores IS 'the cores a run''s load generator kept busy on average: loadgen_cpu_s / wall_s of its record';

-- broken_cpu(a, b): whether either label set names a CPU value stored as
-- NULL for being broken (broken_values); a and b as for broken_values.
CREATE OR REPLACE MACRO broken_cpu(a, b) AS
    len(list_filter(list_concat(broken_values(a), broken_values(b)), k -> starts_with(k, 'raw.cpu'))) > 0;

COMMENT ON MACRO broken_cpu IS 'whether a run or its record has a CPU value stored as NULL for being broken';

CREATE OR REPLACE MACRO group_caveats(tolerance := 0.05, p95_ms := 50, max_error_rate := 0.01, min_achieved_ratio := 0.95) AS TABLE
WITH g AS (
    SELECT g.group_id, any_value(g.mode) AS mode, any_value(g.target_rps) AS target_rps,
           count(*) AS n,
           count(*) FILTER (WHERE g.drift_pct > 100 * tolerance) AS drifted,
           max(g.drift_pct) AS drift_max,
           -- a run without a p95 that met the rest of the rule is not
           -- known to have failed it
           count(*) FILTER (WHERE NOT h.held AND (h.p95_ms IS NOT NULL OR h.error_rate >= max_error_rate
                                                  OR (min_achieved_ratio > 0 AND h.achieved_rps < min_achieved_ratio * h.target_rps))) AS not_held,
           bool_or(coalesce(r.latency_p99_ms, r.latency_p95_ms, r.latency_p50_ms) IS NOT NULL
                   AND NOT coalesce(r.latency_corrected, FALSE)) AS uncorrected,
           -- runs whose CPU figures are all usable: a server figure, no
           -- CPU value stored as NULL for being broken, and none negative
           -- (written into the store by hand)
           count(c.cpu_server_us_per_req) FILTER (WHERE NOT broken_cpu(r.label_map, rec.label_map)
               AND NOT coalesce(least(r.cpu_server_s, r.cpu_server_user_s, r.cpu_server_kernel_s, r.cpu_db_s,
                                      rec.cpu_server_s, rec.cpu_server_user_s, rec.cpu_server_kernel_s, rec.cpu_db_s) < 0, FALSE)) AS cpu_ok,
           count(*) FILTER (WHERE o.error_rate > max_error_rate) AS failing,
           count(*) FILTER (WHERE o.all_failed) AS dead,
           max(o.error_rate) AS error_rate_max,
           count(*) FILTER (WHERE coalesce(r.cpu_server_s, r.cpu_server_user_s, r.cpu_server_kernel_s, r.cpu_db_s,
                                           rec.cpu_server_s, rec.cpu_server_user_s, rec.cpu_server_kernel_s, rec.cpu_db_s) IS NOT NULL
                                  OR broken_cpu(r.label_map, rec.label_map)) AS cpu_counted,
           count(*) FILTER (WHERE 'proc-ticks' IN (coalesce(rec.label_map, r.label_map)['cpu_source'], coalesce(rec.label_map, r.label_map)['db_cpu_source'])) AS ticked,
           min(c.responses_ok) FILTER (WHERE 'proc-ticks' IN (coalesce(rec.label_map, r.label_map)['cpu_source'], coalesce(rec.label_map, r.label_map)['db_cpu_source'])) AS ticked_ok,
           count(*) FILTER (WHERE generator_cores(coalesce(rec.label_map, r.label_map)) > 0.5) AS busy_generator,
           max(generator_cores(coalesce(rec.label_map, r.label_map))) AS generator_max
    FROM run_groups g
    JOIN (SELECT *, label_map(labels) AS label_map FROM runs) r ON r.run_id = g.run_id
    JOIN run_outcomes o ON o.run_id = g.run_id
    LEFT JOIN (SELECT *, label_map(labels) AS label_map FROM runs) rec ON rec.run_id = g.record_id
    LEFT JOIN cpu_per_request c ON c.run_id = coalesce(g.record_id, g.run_id)
    LEFT JOIN rate_held(p95_ms := p95_ms, max_error_rate := max_error_rate, min_achieved_ratio := min_achieved_ratio) h ON h.run_id = g.run_id
    GROUP BY g.group_id
),
c AS (
    SELECT group_id, 1 AS ord, 'drift' AS kind,
           printf('%d of %d runs are covered by a calibration drift above %g%% (the largest %.1f%%): the machine''s speed moved, so their figures are suspect',
                  drifted, n, CAST(100 * tolerance AS DOUBLE), drift_max) AS caveat
    FROM g WHERE drifted > 0
    UNION ALL
    SELECT group_id, 2, 'passes',
           CASE WHEN n = 1 THEN 'one run: no spread is known, so it cannot rank or be told apart from another'
                ELSE printf('%d runs: a median and its spread need 3 or more; the spread shown is their min–max', n) END
    FROM g WHERE n < 3
    UNION ALL
    SELECT group_id, 3, 'held',
           printf('%s was not held in %d of %d runs (p95 < %g ms, errors < %g%%, at least %g%% of the rate achieved)',
                  coalesce('the target rate of ' || CASE WHEN target_rps = trunc(target_rps) THEN format('{:,}', CAST(target_rps AS BIGINT))
                                                          ELSE CAST(target_rps AS VARCHAR) END || ' requests/s', 'the target rate'), not_held, n,
                  CAST(p95_ms AS DOUBLE), CAST(100 * max_error_rate AS DOUBLE), CAST(100 * min_achieved_ratio AS DOUBLE))
    FROM g WHERE not_held > 0
    UNION ALL
    SELECT group_id, 4, 'latency',
           'latency not corrected for coordinated omission: its percentiles understate the waiting under load'
    FROM g WHERE uncorrected
    UNION ALL
    SELECT group_id, 5, 'counters',
           printf('CPU per request rests on %d of %d runs: the others'' CPU counters are missing or broken', cpu_ok, n)
    FROM g WHERE cpu_counted > 0 AND cpu_ok < n
    UNION ALL
    SELECT group_id, 6, 'failures',
           CASE WHEN dead = n AND n = 1 THEN 'every request failed: no figure of it is a server''s answer'
                WHEN dead = n THEN printf('every request of all %d runs failed: no figure of them is a server''s answer', n)
                WHEN n = 1 THEN printf('more than %g%% of its requests failed (%.1f%%): the figures are of a server that did not answer everything',
                                      CAST(100 * max_error_rate AS DOUBLE), 100 * error_rate_max)
                WHEN dead > 0 THEN printf('%d of %d runs had more than %g%% of their requests failed, %d of them every request', failing, n, CAST(100 * max_error_rate AS DOUBLE), dead)
                ELSE printf('%d of %d runs had more than %g%% of their requests failed (at most %.1f%%): the figures are of a server that did not answer everything',
                            failing, n, CAST(100 * max_error_rate AS DOUBLE), 100 * error_rate_max) END
    FROM g WHERE failing > 0
    UNION ALL
    SELECT group_id, 7, 'precision',
           printf('CPU of %d of %d runs was read from /proc in clock ticks of 10 ms, not from cgroup counters (a tick is %.3g µs per request in the run with the fewest responses): much of the spread of its passes can be rounding',
                  ticked, n, 1e4 / ticked_ok)
    FROM g WHERE ticked > 0
    UNION ALL
    SELECT group_id, 8, 'generator',
           printf('the load generator used more than half a core in %d of %d runs (at most %.2f cores on average over a run): the figures partly measure the generator, which shares the machine''s cores',
                  busy_generator, n, generator_max)
    FROM g WHERE busy_generator > 0
)
SELECT group_id, kind, caveat FROM c ORDER BY group_id, ord;

CREATE OR REPLACE VIEW group_caveats AS SELECT * FROM group_caveats();

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON MACRO TABLE group_caveats IS 'what must be said beside every figure of a group, under the rule given';
COMMENT ON VIEW group_caveats IS 'what must be said beside every figure of a group: drift above 5%, fewer than 3 runs, a rate not held (p95 < 50 ms, errors < 1%, 95% of the rate), latency not corrected, broken counters, more than 1% of requests failed, CPU in /proc clock ticks, a busy load generator';
COMMENT ON COLUMN group_caveats.group_id IS 'the group, run_groups.group_id';
COMMENT ON COLUMN group_caveats.kind IS 'drift, passes, held, latency, counters, failures, precision or generator';
COMMENT ON COLUMN group_caveats.caveat IS 'the words every surface prints beside the group''s figures';
