-- A reproducible sample of each metric's values for a bootstrap, with their count and mean: at
-- most `size` values per metric, those of the rows with the smallest hash of (k, seed), which is
-- a uniform sample without replacement (bottom-k). The same keys give the same rows, so a run
-- compared with itself resamples the same values. One pass, in memory that does not grow with
-- the number of values (arg_min keeps `size` values per metric). compare reads it (with
-- compare_values), where streaming every pooled chunk gap to Java and sorting them was most of its
-- time at a day's scale.
-- @example WITH s AS (SELECT 'itl_ms' AS metric, gap_ms AS v, hash(request_key, seq) AS k FROM token_gaps) SELECT * FROM value_sample('s', 100, 1)
-- @grain one row per metric with values
-- @param values_from Name of a relation (table, view or the caller's CTE) with columns metric, v (a value; NULLs ignored) and k (a key unique per row, of any type hash takes).
-- @param size Most values kept per metric (a constant).
-- @param seed Mixed into the hash: another seed draws another sample.
-- @column metric [text] The values' metric.
-- @column n [count] Values (non-NULL).
-- @column mean [unit of v] Their mean (of each value rounded to 9 decimals).
-- @column sample [unit of v] The sampled values, ascending: every value when n <= size.
CREATE OR REPLACE MACRO value_sample(values_from, size, seed) AS TABLE
-- the mean from an exact sum (each value to the picosecond of a ms): a sum of doubles in parallel
-- differs in its last digits from one run to the next
SELECT metric, count(v) AS n, sum(v::DECIMAL(38, 9))::DOUBLE / count(v) AS mean, list_sort(arg_min(v, hash(k, seed), size)) AS sample
FROM query_table(values_from)
WHERE v IS NOT NULL
GROUP BY metric
