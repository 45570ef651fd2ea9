-- ladder_steps(p95_ms := 50, max_error_rate := 0.01): every step of every
-- held-rate ladder in the store, one row per (ladder run, step), under the
-- rule given: a step is held when it has requests, its p95 is under p95_ms
-- and its error rate under max_error_rate (both strict, as k6 thresholds
-- 'p(95)<50' and 'rate<0.01' are). The plain view ladder_steps is this
-- macro at its defaults. The one definition of a ladder's steps, which
-- wra analyze, wra compare and notebooks read; kind says where a ladder
-- comes from:
--
--   samples     k6 request samples tagged with their step (tags: {step:
--               '<rate>'}); run is the run_id. p95 is quantile_cont (type
--               7, k6's own definition); a request failed when k6 tagged it
--               expected_response=false (what http_req_failed counts), or,
--               without that tag, when its status is missing, 0 or >= 400;
--               achieved_rps is (requests - 1) / (last - first request
--               time).
--   summary     a k6 summary (handleSummary or --summary-export) that kept
--               per-step sub-metrics http_req_duration{step:N}, for a
--               server without a samples ladder (the same runs kept twice
--               count once); run is the run_id. A summary has no per-step
--               error count: every step carries the run's overall errors
--               / requests.
--   fixed-rate  runs at a fixed target rate (wrk2 -R, harness steps) with a
--               p95: each (server, database, test, tool, round) whose runs
--               cover two or more target rates is one ladder run, its runs
--               the steps; run is '<test> <tool> round <round>', or
--               '<test> <tool> <database> round <round>' where the runs
--               name their database; failed is errors +
--               non_2xx, of requests (or 2xx + non_2xx where requests is
--               missing).
--
-- run_id is the run that measured the step: the ladder run's own for
-- samples and summary, the step's run for fixed-rate.
-- database is the database of those runs (runs.database): one per
-- fixed-rate ladder run, which the partition above keeps apart.
CREATE OR REPLACE MACRO ladder_steps(p95_ms := 50, max_error_rate := 0.01) AS TABLE
WITH req AS (
    SELECT
        run_id,
        json_extract_string(tags, '$.step') AS step,
        ts,
        value,
        CASE
            WHEN json_extract_string(tags, '$.expected_response') IS NOT NULL THEN json_extract_string(tags, '$.expected_response') <> 'true'
            ELSE coalesce(status, 0) = 0 OR status >= 400
        END AS failed
    FROM samples
    WHERE metric = 'http_req_duration' AND json_extract_string(tags, '$.step') IS NOT NULL AND json_extract_string(tags, '$.step') <> ''
),
sampled AS (
    SELECT
        run_id,
        step,
        TRY_CAST(step AS DOUBLE) AS target_rps,
        (count(*) - 1) * 1e6 / nullif(epoch_us(max(ts)) - epoch_us(min(ts)), 0) AS achieved_rps,
        quantile_cont(value, 0.95) AS p95,
        count(*) FILTER (WHERE failed) / count(*) AS error_rate,
        count(*) AS requests,
        count(*) FILTER (WHERE failed) AS failed
    FROM req
    GROUP BY run_id, step
),
tagged AS (
    SELECT 'samples' AS kind, r.server, r.test, r.tool, r.database, s.run_id AS run, s.step, s.target_rps, s.achieved_rps,
           s.p95, s.error_rate, s.requests, s.failed, r.source, r.source_line, r.round, s.run_id
    FROM sampled s LEFT JOIN runs r USING (run_id)
),
sub AS (
    SELECT run_id, server, test, tool, database, source, source_line, round, requests, errors, k, labels->>k AS v
    FROM (SELECT *, unnest(json_keys(labels)) AS k FROM runs WHERE tool = 'k6' AND labels IS NOT NULL)
    WHERE k LIKE 'submetric.http_req_duration{step:%}.p95_ms'
),
summarized AS (
    SELECT 'summary' AS kind, server, test, tool, database, run_id AS run,
           regexp_extract(k, '\{step:([^}]*)\}', 1) AS step,
           TRY_CAST(regexp_extract(k, '\{step:([^}]*)\}', 1) AS DOUBLE) AS target_rps,
           CAST(NULL AS DOUBLE) AS achieved_rps,
           TRY_CAST(v AS DOUBLE) AS p95,
           CASE WHEN coalesce(requests, 0) > 0 THEN coalesce(errors, 0) / requests ELSE 0 END AS error_rate,
           coalesce(requests, 0) AS requests,
           coalesce(errors, 0) AS failed,
           source, source_line, round, run_id
    FROM sub
    WHERE TRY_CAST(regexp_extract(k, '\{step:([^}]*)\}', 1) AS DOUBLE) IS NOT NULL AND TRY_CAST(v AS DOUBLE) IS NOT NULL
      AND coalesce(server, '') NOT IN (SELECT DISTINCT coalesce(server, '') FROM tagged)
),
fr AS (
    SELECT *,
           coalesce(requests, responses_2xx + coalesce(non_2xx, 0)) AS req,
           coalesce(errors, 0) + coalesce(non_2xx, 0) AS nfailed,
           count(DISTINCT target_rps) OVER (PARTITION BY server, database, test, tool, round) AS rates
    FROM runs
    WHERE target_rps IS NOT NULL AND latency_p95_ms IS NOT NULL AND coalesce(requests, responses_2xx) > 0
),
fixed AS (
    SELECT 'fixed-rate' AS kind, server, test, tool, database,
           coalesce(test, '') || ' ' || tool || coalesce(' ' || database, '') || ' round ' || coalesce(round, -1) AS run,
           CASE WHEN target_rps = round(target_rps) AND abs(target_rps) < 1e15 THEN CAST(CAST(target_rps AS BIGINT) AS VARCHAR) ELSE CAST(target_rps AS VARCHAR) END AS step,
           target_rps, rps AS achieved_rps, latency_p95_ms AS p95, nfailed / req AS error_rate,
           req AS requests, nfailed AS failed, source, source_line, round, run_id
    FROM fr WHERE rates >= 2
),
steps AS (
    SELECT *, p95_ms AS threshold_ms, max_error_rate AS threshold_error_rate
    FROM (SELECT * FROM tagged UNION ALL SELECT * FROM summarized UNION ALL SELECT * FROM fixed)
)
SELECT
    kind,
    server,
    run,
    step,
    target_rps,
    achieved_rps,
    p95 AS p95_ms,
    error_rate,
    coalesce(requests > 0 AND p95 < threshold_ms AND error_rate < threshold_error_rate, FALSE) AS held,
    requests,
    failed,
    source,
    test,
    tool,
    source_line,
    round,
    threshold_ms AS p95_threshold_ms,
    threshold_error_rate AS max_error_rate,
    run_id,
    database
FROM steps;

CREATE OR REPLACE VIEW ladder_steps AS SELECT * FROM ladder_steps();

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON MACRO TABLE ladder_steps IS 'every step of every held-rate ladder, held under the rule given';
COMMENT ON VIEW ladder_steps IS 'every step of every held-rate ladder, held under p95 < 50 ms and errors < 1%';
COMMENT ON COLUMN ladder_steps.kind IS 'the ladder run';
COMMENT ON COLUMN ladder_steps.server IS 'the ladder run';
COMMENT ON COLUMN ladder_steps.test IS 'the ladder run';
COMMENT ON COLUMN ladder_steps.tool IS 'the ladder run';
COMMENT ON COLUMN ladder_steps.run IS 'the ladder run';
COMMENT ON COLUMN ladder_steps.step IS 'the step as named (the tag, or the rate)';
COMMENT ON COLUMN ladder_steps.target_rps IS 'the step as a number (NULL when it is not one: such steps count in no result)';
COMMENT ON COLUMN ladder_steps.achieved_rps IS 'samples: (requests - 1) / (last - first request time); fixed-rate: the run''s rps; summary: NULL';
COMMENT ON COLUMN ladder_steps.p95_ms IS 'samples: quantile_cont(duration, 0.95), k6''s own p(95) definition; summary: the p95 k6 printed; fixed-rate: the tool''s p95';
COMMENT ON COLUMN ladder_steps.error_rate IS 'failed / requests; for samples failed = expected_response tag false (k6''s http_req_failed), or without that tag a status missing, 0 or >= 400; for fixed-rate errors + non_2xx';
COMMENT ON COLUMN ladder_steps.held IS 'requests > 0 AND p95_ms < p95_threshold_ms AND error_rate < max_error_rate (strict, as k6''s thresholds p(95)<50 and rate<0.01)';
COMMENT ON COLUMN ladder_steps.requests IS 'counts';
COMMENT ON COLUMN ladder_steps.failed IS 'counts';
COMMENT ON COLUMN ladder_steps.source IS 'where the step was read';
COMMENT ON COLUMN ladder_steps.source_line IS 'where the step was read';
COMMENT ON COLUMN ladder_steps.round IS 'the run''s round, from runs';
COMMENT ON COLUMN ladder_steps.p95_threshold_ms IS 'the rule applied';
COMMENT ON COLUMN ladder_steps.max_error_rate IS 'the rule applied';
COMMENT ON COLUMN ladder_steps.database IS 'the database of the runs that measured the ladder run, from runs: a fixed-rate ladder run is one database''s';
COMMENT ON COLUMN ladder_steps.run_id IS 'the run that measured the step: the ladder run''s own (samples, summary) or the step''s (fixed-rate)';
