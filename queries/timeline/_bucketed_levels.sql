-- The segments of _level_segments resampled to buckets of bucket_s seconds (NULL: an adaptive
-- width, about a hundredth of the run's span rounded to 1, 2 or 5 x 10^k, at least 1 ms). The
-- buckets of a run on one clock share one grid, so measures and bases line up. Per bucket: the
-- time-weighted mean level over the part of the bucket the basis covers, the highest level, and
-- the share of the bucket covered; a bucket no segment touches has no row (no data).
-- @grain one row per run, clock, measure, basis and bucket with data
-- @param bucket_s Bucket width in seconds, or NULL for the adaptive width.
-- @param measures The measures wanted, a list: the others' segments are dropped before the
-- buckets (the concurrency timeline read every token step's segment and threw it away after
-- aggregating; the grid still spans every measure).
-- @example SELECT * FROM _bucketed_levels(NULL, ['batch'])
-- @column run [id] Run.
-- @column clock_id [id] Clock of the buckets.
-- @column measure [text] As _level_segments.
-- @column basis [text] As _level_segments.
-- @column approximate [bool] As _level_segments.
-- @column b [count] Bucket number from the start of the run on this clock.
-- @column bucket_start_ns [ns] Start of the bucket.
-- @column t_s [s] Start of the bucket, seconds after the first segment of the run on this clock.
-- @column width_s [s] Bucket width.
-- @column mean [count] Time-weighted mean over the covered part (lanes added up).
-- @column max [count] Highest level in the bucket (lanes added up: an upper bound with several).
-- @column coverage [ratio] Covered share of the bucket, 0..1 (the largest of the lanes).
CREATE OR REPLACE MACRO _bucketed_levels(bucket_s, measures) AS TABLE
WITH seg AS (
    SELECT * FROM _level_segments WHERE list_contains(measures, measure)
),
-- one grid per run and clock for every measure, so timelines line up; it spans every segment.
-- Token steps lie between the run's first and last content chunk (_request_tokens), which bound
-- them without finding the steps (the costly part of _level_segments), and a timeline of another
-- measure never computes them.
span AS (
    SELECT run, clock_id, min(t0_ns) AS start_ns, max(t1_ns) AS end_ns
    FROM (
        SELECT run, clock_id, t0_ns, t1_ns FROM _level_segments WHERE basis <> 'tokens'
        UNION ALL
        SELECT r.run, r.clock_id, min(t.first_content_ns), max(t.last_content_ns)
        FROM _request_tokens AS t
        JOIN requests AS r USING (request_key)
        GROUP BY r.run, r.clock_id
    )
    GROUP BY run, clock_id
),
grid_spec AS (
    SELECT run, clock_id, start_ns, end_ns,
        coalesce((bucket_s * 1e9)::BIGINT, _nice_ns((end_ns - start_ns) / 100)) AS w_ns
    FROM span
),
-- each segment is cut at the bucket edges it crosses (a range per segment, not a join of every
-- bucket with every segment: that was quadratic)
seg_buckets AS MATERIALIZED (
    SELECT s.*, g.start_ns, g.w_ns,
        (s.t0_ns - g.start_ns) // g.w_ns AS b0,
        (s.t1_ns - 1 - g.start_ns) // g.w_ns AS b1
    FROM seg AS s
    JOIN grid_spec AS g USING (run, clock_id)
    WHERE s.t1_ns > s.t0_ns
),
-- A bucket a segment covers whole (neither its first nor its last) needs no aggregate on a basis
-- of one lane: no other segment of the series reaches into it (each series' segments are half-open
-- and follow one another: a sweep line, the token steps), so its mean and max are the segment's
-- level and its coverage 1; only a segment's first and last bucket, which it may share, are cut and
-- summed. Steps and engine stats have lanes (engine instances and ranks) and a lane's segments
-- from several files or epochs may overlap in time: every bucket they touch is cut and summed.
-- Grouping every bucket of every segment was most of a fine token batch timeline's time.
cut AS (
    SELECT run, clock_id, measure, basis, lane, approximate, start_ns, w_ns, t0_ns, t1_ns, level,
        unnest(range(b0, b1 + 1)) AS b
    FROM seg_buckets
    WHERE basis IN ('steps', 'engine_stats')
    UNION ALL
    SELECT run, clock_id, measure, basis, lane, approximate, start_ns, w_ns, t0_ns, t1_ns, level, b0
    FROM seg_buckets
    WHERE basis NOT IN ('steps', 'engine_stats')
    UNION ALL
    SELECT run, clock_id, measure, basis, lane, approximate, start_ns, w_ns, t0_ns, t1_ns, level, b1
    FROM seg_buckets
    WHERE basis NOT IN ('steps', 'engine_stats') AND b1 > b0
),
overlap AS (
    SELECT
        run, clock_id, measure, basis, lane, approximate, b, start_ns, w_ns,
        least(t1_ns, start_ns + (b + 1) * w_ns) - greatest(t0_ns, start_ns + b * w_ns) AS o_ns,
        level
    FROM cut
),
-- kept once (MATERIALIZED) for the two readers below
per_lane AS MATERIALIZED (
    SELECT run, clock_id, measure, basis, lane, b, any_value(start_ns) AS start_ns,
        any_value(w_ns) AS w_ns, bool_or(approximate) AS approximate,
        sum(level * o_ns) / sum(o_ns) AS mean,
        max(level) AS max,
        sum(o_ns) / any_value(w_ns) AS coverage
    FROM overlap
    WHERE o_ns > 0
    GROUP BY run, clock_id, measure, basis, lane, b
    UNION ALL
    SELECT run, clock_id, measure, basis, lane, b, start_ns, w_ns, approximate, level AS mean, level AS max,
        1.0::DOUBLE AS coverage
    FROM (
        SELECT *, unnest(range(b0 + 1, b1)) AS b
        FROM seg_buckets
        WHERE basis NOT IN ('steps', 'engine_stats')
    )
)
-- Lanes add up, so bases with lanes (engine instances and ranks) are summed per bucket; the other
-- bases have one lane, and their rows pass as they are: a second hash aggregate over every
-- bucket took a third of a 10 ms token batch timeline's time.
SELECT
    run,
    clock_id,
    measure,
    basis,
    bool_or(approximate) AS approximate,
    b,
    any_value(start_ns) + b * any_value(w_ns) AS bucket_start_ns,
    b * any_value(w_ns) / 1e9 AS t_s,
    any_value(w_ns) / 1e9 AS width_s,
    sum(mean) AS mean,
    sum(max) AS max,
    max(coverage) AS coverage
FROM per_lane
WHERE basis IN ('steps', 'engine_stats')
GROUP BY run, clock_id, measure, basis, b
UNION ALL
SELECT run, clock_id, measure, basis, approximate, b, start_ns + b * w_ns AS bucket_start_ns,
    b * w_ns / 1e9 AS t_s, w_ns / 1e9 AS width_s, mean, max, coverage
FROM per_lane
WHERE basis NOT IN ('steps', 'engine_stats')
