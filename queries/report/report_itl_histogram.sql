-- The report's ITL histogram and CDF: itl_histogram's buckets with a width that suits each run
-- (the nice number at or above P99 x 1.6 / 40, from metric_stats; the largest gap / 40 when the
-- P99 is 0), and every bucket from 40 widths on folded into one, so one 30-second stall does not
-- make thousands of empty buckets. Chunk gaps of ok measured requests, as itl_histogram.
-- @grain one row per run per bucket (buckets at or past 40 widths: one row)
-- @column run [id] Run name.
-- @column lo_ms [ms] Lower edge of the bucket (included); of the folded bucket: 40 widths.
-- @column hi_ms [ms] Upper edge of the bucket (excluded); of the folded bucket: past the largest gap.
-- @column count [count] Gaps in the bucket.
-- @column share [ratio] count / all gaps of the run.
-- @column cumulative_share [ratio] Share of the run's gaps below hi_ms (the CDF).
-- @column folded [bool] The bucket holds everything from 40 widths on.
-- @column width_ms [ms] The run's bucket width.
CREATE OR REPLACE VIEW report_itl_histogram AS
WITH w AS (
    SELECT run,
        _nice_number(CASE WHEN p99 > 0 THEN p99 * 1.6 WHEN max > 0 THEN max ELSE 1 END / 40) AS width_ms
    FROM metric_stats
    WHERE metric = 'itl_ms' AND count > 0
),
g AS (
    SELECT t.run, floor(t.gap_ms / w.width_ms)::BIGINT AS b
    FROM token_gaps AS t
    JOIN w USING (run)
    WHERE t.measured AND t.ok
),
counts AS (
    SELECT run, b, count(*) AS c
    FROM g GROUP BY run, b
),
bounds AS (
    SELECT run, min(b) AS b0, max(b) AS b1, sum(c) AS n
    FROM counts GROUP BY run
),
buckets AS (
    SELECT run, n, unnest(range(b0, b1 + 1)) AS b
    FROM bounds
),
h AS (
    SELECT
        k.run,
        w.width_ms,
        k.b * w.width_ms AS lo_ms,
        (k.b + 1) * w.width_ms AS hi_ms,
        coalesce(c.c, 0) AS count,
        coalesce(c.c, 0) / k.n AS share,
        sum(coalesce(c.c, 0)) OVER (PARTITION BY k.run ORDER BY k.b) / k.n AS cumulative_share
    FROM buckets AS k
    JOIN w USING (run)
    LEFT JOIN counts AS c USING (run, b)
)
SELECT
    run,
    (CASE WHEN lo_ms >= width_ms * 40 THEN width_ms * 40 ELSE lo_ms END)::DOUBLE AS lo_ms,
    max(hi_ms)::DOUBLE AS hi_ms,
    sum(count)::BIGINT AS count,
    sum(share)::DOUBLE AS share,
    max(cumulative_share)::DOUBLE AS cumulative_share,
    bool_or(lo_ms >= width_ms * 40) AS folded,
    any_value(width_ms)::DOUBLE AS width_ms
FROM h
GROUP BY run, 2
ORDER BY natural_sort_key(run), run, 2
