-- calibration_pairs: every calibration timing with the pair it belongs
-- to, the one pairing rule of wra analyze and the calibration_drift macro.
-- A pair is one file with a phase column, or the files of one folder whose
-- names differ only in a word before/pre or after/post (set apart from
-- letters: 'calib_before.csv', 'pre-run.csv'); pair is the path with that
-- word of the file name replaced by '*' (calibration_*.csv). Folder names
-- are never rewritten: c/pre-upgrade/calib_before.csv and
-- c/post-upgrade/calib_before.csv belong to two pairs.
CREATE OR REPLACE VIEW calibration_pairs AS
SELECT
    regexp_extract(source, '^(.*/)?', 1)
      || regexp_replace(regexp_extract(source, '[^/]*$'),
                        '(^|[^A-Za-z])(before|pre|after|post)([^A-Za-z]|$)', '\1*\3', 'gi') AS pair,
    source,
    source_line,
    phase,
    utc,
    processes,
    ms
FROM calibration;

-- calibration_drift(tolerance := 0.05): per calibration pair and process
-- count, the median (type 7, as stats.Drift) of the timings after a run
-- over the median before it; flagged when they differ by more than the
-- tolerance, or when a side has no timings (drift unknown); from_utc and
-- to_utc are the first timing before and the last after. The plain view
-- calibration_drift is this macro at its default; wra analyze --drift 0.1
-- reads calibration_drift(tolerance := 0.1).
CREATE OR REPLACE MACRO calibration_drift(tolerance := 0.05) AS TABLE
WITH m AS (
    SELECT pair, processes,
           median(ms) FILTER (WHERE phase = 'before') AS before_ms,
           median(ms) FILTER (WHERE phase <> 'before') AS after_ms,
           count(*) FILTER (WHERE phase = 'before') AS n_before,
           count(*) FILTER (WHERE phase <> 'before') AS n_after,
           min(utc) FILTER (WHERE phase = 'before') AS from_utc,
           max(utc) FILTER (WHERE phase <> 'before') AS to_utc
    FROM calibration_pairs GROUP BY pair, processes
)
SELECT
    pair AS source,
    processes,
    before_ms,
    after_ms,
    CASE WHEN before_ms > 0 THEN after_ms / before_ms END AS ratio,
    coalesce(before_ms <= 0 OR abs(after_ms / nullif(before_ms, 0) - 1) > tolerance, TRUE) AS flagged,
    tolerance AS tolerance,
    n_before,
    n_after,
    from_utc,
    to_utc
FROM m;

CREATE OR REPLACE VIEW calibration_drift AS SELECT * FROM calibration_drift();
