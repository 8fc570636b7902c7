-- A "nice" bucket width in ns at or above x: 1, 2 or 5 times a power of ten (at least 1 ms),
-- so adaptive timelines use widths like 10 ms, 200 ms or 5 s.
-- @grain one value
-- @param x_ns The smallest acceptable width in ns.
CREATE OR REPLACE MACRO _nice_ns(x_ns) AS (
    CASE
        WHEN x_ns IS NULL OR x_ns <= 1e6 THEN 1000000
        ELSE (
            CASE
                WHEN x_ns / 10 ^ floor(log10(x_ns)) <= 1 THEN 1
                WHEN x_ns / 10 ^ floor(log10(x_ns)) <= 2 THEN 2
                WHEN x_ns / 10 ^ floor(log10(x_ns)) <= 5 THEN 5
                ELSE 10
            END * 10 ^ floor(log10(x_ns))
        )::BIGINT
    END
)
