-- Exact linear percentiles (quantile_cont's: numpy's default, at rank (n - 1) * p) of many values
-- per run and metric, in memory that does not grow with their number, from two passes: the
-- values' counts per bucket (buckets_from), which place each percentile's two neighbouring order
-- statistics in a bucket, then the values of those few buckets only (values_from), counted one by
-- one. Buckets must be monotone in the value (x <= y gives bucket(x) <= bucket(y), as _gap_bucket
-- is). The two relations are given by name: tables, views, or the caller's CTEs (query_table
-- resolves those too). Hash aggregates and a mark join throughout, which DuckDB can spill.
-- @grain one row per run and metric with values
-- @param buckets_from Name of a relation with columns run, metric, b (a bucket) and n (its values).
-- @param values_from Name of a relation with columns run, metric, v (a value) and b (its bucket).
-- @param ps The percentiles' probabilities, in the order of q (default p1, p5, p10, p25, p50, p75,
-- p90, p95, p99).
-- @column run [id] Run name.
-- @column metric [text] The values' metric.
-- @column q [unit of v] Percentiles p1, p5, p10, p25, p50, p75, p90, p95, p99, in that order.
CREATE OR REPLACE MACRO _bucket_quantiles(buckets_from, values_from,
    ps := [0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99]) AS TABLE
WITH placed AS (
    SELECT
        run, metric, b, n,
        sum(n) OVER (PARTITION BY run, metric ORDER BY b ROWS UNBOUNDED PRECEDING) - n AS before,
        sum(n) OVER (PARTITION BY run, metric) AS total
    FROM query_table(buckets_from)
),
wanted AS (
    SELECT t.run, t.metric, p.i, (t.total - 1) * p.p AS rn
    FROM (SELECT DISTINCT run, metric, total FROM placed) AS t,
        (SELECT unnest(range(1, len(ps) + 1)) AS i, unnest(ps) AS p) AS p
),
-- the two order statistics (0-based ranks) each percentile lies between
ranks AS (
    SELECT run, metric, i, rn, 'lo' AS side, floor(rn)::BIGINT AS r FROM wanted
    UNION ALL
    SELECT run, metric, i, rn, 'hi', ceil(rn)::BIGINT FROM wanted
),
located AS (
    SELECT k.run, k.metric, k.i, k.rn, k.side, p.b, k.r - p.before AS k
    FROM ranks AS k
    JOIN placed AS p
        ON p.run = k.run AND p.metric = k.metric AND k.r >= p.before AND k.r < p.before + p.n
),
-- the values of the target buckets: an IN whose marker is tested in an expression stays a mark
-- join, whose hash table is always the few targets (as an inner or semi join DuckDB misjudged
-- the sizes of the views behind it and hashed every value: out of memory at 50 M values); a
-- value in a target bucket of another run or metric is kept too, and left unused
targets AS (
    SELECT DISTINCT b FROM located
),
inside AS (
    SELECT v.run, v.metric, v.b, v.v, count(*) AS n
    FROM query_table(values_from) AS v
    WHERE coalesce(v.b IN (SELECT b FROM targets), false)
    GROUP BY v.run, v.metric, v.b, v.v
),
inside_ranked AS (
    SELECT *, sum(n) OVER (PARTITION BY run, metric, b ORDER BY v ROWS UNBOUNDED PRECEDING) AS upto
    FROM inside
),
valued AS (
    SELECT l.run, l.metric, l.i, any_value(l.rn) AS rn,
        any_value(c.v) FILTER (WHERE l.side = 'lo') AS lo,
        any_value(c.v) FILTER (WHERE l.side = 'hi') AS hi
    FROM located AS l
    JOIN inside_ranked AS c
        ON c.run = l.run AND c.metric = l.metric AND c.b = l.b AND l.k >= c.upto - c.n AND l.k < c.upto
    GROUP BY l.run, l.metric, l.i
)
SELECT run, metric, list(lo + (hi - lo) * (rn - floor(rn)) ORDER BY i) AS q
FROM valued
GROUP BY run, metric
