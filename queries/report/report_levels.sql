-- The report's per-level table (the methodology's table): level_summary's columns that the report
-- shows, typed for it (BIGINT counts, DOUBLE figures), ordered by kind of level, level, then label (natural order).
-- @grain one row per level (per run without a level), as level_summary
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
-- @column tool_ok_requests [count] Sum over the level's runs whose files hold no request rows of the ok requests their tool counted (level_table); else NULL.
-- @column tool_failed_requests [count] The same for the failed requests the tools counted.
CREATE OR REPLACE VIEW report_levels AS
SELECT level_kind, level::DOUBLE AS level, label, runs::BIGINT AS runs, run_names,
    requests::BIGINT AS requests, ok_requests::BIGINT AS ok_requests, failed_requests::BIGINT AS failed_requests,
    ttft_p50_ms::DOUBLE AS ttft_p50_ms, ttft_p90_ms::DOUBLE AS ttft_p90_ms, ttft_p95_ms::DOUBLE AS ttft_p95_ms,
    ttft_p99_ms::DOUBLE AS ttft_p99_ms, itl_p50_ms::DOUBLE AS itl_p50_ms, itl_p90_ms::DOUBLE AS itl_p90_ms,
    itl_p95_ms::DOUBLE AS itl_p95_ms, itl_p99_ms::DOUBLE AS itl_p99_ms, tpot_p50_ms::DOUBLE AS tpot_p50_ms,
    tpot_p99_ms::DOUBLE AS tpot_p99_ms, e2e_p50_ms::DOUBLE AS e2e_p50_ms, e2e_p90_ms::DOUBLE AS e2e_p90_ms,
    e2e_p95_ms::DOUBLE AS e2e_p95_ms, e2e_p99_ms::DOUBLE AS e2e_p99_ms,
    output_tokens_per_s::DOUBLE AS output_tokens_per_s, output_tokens_per_s_min::DOUBLE AS output_tokens_per_s_min,
    output_tokens_per_s_max::DOUBLE AS output_tokens_per_s_max, requests_per_s::DOUBLE AS requests_per_s,
    mean_input_tokens::DOUBLE AS mean_input_tokens, mean_output_tokens::DOUBLE AS mean_output_tokens,
    tool_ok_requests::BIGINT AS tool_ok_requests, tool_failed_requests::BIGINT AS tool_failed_requests
FROM level_table
ORDER BY level_kind NULLS LAST, level NULLS LAST, natural_sort_key(label), label
