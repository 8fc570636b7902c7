-- The requests a load-test tool counted for a run, in its own words, as its result file reports
-- them: vllm bench serve's and SGLang's completed and failed, AIPerf's request_count and
-- error_request_count, genai-perf's request_count, LLMPerf's num_completed_requests and
-- number_errors, GuideLLM's request totals (its report's or CSV's: requests_successful, requests_errored,
-- requests_incomplete, requests_total), inference-perf's successes and failures, llm-d-benchmark's
-- report's requests_total, requests_failures and requests_incomplete, inference-benchmarker's
-- successful_requests and failed_requests. The summary shows them for a run whose files hold no per-request rows (a result
-- file alone), where its own counts would read "0 ok, 0 failed" for a run of 100 failed requests.
-- One figure per run, metric and format; a figure several files of one format hold is the same.
-- @grain one row per run per tool metric per source format
-- @column run [id] Run name.
-- @column format [text] Input format of the file that reported it (sources.format).
-- @column metric [text] The tool's own name: completed, failed, request_count, error_request_count,
-- num_completed_requests, number_errors, requests_successful, requests_errored, requests_incomplete,
-- requests_total, successes, failures, requests_failures, successful_requests, failed_requests.
-- @column requests [count] The count as reported.
CREATE OR REPLACE VIEW tool_request_counts AS
SELECT m.run, s.format, m.metric, any_value(m.value) AS requests
FROM reported_metrics AS m
JOIN sources AS s USING (source_id)
WHERE (m.metric IN ('completed', 'failed', 'num_completed_requests', 'number_errors') AND m.stat = 'value')
    OR (m.metric IN ('request_count', 'error_request_count') AND m.stat = 'avg')
    OR (m.metric IN ('requests_successful', 'requests_errored', 'requests_incomplete', 'requests_total')
        AND m.stat = 'value' AND s.format IN ('guidellm-json', 'guidellm-csv'))
    OR (m.metric IN ('successes', 'failures') AND m.stat = 'count' AND s.format = 'inference-perf-json')
    OR (m.metric IN ('requests_total', 'requests_failures', 'requests_incomplete') AND m.stat = 'value'
        AND s.format = 'llmd-benchmark-report')
    OR (m.metric IN ('successful_requests', 'failed_requests') AND m.stat = 'value'
        AND s.format = 'inference-benchmarker-json')
GROUP BY m.run, s.format, m.metric
ORDER BY natural_sort_key(m.run), m.run, s.format, m.metric
