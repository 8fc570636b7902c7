-- LLMPerf's figures, computed by tokentime from the canonical tables the way ray-project/llmperf
-- computes them (docs/metrics.md, "Named variants"): only requests without an error count; TTFT
-- ends at the first chunk with content; end-to-end latency runs until the stream is exhausted,
-- [DONE] included (the last chunk of any kind); ITL INCLUDES the TTFT: (TTFT + sum of the gaps) /
-- output tokens = (last content chunk - send) / N, or the value the file holds when there are no
-- chunk times; per-request output throughput is N / E2E (or the file's own value, which older
-- LLMPerf computed from chunks). Summary statistics as pandas: linear quantiles p25..p99, mean,
-- min, max and the SAMPLE standard deviation (ddof = 1). Times in seconds, as LLMPerf writes them.
-- @grain one row per run per LLMPerf metric per statistic
-- @column run [id] Run name.
-- @column metric [text] LLMPerf's name: ttft_s, inter_token_latency_s, end_to_end_latency_s, request_output_throughput_token_per_s, number_input_tokens, number_output_tokens, or a run figure (num_requests_started, number_errors, error_rate, num_completed_requests, mean_output_throughput_token_per_s, num_completed_requests_per_min).
-- @column stat [text] p25, p50, p75, p90, p95, p99, mean, min, max, stddev (as in results_ttft_s_quantiles_p50, results_ttft_s_stddev), or value for run figures.
-- @column value [unit] The figure.
-- @column unit [text] s, tokens, tokens/s, requests/min, ratio or count.
CREATE OR REPLACE VIEW llmperf_metrics AS
WITH valid AS (
    SELECT
        run,
        ttft_ms / 1e3 AS ttft_s,
        coalesce((coalesce(last_chunk_ns, finished_ns) - arrival_ns) / 1e9, e2e_ms / 1e3) AS end_to_end_latency_s,
        coalesce((last_content_ns - arrival_ns) / 1e9 / nullif(output_tokens, 0), reported_itl_ms / 1e3) AS inter_token_latency_s,
        output_tokens,
        prompt_tokens,
        reported_output_tokens_per_s
    FROM _peer_requests
    WHERE measured AND ok
),
samples AS (
    SELECT run, metric, value
    FROM (
        SELECT
            run, ttft_s, inter_token_latency_s, end_to_end_latency_s,
            coalesce(reported_output_tokens_per_s, output_tokens / nullif(end_to_end_latency_s, 0)) AS request_output_throughput_token_per_s,
            prompt_tokens::DOUBLE AS number_input_tokens,
            output_tokens::DOUBLE AS number_output_tokens
        FROM valid
    ) UNPIVOT (value FOR metric IN (ttft_s, inter_token_latency_s, end_to_end_latency_s,
        request_output_throughput_token_per_s, number_input_tokens, number_output_tokens))
),
stats AS (
    SELECT
        run, metric,
        avg(value) AS mean,
        min(value) AS min,
        max(value) AS max,
        stddev_samp(value) AS stddev,
        quantile_cont(value, [0.25, 0.50, 0.75, 0.90, 0.95, 0.99]) AS q
    FROM samples
    GROUP BY run, metric
),
per_run AS (
    SELECT
        p.run,
        count(*) AS num_requests_started,
        count(*) FILTER (WHERE NOT p.ok) AS number_errors,
        count(*) FILTER (WHERE p.ok) AS num_completed_requests,
        sum(p.output_tokens) FILTER (WHERE p.ok) AS total_output_tokens,
        any_value(u.duration_s) AS duration_s
    FROM _peer_requests AS p
    JOIN run_summary AS u USING (run)
    WHERE p.measured
    GROUP BY p.run
)
SELECT s.run, s.metric, s.stat, s.value, u.unit
FROM (
    SELECT run, metric, mean, min, max, stddev, q[1] AS p25, q[2] AS p50, q[3] AS p75, q[4] AS p90,
        q[5] AS p95, q[6] AS p99
    FROM stats
) UNPIVOT (value FOR stat IN (p25, p50, p75, p90, p95, p99, mean, min, max, stddev)) AS s
JOIN (VALUES ('ttft_s', 's'), ('inter_token_latency_s', 's'), ('end_to_end_latency_s', 's'),
    ('request_output_throughput_token_per_s', 'tokens/s'), ('number_input_tokens', 'tokens'),
    ('number_output_tokens', 'tokens')) AS u(metric, unit) USING (metric)
UNION ALL
SELECT r.run, r.metric, 'value' AS stat, r.value, u.unit
FROM (
    SELECT
        run,
        num_requests_started::DOUBLE AS num_requests_started,
        number_errors::DOUBLE AS number_errors,
        number_errors / num_requests_started AS error_rate,
        num_completed_requests::DOUBLE AS num_completed_requests,
        total_output_tokens / duration_s AS mean_output_throughput_token_per_s,
        num_completed_requests / duration_s * 60 AS num_completed_requests_per_min
    FROM per_run
) UNPIVOT (value FOR metric IN (num_requests_started, number_errors, error_rate, num_completed_requests,
    mean_output_throughput_token_per_s, num_completed_requests_per_min)) AS r
JOIN (VALUES ('num_requests_started', 'count'), ('number_errors', 'count'), ('error_rate', 'ratio'),
    ('num_completed_requests', 'count'), ('mean_output_throughput_token_per_s', 'tokens/s'),
    ('num_completed_requests_per_min', 'requests/min')) AS u(metric, unit) USING (metric)
ORDER BY 1, 2, 3
