-- The smallest 1, 2 or 5 x 10^k at or above v (v > 0; 1 otherwise), as an exact decimal, so
-- that bucket edges k x width are exact too (0.2, not 0.2000000000000000111). A tolerance of
-- 1e-9 of v keeps a v that is a nice number up to rounding at itself. Unlike _nice_ns (timeline
-- widths in ns, at least 1 ms) it goes below 1: chunk gaps are often under a millisecond.
-- @grain one value
-- @param v The smallest acceptable value.
CREATE OR REPLACE MACRO _nice_number(v) AS (
    CASE
        WHEN v IS NULL OR NOT (v > 0) THEN 1::DECIMAL(38, 12)
        ELSE ((
            CASE
                WHEN 10 ^ floor(log10(v)) >= v * (1 - 1e-9) THEN '1'
                WHEN 2 * 10 ^ floor(log10(v)) >= v * (1 - 1e-9) THEN '2'
                WHEN 5 * 10 ^ floor(log10(v)) >= v * (1 - 1e-9) THEN '5'
                ELSE '10'
            END || 'e' || floor(log10(v))::BIGINT::VARCHAR
        )::DOUBLE)::DECIMAL(38, 12)
    END
)
