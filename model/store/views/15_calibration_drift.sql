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
-- count, the median (type 7) of the timings after a run
-- over the median before it; flagged when they differ by more than the
-- tolerance, or when a side has no timings (drift unknown); from_utc and
-- to_utc are the first timing before and the last after,
-- before_last_utc and after_first_utc the last before and the first
-- after: the runs that started between those two are the ones the drift
-- happened around (the finding of a drifted pair names them). The
-- figures of wra analyze's calibration table, its context and its
-- findings are this macro's, at --drift. The plain view
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
           max(utc) FILTER (WHERE phase <> 'before') AS to_utc,
           max(utc) FILTER (WHERE phase = 'before') AS before_last_utc,
           min(utc) FILTER (WHERE phase <> 'before') AS after_first_utc
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
    to_utc,
    before_last_utc,
    after_first_utc
FROM m;

CREATE OR REPLACE VIEW calibration_drift AS SELECT * FROM calibration_drift();

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON VIEW calibration_pairs IS 'every calibration timing with the before/after pair it belongs to';
COMMENT ON COLUMN calibration_pairs.pair IS 'the path with the before/after word of the file name replaced by * (calibration_*.csv)';
COMMENT ON COLUMN calibration_pairs.source IS 'the timing, from calibration';
COMMENT ON COLUMN calibration_pairs.source_line IS 'the timing, from calibration';
COMMENT ON COLUMN calibration_pairs.phase IS 'the timing, from calibration';
COMMENT ON COLUMN calibration_pairs.utc IS 'the timing, from calibration';
COMMENT ON COLUMN calibration_pairs.processes IS 'the timing, from calibration';
COMMENT ON COLUMN calibration_pairs.ms IS 'the timing, from calibration';
COMMENT ON MACRO TABLE calibration_drift IS 'calibration drift per pair and process count, flagged beyond the tolerance given';
COMMENT ON VIEW calibration_drift IS 'calibration drift per pair and process count, flagged beyond 5%';
COMMENT ON COLUMN calibration_drift.source IS 'the pair, calibration_pairs.pair';
COMMENT ON COLUMN calibration_drift.processes IS 'processes running the fixed CPU job at once';
COMMENT ON COLUMN calibration_drift.before_ms IS 'the medians (type 7) of the repeated timings before and after, ms';
COMMENT ON COLUMN calibration_drift.after_ms IS 'the medians (type 7) of the repeated timings before and after, ms';
COMMENT ON COLUMN calibration_drift.ratio IS 'after / before';
COMMENT ON COLUMN calibration_drift.flagged IS 'true when |ratio - 1| > tolerance or a side is missing';
COMMENT ON COLUMN calibration_drift.tolerance IS 'the tolerance applied';
COMMENT ON COLUMN calibration_drift.n_before IS 'timings before and after';
COMMENT ON COLUMN calibration_drift.n_after IS 'timings before and after';
COMMENT ON COLUMN calibration_drift.from_utc IS 'the first timing before and the last after: the span the pair vouches for, UTC';
COMMENT ON COLUMN calibration_drift.to_utc IS 'the first timing before and the last after: the span the pair vouches for, UTC';
COMMENT ON COLUMN calibration_drift.before_last_utc IS 'the last timing before and the first after: the runs that started between them ran while the drift happened, UTC';
COMMENT ON COLUMN calibration_drift.after_first_utc IS 'the last timing before and the first after: the runs that started between them ran while the drift happened, UTC';
