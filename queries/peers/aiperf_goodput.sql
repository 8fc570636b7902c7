-- AIPerf's goodput of each run, for the SLOs given (NULL: no such SLO): over the records AIPerf
-- counts (ok, profiling phase), a record is good when every SLO given holds for it, the value at
-- or under the SLO (all three are smaller-is-better); a record without the value (no ITL when
-- OSL < 2) is not good; with no SLO at all no record is good, as in AIPerf. Goodput is good
-- records per second of AIPerf's benchmark duration (max(start + latency) - min(start)). SLOs in
-- ms, AIPerf's display unit.
-- @grain one row per run
-- @example SELECT * FROM aiperf_goodput(100, 50, 1000)
-- @param ttft_slo_ms time_to_first_token SLO in ms, or NULL.
-- @param itl_slo_ms inter_token_latency SLO in ms (AIPerf's per-request ITL), or NULL.
-- @param latency_slo_ms request_latency SLO in ms, or NULL.
-- @column run [id] Run name.
-- @column request_count [count] Records AIPerf counts.
-- @column good_request_count [count] Records meeting every SLO given.
-- @column benchmark_duration_s [s] AIPerf's benchmark duration.
-- @column goodput [1/s] good_request_count / benchmark_duration_s.
CREATE OR REPLACE MACRO aiperf_goodput(ttft_slo_ms, itl_slo_ms, latency_slo_ms) AS TABLE
WITH v AS (
    SELECT
        run,
        arrival_ns,
        shared_clock,
        ttft_ms,
        e2e_ms,
        CASE WHEN output_tokens >= 2 THEN (e2e_ms - ttft_ms) / (output_tokens - 1) END AS itl_ms
    FROM _peer_requests
    WHERE measured AND ok
)
SELECT
    run,
    count(*) AS request_count,
    count(*) FILTER (WHERE (ttft_slo_ms IS NOT NULL OR itl_slo_ms IS NOT NULL OR latency_slo_ms IS NOT NULL)
        AND (ttft_slo_ms IS NULL OR ttft_ms <= ttft_slo_ms)
        AND (itl_slo_ms IS NULL OR itl_ms <= itl_slo_ms)
        AND (latency_slo_ms IS NULL OR e2e_ms <= latency_slo_ms)) AS good_request_count,
    -- a span across requests needs their one clock (_peer_requests.shared_clock), as aiperf_metrics's
    CASE WHEN bool_and(shared_clock) THEN (max(arrival_ns + e2e_ms * 1e6) - min(arrival_ns)) / 1e9 END
        AS benchmark_duration_s,
    good_request_count / nullif(benchmark_duration_s, 0) AS goodput
FROM v
GROUP BY run
ORDER BY run
