-- How even each request's stream is: the spread of its own chunk gaps (the default ITL), so a
-- request that stalled stands out from one that was uniformly slow. Linear percentiles,
-- population std; cv is std / mean.
-- The percentiles are quantile_cont's, figure for figure (the same interpolation between the
-- sorted gaps at (n - 1) * q, in the same floating-point steps), taken from each request's gaps
-- ranked by a window sort, which spills. quantile_cont as an aggregate, or as a window function,
-- keeps every gap of a request in memory structures of its own: out of memory at 50 M tokens
-- under the default limit.
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
WITH ranked AS (
    SELECT request_key, gap_ns,
        row_number() OVER (PARTITION BY request_key ORDER BY gap_ns) - 1 AS i,
        count(*) OVER (PARTITION BY request_key) AS n
    FROM tokens
    WHERE gap_ns IS NOT NULL
),
per_request AS (
    SELECT
        request_key,
        count(*) AS gaps,
        avg(gap_ns / 1e6) AS itl_mean_ms,
        stddev_pop(gap_ns / 1e6) AS itl_std_ms,
        max(gap_ns / 1e6) AS itl_max_ms,
        -- quantile_cont's neighbours: the gaps at floor and ceil of (n - 1) * q (0-based)
        max(gap_ns) FILTER (WHERE i = floor((n - 1)::DOUBLE * 0.5)) AS p50_lo,
        max(gap_ns) FILTER (WHERE i = ceil((n - 1)::DOUBLE * 0.5)) AS p50_hi,
        max(gap_ns) FILTER (WHERE i = floor((n - 1)::DOUBLE * 0.99)) AS p99_lo,
        max(gap_ns) FILTER (WHERE i = ceil((n - 1)::DOUBLE * 0.99)) AS p99_hi
    FROM ranked
    GROUP BY request_key
),
-- quantile_cont's interpolation in doubles: lo * (1 - d) + hi * d, d the fraction of (n - 1) * q
fractions AS (
    SELECT *,
        (gaps - 1)::DOUBLE * 0.5 - floor((gaps - 1)::DOUBLE * 0.5) AS d50,
        (gaps - 1)::DOUBLE * 0.99 - floor((gaps - 1)::DOUBLE * 0.99) AS d99
    FROM per_request
),
interpolated AS (
    SELECT *,
        p50_lo::DOUBLE * (1::DOUBLE - d50) + p50_hi::DOUBLE * d50 AS p50_ns,
        p99_lo::DOUBLE * (1::DOUBLE - d99) + p99_hi::DOUBLE * d99 AS p99_ns
    FROM fractions
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
    p.p50_ns / 1e6 AS itl_p50_ms,
    p.p99_ns / 1e6 AS itl_p99_ms,
    p.itl_max_ms,
    p.itl_std_ms / nullif(p.itl_mean_ms, 0) AS itl_cv
FROM interpolated AS p
JOIN requests AS r USING (request_key)
JOIN _request_scope AS sc USING (request_key)
ORDER BY r.run, p.request_key
