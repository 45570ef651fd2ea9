-- run_figures: the figures of one run under the names wra table lays out
-- (--metric, --cell, --where): the labels of runs, its counts and
-- latencies, CPU per successful response from cpu_per_request (µs), its
-- memory, and the largest calibration drift covering it
-- (run_calibration); format is the reader that read its file
-- (ingested_files.format). A harness record paired with a tool report
-- of the same run (run_pairs) is one row: the report's, with the record's
-- CPU per request, memory, start-up and start time, and record_id naming
-- the record; the record has no row of its own. latency_p1_ms …
-- latency_p99_999_ms are the percentiles tools print beyond the columns
-- of runs (hey's and oha's 10th and 25th, wrk's and bombardier's 75th,
-- ab's 66th, autocannon's 2.5th, oha's 99.99th). failed, error_rate,
-- goodput_rps and all_failed are run_outcomes'. The statistics the tool
-- printed (run_reported, 03) come last.
CREATE OR REPLACE VIEW run_figures AS
WITH drift AS (
    SELECT run_id, max(drift_pct) AS drift_pct FROM run_calibration GROUP BY 1
),
-- The percentiles of latency_percentiles that runs has no column for, of
-- the run's own correction (a wrk2 report prints both); where a tool
-- prints one percentile twice (the end of wrk2's spectrum), the least.
pcts AS (
    SELECT
        p.run_id,
        min(p.latency_ms) FILTER (WHERE p.percentile = 1) AS latency_p1_ms,
        min(p.latency_ms) FILTER (WHERE p.percentile = 2.5) AS latency_p2_5_ms,
        min(p.latency_ms) FILTER (WHERE p.percentile = 10) AS latency_p10_ms,
        min(p.latency_ms) FILTER (WHERE p.percentile = 25) AS latency_p25_ms,
        min(p.latency_ms) FILTER (WHERE p.percentile = 66) AS latency_p66_ms,
        min(p.latency_ms) FILTER (WHERE p.percentile = 75) AS latency_p75_ms,
        min(p.latency_ms) FILTER (WHERE p.percentile = 80) AS latency_p80_ms,
        min(p.latency_ms) FILTER (WHERE p.percentile = 97.5) AS latency_p97_5_ms,
        min(p.latency_ms) FILTER (WHERE p.percentile = 98) AS latency_p98_ms,
        min(p.latency_ms) FILTER (WHERE p.percentile = 99.99) AS latency_p99_99_ms,
        min(p.latency_ms) FILTER (WHERE p.percentile = 99.999) AS latency_p99_999_ms
    FROM latency_percentiles p
    JOIN runs r USING (run_id)
    WHERE coalesce(p.corrected, false) = coalesce(r.latency_corrected, false)
    GROUP BY 1
)
SELECT
    r.run_id,
    r.source,
    r.source_line,
    r.tool,
    f.format,
    coalesce(r.server, run_file_name(r.source)) AS server,
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
    o.failed,
    o.error_rate,
    r.rps,
    o.goodput_rps,
    o.all_failed,
    r.latency_mean_ms,
    r.latency_stdev_ms,
    r.latency_max_ms,
    r.latency_p50_ms,
    r.latency_p90_ms,
    r.latency_p95_ms,
    r.latency_p99_ms,
    r.latency_p999_ms,
    r.latency_corrected,
    lp.latency_p1_ms,
    lp.latency_p2_5_ms,
    lp.latency_p10_ms,
    lp.latency_p25_ms,
    lp.latency_p66_ms,
    lp.latency_p75_ms,
    lp.latency_p80_ms,
    lp.latency_p97_5_ms,
    lp.latency_p98_ms,
    lp.latency_p99_99_ms,
    lp.latency_p99_999_ms,
    c.cpu_server_us_per_req AS cpu_server_us,
    c.cpu_user_us_per_req AS cpu_user_us,
    c.cpu_kernel_us_per_req AS cpu_kernel_us,
    c.cpu_db_us_per_req AS cpu_db_us,
    c.cpu_total_us_per_req AS cpu_total_us,
    coalesce(r.working_set_mb, rec.working_set_mb) AS working_set_mb,
    coalesce(r.private_mb, rec.private_mb) AS private_mb,
    coalesce(r.startup_s, rec.startup_s) AS startup_s,
    coalesce(r.started_at, rec.started_at) AS started_at,
    greatest(d.drift_pct, dr.drift_pct) AS drift_pct,
    p.record_id,
    r.labels,
    rr.* EXCLUDE (run_id)
FROM runs r
JOIN run_outcomes o USING (run_id)
LEFT JOIN ingested_files f USING (source)
LEFT JOIN run_pairs p ON p.report_id = r.run_id
LEFT JOIN runs rec ON rec.run_id = p.record_id
LEFT JOIN cpu_per_request c ON c.run_id = coalesce(p.record_id, r.run_id)
LEFT JOIN drift d ON d.run_id = r.run_id
LEFT JOIN drift dr ON dr.run_id = p.record_id
LEFT JOIN run_reported rr ON rr.run_id = r.run_id
LEFT JOIN pcts lp ON lp.run_id = r.run_id
WHERE r.run_id NOT IN (SELECT record_id FROM run_pairs);

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON VIEW run_figures IS 'one row per run, the figures wra table lays out';
COMMENT ON COLUMN run_figures.run_id IS 'as in runs';
COMMENT ON COLUMN run_figures.source IS 'as in runs';
COMMENT ON COLUMN run_figures.source_line IS 'as in runs';
COMMENT ON COLUMN run_figures.tool IS 'as in runs';
COMMENT ON COLUMN run_figures.server IS 'as in runs, or, where the run has none, its file''s name (run_file_name)';
COMMENT ON COLUMN run_figures.database IS 'as in runs';
COMMENT ON COLUMN run_figures.test IS 'as in runs';
COMMENT ON COLUMN run_figures.round IS 'as in runs';
COMMENT ON COLUMN run_figures.connections IS 'as in runs';
COMMENT ON COLUMN run_figures.threads IS 'as in runs';
COMMENT ON COLUMN run_figures.target_rps IS 'as in runs';
COMMENT ON COLUMN run_figures.duration_s IS 'as in runs';
COMMENT ON COLUMN run_figures.requests IS 'as in runs';
COMMENT ON COLUMN run_figures.responses_2xx IS 'as in runs';
COMMENT ON COLUMN run_figures.non_2xx IS 'as in runs';
COMMENT ON COLUMN run_figures.errors IS 'as in runs';
COMMENT ON COLUMN run_figures.rps IS 'as in runs';
COMMENT ON COLUMN run_figures.latency_mean_ms IS 'as in runs';
COMMENT ON COLUMN run_figures.latency_stdev_ms IS 'as in runs';
COMMENT ON COLUMN run_figures.latency_max_ms IS 'as in runs';
COMMENT ON COLUMN run_figures.latency_p50_ms IS 'as in runs';
COMMENT ON COLUMN run_figures.latency_p90_ms IS 'as in runs';
COMMENT ON COLUMN run_figures.latency_p95_ms IS 'as in runs';
COMMENT ON COLUMN run_figures.latency_p99_ms IS 'as in runs';
COMMENT ON COLUMN run_figures.latency_p999_ms IS 'as in runs';
COMMENT ON COLUMN run_figures.latency_corrected IS 'as in runs';
COMMENT ON COLUMN run_figures.latency_p1_ms IS 'latency at that percentile (p2_5 is the 2.5th, p99_999 the 99.999th) from latency_percentiles, of the run''s own correction, ms';
COMMENT ON COLUMN run_figures.latency_p2_5_ms IS 'latency at that percentile (p2_5 is the 2.5th, p99_999 the 99.999th) from latency_percentiles, of the run''s own correction, ms';
COMMENT ON COLUMN run_figures.latency_p10_ms IS 'latency at that percentile (p2_5 is the 2.5th, p99_999 the 99.999th) from latency_percentiles, of the run''s own correction, ms';
COMMENT ON COLUMN run_figures.latency_p25_ms IS 'latency at that percentile (p2_5 is the 2.5th, p99_999 the 99.999th) from latency_percentiles, of the run''s own correction, ms';
COMMENT ON COLUMN run_figures.latency_p66_ms IS 'latency at that percentile (p2_5 is the 2.5th, p99_999 the 99.999th) from latency_percentiles, of the run''s own correction, ms';
COMMENT ON COLUMN run_figures.latency_p75_ms IS 'latency at that percentile (p2_5 is the 2.5th, p99_999 the 99.999th) from latency_percentiles, of the run''s own correction, ms';
COMMENT ON COLUMN run_figures.latency_p80_ms IS 'latency at that percentile (p2_5 is the 2.5th, p99_999 the 99.999th) from latency_percentiles, of the run''s own correction, ms';
COMMENT ON COLUMN run_figures.latency_p97_5_ms IS 'latency at that percentile (p2_5 is the 2.5th, p99_999 the 99.999th) from latency_percentiles, of the run''s own correction, ms';
COMMENT ON COLUMN run_figures.latency_p98_ms IS 'latency at that percentile (p2_5 is the 2.5th, p99_999 the 99.999th) from latency_percentiles, of the run''s own correction, ms';
COMMENT ON COLUMN run_figures.latency_p99_99_ms IS 'latency at that percentile (p2_5 is the 2.5th, p99_999 the 99.999th) from latency_percentiles, of the run''s own correction, ms';
COMMENT ON COLUMN run_figures.latency_p99_999_ms IS 'latency at that percentile (p2_5 is the 2.5th, p99_999 the 99.999th) from latency_percentiles, of the run''s own correction, ms';
COMMENT ON COLUMN run_figures.working_set_mb IS 'as in runs';
COMMENT ON COLUMN run_figures.private_mb IS 'as in runs';
COMMENT ON COLUMN run_figures.startup_s IS 'as in runs';
COMMENT ON COLUMN run_figures.started_at IS 'as in runs';
COMMENT ON COLUMN run_figures.labels IS 'as in runs';
COMMENT ON COLUMN run_figures.format IS 'the reader of the run''s file';
COMMENT ON COLUMN run_figures.failed IS 'as in run_outcomes';
COMMENT ON COLUMN run_figures.error_rate IS 'as in run_outcomes';
COMMENT ON COLUMN run_figures.goodput_rps IS 'as in run_outcomes';
COMMENT ON COLUMN run_figures.all_failed IS 'as in run_outcomes';
COMMENT ON COLUMN run_figures.cpu_server_us IS 'CPU per successful response from cpu_per_request, µs';
COMMENT ON COLUMN run_figures.cpu_user_us IS 'CPU per successful response from cpu_per_request, µs';
COMMENT ON COLUMN run_figures.cpu_kernel_us IS 'CPU per successful response from cpu_per_request, µs';
COMMENT ON COLUMN run_figures.cpu_db_us IS 'CPU per successful response from cpu_per_request, µs';
COMMENT ON COLUMN run_figures.cpu_total_us IS 'server + database CPU per successful response, µs';
COMMENT ON COLUMN run_figures.drift_pct IS 'the largest calibration drift covering the run, from run_calibration, percent';
COMMENT ON COLUMN run_figures.record_id IS 'the harness record paired with the run, see run_pairs';
