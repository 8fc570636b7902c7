-- genai-bench's figures, computed by tokentime from the canonical tables the way
-- sgl-project/genai-bench computes them (docs/metrics.md, "Named variants";
-- genai_bench/metrics/request_metrics_collector.py and aggregated_metrics_collector.py): only
-- requests without an error count; TTFT ends at the first chunk with content or reasoning; E2E
-- latency ends where genai-bench stops reading: at the usage-only chunk when the stream carries one
-- (it stops there, before [DONE]), else at the end of the stream, [DONE] included (the last chunk of
-- any kind); output_latency = E2E - TTFT; TPOT = output_latency / (output tokens - 1) for requests
-- with more than one output token, left out when output_latency < 1 ms (genai-bench's filter),
-- output_inference_speed = 1 / TPOT; output_throughput = (output tokens - 1) / output_latency (not
-- filtered); input_throughput = input tokens / TTFT. A genai-bench run file's own requests (no
-- timestamps) keep the file's TPOT, inference speed and throughputs (null where the tool filtered
-- them; its 2024 files divided by the output tokens, not by output tokens - 1). Statistics
-- as numpy: mean, min, max, sum, POPULATION standard deviation, linear percentiles p25..p99. Run
-- figures divide by genai-bench's run_duration when its file reported one, else by tokentime's
-- window; requests_per_second counts every completed request, num_requests failed ones too.
-- Times in seconds, as genai-bench writes them by default.
-- @grain one row per run per genai-bench metric per statistic
-- @column run [id] Run name.
-- @column metric [text] genai-bench's name: ttft, tpot, e2e_latency, output_latency, output_inference_speed, input_throughput, output_throughput, num_input_tokens, num_output_tokens, total_tokens (statistics, as aggregated_metrics.stats), or a run figure (run_duration, mean_output_throughput_tokens_per_s, mean_input_throughput_tokens_per_s, mean_total_tokens_throughput_tokens_per_s, requests_per_second, num_completed_requests, num_error_requests, num_requests, error_rate).
-- @column stat [text] min, max, mean, stddev, sum, p25, p50, p75, p90, p95, p99 (as in stats.ttft.p50), or value for run figures.
-- @column value [unit] The figure.
-- @column unit [text] s, tokens/s, tokens, requests/s, requests or ratio.
CREATE OR REPLACE VIEW genai_bench_metrics AS
WITH counted AS (
    SELECT p.*, q.tpot_ms AS file_tpot_ms,
        TRY_CAST(q.extras['output_inference_speed'] AS DOUBLE) AS file_speed,
        TRY_CAST(q.extras['output_throughput'] AS DOUBLE) AS file_output_throughput,
        TRY_CAST(q.extras['input_throughput'] AS DOUBLE) AS file_input_throughput
    FROM _peer_requests AS p
    JOIN requests AS q USING (request_key)
    WHERE p.measured AND p.ok
),
-- genai-bench stops reading at the first chunk that carries usage and no choices (after a
-- finish_reason), so its end_time is that chunk's, not [DONE]'s
usage_chunks AS (
    SELECT t.request_key, min(t.ts_ns) AS usage_ns
    FROM tokens AS t
    SEMI JOIN counted AS c USING (request_key)
    WHERE t.chunk_kind = 'usage'
    GROUP BY t.request_key
),
timed AS (
    SELECT
        c.run,
        c.non_generative,
        c.source_format,
        c.file_tpot_ms,
        c.file_speed,
        c.file_output_throughput,
        c.file_input_throughput,
        c.output_tokens,
        c.prompt_tokens,
        c.ttft_ms / 1e3 AS ttft,
        coalesce((coalesce(u.usage_ns, c.last_chunk_ns, c.finished_ns) - c.arrival_ns) / 1e9, c.e2e_ms / 1e3)
            AS e2e_latency
    FROM counted AS c
    LEFT JOIN usage_chunks AS u USING (request_key)
),
per_request AS (
    SELECT
        run,
        ttft,
        e2e_latency,
        prompt_tokens,
        -- a request without output (embeddings) has genai-bench's output figures reset to 0
        CASE WHEN non_generative THEN 0 ELSE e2e_latency - ttft END AS output_latency,
        CASE WHEN non_generative THEN 0 ELSE output_tokens END AS output_tokens,
        CASE
            WHEN non_generative THEN 0
            WHEN source_format = 'genai-bench-json' THEN file_tpot_ms / 1e3
            WHEN output_tokens > 1 AND e2e_latency - ttft >= 0.001 THEN (e2e_latency - ttft) / (output_tokens - 1)
        END AS tpot,
        CASE
            WHEN source_format = 'genai-bench-json' THEN file_speed
            WHEN non_generative THEN 0
            WHEN output_tokens > 1 AND e2e_latency - ttft >= 0.001 THEN (output_tokens - 1) / (e2e_latency - ttft)
        END AS output_inference_speed,
        CASE
            WHEN source_format = 'genai-bench-json' THEN file_output_throughput
            WHEN non_generative THEN 0
            WHEN output_tokens > 1 THEN coalesce((output_tokens - 1) / nullif(e2e_latency - ttft, 0), 0)
        END AS output_throughput,
        CASE
            WHEN source_format = 'genai-bench-json' THEN file_input_throughput
            ELSE coalesce(prompt_tokens / nullif(ttft, 0), 0)
        END AS input_throughput
    FROM timed
),
samples AS (
    SELECT run, metric, value
    FROM (
        SELECT
            run, ttft, tpot, e2e_latency, output_latency, output_inference_speed, input_throughput, output_throughput,
            prompt_tokens::DOUBLE AS num_input_tokens,
            output_tokens::DOUBLE AS num_output_tokens,
            (prompt_tokens + output_tokens)::DOUBLE AS total_tokens
        FROM per_request
    ) UNPIVOT (value FOR metric IN (ttft, tpot, e2e_latency, output_latency, output_inference_speed,
        input_throughput, output_throughput, num_input_tokens, num_output_tokens, total_tokens))
),
stats AS (
    SELECT
        run, metric,
        min(value) AS min,
        max(value) AS max,
        avg(value) AS mean,
        stddev_pop(value) AS stddev,
        sum(value) AS sum,
        quantile_cont(value, [0.25, 0.50, 0.75, 0.90, 0.95, 0.99]) AS q
    FROM samples
    GROUP BY run, metric
),
reported_duration AS (
    SELECT m.run, any_value(m.value) AS run_duration
    FROM reported_metrics AS m
    JOIN sources AS s USING (source_id)
    WHERE s.format = 'genai-bench-json' AND m.metric = 'run_duration' AND m.stat = 'value'
    GROUP BY m.run
),
per_run AS (
    SELECT
        p.run,
        count(*) FILTER (WHERE p.ok) AS num_completed_requests,
        count(*) FILTER (WHERE NOT p.ok) AS num_error_requests,
        count(*) AS num_requests,
        coalesce(any_value(d.run_duration), any_value(u.duration_s)) AS run_duration
    FROM _peer_requests AS p
    JOIN run_summary AS u USING (run)
    LEFT JOIN reported_duration AS d USING (run)
    WHERE p.measured
    GROUP BY p.run
),
token_sums AS (
    SELECT run, sum(prompt_tokens) AS input_sum, sum(output_tokens) AS output_sum,
        sum(prompt_tokens + output_tokens) AS total_sum
    FROM per_request
    GROUP BY run
)
SELECT s.run, s.metric, s.stat, s.value, u.unit
FROM (
    SELECT run, metric, min, max, mean, stddev, sum, q[1] AS p25, q[2] AS p50, q[3] AS p75, q[4] AS p90,
        q[5] AS p95, q[6] AS p99
    FROM stats
) UNPIVOT (value FOR stat IN (min, max, mean, stddev, sum, p25, p50, p75, p90, p95, p99)) AS s
JOIN (VALUES ('ttft', 's'), ('tpot', 's'), ('e2e_latency', 's'), ('output_latency', 's'),
    ('output_inference_speed', 'tokens/s'), ('input_throughput', 'tokens/s'), ('output_throughput', 'tokens/s'),
    ('num_input_tokens', 'tokens'), ('num_output_tokens', 'tokens'), ('total_tokens', 'tokens'))
    AS u(metric, unit) USING (metric)
