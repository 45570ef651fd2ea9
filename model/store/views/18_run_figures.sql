-- run_figures: the figures of one run under the names wra table lays out
-- (--metric, --cell, --where): the labels of runs, its counts and
-- latencies, CPU per successful response from cpu_per_request (µs), its
-- memory, and the largest calibration drift covering it
-- (run_calibration); format is the reader that read its file
-- (ingested_files.format). A harness record paired with a tool report
-- of the same run (run_pairs) is one row: the report's, with the record's
-- CPU per request, memory, start-up and start time, and record_id naming
-- the record; the record has no row of its own. failed = errors + non_2xx; error_rate = failed /
-- requests.
CREATE OR REPLACE VIEW run_figures AS
SELECT
    r.run_id,
    r.source,
    r.source_line,
    r.tool,
    f.format,
    r.server,
    r.database,
    r.test,
    r.round,
    r.connections,
    r.threads,
    r.target_rps,
    r.duration_s,
    r.requests,
    r.responses_2xx,
    r.non_2xx,
    r.errors,
    coalesce(r.errors, 0) + coalesce(r.non_2xx, 0) AS failed,
    (coalesce(r.errors, 0) + coalesce(r.non_2xx, 0)) / nullif(r.requests, 0) AS error_rate,
    r.rps,
    r.latency_mean_ms,
    r.latency_stdev_ms,
    r.latency_max_ms,
    r.latency_p50_ms,
    r.latency_p90_ms,
    r.latency_p95_ms,
    r.latency_p99_ms,
    r.latency_p999_ms,
    r.latency_corrected,
    c.cpu_server_us_per_req AS cpu_server_us,
    c.cpu_user_us_per_req AS cpu_user_us,
    c.cpu_kernel_us_per_req AS cpu_kernel_us,
    c.cpu_db_us_per_req AS cpu_db_us,
    c.cpu_server_us_per_req + coalesce(c.cpu_db_us_per_req, 0) AS cpu_total_us,
    coalesce(r.working_set_mb, rec.working_set_mb) AS working_set_mb,
    coalesce(r.private_mb, rec.private_mb) AS private_mb,
    coalesce(r.startup_s, rec.startup_s) AS startup_s,
    coalesce(r.started_at, rec.started_at) AS started_at,
    greatest(d.drift_pct, dr.drift_pct) AS drift_pct,
    p.record_id,
    r.labels
FROM runs r
LEFT JOIN ingested_files f USING (source)
LEFT JOIN run_pairs p ON p.report_id = r.run_id
LEFT JOIN runs rec ON rec.run_id = p.record_id
LEFT JOIN cpu_per_request c ON c.run_id = coalesce(p.record_id, r.run_id)
LEFT JOIN (SELECT run_id, max(drift_pct) AS drift_pct FROM run_calibration GROUP BY 1) d ON d.run_id = r.run_id
LEFT JOIN (SELECT run_id, max(drift_pct) AS drift_pct FROM run_calibration GROUP BY 1) dr ON dr.run_id = p.record_id
WHERE r.run_id NOT IN (SELECT record_id FROM run_pairs);
