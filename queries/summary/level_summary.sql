-- The benchmark table of the methodology (seed §3.2.2): one row per concurrency level or request
-- rate (or per run, for runs without a level), with P50/P90/P99 of TTFT, ITL, TPOT and E2E and
-- the throughputs. With several repeats of a level, each figure is the median over the repeats
-- of the per-run figure (metric_stats, run_summary), as the methodology asks ("repeat 3 times,
-- take the median"); min and max of the throughput show the spread. Only the runs selected
-- (_run_selected: tt_runs, tokentime's --run) are pooled.
-- @grain one row per level (level_kind, level), or per run when the run has no level
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
CREATE OR REPLACE VIEW level_summary AS
WITH per_run AS (
    SELECT
        s.run,
        s.level_kind,
        s.level,
        CASE WHEN s.level IS NULL THEN s.run END AS label,
        s.requests,
        s.ok_requests,
        s.failed_requests,
        s.output_tokens_per_s,
        s.requests_per_s,
        s.mean_input_tokens,
        s.mean_output_tokens,
        max(m.p50) FILTER (WHERE m.metric = 'ttft_ms') AS ttft_p50_ms,
        max(m.p90) FILTER (WHERE m.metric = 'ttft_ms') AS ttft_p90_ms,
        max(m.p95) FILTER (WHERE m.metric = 'ttft_ms') AS ttft_p95_ms,
        max(m.p99) FILTER (WHERE m.metric = 'ttft_ms') AS ttft_p99_ms,
        max(m.p50) FILTER (WHERE m.metric = 'itl_ms') AS itl_p50_ms,
        max(m.p90) FILTER (WHERE m.metric = 'itl_ms') AS itl_p90_ms,
        max(m.p95) FILTER (WHERE m.metric = 'itl_ms') AS itl_p95_ms,
        max(m.p99) FILTER (WHERE m.metric = 'itl_ms') AS itl_p99_ms,
        max(m.p50) FILTER (WHERE m.metric = 'tpot_ms') AS tpot_p50_ms,
        max(m.p90) FILTER (WHERE m.metric = 'tpot_ms') AS tpot_p90_ms,
        max(m.p95) FILTER (WHERE m.metric = 'tpot_ms') AS tpot_p95_ms,
        max(m.p99) FILTER (WHERE m.metric = 'tpot_ms') AS tpot_p99_ms,
        max(m.p50) FILTER (WHERE m.metric = 'e2e_ms') AS e2e_p50_ms,
        max(m.p90) FILTER (WHERE m.metric = 'e2e_ms') AS e2e_p90_ms,
        max(m.p95) FILTER (WHERE m.metric = 'e2e_ms') AS e2e_p95_ms,
        max(m.p99) FILTER (WHERE m.metric = 'e2e_ms') AS e2e_p99_ms
    FROM run_summary AS s
    LEFT JOIN metric_stats AS m USING (run)
    WHERE _run_selected(s.run)
    GROUP BY ALL
)
SELECT
    level_kind,
    level,
    label,
    count(*) AS runs,
    string_agg(run, ', ' ORDER BY natural_sort_key(run), run) AS run_names,
    sum(requests)::BIGINT AS requests,
    sum(ok_requests)::BIGINT AS ok_requests,
    sum(failed_requests)::BIGINT AS failed_requests,
    median(ttft_p50_ms) AS ttft_p50_ms,
    median(ttft_p90_ms) AS ttft_p90_ms,
    median(ttft_p95_ms) AS ttft_p95_ms,
    median(ttft_p99_ms) AS ttft_p99_ms,
    median(itl_p50_ms) AS itl_p50_ms,
    median(itl_p90_ms) AS itl_p90_ms,
    median(itl_p95_ms) AS itl_p95_ms,
    median(itl_p99_ms) AS itl_p99_ms,
    median(tpot_p50_ms) AS tpot_p50_ms,
    median(tpot_p90_ms) AS tpot_p90_ms,
    median(tpot_p95_ms) AS tpot_p95_ms,
    median(tpot_p99_ms) AS tpot_p99_ms,
    median(e2e_p50_ms) AS e2e_p50_ms,
    median(e2e_p90_ms) AS e2e_p90_ms,
    median(e2e_p95_ms) AS e2e_p95_ms,
    median(e2e_p99_ms) AS e2e_p99_ms,
    median(output_tokens_per_s) AS output_tokens_per_s,
    min(output_tokens_per_s) AS output_tokens_per_s_min,
    max(output_tokens_per_s) AS output_tokens_per_s_max,
    median(requests_per_s) AS requests_per_s,
    median(mean_input_tokens) AS mean_input_tokens,
    median(mean_output_tokens) AS mean_output_tokens
FROM per_run
GROUP BY level_kind, level, label
ORDER BY level_kind NULLS LAST, level, natural_sort_key(label), label