UNION ALL
SELECT r.run, r.metric, 'value' AS stat, r.value, u.unit
FROM (
    SELECT
        p.run,
        p.run_duration,
        t.output_sum / p.run_duration AS mean_output_throughput_tokens_per_s,
        t.input_sum / p.run_duration AS mean_input_throughput_tokens_per_s,
        t.total_sum / p.run_duration AS mean_total_tokens_throughput_tokens_per_s,
        p.num_completed_requests / p.run_duration AS requests_per_second,
        p.num_completed_requests::DOUBLE AS num_completed_requests,
        p.num_error_requests::DOUBLE AS num_error_requests,
        p.num_requests::DOUBLE AS num_requests,
        p.num_error_requests / p.num_requests AS error_rate
    FROM per_run AS p
    LEFT JOIN token_sums AS t USING (run)
) UNPIVOT (value FOR metric IN (run_duration, mean_output_throughput_tokens_per_s,
    mean_input_throughput_tokens_per_s, mean_total_tokens_throughput_tokens_per_s, requests_per_second,
    num_completed_requests, num_error_requests, num_requests, error_rate)) AS r
JOIN (VALUES ('run_duration', 's'), ('mean_output_throughput_tokens_per_s', 'tokens/s'),
    ('mean_input_throughput_tokens_per_s', 'tokens/s'), ('mean_total_tokens_throughput_tokens_per_s', 'tokens/s'),
    ('requests_per_second', 'requests/s'), ('num_completed_requests', 'requests'),
    ('num_error_requests', 'requests'), ('num_requests', 'requests'), ('error_rate', 'ratio'))
    AS u(metric, unit) USING (metric)
ORDER BY 1, 2, 3
