-- memory_slopes: memory growth per 1000 concurrent waiting requests, one
-- row per (server, database, pass) and one per (server, database) over
-- all passes (pooled, pass NULL; a series without pass also has a per-pass
-- row with pass NULL). A server's series on two databases are two series,
-- never pooled; database is NULL for a series that names none.
-- OLS slope, intercept and R² (regr_slope/regr_intercept/regr_r2), the
-- slope's standard error sqrt(SSE / (n - 2) / Sxx) with SSE = Syy - Sxy²/Sxx
-- (regr_syy, regr_sxy, regr_sxx; NULL under three points) and the
-- Theil-Sen slope (median of pairwise slopes over pairs with different
-- concurrency; intercept median(y - slope * x)), converted from MiB per
-- request to GiB per 1000 requests (x 1000 / 1024). The row over all
-- passes also gives the spread of the per-pass OLS slopes (those that
-- exist: a pass at one concurrency level has none): their number,
-- min, median (type 7) and max. This is the one definition of these
-- figures: wra analyze and wra cost read them here (Store.MemorySlopes);
-- stats.CheckMemoryFit only says, from the points, when a series bends.
CREATE OR REPLACE VIEW memory_slopes AS
WITH pts AS (
    SELECT server, database, pass, concurrency::DOUBLE AS x, memory_mb AS y,
           row_number() OVER (PARTITION BY server, database ORDER BY pass, concurrency, source, source_line) AS id
    FROM memory_series
    WHERE memory_mb IS NOT NULL AND concurrency IS NOT NULL
),
grp AS ( -- every point once in its pass and once in the pooled group
    SELECT server, database, pass, FALSE AS pooled, x, y, id FROM pts
    UNION ALL
    SELECT server, database, NULL, TRUE, x, y, id FROM pts
),
ols AS (
    SELECT server, database, pass, pooled,
           -- regr_slope is NaN, not NULL, when every x is equal
           CASE WHEN regr_sxx(y, x) > 0 THEN regr_slope(y, x) END AS slope,
           regr_intercept(y, x) AS intercept, regr_r2(y, x) AS r2,
           CASE WHEN regr_count(y, x) >= 3 AND regr_sxx(y, x) > 0 THEN
               sqrt(greatest(regr_syy(y, x) - regr_sxy(y, x) * regr_sxy(y, x) / regr_sxx(y, x), 0)
                    / (regr_count(y, x) - 2) / regr_sxx(y, x)) END AS slope_se,
           count(*) AS points
    FROM grp GROUP BY server, database, pass, pooled
),
ts AS (
    SELECT a.server, a.database, a.pass, a.pooled, median((b.y - a.y) / (b.x - a.x)) AS slope
    FROM grp a JOIN grp b
      ON a.server IS NOT DISTINCT FROM b.server AND a.database IS NOT DISTINCT FROM b.database
         AND a.pass IS NOT DISTINCT FROM b.pass AND a.pooled = b.pooled AND a.id < b.id AND a.x <> b.x
    GROUP BY a.server, a.database, a.pass, a.pooled
),
tsi AS (
    SELECT g.server, g.database, g.pass, g.pooled, median(g.y - ts.slope * g.x) AS intercept
    FROM grp g JOIN ts
      ON g.server IS NOT DISTINCT FROM ts.server AND g.database IS NOT DISTINCT FROM ts.database
         AND g.pass IS NOT DISTINCT FROM ts.pass AND g.pooled = ts.pooled
    GROUP BY g.server, g.database, g.pass, g.pooled
),
spread AS ( -- the per-pass slopes of each series
    SELECT server, database, count(*) AS passes, min(slope) AS lo, median(slope) AS med, max(slope) AS hi
    FROM ols WHERE NOT pooled AND slope IS NOT NULL GROUP BY server, database
)
SELECT
    o.server,
    o.database,
    o.pass,
    o.pooled,
    o.slope * 1000 / 1024 AS slope_gib_per_1000,
    o.slope_se * 1000 / 1024 AS slope_se_gib_per_1000,
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
LEFT JOIN ts ON o.server IS NOT DISTINCT FROM ts.server AND o.database IS NOT DISTINCT FROM ts.database
    AND o.pass IS NOT DISTINCT FROM ts.pass AND o.pooled = ts.pooled
LEFT JOIN tsi ON o.server IS NOT DISTINCT FROM tsi.server AND o.database IS NOT DISTINCT FROM tsi.database
    AND o.pass IS NOT DISTINCT FROM tsi.pass AND o.pooled = tsi.pooled
LEFT JOIN spread sp ON o.pooled AND o.server IS NOT DISTINCT FROM sp.server AND o.database IS NOT DISTINCT FROM sp.database;

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON VIEW memory_slopes IS 'memory growth per 1000 concurrent waiting requests, per server and pass and pooled';
COMMENT ON COLUMN memory_slopes.server IS 'the series; pass NULL on the pooled row (and on the per-pass row of a series recorded without passes)';
COMMENT ON COLUMN memory_slopes.database IS 'the database of the series, NULL where it names none; a server''s series on two databases are fitted apart';
COMMENT ON COLUMN memory_slopes.pass IS 'the series; pass NULL on the pooled row (and on the per-pass row of a series recorded without passes)';
COMMENT ON COLUMN memory_slopes.pooled IS 'true on the row over all the server''s passes';
COMMENT ON COLUMN memory_slopes.slope_gib_per_1000 IS 'OLS slope of memory_mb on concurrency (regr_slope), MiB per request x 1000 / 1024; NULL when every point has one concurrency';
COMMENT ON COLUMN memory_slopes.slope_se_gib_per_1000 IS 'standard error of that slope, sqrt(max(Syy - Sxy^2/Sxx, 0) / (n - 2) / Sxx) (regr_syy, regr_sxy, regr_sxx, regr_count), same unit; NULL under three points';
COMMENT ON COLUMN memory_slopes.intercept_gib IS 'OLS intercept / 1024';
COMMENT ON COLUMN memory_slopes.r2 IS 'regr_r2';
COMMENT ON COLUMN memory_slopes.theil_sen_gib_per_1000 IS 'median of the pairwise slopes over pairs with different concurrency';
COMMENT ON COLUMN memory_slopes.theil_sen_intercept_gib IS 'median of memory_mb - slope x concurrency, / 1024';
COMMENT ON COLUMN memory_slopes.points IS 'points in the fit';
COMMENT ON COLUMN memory_slopes.passes IS 'on the pooled row: how many passes have a slope, and the min, median (type 7) and max of their OLS slopes (NULL on per-pass rows)';
COMMENT ON COLUMN memory_slopes.pass_slope_min_gib_per_1000 IS 'on the pooled row: how many passes have a slope, and the min, median (type 7) and max of their OLS slopes (NULL on per-pass rows)';
COMMENT ON COLUMN memory_slopes.pass_slope_median_gib_per_1000 IS 'on the pooled row: how many passes have a slope, and the min, median (type 7) and max of their OLS slopes (NULL on per-pass rows)';
COMMENT ON COLUMN memory_slopes.pass_slope_max_gib_per_1000 IS 'on the pooled row: how many passes have a slope, and the min, median (type 7) and max of their OLS slopes (NULL on per-pass rows)';
