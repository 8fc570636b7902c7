-- A bucket of an integer by its leading four significant digits: x itself below 10^4, else
-- digits * 10^4 + the first four digits (x = 36227430 is in bucket 83622: 8 digits, 3622...).
-- Monotone (x <= y gives bucket(x) <= bucket(y)) and at most 0.1 % wide: _gap_quantiles counts
-- values into these buckets before it looks at the few its percentiles fall in. Integer
-- arithmetic only, so no rounding can break the order.
-- @grain one value
-- @param x An integer (BIGINT); NULL gives NULL.
CREATE OR REPLACE MACRO _sig_bucket(x) AS (
    CASE
        WHEN x < 10000 THEN x
        WHEN x < 100000 THEN 50000 + x // 10
        WHEN x < 1000000 THEN 60000 + x // 100
        WHEN x < 10000000 THEN 70000 + x // 1000
        WHEN x < 100000000 THEN 80000 + x // 10000
        WHEN x < 1000000000 THEN 90000 + x // 100000
        WHEN x < 10000000000 THEN 100000 + x // 1000000
        WHEN x < 100000000000 THEN 110000 + x // 10000000
        WHEN x < 1000000000000 THEN 120000 + x // 100000000
        WHEN x < 10000000000000 THEN 130000 + x // 1000000000
        WHEN x < 100000000000000 THEN 140000 + x // 10000000000
        WHEN x < 1000000000000000 THEN 150000 + x // 100000000000
        WHEN x < 10000000000000000 THEN 160000 + x // 1000000000000
        WHEN x < 100000000000000000 THEN 170000 + x // 10000000000000
        WHEN x < 1000000000000000000 THEN 180000 + x // 100000000000000
        ELSE 190000 + x // 1000000000000000
    END
)
