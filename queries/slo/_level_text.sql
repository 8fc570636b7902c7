-- A level as text without a trailing ".0": a concurrency of 4 reads "4", a rate of 1.5 "1.5".
-- @grain one value
-- @param x The level (DOUBLE).
CREATE OR REPLACE MACRO _level_text(x) AS (
    regexp_replace(x::DOUBLE::VARCHAR, '\.0$', '')
);
