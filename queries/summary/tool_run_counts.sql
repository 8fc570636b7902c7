-- A load-test tool's own count of a run's ok and failed requests, for the runs whose files hold
-- no request rows (a result file alone: vllm bench serve's or SGLang's JSON without details, an
-- AIPerf or genai-perf summary, LLMPerf's summary.json, inference-perf's stage summary). Without it
-- such a run reads "0 ok, 0 failed" in every table, a run of 100 failed requests included. The
-- tools' words (tool_request_counts): ok is completed (vllm bench serve, SGLang), request_count
-- (AIPerf, genai-perf), num_completed_requests (LLMPerf: the requests without an error),
-- requests_successful (GuideLLM) or successes (inference-perf); failed is failed,
-- error_request_count, number_errors, requests_errored + requests_incomplete (GuideLLM: a request
-- cut at the benchmark's end counts as failed, as a row's cancelled status does) or failures.
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
            'requests_successful', 'successes')) AS ok,
        max(requests) FILTER (WHERE metric IN ('failed', 'error_request_count', 'number_errors', 'failures'))
            AS failed,
        max(requests) FILTER (WHERE metric = 'requests_errored') AS errored,
        max(requests) FILTER (WHERE metric = 'requests_incomplete') AS incomplete
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
    max(f.ok)::BIGINT AS tool_ok_requests,
    max(coalesce(f.failed, f.errored + coalesce(f.incomplete, 0), f.incomplete))::BIGINT AS tool_failed_requests,
    string_agg(DISTINCT f.format, ', ' ORDER BY f.format) AS formats,
    any_value(e.tool_errors) AS tool_errors
FROM per_format AS f
JOIN run_summary AS s USING (run)
LEFT JOIN errors AS e USING (run)
WHERE s.requests + s.excluded_requests = 0
GROUP BY f.run
HAVING max(f.ok) IS NOT NULL OR max(coalesce(f.failed, f.errored, f.incomplete)) IS NOT NULL
