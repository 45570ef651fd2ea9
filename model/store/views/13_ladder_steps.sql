-- ladder_steps: the steps of held-rate ladders from k6 request samples
-- tagged with their step (tags: {step: '<rate>'}), one row per (run, step).
-- p95 is quantile_cont (type 7, k6's own definition); a request failed
-- when k6 tagged it expected_response=false (what http_req_failed counts),
-- or, without that tag, when its status is missing, 0 or >= 400. achieved
-- rps is (requests - 1) / (last - first request time). A step is held when
-- p95 < 50 ms and error_rate < 0.01 (the default rule; stats.EvaluateLadder
-- takes others). Same definitions as stats.StepsFromTags.
CREATE OR REPLACE VIEW ladder_steps AS
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
st AS (
    SELECT
        run_id,
        step,
        TRY_CAST(step AS DOUBLE) AS target_rps,
        (count(*) - 1) * 1e6 / nullif(epoch_us(max(ts)) - epoch_us(min(ts)), 0) AS achieved_rps,
        quantile_cont(value, 0.95) AS p95_ms,
        count(*) FILTER (WHERE failed) / count(*) AS error_rate,
        count(*) AS requests,
        count(*) FILTER (WHERE failed) AS failed
    FROM req
    GROUP BY run_id, step
)
SELECT
    r.server,
    st.run_id AS run,
    st.step,
    st.target_rps,
    st.achieved_rps,
    st.p95_ms,
    st.error_rate,
    st.p95_ms < 50 AND st.error_rate < 0.01 AS held,
    st.requests,
    st.failed,
    r.source
FROM st
LEFT JOIN runs r USING (run_id);
