-- Each peer tool's headline figures: the tool's own name for the figure closest to each of
-- tokentime's, the factor to tokentime's unit, and how the tool's definition differs
-- (docs/metrics.md). Shared by peer_comparison (computed and reported figures) and peer_reported.
-- @grain one row per convention per tool figure
-- @column convention [text] The tool: genai-perf, aiperf, vllm, sglang, llmperf, guidellm, inference-perf, genai-bench, llm-load-test, mlperf (LoadGen) or inference-benchmarker.
-- @column tool_metric [text] The tool's own name for the figure.
-- @column metric [text] tokentime's metric: ttft_ms, itl_ms, tpot_ms, e2e_ms, output_tokens_per_s or requests_per_s.
-- @column factor [ratio] What takes the tool's value to tokentime's unit when the tool states none (seconds to ms: 1000).
-- @column why [text] How the tool's definition differs from tokentime's.
CREATE OR REPLACE VIEW _peer_names AS
SELECT * FROM (
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
) AS t(convention, tool_metric, metric, factor, why)
