-- The first pass of _gap_quantiles_from_buckets: the pooled gaps of each run counted per bucket of
-- _gap_bucket (65 µs up to about a second), with each bucket's mean, sum of squared deviations,
-- min and max, for both variants (a filter on variant keeps one branch: the variant is a literal).
-- A view, so that a caller can copy the few rows into a table first (GapStats does): DuckDB ran
-- the same join of every gap with its request several times slower inside the full percentile
-- query at a day's scale, under the 500 MB memory limit.
-- @grain one row per run, variant and bucket with gaps
-- @column run [id] Run name.
-- @column variant [text] chunk_gap (token_gaps.gap_ns, ns) or per_token (gap_per_token_ms, ms).
-- @column b [id] _gap_bucket of the gaps.
-- @column n [count] Gaps in the bucket.
-- @column mean_b [ns or ms] Their mean.
-- @column m2_b [ns² or ms²] Sum of their squared deviations from mean_b.
-- @column min_b [ns or ms] Smallest gap in the bucket.
-- @column max_b [ns or ms] Largest gap in the bucket.
CREATE OR REPLACE VIEW _gap_buckets AS
SELECT run, variant, b, count(*) AS n, avg(v) AS mean_b, var_pop(v) * count(*) AS m2_b,
    min(v) AS min_b, max(v) AS max_b
FROM (
    SELECT 'chunk_gap' AS variant, * FROM _gap_values('chunk_gap')
    UNION ALL
    SELECT 'per_token' AS variant, * FROM _gap_values('per_token')
)
GROUP BY run, variant, b
