-- Queue depth and running requests over time, from every source that has them, each row saying
-- which (basis): request intervals (queued -> scheduled), the engine's periodic stats (waiting
-- and running as snapshots; a gap in the snapshots is no data, never the last value carried
-- forward) and engine steps. Time-weighted means and highest values per bucket of bucket_s
-- seconds, with the share of the bucket the basis covers.
-- @grain one row per run, clock, basis and time bucket with data
-- @param bucket_s Bucket width in seconds, or NULL to adapt to the run's length.
-- @example SELECT * FROM queue_depth_timeline_at(1.0)
-- @column run [id] Run.
-- @column clock_id [id] Clock of bucket_start_ns.
-- @column basis [text] requests, engine_stats or steps.
-- @column t_s [s] Start of the bucket, seconds after the run's first segment on this clock.
-- @column bucket_start_ns [ns] Start of the bucket.
-- @column width_s [s] Bucket width.
-- @column waiting_mean [count] Mean requests waiting (queued).
-- @column waiting_max [count] Most requests waiting.
-- @column running_mean [count] Mean requests running.
-- @column running_max [count] Most requests running.
-- @column coverage [ratio] Share of the bucket the basis has data for, 0..1.
-- @column bucket_start_ts [timestamp] bucket_start_ns as a TIMESTAMP (UTC, µs) for notebooks; NULL unless the clock is wall.
CREATE OR REPLACE MACRO queue_depth_timeline_at(bucket_s) AS TABLE
-- the bucket start as a TIMESTAMP only on a wall clock (a steady clock's epoch is arbitrary)
SELECT q.*,
    CASE WHEN ck.kind = 'wall' THEN make_timestamp(q.bucket_start_ns // 1000) END AS bucket_start_ts
FROM (
    SELECT
        run,
        clock_id,
        basis,
        t_s,
        bucket_start_ns,
        width_s,
        max(mean) FILTER (WHERE measure IN ('queued', 'waiting')) AS waiting_mean,
        max(max) FILTER (WHERE measure IN ('queued', 'waiting')) AS waiting_max,
        max(mean) FILTER (WHERE measure = 'running') AS running_mean,
        max(max) FILTER (WHERE measure = 'running') AS running_max,
        max(coverage) AS coverage
    FROM _bucketed_levels(bucket_s, ['queued', 'waiting', 'running'])
    WHERE measure IN ('queued', 'waiting', 'running') AND basis IN ('requests', 'engine_stats', 'steps')
    GROUP BY run, clock_id, basis, b, t_s, bucket_start_ns, width_s
) AS q
LEFT JOIN clocks AS ck ON ck.clock_id = q.clock_id
ORDER BY q.run, q.clock_id, q.basis, q.t_s
