-- k6_duration_seconds(d): a k6 duration ('10s', '1m30s', '500ms', '2h')
-- in seconds; NULL when it is not one.
CREATE OR REPLACE MACRO k6_duration_seconds(d) AS
    CASE WHEN regexp_full_match(trim(d), '([0-9]+(\.[0-9]+)?(ms|us|µs|s|m|h))+')
         THEN list_sum(list_transform(regexp_extract_all(trim(d), '[0-9]+(?:\.[0-9]+)?(?:ms|us|µs|s|m|h)'),
              x -> CAST(regexp_extract(x, '^[0-9.]+') AS DOUBLE) *
                   CASE regexp_extract(x, '[a-zµ]+$') WHEN 'h' THEN 3600 WHEN 'm' THEN 60 WHEN 's' THEN 1 WHEN 'ms' THEN 0.001 ELSE 0.000001 END))
    END;

-- k6_stages(stages): a k6 ladder's stages ('target:duration,…', k6's
-- options.stages as a label) as a list of {target, seconds}.
CREATE OR REPLACE MACRO k6_stages(stages) AS
    list_transform(string_split(stages, ','),
        s -> {'target': TRY_CAST(trim(split_part(s, ':', 1)) AS DOUBLE), 'seconds': k6_duration_seconds(split_part(s, ':', 2))});

-- k6_stage_requests(stages, target): how many requests the stages that
-- end at target (the ramp to it and its hold) asked a ramping-arrival-rate
-- executor for: each stage's seconds times the mean of its start and end
-- rates (the executor ramps linearly from the previous stage's target;
-- the first stage is taken to start at its own). NULL when no stage ends
-- at target. A step's achieved rate is its requests over these, times
-- target: a ramp is not a shortfall. The stages are parsed once, as the
-- parameter st of the outer lambda (a macro's argument is expanded
-- wherever it is named: written k6_stages(stages)[i], they were parsed
-- again for every stage, four times).
CREATE OR REPLACE MACRO k6_stage_requests(stages, target) AS
    list_transform([k6_stages(stages)], st -> nullif(list_sum(list_transform(range(1, len(st) + 1),
        i -> CASE WHEN st[i].target = target
                  THEN st[i].seconds * (coalesce(st[i - 1].target, target) + target) / 2
                  ELSE 0 END)), 0))[1];

-- sample_steps_in(runs, from_ts := NULL, to_ts := NULL): the figures of
-- each step of the k6 runs of the list runs (run ids) over their request
-- samples (http_req_duration points tagged with their step, tags: {step:
-- '<rate>'}), one row per (run, step): requests, failed (k6 tagged the
-- request expected_response=false, what http_req_failed counts, or,
-- without that tag, its status is missing, 0 or >= 400), p95_ms
-- (quantile_cont, type 7, k6's own p(95)), last_ts (the last request's
-- time) and median_us (the median of the requests' times, microseconds
-- since the epoch: the start of the step's later half). Each run's rows
-- are its own: a list gives the rows its runs give one by one. wra stores
-- these rows in sample_steps with the runs' samples, in the file's
-- transaction, those of a file's runs (or of a group of files loaded
-- together) in one query, so that the samples are read back once; a
-- store of an older wra has them filled run by run. ladder_steps reads a
-- row per step, and no query holds the request samples of every run at
-- once. from_ts and to_ts, when given, bound the samples read by time:
-- bounds around the runs' first and last samples change no figure and
-- let DuckDB skip the row groups of other times.
CREATE OR REPLACE MACRO sample_steps_in(runs, from_ts := NULL, to_ts := NULL) AS TABLE
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
    WHERE metric = 'http_req_duration' AND list_contains(runs, run_id)
      AND (from_ts IS NULL OR ts >= from_ts) AND (to_ts IS NULL OR ts <= to_ts)
      AND json_extract_string(tags, '$.step') IS NOT NULL AND json_extract_string(tags, '$.step') <> ''
)
SELECT
    run_id,
    step,
    count(*) AS requests,
    count(*) FILTER (WHERE failed) AS failed,
    quantile_cont(value, 0.95) AS p95_ms,
    max(ts) AS last_ts,
    quantile_cont(epoch_us(ts), 0.5) AS median_us
FROM req
GROUP BY run_id, step;

-- sample_steps_of(run, from_ts := NULL, to_ts := NULL): sample_steps_in
-- of the one run run.
CREATE OR REPLACE MACRO sample_steps_of(run, from_ts := NULL, to_ts := NULL) AS TABLE
SELECT * FROM sample_steps_in([run], from_ts := from_ts, to_ts := to_ts);

