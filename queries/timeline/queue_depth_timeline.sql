-- queue_depth_timeline_at with a bucket width that adapts to each run's length.
-- @grain one row per run, clock, basis and time bucket with data
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
CREATE OR REPLACE VIEW queue_depth_timeline AS
SELECT * FROM queue_depth_timeline_at(NULL)
