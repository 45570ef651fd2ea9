-- run_reported: the statistics a load tool printed beside the figures wra
-- stores in runs (its rate of per-second samples, its transfer rate, its
-- rounded totals), one typed column per name of the canonical set
-- (model.ReportedFigures; ingest/FORMATS.md maps each tool's statistics
-- to them). The readers keep them as labels of those names, numbers
-- written as the shortest text that reads back exactly; a label that
-- is not a number (a store of an older wra kept printed text) is NULL
-- here. Each run's labels are parsed once, into a struct of every name
-- (json_transform), not once per column. run_figures appends these columns, so that wra table --metric,
-- --cell, [[tables]] layouts and wra compare --metric take them.
CREATE OR REPLACE VIEW run_reported AS
SELECT run_id, unnest(json_transform(labels, '{"reported_requests": "DOUBLE", "reported_errors": "DOUBLE", "reported_bytes_read": "DOUBLE", "reported_bytes_sent": "DOUBLE", "reported_rps": "DOUBLE", "reported_rps_over_thread_time": "DOUBLE", "reported_success_rps": "DOUBLE", "reported_success_pct": "DOUBLE", "reported_transfer_bytes_per_s": "DOUBLE", "reported_sent_bytes_per_s": "DOUBLE", "reported_total_bytes_per_s": "DOUBLE", "reported_rps_mean": "DOUBLE", "reported_rps_stdev": "DOUBLE", "reported_rps_min": "DOUBLE", "reported_rps_max": "DOUBLE", "reported_rps_p0_001": "DOUBLE", "reported_rps_p0_01": "DOUBLE", "reported_rps_p0_1": "DOUBLE", "reported_rps_p1": "DOUBLE", "reported_rps_p2_5": "DOUBLE", "reported_rps_p10": "DOUBLE", "reported_rps_p25": "DOUBLE", "reported_rps_p50": "DOUBLE", "reported_rps_p75": "DOUBLE", "reported_rps_p90": "DOUBLE", "reported_rps_p95": "DOUBLE", "reported_rps_p97_5": "DOUBLE", "reported_rps_p99": "DOUBLE", "reported_rps_p99_9": "DOUBLE", "reported_rps_p99_99": "DOUBLE", "reported_rps_p99_999": "DOUBLE", "reported_transfer_bytes_per_s_mean": "DOUBLE", "reported_transfer_bytes_per_s_stdev": "DOUBLE", "reported_transfer_bytes_per_s_min": "DOUBLE", "reported_transfer_bytes_per_s_max": "DOUBLE", "reported_transfer_bytes_per_s_p0_001": "DOUBLE", "reported_transfer_bytes_per_s_p0_01": "DOUBLE", "reported_transfer_bytes_per_s_p0_1": "DOUBLE", "reported_transfer_bytes_per_s_p1": "DOUBLE", "reported_transfer_bytes_per_s_p2_5": "DOUBLE", "reported_transfer_bytes_per_s_p10": "DOUBLE", "reported_transfer_bytes_per_s_p25": "DOUBLE", "reported_transfer_bytes_per_s_p50": "DOUBLE", "reported_transfer_bytes_per_s_p75": "DOUBLE", "reported_transfer_bytes_per_s_p90": "DOUBLE", "reported_transfer_bytes_per_s_p95": "DOUBLE", "reported_transfer_bytes_per_s_p97_5": "DOUBLE", "reported_transfer_bytes_per_s_p99": "DOUBLE", "reported_transfer_bytes_per_s_p99_9": "DOUBLE", "reported_transfer_bytes_per_s_p99_99": "DOUBLE", "reported_transfer_bytes_per_s_p99_999": "DOUBLE", "thread_rps_mean": "DOUBLE", "thread_rps_stdev": "DOUBLE", "thread_rps_min": "DOUBLE", "thread_rps_max": "DOUBLE", "thread_rps_within_stdev_pct": "DOUBLE", "client_rps_mean": "DOUBLE", "client_rps_stdev": "DOUBLE", "client_rps_min": "DOUBLE", "client_rps_max": "DOUBLE", "client_rps_within_stdev_pct": "DOUBLE"}'))
FROM runs;

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON VIEW run_reported IS 'one row per run, the statistics its tool printed, under the names of the canonical set';
COMMENT ON COLUMN run_reported.run_id IS 'as in runs';
COMMENT ON COLUMN run_reported.reported_requests IS 'the tool''s request count where requests holds another count or none (autocannon''s rounded totals), as printed';
COMMENT ON COLUMN run_reported.reported_errors IS 'the tool''s error count where it prints it rounded';
COMMENT ON COLUMN run_reported.reported_bytes_read IS 'the bytes the tool read as it printed them (rounded, in the tool''s unit base), bytes';
COMMENT ON COLUMN run_reported.reported_bytes_sent IS 'the bytes the tool sent as it printed them, bytes';
COMMENT ON COLUMN run_reported.reported_rps IS 'the tool''s own overall request rate where rps is computed otherwise, requests/s';
COMMENT ON COLUMN run_reported.reported_rps_over_thread_time IS 'go-wrk''s Requests/sec: answered requests over the mean time a goroutine spent in them, requests/s';
COMMENT ON COLUMN run_reported.reported_success_rps IS 'the tool''s rate of successful requests (vegeta''s throughput), requests/s';
COMMENT ON COLUMN run_reported.reported_success_pct IS 'the share of requests the tool counts successful, percent';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s IS 'the tool''s rate of bytes read, bytes/s';
COMMENT ON COLUMN run_reported.reported_sent_bytes_per_s IS 'the tool''s rate of bytes sent, bytes/s';
COMMENT ON COLUMN run_reported.reported_total_bytes_per_s IS 'the tool''s rate of bytes read and sent, bytes/s';
COMMENT ON COLUMN run_reported.reported_rps_mean IS 'mean, standard deviation, least and largest of the tool''s per-second samples of the request rate, requests/s';
COMMENT ON COLUMN run_reported.reported_rps_stdev IS 'mean, standard deviation, least and largest of the tool''s per-second samples of the request rate, requests/s';
COMMENT ON COLUMN run_reported.reported_rps_min IS 'mean, standard deviation, least and largest of the tool''s per-second samples of the request rate, requests/s';
COMMENT ON COLUMN run_reported.reported_rps_max IS 'mean, standard deviation, least and largest of the tool''s per-second samples of the request rate, requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p0_001 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p0_01 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p0_1 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p1 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p2_5 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p10 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p25 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p50 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p75 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p90 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p95 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p97_5 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p99 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p99_9 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p99_99 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_rps_p99_999 IS 'a percentile of the tool''s per-second samples of the request rate (p2_5 is the 2.5th, p99_999 the 99.999th), requests/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_mean IS 'mean, standard deviation, least and largest of the tool''s per-second samples of the bytes read, bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_stdev IS 'mean, standard deviation, least and largest of the tool''s per-second samples of the bytes read, bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_min IS 'mean, standard deviation, least and largest of the tool''s per-second samples of the bytes read, bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_max IS 'mean, standard deviation, least and largest of the tool''s per-second samples of the bytes read, bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p0_001 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p0_01 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p0_1 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p1 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p2_5 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p10 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p25 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p50 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p75 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p90 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p95 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p97_5 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p99 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p99_9 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p99_99 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.reported_transfer_bytes_per_s_p99_999 IS 'a percentile of the tool''s per-second samples of the bytes read (p2_5 is the 2.5th, p99_999 the 99.999th), bytes/s';
COMMENT ON COLUMN run_reported.thread_rps_mean IS 'mean, standard deviation, least and largest request rate of one thread (wrk''s Req/Sec row: statistics over threads, not seconds), requests/s; within_stdev_pct the share of threads within one standard deviation of the mean, percent';
COMMENT ON COLUMN run_reported.thread_rps_stdev IS 'mean, standard deviation, least and largest request rate of one thread (wrk''s Req/Sec row: statistics over threads, not seconds), requests/s; within_stdev_pct the share of threads within one standard deviation of the mean, percent';
COMMENT ON COLUMN run_reported.thread_rps_min IS 'mean, standard deviation, least and largest request rate of one thread (wrk''s Req/Sec row: statistics over threads, not seconds), requests/s; within_stdev_pct the share of threads within one standard deviation of the mean, percent';
COMMENT ON COLUMN run_reported.thread_rps_max IS 'mean, standard deviation, least and largest request rate of one thread (wrk''s Req/Sec row: statistics over threads, not seconds), requests/s; within_stdev_pct the share of threads within one standard deviation of the mean, percent';
COMMENT ON COLUMN run_reported.thread_rps_within_stdev_pct IS 'mean, standard deviation, least and largest request rate of one thread (wrk''s Req/Sec row: statistics over threads, not seconds), requests/s; within_stdev_pct the share of threads within one standard deviation of the mean, percent';
COMMENT ON COLUMN run_reported.client_rps_mean IS 'mean, standard deviation, least and largest request rate of one client (h2load''s req/s row: statistics over clients, not seconds), requests/s; within_stdev_pct the share of clients within one standard deviation of the mean, percent';
COMMENT ON COLUMN run_reported.client_rps_stdev IS 'mean, standard deviation, least and largest request rate of one client (h2load''s req/s row: statistics over clients, not seconds), requests/s; within_stdev_pct the share of clients within one standard deviation of the mean, percent';
COMMENT ON COLUMN run_reported.client_rps_min IS 'mean, standard deviation, least and largest request rate of one client (h2load''s req/s row: statistics over clients, not seconds), requests/s; within_stdev_pct the share of clients within one standard deviation of the mean, percent';
COMMENT ON COLUMN run_reported.client_rps_max IS 'mean, standard deviation, least and largest request rate of one client (h2load''s req/s row: statistics over clients, not seconds), requests/s; within_stdev_pct the share of clients within one standard deviation of the mean, percent';
COMMENT ON COLUMN run_reported.client_rps_within_stdev_pct IS 'mean, standard deviation, least and largest request rate of one client (h2load''s req/s row: statistics over clients, not seconds), requests/s; within_stdev_pct the share of clients within one standard deviation of the mean, percent';
