-- cost_groups(p95_ms := 50, max_error_rate := 0.01, min_achieved_ratio :=
-- 0.95): the groups of the experiment (run_groups) that can price a
-- stack, one row per group: every fixed-rate group with a CPU per request,
-- and the full-speed groups of a stack that has none. A stack is (server,
-- database, test, variant). CPU per request (server and database) and the
-- p50 and p95 latency are the medians (type 7) of the group's runs; held
-- says whether the group held its rate under the rule given (rate_held:
-- p95 and errors under the rule and the achieved rate within
-- min_achieved_ratio of the target) in more than half of its runs; a
-- full-speed group holds no rate. wra cost and the cost table of wra
-- analyze read these rows and choose, for the rate they price, the group
-- at that rate, or interpolate between the two around it (cost.Select).
CREATE OR REPLACE MACRO cost_groups(p95_ms := 50, max_error_rate := 0.01, min_achieved_ratio := 0.95) AS TABLE
WITH r AS (
    SELECT g.group_id, g.mode, g.server, g.database, g.test, g.variant, g.target_rps, g.connections, g.run_id,
           c.cpu_server_us_per_req, c.cpu_db_us_per_req, x.latency_p50_ms, x.latency_p95_ms, x.rps, c.source, c.source_line,
           h.held, h.p95_ms AS held_p95_ms, h.error_rate, h.achieved_rps
    FROM run_groups g
    JOIN runs x ON x.run_id = g.run_id
    JOIN cpu_per_request c ON c.run_id = coalesce(g.record_id, g.run_id)
    LEFT JOIN rate_held(p95_ms := p95_ms, max_error_rate := max_error_rate, min_achieved_ratio := min_achieved_ratio) h ON h.run_id = g.run_id
    WHERE c.cpu_server_us_per_req IS NOT NULL AND g.mode IN ('fixed-rate', 'full-speed')
),
grp AS (
    SELECT group_id, any_value(mode) AS mode, any_value(server) AS server, any_value(database) AS database,
           any_value(test) AS test, any_value(variant) AS variant, any_value(target_rps) AS target_rps,
           any_value(connections) AS connections,
           count(*) AS passes,
           median(cpu_server_us_per_req) AS cpu_server_us_per_req,
           median(cpu_db_us_per_req) AS cpu_db_us_per_req,
           median(latency_p50_ms) AS latency_p50_ms,
           median(latency_p95_ms) AS latency_p95_ms,
           median(rps) AS rps,
           count(*) FILTER (WHERE held) AS held_passes,
           list(run_id ORDER BY run_id) AS run_ids,
           list(source ORDER BY run_id) AS sources,
           list(source_line ORDER BY run_id) AS source_lines
    FROM r GROUP BY group_id
),
stacks AS (
    SELECT server, database, test, variant, bool_or(mode = 'fixed-rate') AS has_fixed
    FROM grp GROUP BY server, database, test, variant
)
SELECT
    g.server,
    g.database,
    g.test,
    g.variant,
    g.group_id,
    g.mode,
    g.target_rps,
    g.connections,
    g.passes,
    g.cpu_server_us_per_req,
    g.cpu_db_us_per_req,
    g.latency_p50_ms,
    g.latency_p95_ms,
    g.rps,
    g.held_passes,
    g.mode = 'fixed-rate' AND 2 * g.held_passes > g.passes AS held,
    g.run_ids,
    g.sources,
    g.source_lines
FROM grp g JOIN stacks s
  ON g.server IS NOT DISTINCT FROM s.server AND g.database IS NOT DISTINCT FROM s.database
 AND g.test IS NOT DISTINCT FROM s.test AND g.variant = s.variant
WHERE g.mode = 'fixed-rate' OR NOT s.has_fixed;

CREATE OR REPLACE VIEW cost_groups AS SELECT * FROM cost_groups();

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON MACRO TABLE cost_groups IS 'the groups that can price a stack, with their medians and whether they held their rate under the rule given';
COMMENT ON VIEW cost_groups IS 'the groups that can price a stack, with their medians and whether they held their rate (p95 < 50 ms, errors < 1%, 95% of the rate)';
COMMENT ON COLUMN cost_groups.server IS 'the stack';
COMMENT ON COLUMN cost_groups.database IS 'the stack';
COMMENT ON COLUMN cost_groups.test IS 'the stack';
COMMENT ON COLUMN cost_groups.variant IS 'the stack';
COMMENT ON COLUMN cost_groups.group_id IS 'the group, run_groups.group_id';
COMMENT ON COLUMN cost_groups.mode IS 'fixed-rate, or full-speed for a stack without fixed-rate groups';
COMMENT ON COLUMN cost_groups.target_rps IS 'the group''s rate, requests/s; NULL at full speed';
COMMENT ON COLUMN cost_groups.connections IS 'the group''s connections';
COMMENT ON COLUMN cost_groups.passes IS 'runs of the group with a CPU per request';
COMMENT ON COLUMN cost_groups.cpu_server_us_per_req IS 'median over the runs, as cpu_per_request, µs';
COMMENT ON COLUMN cost_groups.cpu_db_us_per_req IS 'median over the runs, as cpu_per_request, µs';
COMMENT ON COLUMN cost_groups.latency_p50_ms IS 'median over the runs, ms';
COMMENT ON COLUMN cost_groups.latency_p95_ms IS 'median over the runs, ms';
COMMENT ON COLUMN cost_groups.rps IS 'median of the achieved rate over the runs, requests/s';
COMMENT ON COLUMN cost_groups.held_passes IS 'runs that held the rate under the rule (rate_held)';
COMMENT ON COLUMN cost_groups.held IS 'true when a fixed-rate group held its rate in more than half of its runs';
COMMENT ON COLUMN cost_groups.run_ids IS 'the runs, run_groups.run_id';
COMMENT ON COLUMN cost_groups.sources IS 'the file and line of each run''s CPU figures (a paired harness record''s), in the order of run_ids';
COMMENT ON COLUMN cost_groups.source_lines IS 'the file and line of each run''s CPU figures (a paired harness record''s), in the order of run_ids';
