-- cost_runs: the runs that price each stack, the one selection rule of
-- wra cost and the cost table of wra analyze. A stack is (server,
-- database, test, variant): one server measured against two databases is
-- two stacks, and so are two runs a manifest tells apart (run_groups'
-- variant). Its runs are those of cpu_per_request with a CPU per request,
-- at the stack's highest target rate (fixed-rate passes); a stack with no
-- fixed-rate pass is priced from all its runs at full speed, and
-- fixed_rate says which. The medians over these runs are stats.Median's.
CREATE OR REPLACE VIEW cost_runs AS
WITH c AS (
    SELECT c.*, coalesce(g.variant, '') AS variant
    FROM cpu_per_request c
    LEFT JOIN run_groups g ON g.run_id = c.run_id OR g.record_id = c.run_id
    WHERE c.cpu_server_us_per_req IS NOT NULL AND coalesce(g.mode, '') NOT IN ('ladder', 'waiting')
),
top AS (
    SELECT server, database, test, variant, max(target_rps) AS top_rps FROM c GROUP BY server, database, test, variant
)
SELECT
    c.server,
    c.database,
    c.test,
    c.variant,
    c.run_id,
    top.top_rps IS NOT NULL AS fixed_rate,
    c.target_rps,
    c.cpu_server_us_per_req,
    c.cpu_db_us_per_req,
    c.latency_p50_ms,
    c.source,
    c.source_line
FROM c JOIN top
  ON c.server IS NOT DISTINCT FROM top.server AND c.database IS NOT DISTINCT FROM top.database AND c.test IS NOT DISTINCT FROM top.test
 AND c.variant = top.variant
WHERE top.top_rps IS NULL OR c.target_rps = top.top_rps;

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON VIEW cost_runs IS 'the runs that price each stack (server, database, test, variant)';
COMMENT ON COLUMN cost_runs.variant IS 'the stack';
COMMENT ON COLUMN cost_runs.server IS 'the stack';
COMMENT ON COLUMN cost_runs.database IS 'the stack';
COMMENT ON COLUMN cost_runs.test IS 'the stack';
COMMENT ON COLUMN cost_runs.run_id IS 'a run that prices it, as in cpu_per_request';
COMMENT ON COLUMN cost_runs.target_rps IS 'a run that prices it, as in cpu_per_request';
COMMENT ON COLUMN cost_runs.cpu_server_us_per_req IS 'a run that prices it, as in cpu_per_request';
COMMENT ON COLUMN cost_runs.cpu_db_us_per_req IS 'a run that prices it, as in cpu_per_request';
COMMENT ON COLUMN cost_runs.latency_p50_ms IS 'a run that prices it, as in cpu_per_request';
COMMENT ON COLUMN cost_runs.source IS 'a run that prices it, as in cpu_per_request';
COMMENT ON COLUMN cost_runs.source_line IS 'a run that prices it, as in cpu_per_request';
COMMENT ON COLUMN cost_runs.fixed_rate IS 'true when the stack is priced at its highest target rate, false when from all its runs at full speed';
