-- run_medians: the passes (rounds) of one configuration summarized: the
-- median (type 7, quantile_cont; stats.Median) with min and max beside it,
-- per (tool, server, database, test, connections, target_rps). Errors are
-- summed over the passes, never averaged away.
CREATE OR REPLACE VIEW run_medians AS
SELECT
    r.tool,
    r.server,
    r.database,
    r.test,
    r.connections,
    r.target_rps,
    count(*) AS passes,
    median(r.rps) AS rps_median,
    min(r.rps) AS rps_min,
    max(r.rps) AS rps_max,
    median(r.latency_p50_ms) AS latency_p50_ms_median,
    median(r.latency_p99_ms) AS latency_p99_ms_median,
    min(r.latency_p99_ms) AS latency_p99_ms_min,
    max(r.latency_p99_ms) AS latency_p99_ms_max,
    sum(r.requests) AS requests_total,
    sum(r.responses_2xx) AS responses_2xx_total,
    sum(r.non_2xx) AS non_2xx_total,
    sum(r.errors) AS errors_total,
    median(c.cpu_server_us_per_req) AS cpu_server_us_per_req_median,
    min(c.cpu_server_us_per_req) AS cpu_server_us_per_req_min,
    max(c.cpu_server_us_per_req) AS cpu_server_us_per_req_max,
    median(c.cpu_db_us_per_req) AS cpu_db_us_per_req_median,
    max(r.working_set_mb) AS working_set_mb_max,
    max(r.private_mb) AS private_mb_max
FROM runs r
LEFT JOIN cpu_per_request c USING (run_id)
GROUP BY ALL;

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON VIEW run_medians IS 'the passes of one configuration summarized: medians (type 7), min, max, totals';
COMMENT ON COLUMN run_medians.tool IS 'the configuration, from runs';
COMMENT ON COLUMN run_medians.server IS 'the configuration, from runs';
COMMENT ON COLUMN run_medians.database IS 'the configuration, from runs';
COMMENT ON COLUMN run_medians.test IS 'the configuration, from runs';
COMMENT ON COLUMN run_medians.connections IS 'the configuration, from runs';
COMMENT ON COLUMN run_medians.target_rps IS 'the configuration, from runs';
COMMENT ON COLUMN run_medians.passes IS 'runs of the configuration';
COMMENT ON COLUMN run_medians.rps_median IS 'median, min and max of rps over the passes, requests/s';
COMMENT ON COLUMN run_medians.rps_min IS 'median, min and max of rps over the passes, requests/s';
COMMENT ON COLUMN run_medians.rps_max IS 'median, min and max of rps over the passes, requests/s';
COMMENT ON COLUMN run_medians.latency_p50_ms_median IS 'median of latency_p50_ms over the passes, ms';
COMMENT ON COLUMN run_medians.latency_p99_ms_median IS 'median, min and max of latency_p99_ms over the passes, ms';
COMMENT ON COLUMN run_medians.latency_p99_ms_min IS 'median, min and max of latency_p99_ms over the passes, ms';
COMMENT ON COLUMN run_medians.latency_p99_ms_max IS 'median, min and max of latency_p99_ms over the passes, ms';
COMMENT ON COLUMN run_medians.requests_total IS 'requests, responses_2xx, non_2xx, errors summed over the passes';
COMMENT ON COLUMN run_medians.responses_2xx_total IS 'requests, responses_2xx, non_2xx, errors summed over the passes';
COMMENT ON COLUMN run_medians.non_2xx_total IS 'requests, responses_2xx, non_2xx, errors summed over the passes';
COMMENT ON COLUMN run_medians.errors_total IS 'requests, responses_2xx, non_2xx, errors summed over the passes';
COMMENT ON COLUMN run_medians.cpu_server_us_per_req_median IS 'median, min and max of cpu_per_request.cpu_server_us_per_req over the passes, µs';
COMMENT ON COLUMN run_medians.cpu_server_us_per_req_min IS 'median, min and max of cpu_per_request.cpu_server_us_per_req over the passes, µs';
COMMENT ON COLUMN run_medians.cpu_server_us_per_req_max IS 'median, min and max of cpu_per_request.cpu_server_us_per_req over the passes, µs';
COMMENT ON COLUMN run_medians.cpu_db_us_per_req_median IS 'median of cpu_per_request.cpu_db_us_per_req over the passes, µs';
COMMENT ON COLUMN run_medians.working_set_mb_max IS 'highest working_set_mb and private_mb of the passes, MiB';
COMMENT ON COLUMN run_medians.private_mb_max IS 'highest working_set_mb and private_mb of the passes, MiB';
