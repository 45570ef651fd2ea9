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
