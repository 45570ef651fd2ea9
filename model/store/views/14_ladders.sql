-- ladders(p95_ms := 50, max_error_rate := 0.01, min_achieved_ratio :=
-- 0.95): the result of each ladder run of ladder_steps under the same
-- rule: the highest step held before the first step that failed (0 when
-- the first failed), as its target and as the rate achieved at it (what
-- people publish: 1,397 for a step of 1,400), still_holding when
-- every step held (the limit is higher: print "+"), and step_rps, the gap
-- to the first failed step (or, still holding, below the last step): the
-- precision of the result. first_failed_rps is the first step that failed;
-- held_again_rps the lowest step above it that held again (it does not
-- count). Steps whose name is not a rate are left out. The plain view
-- ladders is this macro at its defaults; wra analyze --p95 100 reads
-- ladders(p95_ms := 100). The median over runs is stats.MedianLadder's.
CREATE OR REPLACE MACRO ladders(p95_ms := 50, max_error_rate := 0.01, min_achieved_ratio := 0.95) AS TABLE
WITH s AS (
    SELECT * FROM ladder_steps(p95_ms := p95_ms, max_error_rate := max_error_rate, min_achieved_ratio := min_achieved_ratio) WHERE target_rps IS NOT NULL
),
f AS (
    SELECT kind, server, database, test, tool, run,
           min(target_rps) FILTER (WHERE NOT held) AS first_fail,
           min(target_rps) AS bottom,
           max(target_rps) AS top,
           count(*) AS steps,
           any_value(s.p95_threshold_ms) AS p95_threshold_ms,
           any_value(s.max_error_rate) AS error_rate_threshold,
           any_value(s.min_achieved_ratio) AS ratio_threshold
    FROM s GROUP BY kind, server, database, test, tool, run
),
h AS (
    SELECT f.kind, f.server, f.database, f.test, f.tool, f.run, f.first_fail, f.bottom, f.top, f.steps, f.p95_threshold_ms, f.error_rate_threshold,
           f.ratio_threshold,
           coalesce(max(s.target_rps) FILTER (WHERE f.first_fail IS NULL OR s.target_rps < f.first_fail), 0) AS highest_held,
           arg_max(s.achieved_rps, s.target_rps) FILTER (WHERE f.first_fail IS NULL OR s.target_rps < f.first_fail) AS highest_held_achieved,
           max(s.target_rps) FILTER (WHERE s.target_rps < f.top) AS below_top,
           min(s.target_rps) FILTER (WHERE s.held AND s.target_rps > f.first_fail) AS held_again
    FROM f JOIN s ON s.kind = f.kind AND s.server IS NOT DISTINCT FROM f.server AND s.database IS NOT DISTINCT FROM f.database
                 AND s.test IS NOT DISTINCT FROM f.test
                 AND s.tool IS NOT DISTINCT FROM f.tool AND s.run = f.run
    GROUP BY ALL
)
SELECT
    server,
    run,
    highest_held AS highest_held_rps,
    highest_held_achieved AS highest_held_achieved_rps,
    first_fail IS NULL AS still_holding,
    CASE WHEN first_fail IS NULL THEN top - below_top ELSE first_fail - highest_held END AS step_rps,
    p95_threshold_ms,
    error_rate_threshold AS max_error_rate,
    steps,
    kind,
    test,
    tool,
    first_fail AS first_failed_rps,
    bottom AS first_step_rps,
    held_again AS held_again_rps,
    database,
    ratio_threshold AS min_achieved_ratio
FROM h;

CREATE OR REPLACE VIEW ladders AS SELECT * FROM ladders();

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON MACRO TABLE ladders IS 'one row per ladder run: the highest rate held under the rule given';
COMMENT ON VIEW ladders IS 'one row per ladder run: the highest rate held, under p95 < 50 ms, errors < 1% and 95% of each step''s rate achieved';
COMMENT ON COLUMN ladders.server IS 'the ladder run, as in ladder_steps';
COMMENT ON COLUMN ladders.run IS 'the ladder run, as in ladder_steps';
COMMENT ON COLUMN ladders.kind IS 'the ladder run, as in ladder_steps';
COMMENT ON COLUMN ladders.test IS 'the ladder run, as in ladder_steps';
COMMENT ON COLUMN ladders.tool IS 'the ladder run, as in ladder_steps';
COMMENT ON COLUMN ladders.database IS 'the ladder run, as in ladder_steps';
COMMENT ON COLUMN ladders.highest_held_rps IS 'the target of the highest step held before the first step that failed (0 when the first failed), requests/s';
COMMENT ON COLUMN ladders.highest_held_achieved_rps IS 'the rate achieved at that step (NULL when none held, or where the step''s achieved rate is unknown), requests/s';
COMMENT ON COLUMN ladders.min_achieved_ratio IS 'the rule applied';
COMMENT ON COLUMN ladders.still_holding IS 'true when every step held (the real limit is higher: print it with a "+")';
COMMENT ON COLUMN ladders.step_rps IS 'the gap to the first failed step, or below the last step when still holding: finer precision is not real, requests/s';
COMMENT ON COLUMN ladders.p95_threshold_ms IS 'the rule applied';
COMMENT ON COLUMN ladders.max_error_rate IS 'the rule applied';
COMMENT ON COLUMN ladders.steps IS 'steps of the ladder run';
COMMENT ON COLUMN ladders.first_failed_rps IS 'the target of the first step that failed and of the first step, requests/s';
COMMENT ON COLUMN ladders.first_step_rps IS 'the target of the first step that failed and of the first step, requests/s';
COMMENT ON COLUMN ladders.held_again_rps IS 'the lowest step above the first failure that held again (it does not count), requests/s';
