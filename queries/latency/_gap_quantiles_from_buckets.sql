-- Exact percentiles of the pooled chunk gaps of each run, from every gap, in memory that does not
-- grow with the number of gaps; the first pass (counts per bucket) is read from the table or view
-- buckets_from (_gap_buckets' rows: _gap_quantiles_live passes the view itself, the derive step a
-- copy of it). Readers call _gap_quantiles, which takes the chunk_gap figures of the default scope
-- from _gap_stats and comes here otherwise.
-- DuckDB's quantile_cont keeps every value of a group in memory, outside its
-- memory_limit: 8 bytes a gap plus the growth of its buffer, about 1.2 GB of RSS at 50 M gaps,
-- 3.9 GB at a day's 200 M. Here the gaps are first counted per bucket of 65 µs
-- (_gap_buckets; hash aggregates, which DuckDB can spill), which places each percentile's two
-- neighbouring order statistics in a bucket; only the values of those few buckets are then
-- counted one by one (_bucket_quantiles). The result is the same as
-- quantile_cont's: linear interpolation between order statistics (numpy's default), at
-- rank (n - 1) * p.
-- chunk_gap is over gap_ns, given in ms; per_token over gap_per_token_ms. Mean, standard
-- deviation, min and max are combined from the buckets' own, so the gaps are read twice in all.
-- @grain one row per run with at least one gap
-- @param which The variant: 'chunk_gap' or 'per_token'.
-- @param buckets_from Name of a table or view with _gap_buckets' columns: _gap_buckets itself, or a
-- copy of some of its rows.
-- @column run [id] Run name.
-- @column variant [text] chunk_gap or per_token (token_gaps' gap_ns or gap_per_token_ms).
-- @column n [count] Gaps the statistics are over (measured, ok requests).
-- @column mean_ms [ms] Mean.
-- @column std_ms [ms] Population standard deviation.
-- @column min_ms [ms] Smallest gap.
-- @column max_ms [ms] Largest gap.
-- @column q [ms] Percentiles p1, p5, p10, p25, p50, p75, p90, p95, p99, in that order.
-- @column q_tails [ms] Percentiles p0.1 and p99.9 (inference-perf's), in that order.
CREATE OR REPLACE MACRO _gap_quantiles_from_buckets(which, buckets_from) AS TABLE
WITH buckets AS (
    SELECT * FROM query_table(buckets_from) WHERE variant = which
),
-- the run's moments from its buckets' (Chan et al.'s pairwise combination: as stable as one
-- pass of Welford's, and no second scan of the gaps)
totals AS (
    SELECT run, variant, sum(n) AS n, sum(n * mean_b) / sum(n) AS mean, min(min_b) AS min_v, max(max_b) AS max_v
    FROM buckets
    GROUP BY run, variant
),
moments AS (
    SELECT t.run, t.variant, t.n, t.mean, t.min_v, t.max_v,
        sqrt((sum(b.m2_b) + sum(b.n * (b.mean_b - t.mean) ^ 2)) / t.n) AS std
    FROM totals AS t
    JOIN buckets AS b USING (run, variant)
    GROUP BY t.run, t.variant, t.n, t.mean, t.min_v, t.max_v
),
-- the percentiles' two passes (_bucket_quantiles): the counts per bucket above, then the gaps of
-- the few buckets the percentiles fall in, read where used
gap_counts AS (
    SELECT run, variant AS metric, b, n FROM buckets
),
gap_values AS NOT MATERIALIZED (
    SELECT run, which AS metric, v, b FROM _gap_values(which)
)
SELECT
    r.run,
    r.variant,
    r.n,
    r.mean / u.per_ms AS mean_ms,
    r.std / u.per_ms AS std_ms,
    r.min_v / u.per_ms AS min_ms,
    r.max_v / u.per_ms AS max_ms,
    list_transform(q.q[1:9], x -> x / u.per_ms) AS q,
    list_transform(q.q[10:11], x -> x / u.per_ms) AS q_tails
FROM moments AS r
CROSS JOIN (SELECT CASE which WHEN 'chunk_gap' THEN 1e6 ELSE 1 END AS per_ms) AS u
-- the two tails in the same pass: a few more target buckets, no other scan of the gaps
JOIN _bucket_quantiles('gap_counts', 'gap_values',
    ps := [0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99, 0.001, 0.999]) AS q
    ON q.run = r.run AND q.metric = r.variant
