-- concurrency_timeline_at with a bucket width that adapts to each run's length (about a hundred
-- buckets of 1, 2 or 5 x 10^k seconds).
-- @grain one row per run, clock and time bucket
-- @column run [id] Run.
-- @column clock_id [id] Clock of bucket_start_ns.
-- @column t_s [s] Start of the bucket, seconds after the run's first arrival on this clock.
-- @column bucket_start_ns [ns] Start of the bucket.
-- @column width_s [s] Bucket width.
-- @column in_flight_mean [count] Mean requests in flight.
-- @column in_flight_max [count] Most requests in flight at once.
-- @column queued_mean [count] Mean requests waiting to be scheduled.
-- @column queued_max [count] Most requests waiting at once.
-- @column running_mean [count] Mean requests scheduled and not finished.
-- @column running_max [count] Most requests running at once.
-- @column bucket_start_ts [timestamp] bucket_start_ns as a TIMESTAMP (UTC, µs) for notebooks; NULL unless the clock is wall.
CREATE OR REPLACE VIEW concurrency_timeline AS
SELECT * FROM concurrency_timeline_at(NULL)
