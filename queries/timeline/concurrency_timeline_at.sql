-- Concurrency over time from request intervals, in buckets of bucket_s seconds: requests in
-- flight (arrival to finish, queued ones included: what the methodology calls concurrency),
-- waiting in the queue (arrival or queued to first scheduled) and running (scheduled to last
-- token). Each figure is the time-weighted mean over the bucket and its highest value; warm-up
-- requests count (they occupy the server). Runs without arrival and finish times have no rows;
-- queue_depth_timeline also reads engine stats and steps.
-- @grain one row per run, clock and time bucket
-- @param bucket_s Bucket width in seconds, or NULL to adapt to the run's length.
-- @example SELECT * FROM concurrency_timeline_at(1.0)
-- @column run [id] Run.
-- @column clock_id [id] Clock of bucket_start_ns.
-- @column t_s [s] Start of the bucket, seconds after the run's first arrival on this clock.
-- @column bucket_start_ns [ns] Start of the bucket.
-- @column width_s [s] Bucket width.
-- @column in_flight_mean [count] Mean requests in flight.
-- @column in_flight_max [count] Most requests in flight at once.
-- @column queued_mean [count] Mean requests waiting to be scheduled (NULL without scheduling times).
-- @column queued_max [count] Most requests waiting at once.
-- @column running_mean [count] Mean requests scheduled and not finished.
-- @column running_max [count] Most requests running at once.
-- @column bucket_start_ts [timestamp] bucket_start_ns as a TIMESTAMP (UTC, µs) for notebooks; NULL unless the clock is wall.
CREATE OR REPLACE MACRO concurrency_timeline_at(bucket_s) AS TABLE
-- the bucket start as a TIMESTAMP only on a wall clock (a steady clock's epoch is arbitrary)
SELECT q.*,
    CASE WHEN ck.kind = 'wall' THEN make_timestamp(q.bucket_start_ns // 1000) END AS bucket_start_ts
FROM (
    SELECT
        run,
        clock_id,
        t_s,
        bucket_start_ns,
        width_s,
        max(mean) FILTER (WHERE measure = 'in_flight') AS in_flight_mean,
        max(max) FILTER (WHERE measure = 'in_flight') AS in_flight_max,
        max(mean) FILTER (WHERE measure = 'queued') AS queued_mean,
        max(max) FILTER (WHERE measure = 'queued') AS queued_max,
        max(mean) FILTER (WHERE measure = 'running') AS running_mean,
        max(max) FILTER (WHERE measure = 'running') AS running_max
    FROM _bucketed_levels(bucket_s, ['in_flight', 'queued', 'running'])
    WHERE basis = 'requests'
    GROUP BY run, clock_id, b, t_s, bucket_start_ns, width_s
) AS q
LEFT JOIN clocks AS ck ON ck.clock_id = q.clock_id
ORDER BY q.run, q.clock_id, q.t_s
