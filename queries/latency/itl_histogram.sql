-- Histogram and CDF of the default ITL (gaps between consecutive content chunks, ok measured
-- requests) with buckets of bucket_ms: each bucket is [lo, hi), with the count, the share of
-- the run's gaps and the cumulative share up to the bucket's upper edge. Empty buckets between
-- the smallest and the largest gap are listed with count 0.
-- @example SELECT * FROM itl_histogram(5)
-- @grain one row per run per bucket
-- @param bucket_ms Bucket width in milliseconds.
-- @column run [id] Run name.
-- @column lo_ms [ms] Lower edge of the bucket (included).
-- @column hi_ms [ms] Upper edge of the bucket (excluded).
-- @column count [count] Gaps in the bucket.
-- @column share [ratio] count / all gaps of the run.
-- @column cumulative_share [ratio] Share of the run's gaps below hi_ms (the CDF).
CREATE OR REPLACE MACRO itl_histogram(bucket_ms) AS TABLE
WITH g AS (
    SELECT run, floor(gap_ms / bucket_ms)::BIGINT AS b
    FROM token_gaps
    WHERE measured AND ok
),
counts AS (
    SELECT run, b, count(*) AS c
    FROM g GROUP BY run, b
),
-- from the counts, not the gaps: the gaps are read once (two readers made DuckDB keep a copy)
bounds AS (
    SELECT run, min(b) AS b0, max(b) AS b1, sum(c) AS n
    FROM counts GROUP BY run
),
buckets AS (
    SELECT run, n, unnest(range(b0, b1 + 1)) AS b
    FROM bounds
)
SELECT
    k.run,
    k.b * bucket_ms AS lo_ms,
    (k.b + 1) * bucket_ms AS hi_ms,
    coalesce(c.c, 0) AS count,
    coalesce(c.c, 0) / k.n AS share,
    sum(coalesce(c.c, 0)) OVER (PARTITION BY k.run ORDER BY k.b) / k.n AS cumulative_share
FROM buckets AS k
LEFT JOIN counts AS c USING (run, b)
ORDER BY k.run, k.b
