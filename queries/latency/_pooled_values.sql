-- Values pooled for exact percentiles in bounded memory, with the bucket each falls in: the rows of
-- the table or view values_from, each value (ms) bucketed by its whole ns as _gap_bucket buckets
-- gaps. A macro, so each of its two readers scans values_from anew.
-- @grain one row per non-NULL value of values_from
-- @param values_from Name of a table or view with columns run, metric and v (ms).
-- @column run [id] Run name.
-- @column metric [text] The value's metric.
-- @column v [ms] The value.
-- @column b [id] _gap_bucket of the value in whole ns.
CREATE OR REPLACE MACRO _pooled_values(values_from) AS TABLE
SELECT run, metric, v, _gap_bucket(round(v * 1e6)::BIGINT) AS b
FROM query_table(values_from)
WHERE v IS NOT NULL
