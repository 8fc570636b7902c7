-- How even each request's stream is: the spread of its own chunk gaps (the default ITL), so a
-- request that stalled stands out from one that was uniformly slow. Linear percentiles,
-- population std; cv is std / mean.
-- The percentiles come from a window partitioned by request, which DuckDB sorts and works through
-- one request at a time, in memory it manages (it spills); quantile_cont as an aggregate kept
-- every gap of every request in memory at once, outside the memory limit, over the memory target
-- from 50 M tokens; the window takes about twice the time and stays under it.
-- @grain one row per request with at least two content chunks
-- @column run [id] Run.
-- @column request_key [id] The request.
-- @column request_id [id] Its id.
-- @column measured [bool] Counted by the analysis (not warm-up, inside the window).
-- @column ok [bool] Status ok or unknown.
-- @column gaps [count] Chunk gaps of the request.
-- @column itl_mean_ms [ms] Mean gap.
-- @column itl_std_ms [ms] Population standard deviation of the gaps.
-- @column itl_p50_ms [ms] Median gap.
-- @column itl_p99_ms [ms] 99th percentile gap.
-- @column itl_max_ms [ms] Largest gap.
-- @column itl_cv [ratio] itl_std_ms / itl_mean_ms.
CREATE OR REPLACE VIEW itl_per_request AS
WITH gaps AS (
    SELECT request_key, gap_ns,
        quantile_cont(gap_ns, 0.5) OVER w AS p50_ns,
        quantile_cont(gap_ns, 0.99) OVER w AS p99_ns
    FROM tokens
    WHERE gap_ns IS NOT NULL
    WINDOW w AS (PARTITION BY request_key)
),
-- gap_ns / 1e6 is token_gaps.gap_ms
per_request AS (
    SELECT
        request_key,
        count(*) AS gaps,
        avg(gap_ns / 1e6) AS itl_mean_ms,
        stddev_pop(gap_ns / 1e6) AS itl_std_ms,
        any_value(p50_ns) / 1e6 AS itl_p50_ms,
        any_value(p99_ns) / 1e6 AS itl_p99_ms,
        max(gap_ns / 1e6) AS itl_max_ms
    FROM gaps
    GROUP BY request_key
)
SELECT
    r.run,
    p.request_key,
    r.request_id,
    sc.measured,
    sc.ok,
    p.gaps,
    p.itl_mean_ms,
    p.itl_std_ms,
    p.itl_p50_ms,
    p.itl_p99_ms,
    p.itl_max_ms,
    p.itl_std_ms / nullif(p.itl_mean_ms, 0) AS itl_cv
FROM per_request AS p
JOIN requests AS r USING (request_key)
JOIN _request_scope AS sc USING (request_key)
ORDER BY r.run, p.request_key
