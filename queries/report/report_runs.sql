-- The report's table of runs: run_summary's counts, measured window, throughputs and mean
-- lengths, typed for the report (BIGINT counts, DOUBLE figures) and ordered as the report lists
-- runs: by kind of level, then level, then run name in natural order (c1, c4, c16: natural_sort_key).
-- @grain one row per run
-- @column run [id] Run.
-- @column level_kind [text] concurrency or request_rate; NULL without a level.
-- @column level [level_kind] The run's level.
-- @column requests [count] Measured requests (run_summary.requests).
-- @column ok_requests [count] Ok measured requests.
-- @column failed_requests [count] Failed measured requests.
-- @column unfinished_requests [count] Of the ok, those whose end no input showed (run_summary); NULL when none.
-- @column excluded_requests [count] Requests outside the measured window or warm-up.
-- @column duration_s [s] The measured window.
-- @column output_tokens_per_s [tokens/s] Output tokens per second over the window.
-- @column requests_per_s [1/s] Ok requests per second over the window.
-- @column mean_input_tokens [tokens] Mean prompt length.
-- @column mean_output_tokens [tokens] Mean output length.
-- @column tool_ok_requests [count] For a run whose files hold no request rows: the ok requests its load-test tool counted (tool_run_counts); else NULL.
-- @column tool_failed_requests [count] The same for the failed requests the tool counted.
-- @column tool_errors [text] What they failed with, as the tool summed them (tool_run_counts); else NULL.
CREATE OR REPLACE VIEW report_runs AS
SELECT run, level_kind, level::DOUBLE AS level, requests::BIGINT AS requests,
    ok_requests::BIGINT AS ok_requests, failed_requests::BIGINT AS failed_requests,
    nullif(unfinished_requests, 0)::BIGINT AS unfinished_requests,
    excluded_requests::BIGINT AS excluded_requests, duration_s::DOUBLE AS duration_s,
    output_tokens_per_s::DOUBLE AS output_tokens_per_s, requests_per_s::DOUBLE AS requests_per_s,
    mean_input_tokens::DOUBLE AS mean_input_tokens, mean_output_tokens::DOUBLE AS mean_output_tokens,
    t.tool_ok_requests::BIGINT AS tool_ok_requests, t.tool_failed_requests::BIGINT AS tool_failed_requests,
    t.tool_errors
FROM run_summary
LEFT JOIN tool_run_counts AS t USING (run)
ORDER BY level_kind NULLS LAST, level NULLS LAST, natural_sort_key(run), run
