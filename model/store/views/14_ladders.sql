-- ladders: the result of each ladder run: the highest step held before the
-- first step that failed (0 when the first failed), still_holding when
-- every step held (the limit is higher: print "+"), and step_rps, the gap
-- to the first failed step (or, still holding, below the last step): the
-- precision of the result. Steps whose name is not a rate are left out.
-- Same rule as stats.EvaluateLadder with stats.DefaultLadderRule.
CREATE OR REPLACE VIEW ladders AS
WITH s AS (
    SELECT * FROM ladder_steps WHERE target_rps IS NOT NULL
),
f AS (
    SELECT server, run,
           min(target_rps) FILTER (WHERE NOT held) AS first_fail,
           max(target_rps) AS top,
           count(*) AS steps
    FROM s GROUP BY server, run
),
h AS (
    SELECT f.server, f.run, f.first_fail, f.top, f.steps,
           coalesce(max(s.target_rps) FILTER (WHERE f.first_fail IS NULL OR s.target_rps < f.first_fail), 0) AS highest_held,
           max(s.target_rps) FILTER (WHERE s.target_rps < f.top) AS below_top
    FROM f JOIN s ON s.server IS NOT DISTINCT FROM f.server AND s.run = f.run
    GROUP BY f.server, f.run, f.first_fail, f.top, f.steps
)
SELECT
    server,
    run,
    highest_held AS highest_held_rps,
    first_fail IS NULL AS still_holding,
    CASE WHEN first_fail IS NULL THEN top - below_top ELSE first_fail - highest_held END AS step_rps,
    50.0 AS p95_threshold_ms,
    0.01 AS max_error_rate,
    steps
FROM h;
