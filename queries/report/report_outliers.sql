-- The slowest requests of each run, for the report's table and the points on its load timeline:
-- ok measured requests whose TTFT or E2E is at or above the run's P99 (metric_stats), the
-- per_run slowest by E2E (then TTFT, then request id) per run.
-- @example SELECT * FROM report_outliers(10)
-- @grain one row per slow request, at most per_run per run
-- @param per_run How many of each run's slowest requests.
-- @column run [id] Run.
-- @column request_id [id] The request, as the source named it.
-- @column clock_id [id] Clock of arrival_ns.
-- @column arrival_ns [ns] Arrival of the request.
-- @column ttft_ms [ms] Its TTFT.
-- @column e2e_ms [ms] Its E2E latency.
-- @column prompt_tokens [tokens] Its prompt length.
-- @column output_tokens [tokens] Its output length.
-- @column slow_ttft [bool] TTFT at or above the run's TTFT P99.
-- @column slow_e2e [bool] E2E at or above the run's E2E P99.
CREATE OR REPLACE MACRO report_outliers(per_run) AS TABLE
WITH p AS (
    SELECT run, max(p99) FILTER (WHERE metric = 'ttft_ms') AS ttft_p99,
        max(p99) FILTER (WHERE metric = 'e2e_ms') AS e2e_p99
    FROM metric_stats
    GROUP BY run
)
SELECT r.run, r.request_id, r.clock_id::BIGINT AS clock_id, r.arrival_ns::BIGINT AS arrival_ns,
    r.ttft_ms::DOUBLE AS ttft_ms, r.e2e_ms::DOUBLE AS e2e_ms, r.prompt_tokens::BIGINT AS prompt_tokens,
    r.output_tokens::BIGINT AS output_tokens, coalesce(r.ttft_ms >= p.ttft_p99, false) AS slow_ttft,
    coalesce(r.e2e_ms >= p.e2e_p99, false) AS slow_e2e
FROM request_latency AS r
JOIN p USING (run)
WHERE r.measured AND r.ok AND (r.ttft_ms >= p.ttft_p99 OR r.e2e_ms >= p.e2e_p99)
QUALIFY row_number() OVER (PARTITION BY r.run ORDER BY r.e2e_ms DESC NULLS LAST, r.ttft_ms DESC, r.request_id) <= per_run
ORDER BY natural_sort_key(r.run), r.run, r.e2e_ms DESC NULLS LAST, r.ttft_ms DESC, r.request_id
