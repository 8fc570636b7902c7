-- genai-perf's per-session figures of a multi-turn run (requests that carry a session_id), as
-- genai-perf's llm_profile_data_parser computes them: the same per-request metrics as
-- genai_perf_metrics over the session's requests, and throughputs over the session's span, from
-- its first send to its last content response. Times in ms.
-- @grain one row per run per session per metric per statistic
-- @column run [id] Run name.
-- @column session_id [id] The session, as genai-perf's request input named it.
-- @column metric [text] request_latency, time_to_first_token, time_to_second_token, inter_token_latency, output_sequence_length, input_sequence_length, request_throughput or output_token_throughput.
-- @column stat [text] count, avg, min, max, std, p50 (throughputs: avg).
-- @column value [unit] The figure.
-- @column unit [text] ms, tokens, requests/sec or tokens/sec (count for the count statistic).
CREATE OR REPLACE VIEW genai_perf_session_metrics AS
WITH valid AS (
    SELECT
        run,
        session_id,
        arrival_ns,
        shared_clock,
        last_content_ns,
        output_tokens AS osl,
        (last_content_ns - arrival_ns) / 1e6 AS request_latency,
        (first_content_ns - arrival_ns) / 1e6 AS time_to_first_token,
        CASE WHEN content_chunks > 1 THEN (second_content_ns - first_content_ns) / 1e6 END AS time_to_second_token,
        CASE WHEN output_tokens > 1 AND content_chunks > 1
            THEN round_even((last_content_ns - first_content_ns) / (output_tokens - 1), 0) / 1e6 END AS inter_token_latency,
        output_tokens::DOUBLE AS output_sequence_length,
        prompt_tokens::DOUBLE AS input_sequence_length
    FROM _peer_requests
    WHERE measured AND session_id IS NOT NULL AND first_content_ns IS NOT NULL
),
samples AS (
    SELECT run, session_id, metric, value
    FROM (SELECT run, session_id, request_latency, time_to_first_token, time_to_second_token,
            inter_token_latency, output_sequence_length, input_sequence_length FROM valid)
        UNPIVOT (value FOR metric IN (request_latency, time_to_first_token, time_to_second_token,
            inter_token_latency, output_sequence_length, input_sequence_length))
),
stats AS (
    SELECT run, session_id, metric,
        count(value)::DOUBLE AS count, avg(value) AS avg, min(value) AS min, max(value) AS max,
        stddev_pop(value) AS std, quantile_cont(value, 0.5) AS p50
    FROM samples
    GROUP BY run, session_id, metric
),
spans AS (
    SELECT run, session_id,
        count(*) / ((max(last_content_ns) - min(arrival_ns)) / 1e9) AS request_throughput,
        sum(osl) / ((max(last_content_ns) - min(arrival_ns)) / 1e9) AS output_token_throughput
    FROM valid
    GROUP BY run, session_id
    HAVING max(last_content_ns) > min(arrival_ns) AND bool_and(shared_clock)
)
SELECT s.run, s.session_id, s.metric, s.stat, s.value,
    CASE WHEN s.stat = 'count' THEN 'count' WHEN s.metric LIKE '%length' THEN 'tokens' ELSE 'ms' END AS unit
FROM stats UNPIVOT (value FOR stat IN (count, avg, min, max, std, p50)) AS s
UNION ALL
SELECT t.run, t.session_id, t.metric, 'avg' AS stat, t.value,
    CASE WHEN t.metric = 'request_throughput' THEN 'requests/sec' ELSE 'tokens/sec' END AS unit
FROM spans UNPIVOT (value FOR metric IN (request_throughput, output_token_throughput)) AS t
ORDER BY 1, 2, 3, 4
