-- Spark variant of metric_stats (summary/metric_stats.sql), the same figures. The per-request
-- metrics take Spark's percentile (exact: linear interpolation between order statistics, as
-- quantile_cont). The pooled chunk gaps (itl_ms, the many values) take their percentiles by the
-- bucket method of _gap_quantiles, which is exact and mergeable across partitions: the gaps are
-- counted per bucket (_gap_bucket's monotone integer buckets of 65 536 ns up to about a second),
-- the running counts place each percentile's two order statistics in a bucket, and only the
-- gaps of those few buckets are ranked one by one.
-- Distribution statistics of each latency metric per run, over the ok measured requests:
-- count, mean, population standard deviation, min, max and percentiles p1..p99 by linear
-- interpolation between order statistics (numpy's default). itl_ms pools the chunk gaps of all
-- requests (token_gaps); the other metrics have one value per request (request_latency).
-- queue_prefill_ms is the engine's part of TTFT, queue and prefill together (TTFT minus
-- pre-queue): the one figure a source without scheduled times (vLLM's text log) has for them; where
-- queue and prefill are split it is their sum.
-- @grain one row per run per metric
-- @column run [id] Run name.
-- @column metric [text] ttft_ms, pre_queue_ms, queue_ms, prefill_ms, queue_prefill_ms, decode_ms, itl_ms, tpot_ms or e2e_ms.
-- @column unit [text] Unit of the values (ms).
-- @column count [count] Values the statistics are computed over.
-- @column mean [ms] Arithmetic mean.
-- @column std [ms] Population standard deviation (numpy's default, ddof=0).
-- @column min [ms] Smallest value.
-- @column max [ms] Largest value.
-- @column p1 [ms] 1st percentile.
-- @column p5 [ms] 5th percentile.
-- @column p10 [ms] 10th percentile.
-- @column p25 [ms] 25th percentile.
-- @column p50 [ms] Median.
-- @column p75 [ms] 75th percentile.
-- @column p90 [ms] 90th percentile.
-- @column p95 [ms] 95th percentile.
-- @column p99 [ms] 99th percentile.
CREATE OR REPLACE VIEW metric_stats AS
WITH per_request AS (
    SELECT run, metric, value
    FROM (
        SELECT run, ttft_ms, pre_queue_ms, queue_ms, prefill_ms,
            coalesce(queue_ms + prefill_ms, ttft_ms - pre_queue_ms) AS queue_prefill_ms,
            decode_ms, tpot_ms, e2e_ms
        FROM request_latency
        WHERE measured AND ok
    ) AS l UNPIVOT (value FOR metric IN (ttft_ms, pre_queue_ms, queue_ms, prefill_ms, queue_prefill_ms, decode_ms,
        tpot_ms, e2e_ms))
),
request_stats AS (
    SELECT
        run,
        metric,
        count(value) AS n,
        avg(value) AS mean,
        stddev_pop(value) AS std,
        min(value) AS min_value,
        max(value) AS max_value,
        percentile(value, array(0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99)) AS q
    FROM per_request
    GROUP BY run, metric
),
gaps AS (
    SELECT run, gap_ns AS v,
        CASE
            WHEN gap_ns < 1073741824 AND gap_ns > -1073741824 THEN gap_ns div 65536
            WHEN gap_ns > 0 THEN 1048576 + gap_ns div 1048576
            ELSE -1048576 + gap_ns div 1048576
        END AS b
    FROM token_gaps
    WHERE measured AND ok
),
gap_moments AS (
    SELECT run, count(*) AS n, avg(v) AS mean, stddev_pop(v) AS std, min(v) AS min_v, max(v) AS max_v
    FROM gaps
    GROUP BY run
),
-- first pass: counts per bucket, and the rank (from 0) of each bucket's first gap
bucket_counts AS (
    SELECT run, b, n,
        sum(n) OVER (PARTITION BY run ORDER BY b ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) - n AS before
    FROM (SELECT run, b, count(*) AS n FROM gaps GROUP BY run, b) AS c
),
-- percentile i sits at rank h = (n - 1) p; its two order statistics are ranks floor(h) and ceil(h)
targets AS (
    SELECT m.run, p.i, (m.n - 1) * p.p AS h, r.side,
        CAST(CASE r.side WHEN 'lo' THEN floor((m.n - 1) * p.p) ELSE ceil((m.n - 1) * p.p) END AS BIGINT) AS rk
    FROM gap_moments AS m
    CROSS JOIN (VALUES (1, 0.01), (2, 0.05), (3, 0.10), (4, 0.25), (5, 0.50), (6, 0.75), (7, 0.90),
        (8, 0.95), (9, 0.99)) AS p (i, p)
    CROSS JOIN (VALUES ('lo'), ('hi')) AS r (side)
),
target_buckets AS (
    SELECT t.run, t.i, t.h, t.side, c.b, t.rk - c.before AS rk_in_b
    FROM targets AS t
    JOIN bucket_counts AS c ON c.run = t.run AND t.rk >= c.before AND t.rk < c.before + c.n
),
-- second pass: the gaps of the target buckets only, ranked within their bucket
ranked AS (
    SELECT g.run, g.b, g.v, row_number() OVER (PARTITION BY g.run, g.b ORDER BY g.v) - 1 AS rk_in_b
    FROM gaps AS g
    LEFT SEMI JOIN (SELECT DISTINCT run, b FROM target_buckets) AS t ON t.run = g.run AND t.b = g.b
),
gap_q AS (
    SELECT run, i,
        max(v) FILTER (WHERE side = 'lo') + (max(h) - floor(max(h)))
            * (max(v) FILTER (WHERE side = 'hi') - max(v) FILTER (WHERE side = 'lo')) AS q_ns
    FROM target_buckets AS t
    JOIN ranked AS r USING (run, b, rk_in_b)
    GROUP BY run, i
),
gap_stats AS (
    SELECT m.run, 'itl_ms' AS metric, m.n, m.mean / 1e6 AS mean, m.std / 1e6 AS std,
        m.min_v / 1e6 AS min_value, m.max_v / 1e6 AS max_value,
        array_sort(collect_list(struct(q.i, q.q_ns / 1e6 AS q))).q AS q
    FROM gap_moments AS m
    JOIN gap_q AS q USING (run)
    GROUP BY m.run, m.n, m.mean, m.std, m.min_v, m.max_v
),
stats AS (
    SELECT * FROM request_stats
    UNION ALL
    SELECT * FROM gap_stats
)
SELECT
    run,
    metric,
    'ms' AS unit,
    n AS count,
    mean,
    std,
    min_value AS min,
    max_value AS max,
    element_at(q, 1) AS p1,
    element_at(q, 2) AS p5,
    element_at(q, 3) AS p10,
    element_at(q, 4) AS p25,
    element_at(q, 5) AS p50,
    element_at(q, 6) AS p75,
    element_at(q, 7) AS p90,
    element_at(q, 8) AS p95,
    element_at(q, 9) AS p99
FROM stats
ORDER BY natural_sort_key(run), run, array_position(array('ttft_ms', 'pre_queue_ms', 'queue_ms', 'prefill_ms', 'queue_prefill_ms', 'decode_ms', 'itl_ms', 'tpot_ms', 'e2e_ms'), metric)
