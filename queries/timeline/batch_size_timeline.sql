-- batch_size_timeline_at with a bucket width that adapts to each run's length.
-- @grain one row per run, clock, method and time bucket with data
-- @column run [id] Run.
-- @column clock_id [id] Clock of bucket_start_ns.
-- @column method [text] steps, tokens or intervals.
-- @column approximate [bool] True for the tokens method on a client clock.
-- @column t_s [s] Start of the bucket, seconds after the run's first segment on this clock.
-- @column bucket_start_ns [ns] Start of the bucket.
-- @column width_s [s] Bucket width.
-- @column batch_mean [count] Time-weighted mean batch size.
-- @column batch_max [count] Largest batch in the bucket.
-- @column coverage [ratio] Share of the bucket the method has data for, 0..1.
-- @column bucket_start_ts [timestamp] bucket_start_ns as a TIMESTAMP (UTC, µs) for notebooks; NULL unless the clock is wall.
CREATE OR REPLACE VIEW batch_size_timeline AS
SELECT * FROM batch_size_timeline_at(NULL)
