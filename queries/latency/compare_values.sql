-- What `tokentime compare` reads of each metric of one side: count, mean and p50/p95/p99 over
-- every value, and a reproducible sample of at most `size` of them for the bootstrap
-- (value_sample: the same rows whenever the keys are the same). The percentiles are exact
-- (linear interpolation between order statistics, numpy's default) and computed in memory that
-- does not grow with the number of values (_pooled_quantiles); so no value but the sample leaves
-- DuckDB. Usable on any values: a relation of metric, v and k.
-- @example WITH s AS (SELECT 'side' AS run, 'ttft_ms' AS metric, ttft_ms AS v, request_key AS k FROM request_latency) SELECT * FROM compare_values('s', 100, 1)
-- @grain one row per metric with values
-- @param values_from Name of a relation (table, view or the caller's CTE) with columns run (any constant), metric, v (a value in ms; NULLs ignored) and k (a key unique per row).
-- @param size Most values sampled per metric (a constant).
-- @param seed Mixed into the sample's hash: another seed draws another sample.
-- @column metric [text] The values' metric.
-- @column n [count] Values (non-NULL).
-- @column mean [ms] Their mean (of each value rounded to 9 decimals).
-- @column p50 [ms] Median.
-- @column p95 [ms] 95th percentile.
-- @column p99 [ms] 99th percentile.
-- @column sample [ms] The sampled values, ascending: every value when n <= size.
CREATE OR REPLACE MACRO compare_values(values_from, size, seed) AS TABLE
SELECT s.metric, s.n, s.mean, q.q[5] AS p50, q.q[8] AS p95, q.q[9] AS p99, s.sample
FROM value_sample(values_from, size, seed) AS s
LEFT JOIN _pooled_quantiles(values_from) AS q USING (metric)