-- ladder_steps(p95_ms := 50, max_error_rate := 0.01, min_achieved_ratio :=
-- 0.95): every step of every held-rate ladder in the store, one row per
-- (ladder run, step), under the rule given: a step is held when it has
-- requests, its p95 is under p95_ms, its error rate under max_error_rate
-- (both strict, as k6 thresholds 'p(95)<50' and 'rate<0.01' are) and it
-- achieved at least min_achieved_ratio of its target (0 leaves that
-- out). The plain view ladder_steps is this macro at its defaults. The one
-- definition of a ladder's steps, which wra analyze, wra compare and
-- notebooks read; kind says where a ladder comes from:
--
--   samples     k6 request samples tagged with their step (tags: {step:
--               '<rate>'}), read as the rows sample_steps keeps of them
--               (sample_steps_of); run is the run_id. p95 is quantile_cont (type
--               7, k6's own definition); a request failed when k6 tagged it
--               expected_response=false (what http_req_failed counts), or,
--               without that tag, when its status is missing, 0 or >= 400;
--               achieved_rps is the step's requests over those its
--               stages asked for (k6_stage_requests), times its target,
--               where the run has a stages label; without one, the rate
--               of the later half of its requests (count / 2 over the
--               time from their median to the last), which leaves a ramp
--               into the step out.
--   summary     a k6 summary (handleSummary, --summary-export or the
--               end-of-test text) that kept per-step sub-metrics
--               http_req_duration{step:N}; run is the run_id. Each figure
--               is the step's: requests from http_reqs{step:N} (or the
--               counts of http_req_failed{step:N}), failures from
--               http_req_failed{step:N}, achieved_rps from those requests
--               as for samples with a stages label (unknown without
--               one). Failures the summary did not keep are unknown
--               (error_rate NULL) unless the whole run had none
--               (0, failures_from 'run'); an unknown figure is left out
--               of the rule. A run also kept as a point stream (same
--               server, database, test, round and block labels) is the
--               stream's ladder only.
--   fixed-rate  runs at a fixed target rate (wrk2 -R, harness steps) with a
--               p95: each (server, database, test, tool, round, and the
--               labels that may be factors, run_factor_pairs) whose runs
--               cover two or more target rates is one ladder run, its runs
--               the steps; run is '<test> <tool> round <round>', or
--               '<test> <tool> <database> round <round>' where the runs
--               name their database, followed by those labels in
--               parentheses where there are any; failed and requests are
--               run_outcomes'.
--
-- run_id is the run that measured the step: the ladder run's own for
-- samples and summary, the step's run for fixed-rate.
-- database is the database of those runs (runs.database): one per
-- fixed-rate ladder run, which the partition above keeps apart.
CREATE OR REPLACE MACRO ladder_steps(p95_ms := 50, max_error_rate := 0.01, min_achieved_ratio := 0.95) AS TABLE
WITH sampled AS (
    SELECT
        run_id,
        step,
        TRY_CAST(step AS DOUBLE) AS target_rps,
        last_ts,
        median_us,
        t.p95_ms AS p95, -- qualified: p95_ms alone is the parameter
        failed / requests AS error_rate,
        requests,
        failed
    FROM sample_steps t
),
tagged AS (
    SELECT 'samples' AS kind, r.server, r.test, r.tool, r.database, s.run_id AS run, s.step, s.target_rps,
           coalesce(s.requests / k6_stage_requests(r.labels->>'stages', s.target_rps) * s.target_rps,
                    (s.requests / 2) * 1e6 / nullif(epoch_us(s.last_ts) - s.median_us, 0)) AS achieved_rps,
           s.p95, s.error_rate, s.requests, s.failed, r.source, r.source_line, r.round, s.run_id,
           'step' AS failures_from, CAST(NULL AS DOUBLE) AS run_error_rate
    FROM sampled s LEFT JOIN runs r USING (run_id)
),
streamed AS (
    SELECT DISTINCT r.server, r.database, r.test, r.round, run_block(r.label_map) AS block
    FROM (SELECT DISTINCT run_id FROM sampled) s
    JOIN (SELECT *, label_map(labels) AS label_map FROM runs) r USING (run_id)
),
sub AS (
    SELECT run_id, server, test, tool, database, source, source_line, round, requests, errors, label_map,
           regexp_extract(k, '\{step:([^}]*)\}', 1) AS step, TRY_CAST(label_map[k] AS DOUBLE) AS p95
    FROM (SELECT *, unnest(map_keys(label_map)) AS k
          FROM (SELECT *, label_map(labels) AS label_map FROM runs WHERE tool = 'k6' AND labels IS NOT NULL)) r
    WHERE k LIKE 'submetric.http_req_duration{step:%}.p95_ms'
      AND NOT EXISTS (SELECT 1 FROM streamed t WHERE t.server IS NOT DISTINCT FROM r.server AND t.database IS NOT DISTINCT FROM r.database
                      AND t.test IS NOT DISTINCT FROM r.test AND t.round IS NOT DISTINCT FROM r.round AND t.block IS NOT DISTINCT FROM run_block(r.label_map))
),
per_step AS (
    SELECT *,
           TRY_CAST(label_map['submetric.http_reqs{step:' || step || '}.count'] AS DOUBLE) AS step_reqs,
           TRY_CAST(label_map['submetric.http_req_failed{step:' || step || '}.passes'] AS DOUBLE) AS step_failed,
           TRY_CAST(label_map['submetric.http_req_failed{step:' || step || '}.fails'] AS DOUBLE) AS step_ok,
           coalesce(TRY_CAST(label_map['submetric.http_req_failed{step:' || step || '}.rate'] AS DOUBLE),
                    TRY_CAST(label_map['submetric.http_req_failed{step:' || step || '}.value'] AS DOUBLE)) AS step_rate,
           k6_stage_requests(label_map['stages'], TRY_CAST(step AS DOUBLE)) AS asked
    FROM sub
    WHERE TRY_CAST(step AS DOUBLE) IS NOT NULL AND p95 IS NOT NULL
),
summarized AS (
    SELECT 'summary' AS kind, server, test, tool, database, run_id AS run, step,
           TRY_CAST(step AS DOUBLE) AS target_rps,
           coalesce(step_reqs, step_failed + step_ok) / asked * TRY_CAST(step AS DOUBLE) AS achieved_rps,
           p95,
           CASE
               WHEN step_failed IS NOT NULL AND coalesce(step_reqs, step_failed + step_ok) > 0 THEN step_failed / coalesce(step_reqs, step_failed + step_ok)
               WHEN step_rate IS NOT NULL THEN step_rate
               WHEN requests > 0 AND coalesce(errors, 0) = 0 THEN 0
           END AS error_rate,
           CAST(coalesce(step_reqs, step_failed + step_ok) AS BIGINT) AS requests,
           CAST(CASE
               WHEN step_failed IS NOT NULL THEN step_failed
               WHEN step_rate IS NOT NULL THEN round(step_rate * step_reqs)
               WHEN requests > 0 AND coalesce(errors, 0) = 0 THEN 0
           END AS BIGINT) AS failed,
           source, source_line, round, run_id,
           CASE WHEN step_failed IS NOT NULL OR step_rate IS NOT NULL THEN 'step'
                WHEN requests > 0 AND coalesce(errors, 0) = 0 THEN 'run' END AS failures_from,
           CASE WHEN requests > 0 THEN coalesce(errors, 0) / requests END AS run_error_rate
    FROM per_step
),
-- the rates of each configuration are counted by a grouping joined back,
-- not by a window partitioned by the same columns: DuckDB sizes a
-- window's partitions by the join's estimate, and on a few thousand runs
-- that alone outgrows a store's default memory limit
fr0 AS (
    SELECT runs.run_id, runs.server, runs.test, runs.tool, runs.database, runs.round, runs.target_rps, runs.rps,
           runs.latency_p95_ms, runs.source, runs.source_line,
           o.requests_counted AS req,
           o.failed AS nfailed,
           run_factor_pairs(runs.label_map) AS factors
    FROM (SELECT *, label_map(labels) AS label_map FROM runs) runs JOIN run_outcomes o USING (run_id)
    WHERE target_rps IS NOT NULL AND latency_p95_ms IS NOT NULL AND o.requests_counted > 0
),
fr_rates AS (
    SELECT server, database, test, tool, round, factors, count(DISTINCT target_rps) AS rates
    FROM fr0 GROUP BY server, database, test, tool, round, factors
),
fr AS (
    SELECT fr0.*, n.rates
    FROM fr0 JOIN fr_rates n
      ON fr0.server IS NOT DISTINCT FROM n.server AND fr0.database IS NOT DISTINCT FROM n.database
     AND fr0.test IS NOT DISTINCT FROM n.test AND fr0.tool IS NOT DISTINCT FROM n.tool
     AND fr0.round IS NOT DISTINCT FROM n.round AND fr0.factors = n.factors
),
fixed AS (
    SELECT 'fixed-rate' AS kind, server, test, tool, database,
           coalesce(test, '') || ' ' || tool || coalesce(' ' || database, '') || ' round ' || coalesce(round, -1)
               || CASE WHEN factors <> '' THEN ' (' || factors || ')' ELSE '' END AS run,
           CASE WHEN target_rps = round(target_rps) AND abs(target_rps) < 1e15 THEN CAST(CAST(target_rps AS BIGINT) AS VARCHAR) ELSE CAST(target_rps AS VARCHAR) END AS step,
           target_rps, rps AS achieved_rps, latency_p95_ms AS p95, nfailed / req AS error_rate,
           req AS requests, nfailed AS failed, source, source_line, round, run_id,
           'step' AS failures_from, CAST(NULL AS DOUBLE) AS run_error_rate
    FROM fr WHERE rates >= 2
),
steps AS (
    SELECT *, p95_ms AS threshold_ms, max_error_rate AS threshold_error_rate, min_achieved_ratio AS threshold_ratio
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
    coalesce(coalesce(requests > 0, p95 IS NOT NULL) AND p95 < threshold_ms
             AND coalesce(error_rate < threshold_error_rate, TRUE)
             AND (threshold_ratio <= 0 OR coalesce(achieved_rps >= threshold_ratio * target_rps, TRUE)), FALSE) AS held,
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
    database,
    threshold_ratio AS min_achieved_ratio,
    failures_from,
    run_error_rate
FROM steps;

CREATE OR REPLACE VIEW ladder_steps AS SELECT * FROM ladder_steps();

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON MACRO k6_duration_seconds IS 'a k6 duration (10s, 1m30s, 500ms) in seconds';
COMMENT ON MACRO k6_stages IS 'a stages label (target:duration,…) as a list of {target, seconds}';
COMMENT ON MACRO k6_stage_requests IS 'the requests the stages ending at a target asked a ramping-arrival-rate executor for';
COMMENT ON MACRO TABLE sample_steps_in IS 'the figures of each step of the k6 runs of a list over their request samples: what sample_steps keeps';
COMMENT ON MACRO TABLE sample_steps_of IS 'the figures of each step of one k6 run over its request samples (sample_steps_in of one run)';
COMMENT ON MACRO TABLE ladder_steps IS 'every step of every held-rate ladder, held under the rule given';
COMMENT ON VIEW ladder_steps IS 'every step of every held-rate ladder, held under p95 < 50 ms, errors < 1% and 95% of the step''s rate achieved';
COMMENT ON COLUMN ladder_steps.kind IS 'the ladder run';
COMMENT ON COLUMN ladder_steps.server IS 'the ladder run';
COMMENT ON COLUMN ladder_steps.test IS 'the ladder run';
COMMENT ON COLUMN ladder_steps.tool IS 'the ladder run';
COMMENT ON COLUMN ladder_steps.run IS 'the ladder run';
COMMENT ON COLUMN ladder_steps.step IS 'the step as named (the tag, or the rate)';
COMMENT ON COLUMN ladder_steps.target_rps IS 'the step as a number (NULL when it is not one: such steps count in no result)';
COMMENT ON COLUMN ladder_steps.achieved_rps IS 'samples and summary: the step''s requests over the requests its stages asked for (stages label), times target_rps; samples without a stages label: count / 2 over the time from the median to the last request (the later half, a ramp left out); fixed-rate: the run''s rps; NULL where unknown';
COMMENT ON COLUMN ladder_steps.p95_ms IS 'samples: quantile_cont(duration, 0.95), k6''s own p(95) definition; summary: the p95 k6 printed; fixed-rate: the tool''s p95';
COMMENT ON COLUMN ladder_steps.error_rate IS 'failed / requests; for samples failed = expected_response tag false (k6''s http_req_failed), or without that tag a status missing, 0 or >= 400; for fixed-rate errors + non_2xx';
COMMENT ON COLUMN ladder_steps.held IS 'requests > 0 AND p95_ms < p95_threshold_ms AND error_rate < max_error_rate AND achieved_rps >= min_achieved_ratio * target_rps (strict, as k6''s thresholds p(95)<50 and rate<0.01; a figure that is unknown is left out of the rule; min_achieved_ratio 0 leaves the achieved rate out)';
COMMENT ON COLUMN ladder_steps.failures_from IS 'where error_rate comes from: step (the step''s own failures), run (a summary whose whole run had no failure), NULL (unknown: the summary kept no failures for the step)';
COMMENT ON COLUMN ladder_steps.run_error_rate IS 'summary: the whole run''s errors / requests (what an unknown step''s failures are bounded by); NULL for other kinds';
COMMENT ON COLUMN ladder_steps.min_achieved_ratio IS 'the rule applied';
COMMENT ON COLUMN ladder_steps.requests IS 'counts';
COMMENT ON COLUMN ladder_steps.failed IS 'counts';
COMMENT ON COLUMN ladder_steps.source IS 'where the step was read';
COMMENT ON COLUMN ladder_steps.source_line IS 'where the step was read';
COMMENT ON COLUMN ladder_steps.round IS 'the run''s round, from runs';
COMMENT ON COLUMN ladder_steps.p95_threshold_ms IS 'the rule applied';
COMMENT ON COLUMN ladder_steps.max_error_rate IS 'the rule applied';
COMMENT ON COLUMN ladder_steps.database IS 'the database of the runs that measured the ladder run, from runs: a fixed-rate ladder run is one database''s';
COMMENT ON COLUMN ladder_steps.run_id IS 'the run that measured the step: the ladder run''s own (samples, summary) or the step''s (fixed-rate)';
