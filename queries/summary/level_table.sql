-- The levels table as the summary and the report show it: level_summary with, per level, what
-- the load-test tools counted in its runs that hold no request rows (tool_run_counts), so a level
-- whose only run is a result file of 100 failed requests reads "0 failed; the tool: 100 failed",
-- not "0 failed". level_summary itself stays the measured figures (the Spark path has it too).
-- @grain one row per level (level_kind, level), or per run when the run has no level, as level_summary
-- @column level_kind [text] concurrency or request_rate; NULL for runs without a level.
-- @column level [level_kind] Concurrency or request rate.
-- @column label [id] The run's name when it has no level, else NULL.
-- @column runs [count] Runs (repeats) at this level.
-- @column run_names [text] Their names, comma-separated.
-- @column requests [count] Measured requests over all repeats.
-- @column ok_requests [count] Ok measured requests over all repeats.
-- @column failed_requests [count] Failed measured requests over all repeats.
-- @column ttft_p50_ms [ms] Median over repeats of the run's TTFT P50.
-- @column ttft_p90_ms [ms] Median over repeats of the run's TTFT P90.
-- @column ttft_p95_ms [ms] Median over repeats of the run's TTFT P95.
-- @column ttft_p99_ms [ms] Median over repeats of the run's TTFT P99.
-- @column itl_p50_ms [ms] Median over repeats of the run's ITL P50 (chunk gaps).
-- @column itl_p90_ms [ms] Median over repeats of the run's ITL P90.
-- @column itl_p95_ms [ms] Median over repeats of the run's ITL P95.
-- @column itl_p99_ms [ms] Median over repeats of the run's ITL P99.
-- @column tpot_p50_ms [ms] Median over repeats of the run's TPOT P50.
-- @column tpot_p90_ms [ms] Median over repeats of the run's TPOT P90.
-- @column tpot_p95_ms [ms] Median over repeats of the run's TPOT P95.
-- @column tpot_p99_ms [ms] Median over repeats of the run's TPOT P99.
-- @column e2e_p50_ms [ms] Median over repeats of the run's E2E P50.
-- @column e2e_p90_ms [ms] Median over repeats of the run's E2E P90.
-- @column e2e_p95_ms [ms] Median over repeats of the run's E2E P95.
-- @column e2e_p99_ms [ms] Median over repeats of the run's E2E P99.
-- @column output_tokens_per_s [tokens/s] Median over repeats of the output throughput.
-- @column output_tokens_per_s_min [tokens/s] Lowest output throughput of a repeat.
-- @column output_tokens_per_s_max [tokens/s] Highest output throughput of a repeat.
-- @column requests_per_s [1/s] Median over repeats of the request throughput.
-- @column mean_input_tokens [tokens] Median over repeats of the mean input length.
-- @column mean_output_tokens [tokens] Median over repeats of the mean output length.
-- @column tool_ok_requests [count] Sum over the level's selected runs without request rows of the ok requests their tool counted; NULL when there is none.
-- @column tool_failed_requests [count] The same for the failed requests the tools counted.
-- @column tool_counted_runs [count] Runs of the level whose requests only their tool counted; NULL when none.
CREATE OR REPLACE VIEW level_table AS
WITH told AS (
    SELECT
        s.level_kind,
        s.level,
        CASE WHEN s.level IS NULL THEN s.run END AS label,
        sum(t.tool_ok_requests)::BIGINT AS tool_ok_requests,
        sum(t.tool_failed_requests)::BIGINT AS tool_failed_requests,
        count(*) AS tool_counted_runs
    FROM tool_run_counts AS t
    JOIN run_summary AS s USING (run)
    WHERE _run_selected(s.run)
    GROUP BY ALL
)
SELECT l.*, t.tool_ok_requests, t.tool_failed_requests, t.tool_counted_runs
FROM level_summary AS l
LEFT JOIN told AS t
    ON l.level_kind IS NOT DISTINCT FROM t.level_kind
    AND l.level IS NOT DISTINCT FROM t.level
    AND l.label IS NOT DISTINCT FROM t.label
ORDER BY l.level_kind NULLS LAST, l.level, natural_sort_key(l.label), l.label
