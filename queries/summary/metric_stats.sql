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
    ) UNPIVOT (value FOR metric IN (ttft_ms, pre_queue_ms, queue_ms, prefill_ms, queue_prefill_ms, decode_ms,
        tpot_ms, e2e_ms))
),
-- the pooled chunk gaps are the many values: their statistics come from _gap_quantiles (exact
-- percentiles in bounded memory; quantile_cont would hold every gap in memory)
stats AS (
    SELECT
        run,
        metric,
        count(value) AS n,
        avg(value) AS mean,
        stddev_pop(value) AS std,
        min(value) AS min_value,
        max(value) AS max_value,
        quantile_cont(value, [0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99]) AS q
    FROM per_request
    GROUP BY run, metric
    UNION ALL
    SELECT run, 'itl_ms', n, mean_ms, std_ms, min_ms, max_ms, q
    FROM _gap_quantiles('chunk_gap')
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
    q[1] AS p1,
    q[2] AS p5,
    q[3] AS p10,
    q[4] AS p25,
    q[5] AS p50,
    q[6] AS p75,
    q[7] AS p90,
    q[8] AS p95,
    q[9] AS p99
FROM stats
ORDER BY natural_sort_key(run), run, list_position(['ttft_ms', 'pre_queue_ms', 'queue_ms', 'prefill_ms', 'queue_prefill_ms', 'decode_ms', 'itl_ms', 'tpot_ms', 'e2e_ms'], metric)
