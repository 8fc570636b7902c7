-- A load-test tool's own count of a run's ok and failed requests, for the runs whose files hold
-- no request rows (a result file alone: vllm bench serve's or SGLang's JSON without details, an
-- AIPerf or genai-perf summary, LLMPerf's summary.json, inference-perf's stage summary). Without it
-- such a run reads "0 ok, 0 failed" in every table, a run of 100 failed requests included. The
-- tools' words (tool_request_counts): ok is completed (vllm bench serve, SGLang), request_count
-- (AIPerf, genai-perf), num_completed_requests (LLMPerf: the requests without an error),
-- requests_successful (GuideLLM), successes (inference-perf), successful_requests
-- (inference-benchmarker) or requests_total less the failed (an llm-d benchmark report); failed is
-- failed, error_request_count, number_errors, failed_requests (inference-benchmarker),
-- requests_errored + requests_incomplete (GuideLLM: a request cut at the benchmark's end counts as
-- failed, as a row's cancelled status does), failures, or requests_failures + requests_incomplete
-- (llm-d).
-- Where files of several formats count one run, the larger figure.
-- @grain one row per run whose files hold no request rows and whose tool counted its requests
-- @column run [id] Run name.
-- @column tool_ok_requests [count] Requests the tool counted as completed without an error.
-- @column tool_failed_requests [count] Requests the tool counted as failed; NULL when it reports no such count (genai-perf).
-- @column formats [text] Formats of the files that reported the counts, comma-separated.
-- @column tool_errors [text] What the failed requests failed with, as the tool summed them (AIPerf's
-- error_summary: "TimeoutError: 5"), most first, comma-separated; NULL when it says nothing.
CREATE OR REPLACE VIEW tool_run_counts AS
WITH per_format AS (
    SELECT
        run,
        format,
        max(requests) FILTER (WHERE metric IN ('completed', 'request_count', 'num_completed_requests',
            'requests_successful', 'successes', 'successful_requests')) AS ok,
        max(requests) FILTER (WHERE metric IN ('failed', 'error_request_count', 'number_errors', 'failures',
            'failed_requests'))
            AS failed,
        max(requests) FILTER (WHERE metric = 'requests_errored') AS errored,
        max(requests) FILTER (WHERE metric = 'requests_incomplete') AS incomplete,
        -- llm-d's report: its total and failures (the incomplete counted as failed, as GuideLLM's)
        max(requests) FILTER (WHERE metric = 'requests_total' AND format = 'llmd-benchmark-report') AS total,
        max(requests) FILTER (WHERE metric = 'requests_failures') AS failures
    FROM tool_request_counts
    GROUP BY run, format
)
,
errors AS (
    SELECT run, string_agg(stat || ': ' || value::BIGINT, ', ' ORDER BY value DESC, stat) AS tool_errors
    FROM (SELECT run, stat, max(value) AS value FROM reported_metrics WHERE metric = 'error_count' GROUP BY run, stat)
    GROUP BY run
)
SELECT
    f.run,
    max(coalesce(f.ok, f.total - coalesce(f.failures, 0) - coalesce(f.incomplete, 0)))::BIGINT AS tool_ok_requests,
    max(coalesce(f.failed, f.errored + coalesce(f.incomplete, 0), f.failures + coalesce(f.incomplete, 0),
        f.incomplete))::BIGINT AS tool_failed_requests,
    string_agg(DISTINCT f.format, ', ' ORDER BY f.format) AS formats,
    any_value(e.tool_errors) AS tool_errors
FROM per_format AS f
JOIN run_summary AS s USING (run)
LEFT JOIN errors AS e USING (run)
WHERE s.requests + s.excluded_requests = 0
GROUP BY f.run
HAVING max(coalesce(f.ok, f.total)) IS NOT NULL OR max(coalesce(f.failed, f.errored, f.failures, f.incomplete)) IS NOT NULL
ORDER BY natural_sort_key(f.run), f.run
