-- Iterations missing from TensorRT-LLM iteration statistics: runs of iteration numbers between two
-- iterations present in the same run, instance, rank and epoch. /metrics drains a queue of bounded
-- size, so a poller that falls behind (or, before TensorRT-LLM PR #13405, a Prometheus collector
-- draining the same queue) loses iterations; iter_perf_stats_interval and print_iter_log's rank-0
-- logging leave regular gaps. Repeated iterations (overlapping polls) count once. Epochs are per
-- file: a restart is seen within one file.
-- @grain one row per gap (a run of missing iterations) per run, instance, rank and epoch
-- @column run [id] Run of the steps.
-- @column instance [text] Engine instance ('' when the source names none).
-- @column rank [id] Rank of the records (NULL when the source names none).
-- @column epoch [count] Iteration-counter epoch.
-- @column after_iter [count] Last iteration present before the gap.
-- @column next_iter [count] First iteration present after the gap.
-- @column missing [count] Iterations missing: next_iter - after_iter - 1.
-- @column clock_id [id] Clock of the two timestamps.
-- @column after_ts_ns [ns] Timestamp of after_iter.
-- @column next_ts_ns [ns] Timestamp of next_iter.
-- @column gap_ms [ms] Time between the two, when both are on one clock.
CREATE OR REPLACE VIEW trtllm_iteration_gaps AS
WITH it AS (
    SELECT src.run, coalesce(s.instance, '') AS instance, s.rank, s.epoch, s.iter,
        min(s.ts_ns) AS ts_ns, min(s.clock_id) AS clock_id
    FROM steps AS s
    JOIN sources AS src USING (source_id)
    WHERE src.format = 'trtllm-iter-stats' AND s.iter IS NOT NULL
    GROUP BY ALL
),
seq AS (
    SELECT *,
        lead(iter) OVER w AS next_iter,
        lead(ts_ns) OVER w AS next_ts_ns,
        lead(clock_id) OVER w AS next_clock_id
    FROM it
    WINDOW w AS (PARTITION BY run, instance, rank, epoch ORDER BY iter)
)
SELECT
    run,
    instance,
    rank,
    epoch,
    iter AS after_iter,
    next_iter,
    next_iter - iter - 1 AS missing,
    clock_id,
    ts_ns AS after_ts_ns,
    next_ts_ns,
    CASE WHEN clock_id = next_clock_id THEN (next_ts_ns - ts_ns) / 1e6 END AS gap_ms
FROM seq
WHERE next_iter > iter + 1
ORDER BY run, instance, rank NULLS FIRST, epoch, after_iter
