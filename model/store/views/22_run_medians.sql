-- run_medians: the figures of each group of the experiment (run_groups),
-- one row per group: its runs summarized by the median (type 7,
-- quantile_cont; stats.Median) with min and max beside it. A run is
-- counted once (run_groups): a harness record paired with a report gives
-- the report's counts and latencies and the record's CPU and memory. CPU
-- per request is cpu_per_request's; the total is the median of the
-- per-run totals (server + database, a database not measured counting 0),
-- the figure a reader can check against one run, and not the sum of the
-- two medians. Latencies are the medians of the passes that got an
-- answer (run_outcomes.all_failed false): a run whose every request
-- failed timed its failures. goodput is run_outcomes' goodput_rps, the
-- figure rows are ordered and marked best by. Errors and failed requests
-- are summed over the runs, never averaged away.
-- wra analyze, wra table, wra compare and wra cost read a group's figures
-- and caveats (group_caveats) from here.
CREATE OR REPLACE VIEW run_medians AS
WITH g AS (
    SELECT g.*, r.rps, r.requests, r.responses_2xx, r.non_2xx, r.errors,
           CASE WHEN NOT o.all_failed THEN r.latency_p50_ms END AS latency_p50_ms,
           CASE WHEN NOT o.all_failed THEN r.latency_p95_ms END AS latency_p95_ms,
           CASE WHEN NOT o.all_failed THEN r.latency_p99_ms END AS latency_p99_ms,
           o.goodput_rps, o.failed, o.all_failed,
           r.latency_corrected,
           coalesce(r.working_set_mb, rec.working_set_mb) AS working_set_mb,
           coalesce(r.private_mb, rec.private_mb) AS private_mb,
           c.cpu_server_us_per_req, c.cpu_user_us_per_req, c.cpu_kernel_us_per_req, c.cpu_db_us_per_req,
           c.cpu_total_us_per_req
    FROM run_groups g
    JOIN runs r ON r.run_id = g.run_id
    JOIN run_outcomes o ON o.run_id = g.run_id
    LEFT JOIN runs rec ON rec.run_id = g.record_id
    LEFT JOIN cpu_per_request c ON c.run_id = coalesce(g.record_id, g.run_id)
)
SELECT
    tool,
    server,
    database,
    test,
    connections,
    target_rps,
    count(*) AS passes,
    median(rps) AS rps_median,
    min(rps) AS rps_min,
    max(rps) AS rps_max,
    median(latency_p50_ms) AS latency_p50_ms_median,
    median(latency_p99_ms) AS latency_p99_ms_median,
    min(latency_p99_ms) AS latency_p99_ms_min,
    max(latency_p99_ms) AS latency_p99_ms_max,
    sum(requests) AS requests_total,
    sum(responses_2xx) AS responses_2xx_total,
    sum(non_2xx) AS non_2xx_total,
    sum(errors) AS errors_total,
    median(cpu_server_us_per_req) AS cpu_server_us_per_req_median,
    min(cpu_server_us_per_req) AS cpu_server_us_per_req_min,
    max(cpu_server_us_per_req) AS cpu_server_us_per_req_max,
    median(cpu_db_us_per_req) AS cpu_db_us_per_req_median,
    max(working_set_mb) AS working_set_mb_max,
    max(private_mb) AS private_mb_max,
    group_id,
    mode,
    variant,
    count(DISTINCT replicate) AS replicates,
    count(DISTINCT block) AS blocks,
    median(latency_p95_ms) AS latency_p95_ms_median,
    median(cpu_user_us_per_req) AS cpu_user_us_per_req_median,
    median(cpu_kernel_us_per_req) AS cpu_kernel_us_per_req_median,
    count(cpu_server_us_per_req) AS cpu_passes,
    median(cpu_total_us_per_req) AS cpu_total_us_per_req_median,
    min(cpu_total_us_per_req) AS cpu_total_us_per_req_min,
    max(cpu_total_us_per_req) AS cpu_total_us_per_req_max,
    max(drift_pct) AS drift_pct_max,
    bool_and(coalesce(latency_corrected, FALSE)) AS latency_corrected,
    count(rps) AS rps_passes,
    median(goodput_rps) AS goodput_rps_median,
    min(goodput_rps) AS goodput_rps_min,
    max(goodput_rps) AS goodput_rps_max,
    sum(failed) AS failed_total,
    bool_and(all_failed) AS all_failed
