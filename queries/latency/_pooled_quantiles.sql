-- Exact linear percentiles (quantile_cont's) of many values in ms pooled per run and metric, in
-- memory that does not grow with their number (_bucket_quantiles, over buckets of 65 µs of the
-- values' whole ns). For the peer views' pooled chunk gaps, where quantile_cont held every gap in
-- memory (50 M tokens: 1.5-2.0 GB of RSS, and out of DuckDB's memory inside peer_comparison).
-- @grain one row per run and metric with values
-- @param values_from Name of a table, view or the caller's CTE with columns run, metric and v (ms;
-- NULLs ignored).
-- @param ps The percentiles' probabilities, in the order of q (default as _bucket_quantiles').
-- @column run [id] Run name.
-- @column metric [text] The values' metric.
-- @column q [ms] Percentiles at ps (p1, p5, p10, p25, p50, p75, p90, p95, p99 by default), in that order.
CREATE OR REPLACE MACRO _pooled_quantiles(values_from,
    ps := [0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99]) AS TABLE
-- read where used (twice), not held
WITH pooled_values AS NOT MATERIALIZED (
    SELECT * FROM _pooled_values(values_from)
),
pooled_counts AS (
    SELECT run, metric, b, count(*) AS n FROM pooled_values GROUP BY run, metric, b
)
SELECT * FROM _bucket_quantiles('pooled_counts', 'pooled_values', ps := ps)
