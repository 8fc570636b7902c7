-- The gaps _gap_quantiles takes percentiles of, with the bucket each falls in: chunk_gap in
-- integer ns (token_gaps.gap_ns), per_token in ms (token_gaps.gap_per_token_ms, bucketed by its
-- value in whole ns). A view, so each of its two readers scans token_gaps anew instead of
-- holding a copy of every gap.
-- @grain one row per chunk gap of a measured, ok request, per variant
-- @column run [id] Run name.
-- @column variant [text] chunk_gap or per_token.
-- @column v [ns or ms] The gap: ns for chunk_gap, ms for per_token.
-- @column b [id] _sig_bucket of the gap in whole ns.
CREATE OR REPLACE VIEW _gap_values AS
SELECT run, 'chunk_gap' AS variant, gap_ns::DOUBLE AS v, _sig_bucket(gap_ns) AS b
FROM token_gaps
WHERE measured AND ok
UNION ALL
SELECT run, 'per_token', gap_per_token_ms, _sig_bucket(round(gap_per_token_ms * 1e6)::BIGINT)
FROM token_gaps
WHERE measured AND ok
