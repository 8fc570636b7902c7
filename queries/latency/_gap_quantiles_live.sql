-- Exact percentiles, mean, standard deviation, min and max of the pooled chunk gaps of each run,
-- computed from every gap (_gap_quantiles_from_buckets over the view _gap_buckets). Readers call
-- _gap_quantiles, which takes the chunk_gap figures of the default scope from what the derive
-- step kept (_gap_stats) and comes here otherwise.
-- @grain one row per run with at least one gap
-- @param which The variant: 'chunk_gap' or 'per_token'.
-- @column run [id] Run name.
-- @column variant [text] chunk_gap or per_token (token_gaps' gap_ns or gap_per_token_ms).
-- @column n [count] Gaps the statistics are over (measured, ok requests).
-- @column mean_ms [ms] Mean.
-- @column std_ms [ms] Population standard deviation.
-- @column min_ms [ms] Smallest gap.
-- @column max_ms [ms] Largest gap.
-- @column q [ms] Percentiles p1, p5, p10, p25, p50, p75, p90, p95, p99, in that order.
-- @column q_tails [ms] Percentiles p0.1 and p99.9, in that order.
CREATE OR REPLACE MACRO _gap_quantiles_live(which) AS TABLE
SELECT * FROM _gap_quantiles_from_buckets(which, '_gap_buckets')
