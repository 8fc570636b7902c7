-- Why two tools disagree on the same run: for every run, each headline figure as tokentime
-- defines it (metric_stats, run_summary), as each peer tool defines it (computed by tokentime
-- from the same rows: genai_perf_metrics, aiperf_metrics, vllm_bench_metrics,
-- sglang_bench_metrics, llmperf_metrics, guidellm_metrics, inference_perf_metrics, genai_bench_metrics,
-- llm_load_test_metrics), and as the tool itself reported it when its own summary
-- or its console summary was ingested (reported_metrics), with the differences and the reason the definitions differ.
-- MLPerf LoadGen's logs, inference-benchmarker's results file, the GKE latency profile
-- generator's result, EvalScope's summaries and Locust's statistics of llm_bench keep no per-request
-- times: their rows carry the reported figure only.
-- Values are in tokentime's units (ms, per second); LLMPerf's seconds and per-minute figures are
-- converted (GuideLLM's latency, inference-perf's and genai-bench's times in seconds too; a genai-bench file's own figures in its _time_unit), and a reported latency in another unit of time (genai-perf 24.06's ns) by its unit. Statistics: mean, std, p50, p90, p99 of the latencies; value for throughputs.
-- Memory: each tool's figures scan every chunk, and all five at once did not fit DuckDB's 500 MB
-- at 50 M tokens with 2 threads; `tokentime conventions` computes each tool's view on its own
-- first (from SQL: copy each into a temporary table of the same name, or SET threads = 1).
-- @grain one row per run per convention per metric per statistic
-- @column run [id] Run name.
-- @column metric [text] tokentime's metric: ttft_ms, itl_ms, tpot_ms, e2e_ms, output_tokens_per_s or requests_per_s.
-- @column stat [text] mean, std, p50, p90, p99 (latencies) or value (throughputs).
-- @column convention [text] The tool whose definition the row shows: genai-perf, aiperf, vllm, sglang, llmperf, guidellm, inference-perf, genai-bench, llm-load-test, mlperf (LoadGen), inference-benchmarker, gke-lpg (the GKE latency profile generator), evalscope or llm-bench (Fireworks' llm_bench on Locust); the last five reported only.
-- @column tool_metric [text] The tool's own name for its closest figure, and the statistic as the tool names it.
-- @column tokentime_value [ms or 1/s] The figure under tokentime's definition.
-- @column convention_value [ms or 1/s] The figure under the tool's definition, computed by tokentime.
-- @column reported_value [ms or 1/s] The figure the tool reported itself for this run, when its summary was ingested.
-- @column convention_minus_tokentime [ms or 1/s] convention_value - tokentime_value.
-- @column reported_minus_convention [ms or 1/s] reported_value - convention_value: near zero when tokentime reproduces the tool.
-- @column why [text] How the tool's definition differs from tokentime's (for a std row, also how the
-- tool computes the standard deviation).
-- @column not_reproducible [text] NULL, or why convention_value cannot be the tool's own number on
-- this run: the figure rests on output lengths the tool counts with its tokenizer (genai-perf,
-- AIPerf and LLMPerf tokenize the output text; vLLM, SGLang and genai-bench take usage, else the
-- tokenizer or, SGLang, the requested length), and some of the run's requests carry no usage, so tokentime
-- counted their content chunks (request_latency.output_tokens_basis = 'chunks'); or a vLLM results
-- file without per-request latencies (benchmark_serving.py of 2024), or an SGLang bench_serving file
-- (its --output-details keep ttfts and itls, no latencies), whose E2E tokentime rebuilds from ttfts
-- + itls, ending at the last chunk, where the tool ended it at the stream's end ([DONE]): its TPOT
-- and E2E lie above the rebuild; or a reported throughput of a run whose
-- requests carry no start time (LLMPerf's files of 2023), which tokentime cannot compute; or a run
-- whose tool counted more requests than the run holds (its per-request file is a part of the run).
CREATE OR REPLACE VIEW peer_comparison AS
WITH computed AS (
    SELECT 'genai-perf' AS convention, run, metric AS tool_metric, stat AS tool_stat, value FROM genai_perf_metrics
    UNION ALL SELECT 'aiperf', run, metric, stat, value FROM aiperf_metrics
    UNION ALL SELECT 'vllm', run, metric, stat, value FROM vllm_bench_metrics
    UNION ALL SELECT 'sglang', run, metric, stat, value FROM sglang_bench_metrics
    UNION ALL SELECT 'llmperf', run, metric, stat, value FROM llmperf_metrics
    UNION ALL SELECT 'guidellm', run, metric, stat, value FROM guidellm_metrics
    UNION ALL SELECT 'inference-perf', run, metric, stat, value FROM inference_perf_metrics
    UNION ALL SELECT 'genai-bench', run, metric, stat, value FROM genai_bench_metrics
    UNION ALL SELECT 'llm-load-test', run, metric, stat, value FROM llm_load_test_metrics
),
reported AS (
    SELECT convention, run, tool_metric, tool_stat, value, to_ms
    FROM _peer_reported_figures
),
tool_figures AS (SELECT * FROM _peer_figures),
-- runs where some output lengths are chunk counts (no usage in the stream, no length reported)
chunk_counted AS (
    SELECT run, count(*) AS n, count(*) FILTER (WHERE output_tokens_basis = 'chunks') AS by_chunks
    FROM request_latency
    WHERE measured AND ok
    GROUP BY run
    HAVING count(*) FILTER (WHERE output_tokens_basis = 'chunks') > 0
),
-- runs read from vLLM results files that carry no per-request latencies (2024's
-- benchmark_serving.py: ttfts and itls only), so no request has the tool's own end
rebuilt_e2el AS (
    SELECT run, CASE any_value(engine) WHEN 'vllm-bench' THEN 'vllm' ELSE 'sglang' END AS convention
    FROM requests
    WHERE engine IN ('vllm-bench', 'sglang-bench')
    GROUP BY run
    HAVING count(finished_ns) = 0 AND count(e2e_ms) > 0
),
-- runs whose requests carry no start time (LLMPerf's individual_responses of 2023): no wall
-- time to divide a throughput by
untimed AS (
    SELECT run FROM requests GROUP BY run HAVING count(arrival_ns) = 0
),
-- runs whose tool counted more requests than the run holds (a per-request file of part of the
-- run, or one cut short): the tool's figures are of requests tokentime does not have
-- (GuideLLM and genai-bench count their successful requests only, and GuideLLM 0.4-0.5.3 kept
-- 10 records per status)
partial AS (
    SELECT r.run, r.convention, max(r.value) AS tool_count,
        any_value(CASE WHEN r.convention IN ('guidellm', 'genai-bench') THEN h.n_ok ELSE h.n END) AS held
    FROM reported AS r
    JOIN (SELECT run, count(*) FILTER (WHERE measured) AS n, count(*) FILTER (WHERE measured AND ok) AS n_ok
        FROM request_latency GROUP BY run) AS h USING (run)
    WHERE (r.convention IN ('aiperf', 'genai-perf') AND r.tool_metric = 'request_count' AND r.tool_stat = 'avg')
        OR (r.convention IN ('vllm', 'sglang') AND r.tool_metric = 'completed')
        OR (r.convention = 'llmperf' AND r.tool_metric = 'num_completed_requests')
        OR (r.convention = 'guidellm' AND r.tool_metric = 'request_latency' AND r.tool_stat = 'count')
        OR (r.convention = 'inference-perf' AND r.tool_metric = 'successes' AND r.tool_stat = 'count')
        OR (r.convention = 'genai-bench' AND r.tool_metric = 'num_completed_requests')
        OR (r.convention = 'llm-load-test' AND r.tool_metric = 'total_requests')
    GROUP BY r.run, r.convention
    HAVING max(r.value) > any_value(CASE WHEN r.convention IN ('guidellm', 'genai-bench') THEN h.n_ok ELSE h.n END)
),
-- the figures that divide by or sum output lengths, per convention
length_based (convention, metric, counter) AS (
    VALUES
    ('genai-perf', 'tpot_ms', 'its tokenizer on the output text (OSL)'),
    ('genai-perf', 'output_tokens_per_s', 'its tokenizer on the output text (OSL)'),
    ('aiperf', 'tpot_ms', 'its tokenizer on the output and reasoning text (OSL)'),
    ('aiperf', 'output_tokens_per_s', 'its tokenizer on the output and reasoning text (OSL)'),
    ('vllm', 'tpot_ms', 'usage.completion_tokens, else its tokenizer'),
    ('vllm', 'output_tokens_per_s', 'usage.completion_tokens, else its tokenizer'),
    ('sglang', 'tpot_ms', 'usage.completion_tokens, else the requested output length'),
    ('sglang', 'output_tokens_per_s', 'usage.completion_tokens, else the requested output length'),
    ('llmperf', 'itl_ms', 'the llama tokenizer on the output text'),
    ('llmperf', 'output_tokens_per_s', 'the llama tokenizer on the output text'),
    ('genai-bench', 'tpot_ms', 'usage.completion_tokens, else its tokenizer on the output text'),
    ('genai-bench', 'output_tokens_per_s', 'usage.completion_tokens, else its tokenizer on the output text')
),
tokentime AS (
    SELECT run, metric, stat, value
    FROM (SELECT run, metric, mean, std, p50, p90, p99 FROM metric_stats)
        UNPIVOT (value FOR stat IN (mean, std, p50, p90, p99))
    UNION ALL
    SELECT run, metric, 'value' AS stat, value
    FROM (SELECT run, output_tokens_per_s, requests_per_s FROM run_summary)
        UNPIVOT (value FOR metric IN (output_tokens_per_s, requests_per_s))
)
SELECT
    u.run,
    f.metric,
    f.stat,
    f.convention,
    f.tool_metric || ' ' || f.tool_stat AS tool_metric,
    t.value AS tokentime_value,
    c.value * f.factor AS convention_value,
    r.value * (CASE WHEN f.metric LIKE '%\_ms' ESCAPE '\' THEN coalesce(r.to_ms, f.factor) ELSE f.factor END)
        AS reported_value,
    c.value * f.factor - t.value AS convention_minus_tokentime,
    r.value * (CASE WHEN f.metric LIKE '%\_ms' ESCAPE '\' THEN coalesce(r.to_ms, f.factor) ELSE f.factor END)
        - c.value * f.factor AS reported_minus_convention,
    CASE WHEN f.stat = 'std' AND f.convention = 'llmperf'
        THEN 'LLMPerf reports the sample standard deviation (ddof = 1), tokentime the population one; '
            || f.why
        WHEN f.stat = 'std' AND f.convention = 'guidellm' AND f.metric = 'tpot_ms'
        THEN 'GuideLLM''s standard deviation is weighted by N - 1, as its mean; ' || f.why
        ELSE f.why END AS why,
    nullif(concat_ws('; ',
        CASE WHEN lb.counter IS NOT NULL THEN 'definition differs: ' || f.convention || ' counts output tokens with '
            || lb.counter || '; ' || cc.by_chunks || ' of ' || cc.n
            || ' requests carry no usage, so tokentime counted their content chunks: not the tool''s number' END,
        CASE WHEN re.run IS NOT NULL AND f.convention = re.convention AND f.metric IN ('e2e_ms', 'tpot_ms')
            THEN 'the results file has no per-request latencies: ' || CASE re.convention WHEN 'vllm'
                THEN 'E2EL is rebuilt from ttfts + itls and ends at the last chunk, where benchmark_serving.py of'
                    || ' 2024 ended it at the stream''s end ([DONE])'
                ELSE 'the E2E latency is rebuilt from ttfts + itls and ends at the last chunk, where bench_serving.py'
                    || ' ends it after the stream''s end ([DONE])' END
                || ', so the tool''s ' || f.tool_metric || ' lies above this figure' END,
        CASE WHEN ut.run IS NOT NULL AND c.value IS NULL AND r.value IS NOT NULL
            AND f.metric IN ('output_tokens_per_s', 'requests_per_s')
            THEN 'not computed: the run''s requests carry no start times, so the wall time ' || f.convention
                || ' divides by cannot be rebuilt; the reported figure is the tool''s own' END,
        CASE WHEN pa.run IS NOT NULL AND r.value IS NOT NULL
            THEN 'the tool counted ' || CAST(pa.tool_count AS BIGINT) || ' requests, the run holds ' || pa.held
                || ': its figures are of requests tokentime does not have' END), '')
        AS not_reproducible
FROM runs AS u
CROSS JOIN tool_figures AS f
LEFT JOIN tokentime AS t ON t.run = u.run AND t.metric = f.metric AND t.stat = f.stat
LEFT JOIN computed AS c ON c.run = u.run AND c.convention = f.convention AND c.tool_metric = f.tool_metric AND c.tool_stat = f.tool_stat
LEFT JOIN reported AS r ON r.run = u.run AND r.convention = f.convention AND r.tool_metric = f.tool_metric AND r.tool_stat = f.tool_stat
LEFT JOIN chunk_counted AS cc ON cc.run = u.run
LEFT JOIN length_based AS lb ON cc.run IS NOT NULL AND lb.convention = f.convention AND lb.metric = f.metric
LEFT JOIN rebuilt_e2el AS re ON re.run = u.run
LEFT JOIN untimed AS ut ON ut.run = u.run
LEFT JOIN partial AS pa ON pa.run = u.run AND pa.convention = f.convention
-- a tool whose figures tokentime cannot compute (no per-request times) has rows only where it reported
WHERE (t.value IS NOT NULL AND f.convention NOT IN ('mlperf', 'inference-benchmarker', 'gke-lpg', 'evalscope', 'llm-bench'))
    OR c.value IS NOT NULL OR r.value IS NOT NULL
ORDER BY u.run,
    list_position(['ttft_ms', 'itl_ms', 'tpot_ms', 'e2e_ms', 'output_tokens_per_s', 'requests_per_s'], f.metric),
    list_position(['mean', 'std', 'p50', 'p90', 'p99', 'value'], f.stat),
    f.convention
