-- Why two tools disagree on the same run: for every run, each headline figure as tokentime
-- defines it (metric_stats, run_summary), as each peer tool defines it (computed by tokentime
-- from the same rows: genai_perf_metrics, aiperf_metrics, vllm_bench_metrics,
-- sglang_bench_metrics, llmperf_metrics, guidellm_metrics, inference_perf_metrics, genai_bench_metrics,
-- llm_load_test_metrics), and as the tool itself reported it when its own summary
-- or its console summary was ingested (reported_metrics), with the differences and the reason the definitions differ.
-- MLPerf LoadGen's logs and inference-benchmarker's results file keep no per-request times: their
-- rows carry the reported figure only.
-- Values are in tokentime's units (ms, per second); LLMPerf's seconds and per-minute figures are
-- converted (GuideLLM's latency, inference-perf's and genai-bench's times in seconds too; a genai-bench file's own figures in its _time_unit), and a reported latency in another unit of time (genai-perf 24.06's ns) by its unit. Statistics: mean, std, p50, p90, p99 of the latencies; value for throughputs.
-- Memory: each tool's figures scan every chunk, and all five at once did not fit DuckDB's 500 MB
-- at 50 M tokens with 2 threads; `tokentime conventions` computes each tool's view on its own
-- first (from SQL: copy each into a temporary table of the same name, or SET threads = 1).
-- @grain one row per run per convention per metric per statistic
-- @column run [id] Run name.
-- @column metric [text] tokentime's metric: ttft_ms, itl_ms, tpot_ms, e2e_ms, output_tokens_per_s or requests_per_s.
-- @column stat [text] mean, std, p50, p90, p99 (latencies) or value (throughputs).
-- @column convention [text] The tool whose definition the row shows: genai-perf, aiperf, vllm, sglang, llmperf, guidellm, inference-perf, genai-bench, llm-load-test, mlperf (LoadGen) or inference-benchmarker.
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
WITH names (convention, tool_metric, metric, factor, why) AS (
    VALUES
    ('genai-perf', 'time_to_first_token', 'ttft_ms', 1.0, 'same first-token rule (first response with content after SSE clean-up)'),
    ('genai-perf', 'inter_token_latency', 'tpot_ms', 1.0, 'genai-perf ITL is per request (latency - TTFT)/(OSL - 1) rounded half-even to whole ns: tokentime''s TPOT, not chunk gaps'),
    ('genai-perf', 'request_latency', 'e2e_ms', 1.0, 'ends at the last content response, as tokentime'),
    ('genai-perf', 'output_token_throughput', 'output_tokens_per_s', 1.0, 'window ends at the last content response of valid requests, not at the last finish'),
    ('genai-perf', 'request_throughput', 'requests_per_s', 1.0, 'counts ALL requests (failed and empty too) over a window of the valid ones'),
    ('aiperf', 'time_to_first_token', 'ttft_ms', 1.0, 'same first-token rule (first non-empty chunk, reasoning counts)'),
    ('aiperf', 'inter_chunk_latency', 'itl_ms', 1.0, 'AIPerf ICL pools chunk gaps, as tokentime ITL'),
    ('aiperf', 'inter_token_latency', 'tpot_ms', 1.0, 'AIPerf ITL is per request (latency - TTFT)/(OSL - 1): tokentime''s TPOT'),
    ('aiperf', 'request_latency', 'e2e_ms', 1.0, 'ends at the last response, as tokentime'),
    ('aiperf', 'output_token_throughput', 'output_tokens_per_s', 1.0, 'duration = max(start + latency) - min(start) over valid requests only'),
    ('aiperf', 'request_throughput', 'requests_per_s', 1.0, 'valid requests over AIPerf''s benchmark duration'),
    ('vllm', 'ttft', 'ttft_ms', 1.0, 'vLLM stops at the first chunk with choices, even a role-only or empty delta; a request it counted as successful without any chunk adds its default TTFT, 0'),
    ('vllm', 'itl', 'itl_ms', 1.0, 'pooled gaps between choice-bearing chunks (role and empty deltas included)'),
    ('vllm', 'tpot', 'tpot_ms', 1.0, 'same formula, from vLLM''s TTFT and E2EL'),
    ('vllm', 'e2el', 'e2e_ms', 1.0, 'ends at the last choice-bearing chunk (usage and [DONE] excluded)'),
    ('vllm', 'output_throughput', 'output_tokens_per_s', 1.0, 'divides by the benchmark''s wall time as vLLM measured it'),
    ('vllm', 'request_throughput', 'requests_per_s', 1.0, 'completed requests over vLLM''s wall time'),
    ('sglang', 'ttft', 'ttft_ms', 1.0, 'same first-token rule (first chunk with text); a request SGLang counted as successful without any chunk adds its default TTFT, 0'),
    ('sglang', 'itl', 'itl_ms', 1.0, 'pooled content chunk gaps, as tokentime'),
    ('sglang', 'tpot', 'tpot_ms', 1.0, 'uses SGLang''s E2E, which includes [DONE]'),
    ('sglang', 'e2e_latency', 'e2e_ms', 1.0, 'SGLang stamps every line received: E2E ends at [DONE], not at the last token'),
    ('sglang', 'output_throughput', 'output_tokens_per_s', 1.0, 'divides by the benchmark''s wall time as SGLang measured it'),
    ('sglang', 'request_throughput', 'requests_per_s', 1.0, 'completed requests over SGLang''s wall time'),
    ('llmperf', 'ttft_s', 'ttft_ms', 1000.0, 'same first-token rule (first non-empty delta.content); seconds'),
    ('llmperf', 'inter_token_latency_s', 'itl_ms', 1000.0, 'LLMPerf ITL INCLUDES TTFT: (TTFT + sum of gaps)/N per request, not chunk gaps'),
    ('llmperf', 'end_to_end_latency_s', 'e2e_ms', 1000.0, 'runs until the stream is exhausted, [DONE] included'),
    ('llmperf', 'mean_output_throughput_token_per_s', 'output_tokens_per_s', 1.0, 'output tokens over the whole test loop'),
    ('llmperf', 'num_completed_requests_per_min', 'requests_per_s', 1.0 / 60, 'per minute in LLMPerf'),
    ('guidellm', 'time_to_first_token_ms', 'ttft_ms', 1.0, 'same first-token rule (first chunk with tokens); percentiles nearest-rank, not interpolated'),
    ('guidellm', 'inter_token_latency_ms', 'tpot_ms', 1.0, 'GuideLLM ITL is per request (last token - first token)/(N - 1): tokentime''s TPOT, its mean and percentiles weighted by N - 1'),
    ('guidellm', 'request_latency', 'e2e_ms', 1000.0, 'ends when the stream has closed, after the last token; seconds'),
    ('inference-perf', 'time_to_first_token', 'ttft_ms', 1000.0, 'first token time - start, only for requests with more than one token time; seconds'),
    ('inference-perf', 'inter_token_latency', 'itl_ms', 1000.0, 'pooled gaps between token times: a chunk of k tokens adds k - 1 gaps of 0; seconds'),
    ('inference-perf', 'time_per_output_token', 'tpot_ms', 1000.0, 'per request (last - first token time)/(N - 1), as tokentime''s TPOT; seconds'),
    ('inference-perf', 'request_latency', 'e2e_ms', 1000.0, 'ends when the response has been read whole; seconds'),
    ('inference-perf', 'output_tokens_per_sec', 'output_tokens_per_s', 1.0, 'over the last end - first start of all requests, failed included'),
    ('inference-perf', 'requests_per_sec', 'requests_per_s', 1.0, 'successful requests over the same span'),
    ('genai-bench', 'ttft', 'ttft_ms', 1000.0, 'same first-token rule (first chunk with content or reasoning); seconds'),
    ('genai-bench', 'tpot', 'tpot_ms', 1000.0, 'same formula from genai-bench''s E2E (to the usage chunk, else [DONE]); a request with under 1 ms of output latency is left out; seconds'),
    ('genai-bench', 'e2e_latency', 'e2e_ms', 1000.0, 'ends where genai-bench stops reading: the usage-only chunk, else [DONE], not the last token; seconds'),
    ('genai-bench', 'mean_output_throughput_tokens_per_s', 'output_tokens_per_s', 1.0, 'output tokens of completed requests over genai-bench''s run_duration (its whole run), not tokentime''s window'),
    ('genai-bench', 'requests_per_second', 'requests_per_s', 1.0, 'completed requests over genai-bench''s run_duration'),
    ('llm-load-test', 'ttft', 'ttft_ms', 1.0, 'same first-token rule (first chunk carrying a token); only the successful requests whose tokens all came before the test''s end'),
    ('llm-load-test', 'itl', 'tpot_ms', 1.0, 'llm-load-test ITL is per request (end - first token)/(N - 1), tokentime''s TPOT, but its end is the [DONE] line, not the last token; only the requests whose tokens all came before the test''s end'),
    ('llm-load-test', 'response_time', 'e2e_ms', 1.0, 'ends at the [DONE] line (the end of the stream), not at the last token'),
    ('llm-load-test', 'throughput_full_duration', 'output_tokens_per_s', 1.0, 'output tokens of the requests without error_text over their last end - first start'),
    ('mlperf', 'ttft', 'ttft_ms', 1.0, 'LoadGen''s first token latency: from issuing the sample to the SUT''s first-token response; ns'),
    ('mlperf', 'tpot', 'tpot_ms', 1.0, 'LoadGen''s time per output token after the first, per sample, as the SUT reported its tokens; ns'),
    ('mlperf', 'e2el', 'e2e_ms', 1.0, 'LoadGen''s sample latency: from issuing the sample to its completion; ns'),
    ('mlperf', 'output_throughput', 'output_tokens_per_s', 1.0, 'tokens of all samples over the time until the last completed (Server); over the one query''s latency (Offline)'),
    ('mlperf', 'request_throughput', 'requests_per_s', 1.0, 'samples - 1 over the time until the last completed (Server); samples over the one query''s latency (Offline)'),
    ('inference-benchmarker', 'time_to_first_token_ms', 'ttft_ms', 1.0, 'time to the first streamed token of successful requests; percentiles interpolated as numpy''s'),
    ('inference-benchmarker', 'inter_token_latency_ms', 'tpot_ms', 1.0, 'per request, the token gaps after the first over (generated tokens - 1): tokentime''s TPOT, not chunk gaps'),
    ('inference-benchmarker', 'e2e_latency_ms', 'e2e_ms', 1.0, 'start to end of successful requests'),
    ('inference-benchmarker', 'token_throughput_secs', 'output_tokens_per_s', 1.0, 'generated tokens of successful requests over the first request''s start to the last recorded one''s end'),
    ('inference-benchmarker', 'request_rate', 'requests_per_s', 1.0, 'successful requests over the same span')
),
stat_names (convention, tool_stat, stat) AS (
    VALUES
    ('genai-perf', 'avg', 'mean'), ('genai-perf', 'std', 'std'), ('genai-perf', 'p50', 'p50'),
    ('genai-perf', 'p90', 'p90'), ('genai-perf', 'p99', 'p99'),
    ('aiperf', 'avg', 'mean'), ('aiperf', 'std', 'std'), ('aiperf', 'p50', 'p50'),
    ('aiperf', 'p90', 'p90'), ('aiperf', 'p99', 'p99'),
    ('vllm', 'mean', 'mean'), ('vllm', 'std', 'std'), ('vllm', 'median', 'p50'),
    ('vllm', 'p90', 'p90'), ('vllm', 'p99', 'p99'), ('vllm', 'value', 'value'),
    ('sglang', 'mean', 'mean'), ('sglang', 'std', 'std'), ('sglang', 'median', 'p50'),
    ('sglang', 'p90', 'p90'), ('sglang', 'p99', 'p99'), ('sglang', 'value', 'value'),
    ('llmperf', 'mean', 'mean'), ('llmperf', 'stddev', 'std'), ('llmperf', 'p50', 'p50'),
    ('llmperf', 'p90', 'p90'), ('llmperf', 'p99', 'p99'), ('llmperf', 'value', 'value'),
    ('guidellm', 'mean', 'mean'), ('guidellm', 'std_dev', 'std'), ('guidellm', 'median', 'p50'),
    ('guidellm', 'p90', 'p90'), ('guidellm', 'p99', 'p99'),
    ('inference-perf', 'mean', 'mean'), ('inference-perf', 'median', 'p50'), ('inference-perf', 'p90', 'p90'),
    ('inference-perf', 'p99', 'p99'), ('inference-perf', 'value', 'value'),
    ('genai-bench', 'mean', 'mean'), ('genai-bench', 'stddev', 'std'), ('genai-bench', 'p50', 'p50'),
    ('genai-bench', 'p90', 'p90'), ('genai-bench', 'p99', 'p99'), ('genai-bench', 'value', 'value'),
    ('llm-load-test', 'mean', 'mean'), ('llm-load-test', 'median', 'p50'), ('llm-load-test', 'percentile_90', 'p90'),
    ('llm-load-test', 'percentile_99', 'p99'), ('llm-load-test', 'value', 'value'),
    ('mlperf', 'mean', 'mean'), ('mlperf', 'p50', 'p50'), ('mlperf', 'p90', 'p90'), ('mlperf', 'p99', 'p99'),
    ('mlperf', 'value', 'value'),
    ('inference-benchmarker', 'avg', 'mean'), ('inference-benchmarker', 'p50', 'p50'), ('inference-benchmarker', 'p90', 'p90'),
    ('inference-benchmarker', 'p99', 'p99'), ('inference-benchmarker', 'value', 'value')
),
computed AS (
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
reported_figures AS (
    SELECT
        CASE s.format
            WHEN 'genai-perf-summary' THEN 'genai-perf'
            WHEN 'aiperf-summary' THEN 'aiperf'
            WHEN 'vllm-bench-json' THEN 'vllm'
            WHEN 'sglang-bench-jsonl' THEN 'sglang'
            WHEN 'llmperf-json' THEN 'llmperf'
            WHEN 'vllm-bench-console' THEN 'vllm'
            WHEN 'sglang-bench-console' THEN 'sglang'
            WHEN 'genai-perf-console' THEN 'genai-perf'
            WHEN 'aiperf-console' THEN 'aiperf'
            WHEN 'llmperf-console' THEN 'llmperf'
            WHEN 'guidellm-json' THEN 'guidellm'
            WHEN 'inference-perf-json' THEN 'inference-perf'
            WHEN 'genai-bench-json' THEN 'genai-bench'
            WHEN 'llm-load-test-json' THEN 'llm-load-test'
            WHEN 'mlperf-summary' THEN 'mlperf'
            WHEN 'mlperf-detail' THEN 'mlperf'
            WHEN 'inference-benchmarker-json' THEN 'inference-benchmarker'
        END AS convention,
        m.run,
        m.metric AS tool_metric,
        m.stat AS tool_stat,
        -- a run's figure in several of the tool's files (AIPerf writes JSON, CSV and a console
        -- table): the JSON's, written to full precision, before the CSV's and the console's (LoadGen's
        -- :::MLLOG detail before its printed summary, rounded to two decimals); with
        -- what makes it ms when its unit is a time (genai-perf of 2024, 24.06, printed its table in
        -- ns: "Request latency (ns)"), NULL for other units
        arg_max({'value': m.value, 'to_ms': CASE lower(trim(m.unit))
                WHEN 'ns' THEN 1e-6 WHEN 'nsec' THEN 1e-6 WHEN 'nanoseconds' THEN 1e-6
                WHEN 'us' THEN 1e-3 WHEN 'µs' THEN 1e-3 WHEN 'μs' THEN 1e-3 WHEN 'usec' THEN 1e-3
                WHEN 'microseconds' THEN 1e-3
                WHEN 'ms' THEN 1.0 WHEN 'msec' THEN 1.0 WHEN 'milliseconds' THEN 1.0
                WHEN 's' THEN 1e3 WHEN 'sec' THEN 1e3 WHEN 'secs' THEN 1e3 WHEN 'seconds' THEN 1e3
            END}, CASE WHEN s.format LIKE '%-console' THEN 0
            WHEN lower(s.path) LIKE '%.csv' OR s.format = 'mlperf-summary' THEN 1 ELSE 2 END) AS figure
    FROM reported_metrics AS m
    JOIN sources AS s USING (source_id)
    GROUP BY ALL
),
reported AS (
    SELECT convention, run, tool_metric, tool_stat, figure.value AS value, figure.to_ms AS to_ms
    FROM reported_figures
),
-- a throughput is a run-level figure: genai-perf and AIPerf call its one statistic avg
tool_figures AS (
    SELECT n.convention, n.tool_metric, n.metric, n.factor, n.why, sn.stat, sn.tool_stat
    FROM names AS n
    JOIN stat_names AS sn USING (convention)
    WHERE n.metric NOT IN ('output_tokens_per_s', 'requests_per_s') AND sn.stat <> 'value'
    UNION ALL
    SELECT n.convention, n.tool_metric, n.metric, n.factor, n.why, 'value' AS stat,
        CASE WHEN n.convention IN ('genai-perf', 'aiperf') THEN 'avg' ELSE 'value' END AS tool_stat
    FROM names AS n
    WHERE n.metric IN ('output_tokens_per_s', 'requests_per_s')
),
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
WHERE (t.value IS NOT NULL AND f.convention NOT IN ('mlperf', 'inference-benchmarker'))
    OR c.value IS NOT NULL OR r.value IS NOT NULL
ORDER BY u.run,
    list_position(['ttft_ms', 'itl_ms', 'tpot_ms', 'e2e_ms', 'output_tokens_per_s', 'requests_per_s'], f.metric),
    list_position(['mean', 'std', 'p50', 'p90', 'p99', 'value'], f.stat),
    f.convention
