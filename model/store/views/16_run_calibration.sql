-- run_calibration: the calibration pairs that cover a run, one row per
-- (run, pair), with the pair's largest drift over its process counts in
-- percent, 100 * |after/before - 1|. A run with a started_at is covered by
-- the pairs whose span (first timing before to last timing after,
-- calibration_drift.from_utc .. to_utc) holds it. A run without one is
-- covered by the pair its calibration label names (the pair's file name
-- without its before/after word, extension and the separators beside it:
-- 'tools' for calibration/tools-before.csv, or the pair itself,
-- calibration_drift.source), or, without that label, by the pairs whose
-- files lie in its folder or a folder above it; covered_by says which
-- rule ('time', 'label', 'folder').
CREATE OR REPLACE VIEW run_calibration AS
WITH pairs AS (
    SELECT source AS pair,
           100 * max(abs(ratio - 1)) AS drift_pct,
           bool_or(flagged) AS flagged,
           regexp_extract(source, '^(.*/)?', 1) AS folder,
           regexp_replace(regexp_replace(regexp_extract(source, '[^/]*$'), '\.[^.*]*$', ''), '[-_. ]*\*[-_. ]*', '', 'g') AS name
    FROM calibration_drift GROUP BY source
),
untimed AS (
    SELECT run_id, labels->>'calibration' AS named, regexp_extract(source, '^(.*/)?', 1) AS folder
    FROM runs WHERE started_at IS NULL
)
SELECT
    r.run_id,
    d.source AS calibration,
    100 * max(abs(d.ratio - 1)) AS drift_pct,
    bool_or(d.flagged) AS flagged,
    'time' AS covered_by
FROM runs r
JOIN calibration_drift d ON r.started_at BETWEEN d.from_utc AND d.to_utc
GROUP BY r.run_id, d.source
UNION ALL
SELECT u.run_id, p.pair, p.drift_pct, p.flagged, 'label'
FROM untimed u JOIN pairs p ON u.named = p.name OR u.named = p.pair
UNION ALL
SELECT u.run_id, p.pair, p.drift_pct, p.flagged, 'folder'
FROM untimed u JOIN pairs p
  ON u.named IS NULL AND starts_with(u.folder, p.folder) AND (p.folder <> '' OR u.folder = '');

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON VIEW run_calibration IS 'the calibration pairs that cover a run: by its started_at, or by its calibration label or folder when it has none';
COMMENT ON COLUMN run_calibration.run_id IS 'the run, runs.run_id';
COMMENT ON COLUMN run_calibration.calibration IS 'the pair, calibration_drift.source';
COMMENT ON COLUMN run_calibration.drift_pct IS 'the pair''s largest 100 x |ratio - 1| over its process counts, percent';
COMMENT ON COLUMN run_calibration.flagged IS 'true when the pair is flagged at any process count';
COMMENT ON COLUMN run_calibration.covered_by IS 'time (started_at within the pair''s span), label (the run''s calibration label names the pair) or folder (the pair''s files lie in the run''s folder or above it)';
