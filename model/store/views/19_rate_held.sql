-- rate_held(p95_ms := 50, max_error_rate := 0.01, min_achieved_ratio :=
-- 0.95): every run at a fixed target rate, and whether it held that rate:
-- it has requests, its p95 is under p95_ms, its error rate (run_outcomes:
-- errors + non_2xx over the requests counted) under
-- max_error_rate (both strict, as for a ladder step), and it achieved at
-- least min_achieved_ratio of its target (0 leaves that out). The plain
-- view rate_held is the macro at its defaults; the single fixed-rate runs
-- of wra analyze ("held or not") read it under the command's rule.
CREATE OR REPLACE MACRO rate_held(p95_ms := 50, max_error_rate := 0.01, min_achieved_ratio := 0.95) AS TABLE
WITH r AS (
    SELECT run_id, server, test, tool, target_rps, rps AS achieved_rps, latency_p95_ms AS p95,
           coalesce(o.requests_counted, 0) AS req,
           o.failed AS nfailed,
           p95_ms AS threshold_ms, max_error_rate AS threshold_rate, min_achieved_ratio AS threshold_ratio
    FROM runs JOIN run_outcomes o USING (run_id)
    WHERE target_rps IS NOT NULL
)
SELECT
    run_id,
    server,
    test,
    tool,
    target_rps,
    achieved_rps,
    p95 AS p95_ms,
    CASE WHEN req > 0 THEN nfailed / req END AS error_rate,
    req AS requests,
    nfailed AS failed,
    coalesce(req > 0 AND p95 < threshold_ms AND nfailed / req < threshold_rate
             AND (threshold_ratio <= 0 OR achieved_rps >= threshold_ratio * target_rps), FALSE) AS held,
    threshold_ms AS p95_threshold_ms,
    threshold_rate AS max_error_rate,
    threshold_ratio AS min_achieved_ratio
FROM r;

CREATE OR REPLACE VIEW rate_held AS SELECT * FROM rate_held();

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON MACRO TABLE rate_held IS 'every run at a fixed target rate and whether it held it under the rule given';
COMMENT ON VIEW rate_held IS 'every run at a fixed target rate and whether it held it, under p95 < 50 ms, errors < 1%, 95% of the rate';
COMMENT ON COLUMN rate_held.run_id IS 'as in runs';
COMMENT ON COLUMN rate_held.server IS 'as in runs';
COMMENT ON COLUMN rate_held.test IS 'as in runs';
COMMENT ON COLUMN rate_held.tool IS 'as in runs';
COMMENT ON COLUMN rate_held.target_rps IS 'as in runs';
COMMENT ON COLUMN rate_held.requests IS 'requests_counted of run_outcomes, 0 when unknown';
COMMENT ON COLUMN rate_held.achieved_rps IS 'the run''s rps, requests/s';
COMMENT ON COLUMN rate_held.p95_ms IS 'the run''s latency_p95_ms, ms';
COMMENT ON COLUMN rate_held.error_rate IS 'as in run_outcomes';
COMMENT ON COLUMN rate_held.failed IS 'as in run_outcomes';
COMMENT ON COLUMN rate_held.held IS 'true when the run has requests, its p95 is under p95_ms, its error rate under max_error_rate, and its achieved_rps at least min_achieved_ratio of target_rps (0 leaves that out)';
COMMENT ON COLUMN rate_held.p95_threshold_ms IS 'the rule applied';
COMMENT ON COLUMN rate_held.max_error_rate IS 'the rule applied';
COMMENT ON COLUMN rate_held.min_achieved_ratio IS 'the rule applied';
