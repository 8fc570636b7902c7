-- Each peer tool's names for the statistics of its latency figures (vLLM's median is p50, AIPerf's
-- avg the mean); value is a run-level figure (a throughput). Shared by peer_comparison and
-- peer_reported.
-- @grain one row per convention per statistic
-- @column convention [text] The tool (as _peer_names).
-- @column tool_stat [text] The tool's own name for the statistic.
-- @column stat [text] tokentime's: mean, std, p50, p90, p99 or value.
CREATE OR REPLACE VIEW _peer_stat_names AS
SELECT * FROM (
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
    ('inference-benchmarker', 'p99', 'p99'), ('inference-benchmarker', 'value', 'value'),
    ('gke-lpg', 'avg', 'mean'), ('gke-lpg', 'sd', 'std'), ('gke-lpg', 'median', 'p50'), ('gke-lpg', 'p90', 'p90'),
    ('gke-lpg', 'p99', 'p99'), ('gke-lpg', 'value', 'value'),
    ('evalscope', 'avg', 'mean'), ('evalscope', 'p50', 'p50'), ('evalscope', 'p90', 'p90'), ('evalscope', 'p99', 'p99'),
    ('evalscope', 'value', 'value'),
    ('llm-bench', 'mean', 'mean'), ('llm-bench', 'median', 'p50'), ('llm-bench', 'p90', 'p90'), ('llm-bench', 'p99', 'p99')
) AS t(convention, tool_stat, stat)
