-- memory_slopes: memory growth per 1000 concurrent waiting requests, one
-- row per (server, pass) and one per server over all passes (pass NULL).
-- OLS slope, intercept and R² (regr_slope/regr_intercept/regr_r2) and the
-- Theil-Sen slope (median of pairwise slopes over pairs with different
-- concurrency; intercept median(y - slope * x)), converted from MiB per
-- request to GiB per 1000 requests (x 1000 / 1024). The row over all
-- passes also gives the spread of the per-pass OLS slopes: their number,
-- min, median (type 7) and max. Same definitions as stats.MemorySlope,
-- which also gives the slope's interval and says when a series bends.
CREATE OR REPLACE VIEW memory_slopes AS
WITH pts AS (
    SELECT server, pass, concurrency::DOUBLE AS x, memory_mb AS y,
           row_number() OVER (PARTITION BY server ORDER BY pass, concurrency, source, source_line) AS id
    FROM memory_series
    WHERE memory_mb IS NOT NULL AND concurrency IS NOT NULL
),
grp AS ( -- every point once in its pass and once in the pooled group
    SELECT server, pass, FALSE AS pooled, x, y, id FROM pts
    UNION ALL
    SELECT server, NULL, TRUE, x, y, id FROM pts
),
ols AS (
    SELECT server, pass, pooled,
           regr_slope(y, x) AS slope, regr_intercept(y, x) AS intercept, regr_r2(y, x) AS r2,
           count(*) AS points
    FROM grp GROUP BY server, pass, pooled
),
ts AS (
    SELECT a.server, a.pass, a.pooled, median((b.y - a.y) / (b.x - a.x)) AS slope
    FROM grp a JOIN grp b
      ON a.server IS NOT DISTINCT FROM b.server AND a.pass IS NOT DISTINCT FROM b.pass
         AND a.pooled = b.pooled AND a.id < b.id AND a.x <> b.x
    GROUP BY a.server, a.pass, a.pooled
),
tsi AS (
    SELECT g.server, g.pass, g.pooled, median(g.y - ts.slope * g.x) AS intercept
    FROM grp g JOIN ts
      ON g.server IS NOT DISTINCT FROM ts.server AND g.pass IS NOT DISTINCT FROM ts.pass AND g.pooled = ts.pooled
    GROUP BY g.server, g.pass, g.pooled
),
spread AS ( -- the per-pass slopes of each server
    SELECT server, count(*) AS passes, min(slope) AS lo, median(slope) AS med, max(slope) AS hi
    FROM ols WHERE NOT pooled AND slope IS NOT NULL GROUP BY server
)
SELECT
    o.server,
    o.pass,
    o.slope * 1000 / 1024 AS slope_gib_per_1000,
    o.intercept / 1024 AS intercept_gib,
    o.r2,
    ts.slope * 1000 / 1024 AS theil_sen_gib_per_1000,
    tsi.intercept / 1024 AS theil_sen_intercept_gib,
    o.points,
    sp.passes,
    sp.lo * 1000 / 1024 AS pass_slope_min_gib_per_1000,
    sp.med * 1000 / 1024 AS pass_slope_median_gib_per_1000,
    sp.hi * 1000 / 1024 AS pass_slope_max_gib_per_1000
FROM ols o
LEFT JOIN ts ON o.server IS NOT DISTINCT FROM ts.server AND o.pass IS NOT DISTINCT FROM ts.pass AND o.pooled = ts.pooled
LEFT JOIN tsi ON o.server IS NOT DISTINCT FROM tsi.server AND o.pass IS NOT DISTINCT FROM tsi.pass AND o.pooled = tsi.pooled
LEFT JOIN spread sp ON o.pooled AND o.server IS NOT DISTINCT FROM sp.server;
