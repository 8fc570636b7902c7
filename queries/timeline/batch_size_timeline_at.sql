-- Effective batch size over time, three ways, each labelled (method): steps — from the engine's
-- iteration records (context + generation requests per step; exact); tokens — from per-token
-- timestamps, grouping chunks of different requests within tt_step_tolerance_ns (default 1 ms)
-- into one engine step and counting its requests (reliable on server-side timestamps, flagged
-- approximate on a client clock); intervals — a sweep line over scheduled -> last token. All
-- three are time-weighted means per bucket of bucket_s seconds on one grid per run and clock, so
-- they can be compared bucket by bucket where they overlap.
-- @grain one row per run, clock, method and time bucket with data
-- @param bucket_s Bucket width in seconds, or NULL to adapt to the run's length.
-- @example SELECT * FROM batch_size_timeline_at(1.0)
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
CREATE OR REPLACE MACRO batch_size_timeline_at(bucket_s) AS TABLE
-- the bucket start as a TIMESTAMP only on a wall clock (a steady clock's epoch is arbitrary)
SELECT q.*,
    CASE WHEN ck.kind = 'wall' THEN make_timestamp(q.bucket_start_ns // 1000) END AS bucket_start_ts
FROM (
    SELECT
        run,
        clock_id,
        basis AS method,
        approximate,
        t_s,
        bucket_start_ns,
        width_s,
        mean AS batch_mean,
        max AS batch_max,
        coverage
    FROM _bucketed_levels(bucket_s, ['batch'])
    WHERE measure = 'batch'
) AS q
LEFT JOIN clocks AS ck ON ck.clock_id = q.clock_id
ORDER BY q.run, q.clock_id, q.t_s, list_position(['steps', 'tokens', 'intervals'], method)
