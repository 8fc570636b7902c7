-- The gaps _gap_buckets and _gap_quantiles_from_buckets take percentiles of, with the bucket each
-- falls in: chunk_gap in integer ns (token_gaps.gap_ns), per_token in ms
-- (token_gaps.gap_per_token_ms, bucketed by its value in whole ns). A macro, so each of its two readers scans token_gaps anew instead of
-- sharing a copy of every gap; `which` is a constant, so each row carries one value and no name.
-- @grain one row per chunk gap of a measured, ok request
-- @param which The variant: 'chunk_gap' or 'per_token'.
-- @column run [id] Run name.
-- @column v [ns or ms] The gap: ns for chunk_gap, ms for per_token.
-- @column b [id] _gap_bucket of the gap in whole ns.
CREATE OR REPLACE MACRO _gap_values(which) AS TABLE
SELECT
    run,
    CASE WHEN which = 'chunk_gap' THEN gap_ns::DOUBLE ELSE gap_per_token_ms END AS v,
    _gap_bucket(CASE WHEN which = 'chunk_gap' THEN gap_ns ELSE round(gap_per_token_ms * 1e6)::BIGINT END) AS b
FROM token_gaps
WHERE measured AND ok
