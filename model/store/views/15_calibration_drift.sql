-- calibration_drift: per calibration pair and process count, the median
-- (type 7) of the timings after a run over the median before it; flagged
-- when they differ by more than 5% (stats.Drift with its default
-- tolerance). A pair is one file with a phase column, or the files whose
-- names differ only in the word before/pre and after/post; source names
-- the pair with that word replaced by '*' (calibration_*.csv).
CREATE OR REPLACE VIEW calibration_drift AS
WITH keyed AS (
    SELECT
        regexp_extract(source, '^(.*/)?', 1)
          || regexp_replace(regexp_extract(source, '[^/]*$'),
                            '(^|[^A-Za-z])(before|pre|after|post)([^A-Za-z]|$)', '\1*\3', 'gi') AS pair,
        phase, processes, ms, utc
    FROM calibration
),
m AS (
    SELECT pair, processes,
           median(ms) FILTER (WHERE phase = 'before') AS before_ms,
           median(ms) FILTER (WHERE phase = 'after') AS after_ms,
           count(*) FILTER (WHERE phase = 'before') AS n_before,
           count(*) FILTER (WHERE phase = 'after') AS n_after,
           min(utc) FILTER (WHERE phase = 'before') AS from_utc,
           max(utc) FILTER (WHERE phase = 'after') AS to_utc
    FROM keyed GROUP BY pair, processes
)
SELECT
    pair AS source,
    processes,
    before_ms,
    after_ms,
    after_ms / nullif(before_ms, 0) AS ratio,
    coalesce(abs(after_ms / nullif(before_ms, 0) - 1) > 0.05, TRUE) AS flagged,
    0.05 AS tolerance,
    n_before,
    n_after,
    from_utc,
    to_utc
FROM m;
