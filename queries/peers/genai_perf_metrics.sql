-- genai-perf's figures, computed by tokentime from the canonical tables the way genai-perf's
-- llm_profile_data_parser computes them (docs/metrics.md, "Named variants"): a request counts
-- when it has a content response (for Triton and the C API every response counts, as genai-perf
-- keeps them as they are); request latency ends at the last content response; ITL is per request
-- round-half-to-even((latency - TTFT) / (OSL - 1)) in whole ns, only when OSL > 1 and there is
-- more than one response; output token throughput per user is 1 / ITL; duration runs from the
-- first send to the last content response of the counted requests, and request throughput
-- divides ALL requests of the run (failed and empty ones too) by it. Non-generative requests
-- (embeddings, rankings: _peer_requests.non_generative) count as genai-perf's base parser counts
-- them: every response, latency to the last one, and no token figures. Statistics as numpy:
-- mean, linear percentiles, population std. Times in ms, as genai-perf exports them.
-- @grain one row per run per genai-perf metric per statistic
-- @column run [id] Run name.
-- @column metric [text] genai-perf's metric key (time_to_first_token, inter_token_latency, request_throughput, ...).
-- @column stat [text] avg, min, max, std, p1 ... p99 as genai-perf names them (run-level figures: avg only).
-- @column value [unit] The figure.
-- @column unit [text] ms, tokens, tokens/sec, tokens/sec/user, requests/sec or count.
CREATE OR REPLACE VIEW genai_perf_metrics AS
WITH r AS (
    SELECT
        *,
        service_kind IN ('triton', 'triton_c_api') AS keeps_all,
        -- a non-generative request has no first token: only its last response counts
        CASE WHEN non_generative THEN NULL
            WHEN service_kind IN ('triton', 'triton_c_api') THEN first_chunk_ns ELSE first_content_ns END AS g_first,
        CASE WHEN non_generative THEN NULL
            WHEN service_kind IN ('triton', 'triton_c_api') THEN second_chunk_ns ELSE second_content_ns END AS g_second,
        CASE WHEN service_kind IN ('triton', 'triton_c_api') OR non_generative THEN last_chunk_ns ELSE last_content_ns END AS g_last,
        CASE WHEN service_kind IN ('triton', 'triton_c_api') THEN chunks ELSE content_chunks END AS g_responses
    FROM _peer_requests
    WHERE measured
),
valid AS (
    SELECT
        run,
        arrival_ns,
        shared_clock,
        g_last,
        CASE WHEN NOT non_generative THEN output_tokens END AS osl,
        CASE WHEN NOT non_generative THEN prompt_tokens END AS isl,
        (g_last - arrival_ns) / 1e6 AS request_latency,
        (g_first - arrival_ns) / 1e6 AS time_to_first_token,
        CASE WHEN g_responses > 1 THEN (g_second - g_first) / 1e6 END AS time_to_second_token,
        CASE WHEN output_tokens > 1 AND g_responses > 1
            THEN round_even((g_last - g_first) / (output_tokens - 1), 0) END AS itl_ns
    FROM r
    WHERE (g_first IS NOT NULL OR non_generative AND g_last IS NOT NULL) AND arrival_ns IS NOT NULL
),
samples AS (
    SELECT run, metric, unit, value
    FROM (
        SELECT
            run,
            request_latency,
            time_to_first_token,
            time_to_second_token,
            itl_ns / 1e6 AS inter_token_latency,
            CASE WHEN itl_ns > 0 THEN 1 / (itl_ns / 1e9) END AS output_token_throughput_per_user,
            osl / (request_latency / 1e3) AS output_token_throughput_per_request,
            osl::DOUBLE AS output_sequence_length,
            isl::DOUBLE AS input_sequence_length
        FROM valid
    ) UNPIVOT (value FOR metric IN (request_latency, time_to_first_token, time_to_second_token,
        inter_token_latency, output_token_throughput_per_user, output_token_throughput_per_request,
        output_sequence_length, input_sequence_length))
    JOIN (VALUES ('request_latency', 'ms'), ('time_to_first_token', 'ms'), ('time_to_second_token', 'ms'),
        ('inter_token_latency', 'ms'), ('output_token_throughput_per_user', 'tokens/sec/user'),
        ('output_token_throughput_per_request', 'tokens/sec'),
        ('output_sequence_length', 'tokens'), ('input_sequence_length', 'tokens')) AS u(metric, unit) USING (metric)
),
stats AS (
    SELECT
        run, metric, unit,
        avg(value) AS avg,
        min(value) AS min,
        max(value) AS max,
        stddev_pop(value) AS std,
        quantile_cont(value, [0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99]) AS q
    FROM samples
    GROUP BY run, metric, unit
),
per_run AS (
    SELECT
        a.run,
        a.requests,
        v.request_count,
        v.total_osl,
        (v.last_ns - v.first_ns) / 1e9 AS duration_s
    FROM (SELECT run, count(*) AS requests FROM r GROUP BY run) AS a
    JOIN (
        SELECT run, count(*) AS request_count, sum(osl) AS total_osl,
            -- a span across requests needs their one clock (_peer_requests.shared_clock)
            CASE WHEN bool_and(shared_clock) THEN min(arrival_ns) END AS first_ns, max(g_last) AS last_ns
        FROM valid GROUP BY run
    ) AS v USING (run)
)
SELECT run, metric, stat, value, unit
FROM (
    SELECT run, metric, unit, avg, min, max, std, q[1] AS p1, q[2] AS p5, q[3] AS p10, q[4] AS p25,
        q[5] AS p50, q[6] AS p75, q[7] AS p90, q[8] AS p95, q[9] AS p99
    FROM stats
) UNPIVOT (value FOR stat IN (avg, min, max, std, p1, p5, p10, p25, p50, p75, p90, p95, p99))
UNION ALL
SELECT run, metric, 'avg' AS stat, value, unit
FROM (
    SELECT run,
        CASE WHEN duration_s > 0 THEN requests / duration_s END AS request_throughput,
        CASE WHEN duration_s > 0 THEN total_osl / duration_s END AS output_token_throughput,
        request_count::DOUBLE AS request_count
    FROM per_run
) UNPIVOT (value FOR metric IN (request_throughput, output_token_throughput, request_count))
JOIN (VALUES ('request_throughput', 'requests/sec'), ('output_token_throughput', 'tokens/sec'),
    ('request_count', 'count')) AS u(metric, unit) USING (metric)
ORDER BY run, metric, stat