FROM g
GROUP BY group_id, mode, tool, server, database, test, connections, target_rps, variant;

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON VIEW run_medians IS 'the figures of each group of the experiment (run_groups): medians (type 7), min, max, totals';
COMMENT ON COLUMN run_medians.tool IS 'the group''s factors, from run_groups';
COMMENT ON COLUMN run_medians.server IS 'the group''s factors, from run_groups';
COMMENT ON COLUMN run_medians.database IS 'the group''s factors, from run_groups';
COMMENT ON COLUMN run_medians.test IS 'the group''s factors, from run_groups';
COMMENT ON COLUMN run_medians.connections IS 'the group''s factors, from run_groups';
COMMENT ON COLUMN run_medians.target_rps IS 'the group''s factors, from run_groups';
COMMENT ON COLUMN run_medians.mode IS 'the group''s factors, from run_groups';
COMMENT ON COLUMN run_medians.variant IS 'the group''s factors, from run_groups';
COMMENT ON COLUMN run_medians.group_id IS 'the group, run_groups.group_id';
COMMENT ON COLUMN run_medians.passes IS 'runs of the group, each counted once';
COMMENT ON COLUMN run_medians.replicates IS 'distinct replicates (rounds) among them';
COMMENT ON COLUMN run_medians.blocks IS 'distinct blocks (trials) among them';
COMMENT ON COLUMN run_medians.rps_median IS 'median, min and max of rps over the passes, requests/s';
COMMENT ON COLUMN run_medians.rps_min IS 'median, min and max of rps over the passes, requests/s';
COMMENT ON COLUMN run_medians.rps_max IS 'median, min and max of rps over the passes, requests/s';
COMMENT ON COLUMN run_medians.rps_passes IS 'passes with a requests/s';
COMMENT ON COLUMN run_medians.goodput_rps_median IS 'median, min and max of run_outcomes.goodput_rps over the passes, successful requests/s';
COMMENT ON COLUMN run_medians.goodput_rps_min IS 'median, min and max of run_outcomes.goodput_rps over the passes, successful requests/s';
COMMENT ON COLUMN run_medians.goodput_rps_max IS 'median, min and max of run_outcomes.goodput_rps over the passes, successful requests/s';
COMMENT ON COLUMN run_medians.failed_total IS 'run_outcomes.failed summed over the passes';
COMMENT ON COLUMN run_medians.all_failed IS 'true when every pass failed every request (run_outcomes.all_failed)';
COMMENT ON COLUMN run_medians.latency_p50_ms_median IS 'median of latency_p50_ms over the passes that got an answer, ms';
COMMENT ON COLUMN run_medians.latency_p95_ms_median IS 'median of latency_p95_ms over the passes that got an answer, ms';
COMMENT ON COLUMN run_medians.latency_p99_ms_median IS 'median, min and max of latency_p99_ms over the passes that got an answer, ms';
COMMENT ON COLUMN run_medians.latency_p99_ms_min IS 'median, min and max of latency_p99_ms over the passes that got an answer, ms';
COMMENT ON COLUMN run_medians.latency_p99_ms_max IS 'median, min and max of latency_p99_ms over the passes that got an answer, ms';
COMMENT ON COLUMN run_medians.latency_corrected IS 'true when every pass''s latency is corrected for coordinated omission';
COMMENT ON COLUMN run_medians.requests_total IS 'requests, responses_2xx, non_2xx, errors summed over the passes';
COMMENT ON COLUMN run_medians.responses_2xx_total IS 'requests, responses_2xx, non_2xx, errors summed over the passes';
COMMENT ON COLUMN run_medians.non_2xx_total IS 'requests, responses_2xx, non_2xx, errors summed over the passes';
COMMENT ON COLUMN run_medians.errors_total IS 'requests, responses_2xx, non_2xx, errors summed over the passes';
COMMENT ON COLUMN run_medians.cpu_passes IS 'passes with a server CPU per request';
COMMENT ON COLUMN run_medians.cpu_server_us_per_req_median IS 'median, min and max of cpu_per_request.cpu_server_us_per_req over the passes, µs';
COMMENT ON COLUMN run_medians.cpu_server_us_per_req_min IS 'median, min and max of cpu_per_request.cpu_server_us_per_req over the passes, µs';
COMMENT ON COLUMN run_medians.cpu_server_us_per_req_max IS 'median, min and max of cpu_per_request.cpu_server_us_per_req over the passes, µs';
COMMENT ON COLUMN run_medians.cpu_user_us_per_req_median IS 'median of cpu_per_request.cpu_user_us_per_req over the passes, µs';
COMMENT ON COLUMN run_medians.cpu_kernel_us_per_req_median IS 'median of cpu_per_request.cpu_kernel_us_per_req over the passes, µs';
COMMENT ON COLUMN run_medians.cpu_db_us_per_req_median IS 'median of cpu_per_request.cpu_db_us_per_req over the passes, µs';
COMMENT ON COLUMN run_medians.cpu_total_us_per_req_median IS 'median, min and max of the per-pass total, cpu_per_request.cpu_total_us_per_req, µs';
COMMENT ON COLUMN run_medians.cpu_total_us_per_req_min IS 'median, min and max of the per-pass total, cpu_per_request.cpu_total_us_per_req, µs';
COMMENT ON COLUMN run_medians.cpu_total_us_per_req_max IS 'median, min and max of the per-pass total, cpu_per_request.cpu_total_us_per_req, µs';
COMMENT ON COLUMN run_medians.working_set_mb_max IS 'highest working_set_mb and private_mb of the passes, MiB';
COMMENT ON COLUMN run_medians.private_mb_max IS 'highest working_set_mb and private_mb of the passes, MiB';
COMMENT ON COLUMN run_medians.drift_pct_max IS 'the largest calibration drift covering a pass, from run_groups, percent';
