-- When each request's answer starts and how its tokens come in chunks, as AIPerf defines both:
-- time to first output token (AIPerf's time_to_first_output_token, TTFO) is the first chunk with
-- answer content, not reasoning, minus the send time (TTFT counts a reasoning chunk as the first
-- token; for a model that does not reason the two are equal); tokens per chunk (AIPerf's
-- tokens_per_chunk) is the output length over the content and reasoning chunks, only for requests
-- with at least 2 such chunks and an output length of at least 1, as AIPerf's
-- TokensPerChunkMetric requires. Measured ok requests.
-- @grain one row per measured ok request
-- @column run [id] Run of the request.
-- @column request_key [id] Request (requests.request_key).
-- @column request_id [id] Request id as the source wrote it.
-- @column ttft_ms [ms] Time to first token: the first content or reasoning chunk (request_latency.ttft_ms).
-- @column ttfo_ms [ms] Time to first output token: the first content chunk minus arrival; NULL without one.
-- @column reasoning_ms [ms] ttfo_ms - ttft_ms: how long the model reasoned before answering.
-- @column reasoning_chunks [count] Reasoning chunks.
-- @column chunks [count] Content and reasoning chunks.
-- @column output_tokens [tokens] Output length (request_latency.output_tokens).
-- @column tokens_per_chunk [tokens] output_tokens / chunks, when chunks >= 2 and output_tokens >= 1.
CREATE OR REPLACE VIEW request_output_timing AS
-- the stream's counts and first answer come from the derive step's per-request row, not from
-- the tokens (AIPerf's view reads this one)
WITH c AS (
    SELECT request_key, first_answer_ns AS first_output_ns, reasoning_chunks, content_chunks AS chunks
    FROM _request_tokens
)
SELECT
    l.run, l.request_key, l.request_id, l.ttft_ms,
    (c.first_output_ns - l.arrival_ns) / 1e6 AS ttfo_ms,
    ttfo_ms - l.ttft_ms AS reasoning_ms,
    coalesce(c.reasoning_chunks, 0) AS reasoning_chunks,
    coalesce(c.chunks, 0) AS chunks,
    l.output_tokens,
    CASE WHEN c.chunks >= 2 AND l.output_tokens >= 1 THEN l.output_tokens / c.chunks END AS tokens_per_chunk
FROM request_latency AS l
LEFT JOIN c USING (request_key)
WHERE l.measured AND l.ok
ORDER BY l.run, l.request_key
