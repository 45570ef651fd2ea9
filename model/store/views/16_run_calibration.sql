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

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON VIEW run_calibration IS 'the calibration pairs whose span covers a run''s started_at';
COMMENT ON COLUMN run_calibration.run_id IS 'the run, runs.run_id';
COMMENT ON COLUMN run_calibration.calibration IS 'the pair, calibration_drift.source';
COMMENT ON COLUMN run_calibration.drift_pct IS 'the pair''s largest 100 x |ratio - 1| over its process counts, percent';
COMMENT ON COLUMN run_calibration.flagged IS 'true when the pair is flagged at any process count';
