-- The bucket of a gap in ns that _gap_quantiles counts gaps into: 65,536 ns wide up to about a
-- second either way (the gaps that matter for percentiles), 1,048,576 ns beyond (stalls; few).
-- Monotone (x <= y gives bucket(x) <= bucket(y)): the percentiles' order statistics can be
-- placed in buckets by counting. Integer arithmetic only, so no rounding can break the order.
-- @grain one value
-- @param x_ns A gap in ns (BIGINT); NULL gives NULL.
CREATE OR REPLACE MACRO _gap_bucket(x_ns) AS (
    CASE
        WHEN x_ns < 1073741824 AND x_ns > -1073741824 THEN x_ns // 65536
        WHEN x_ns > 0 THEN 1048576 + x_ns // 1048576
        ELSE -1048576 + x_ns // 1048576
    END
)
