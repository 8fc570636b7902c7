-- How even each request's stream is: the spread of its own chunk gaps (the default ITL), so a
-- request that stalled stands out from one that was uniformly slow. Linear percentiles,
-- population std; cv is std / mean.
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
SELECT
    g.run,
    g.request_key,
    any_value(r.request_id) AS request_id,
    any_value(g.measured) AS measured,
    any_value(g.ok) AS ok,
    count(*) AS gaps,
    avg(g.gap_ms) AS itl_mean_ms,
    stddev_pop(g.gap_ms) AS itl_std_ms,
    quantile_cont(g.gap_ns, 0.5) / 1e6 AS itl_p50_ms,
    quantile_cont(g.gap_ns, 0.99) / 1e6 AS itl_p99_ms,
    max(g.gap_ms) AS itl_max_ms,
    stddev_pop(g.gap_ms) / nullif(avg(g.gap_ms), 0) AS itl_cv
FROM token_gaps AS g
JOIN requests AS r USING (request_key)
GROUP BY g.run, g.request_key
ORDER BY g.run, g.request_key
