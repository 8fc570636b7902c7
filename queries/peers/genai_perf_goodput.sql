-- genai-perf's request goodput of each run, for the SLOs given (NULL: no such SLO): a request is
-- good when its TTFT, ITL and request latency, as genai-perf defines them (genai_perf_metrics),
-- are each at or under their SLO; a request without an ITL (OSL <= 1) fails an ITL SLO. Goodput
-- is good requests per second of genai-perf's benchmark duration. SLOs are in ms, as genai-perf's
-- --goodput takes them, and compared in whole ns as it does. genai-perf zips its per-metric lists,
-- which misaligns requests once a 1-token request has no ITL; tokentime compares each request
-- with itself. Non-generative requests (embeddings, rankings) count with their latency to the last
-- response and have no TTFT or ITL, as in genai-perf's base parser. This is goodput of one run; the DistServe goodput (the highest rate at which
-- 90 % of requests meet the SLO, over a sweep) is another figure.
-- @grain one row per run
-- @example SELECT * FROM genai_perf_goodput(100, 50, 1000)
-- @param ttft_slo_ms TTFT SLO in ms, or NULL.
-- @param itl_slo_ms ITL SLO in ms (genai-perf's per-request ITL), or NULL.
-- @param latency_slo_ms Request latency SLO in ms, or NULL.
-- @column run [id] Run name.
-- @column requests [count] Requests genai-perf counts (those with a content response; every answered non-generative request).
-- @column good_requests [count] Requests meeting every SLO given.
-- @column duration_s [s] genai-perf's benchmark duration: first send to last content response (last response of a non-generative request).
-- @column goodput [1/s] good_requests / duration_s.
CREATE OR REPLACE MACRO genai_perf_goodput(ttft_slo_ms, itl_slo_ms, latency_slo_ms) AS TABLE
WITH r AS (
    SELECT
        run,
        arrival_ns,
        non_generative,
        CASE WHEN non_generative THEN NULL
            WHEN service_kind IN ('triton', 'triton_c_api') THEN first_chunk_ns ELSE first_content_ns END AS g_first,
        CASE WHEN service_kind IN ('triton', 'triton_c_api') OR non_generative THEN last_chunk_ns ELSE last_content_ns END AS g_last,
        CASE WHEN service_kind IN ('triton', 'triton_c_api') THEN chunks ELSE content_chunks END AS g_responses,
        output_tokens,
        shared_clock
    FROM _peer_requests
    WHERE measured
),
v AS (
    SELECT
        run, arrival_ns, shared_clock, g_last,
        g_first - arrival_ns AS ttft_ns,
        g_last - arrival_ns AS latency_ns,
        CASE WHEN output_tokens > 1 AND g_responses > 1
            THEN round_even((g_last - g_first) / (output_tokens - 1), 0) END AS itl_ns
    FROM r
    WHERE (g_first IS NOT NULL OR non_generative AND g_last IS NOT NULL) AND arrival_ns IS NOT NULL
)
SELECT
    run,
    count(*) AS requests,
    count(*) FILTER (WHERE (ttft_slo_ms IS NOT NULL OR itl_slo_ms IS NOT NULL OR latency_slo_ms IS NOT NULL)
        AND (ttft_slo_ms IS NULL OR ttft_ns <= ttft_slo_ms * 1e6)
        AND (itl_slo_ms IS NULL OR itl_ns <= itl_slo_ms * 1e6)
        AND (latency_slo_ms IS NULL OR latency_ns <= latency_slo_ms * 1e6)) AS good_requests,
    -- a span across requests needs their one clock (_peer_requests.shared_clock)
    CASE WHEN bool_and(shared_clock) THEN (max(g_last) - min(arrival_ns)) / 1e9 END AS duration_s,
    good_requests / nullif(duration_s, 0) AS goodput
FROM v
GROUP BY run
ORDER BY run
