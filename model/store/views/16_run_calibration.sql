-- run_calibration: the calibration pairs whose span (first timing before
-- to last timing after, calibration_drift.from_utc .. to_utc) covers a
-- run's started_at, one row per (run, pair), with the pair's largest
-- drift over its process counts in percent, 100 * |after/before - 1|.
-- A run without started_at, or a pair without times, is covered by none.
CREATE OR REPLACE VIEW run_calibration AS
SELECT
    r.run_id,
    d.source AS calibration,
    100 * max(abs(d.ratio - 1)) AS drift_pct,
    bool_or(d.flagged) AS flagged
FROM runs r
JOIN calibration_drift d ON r.started_at BETWEEN d.from_utc AND d.to_utc
GROUP BY r.run_id, d.source;
