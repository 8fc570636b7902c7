-- metric_stats pivoted for the report: P50, P95 and P99 of each latency metric, one row per
-- run (percentiles over the ok measured requests, linear interpolation; ITL pools the chunk
-- gaps of all requests), ordered as report_runs.
-- @grain one row per run with metric_stats rows
-- @column run [id] Run.
-- @column ttft_p50_ms [ms] TTFT, P50 (metric_stats.p50 of ttft_ms).
-- @column ttft_p95_ms [ms] TTFT, P95 (metric_stats.p95 of ttft_ms).
-- @column ttft_p99_ms [ms] TTFT, P99 (metric_stats.p99 of ttft_ms).
-- @column queue_p50_ms [ms] Queue time, P50 (metric_stats.p50 of queue_ms).
-- @column queue_p95_ms [ms] Queue time, P95 (metric_stats.p95 of queue_ms).
-- @column queue_p99_ms [ms] Queue time, P99 (metric_stats.p99 of queue_ms).
-- @column prefill_p50_ms [ms] Prefill time, P50 (metric_stats.p50 of prefill_ms).
-- @column prefill_p95_ms [ms] Prefill time, P95 (metric_stats.p95 of prefill_ms).
-- @column prefill_p99_ms [ms] Prefill time, P99 (metric_stats.p99 of prefill_ms).
-- @column itl_p50_ms [ms] ITL (pooled chunk gaps), P50 (metric_stats.p50 of itl_ms).
-- @column itl_p95_ms [ms] ITL (pooled chunk gaps), P95 (metric_stats.p95 of itl_ms).
-- @column itl_p99_ms [ms] ITL (pooled chunk gaps), P99 (metric_stats.p99 of itl_ms).
-- @column tpot_p50_ms [ms] TPOT, P50 (metric_stats.p50 of tpot_ms).
-- @column tpot_p95_ms [ms] TPOT, P95 (metric_stats.p95 of tpot_ms).
-- @column tpot_p99_ms [ms] TPOT, P99 (metric_stats.p99 of tpot_ms).
-- @column e2e_p50_ms [ms] E2E latency, P50 (metric_stats.p50 of e2e_ms).
-- @column e2e_p95_ms [ms] E2E latency, P95 (metric_stats.p95 of e2e_ms).
-- @column e2e_p99_ms [ms] E2E latency, P99 (metric_stats.p99 of e2e_ms).
CREATE OR REPLACE VIEW report_latency AS
SELECT
    s.run,
    max(p50) FILTER (WHERE s.metric = 'ttft_ms')::DOUBLE AS ttft_p50_ms,
    max(p95) FILTER (WHERE s.metric = 'ttft_ms')::DOUBLE AS ttft_p95_ms,
    max(p99) FILTER (WHERE s.metric = 'ttft_ms')::DOUBLE AS ttft_p99_ms,
    max(p50) FILTER (WHERE s.metric = 'queue_ms')::DOUBLE AS queue_p50_ms,
    max(p95) FILTER (WHERE s.metric = 'queue_ms')::DOUBLE AS queue_p95_ms,
    max(p99) FILTER (WHERE s.metric = 'queue_ms')::DOUBLE AS queue_p99_ms,
    max(p50) FILTER (WHERE s.metric = 'prefill_ms')::DOUBLE AS prefill_p50_ms,
    max(p95) FILTER (WHERE s.metric = 'prefill_ms')::DOUBLE AS prefill_p95_ms,
    max(p99) FILTER (WHERE s.metric = 'prefill_ms')::DOUBLE AS prefill_p99_ms,
    max(p50) FILTER (WHERE s.metric = 'itl_ms')::DOUBLE AS itl_p50_ms,
    max(p95) FILTER (WHERE s.metric = 'itl_ms')::DOUBLE AS itl_p95_ms,
    max(p99) FILTER (WHERE s.metric = 'itl_ms')::DOUBLE AS itl_p99_ms,
    max(p50) FILTER (WHERE s.metric = 'tpot_ms')::DOUBLE AS tpot_p50_ms,
    max(p95) FILTER (WHERE s.metric = 'tpot_ms')::DOUBLE AS tpot_p95_ms,
    max(p99) FILTER (WHERE s.metric = 'tpot_ms')::DOUBLE AS tpot_p99_ms,
    max(p50) FILTER (WHERE s.metric = 'e2e_ms')::DOUBLE AS e2e_p50_ms,
    max(p95) FILTER (WHERE s.metric = 'e2e_ms')::DOUBLE AS e2e_p95_ms,
    max(p99) FILTER (WHERE s.metric = 'e2e_ms')::DOUBLE AS e2e_p99_ms
FROM metric_stats AS s
JOIN run_summary AS r USING (run)
GROUP BY s.run, r.level_kind, r.level
ORDER BY r.level_kind NULLS LAST, r.level NULLS LAST, natural_sort_key(s.run), s.run
