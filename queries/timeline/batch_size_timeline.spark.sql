-- Spark variant of batch_size_timeline (timeline/batch_size_timeline.sql), steps method only: the
-- effective batch size from the engine's iteration records (context + generation requests per
-- step, else running; a step holds until the next step of its lane, and lanes add up), as a
-- time-weighted mean per bucket, with the same definitions as the DuckDB view's steps rows. The
-- bucket width is ${tt_bucket_s} seconds (Spark's variable substitution: the installer sets it,
-- 1 s unless told); the grid of a run on a clock starts at its first arrival, step or content
-- chunk, as the DuckDB grid does for runs whose requests start at arrival. The tokens and
-- intervals methods are not ported.
-- @grain one row per run, clock and time bucket with step data
-- @column run [id] Run.
-- @column clock_id [id] Clock of bucket_start_ns.
-- @column method [text] steps.
-- @column approximate [bool] False (steps are exact).
-- @column t_s [s] Start of the bucket, seconds after the start of the run's grid on this clock.
-- @column bucket_start_ns [ns] Start of the bucket.
-- @column width_s [s] Bucket width.
-- @column batch_mean [count] Time-weighted mean batch size.
-- @column batch_max [count] Largest batch in the bucket (summed over lanes).
-- @column coverage [ratio] Share of the bucket the steps cover, 0..1.
CREATE OR REPLACE VIEW batch_size_timeline AS
WITH st AS (
    SELECT
        src.run,
        s.clock_id,
        coalesce(s.instance, '') || '/' || coalesce(CAST(s.rank AS STRING), '') AS lane,
        s.ts_ns,
        lead(s.ts_ns) OVER (PARTITION BY src.run, s.clock_id, s.instance, s.rank, s.epoch ORDER BY s.ts_ns) AS next_ns,
        coalesce(s.ctx_requests + s.gen_requests, s.ctx_requests, s.gen_requests, s.running) AS batch
    FROM steps AS s
    JOIN sources AS src ON src.source_id = s.source_id
    WHERE s.ts_ns IS NOT NULL
),
seg AS (
    SELECT run, clock_id, lane, ts_ns AS t0_ns, next_ns AS t1_ns, batch AS level
    FROM st
    WHERE next_ns > ts_ns
),
span AS (
    SELECT run, clock_id, min(t0) AS start_ns
    FROM (
        SELECT run, clock_id, t0_ns AS t0 FROM seg
        UNION ALL
        SELECT run, clock_id, arrival_ns FROM requests WHERE arrival_ns IS NOT NULL
        UNION ALL
        SELECT r.run, r.clock_id, t.first_content_ns
        FROM _request_tokens AS t JOIN requests AS r ON r.request_key = t.request_key
        WHERE t.first_content_ns IS NOT NULL
    ) AS a
    GROUP BY run, clock_id
),
cut AS (
    SELECT s.run, s.clock_id, s.lane, s.t0_ns, s.t1_ns, s.level, g.start_ns, w.w_ns,
        explode(sequence((s.t0_ns - g.start_ns) div w.w_ns, (s.t1_ns - 1 - g.start_ns) div w.w_ns)) AS b
    FROM seg AS s
    JOIN span AS g ON g.run = s.run AND g.clock_id = s.clock_id
    CROSS JOIN (SELECT CAST(${tt_bucket_s} * 1e9 AS BIGINT) AS w_ns) AS w
),
overlap AS (
    SELECT run, clock_id, lane, b, start_ns, w_ns, level,
        least(t1_ns, start_ns + (b + 1) * w_ns) - greatest(t0_ns, start_ns + b * w_ns) AS o_ns
    FROM cut
),
per_lane AS (
    SELECT run, clock_id, lane, b, any_value(start_ns) AS start_ns, any_value(w_ns) AS w_ns,
        sum(level * o_ns) / sum(o_ns) AS mean,
        max(level) AS max,
        sum(o_ns) / any_value(w_ns) AS coverage
    FROM overlap
    WHERE o_ns > 0
    GROUP BY run, clock_id, lane, b
)
SELECT
    run,
    clock_id,
    'steps' AS method,
    false AS approximate,
    b * any_value(w_ns) / 1e9 AS t_s,
    any_value(start_ns) + b * any_value(w_ns) AS bucket_start_ns,
    any_value(w_ns) / 1e9 AS width_s,
    sum(mean) AS batch_mean,
    sum(max) AS batch_max,
    max(coverage) AS coverage
FROM per_lane
GROUP BY run, clock_id, b
ORDER BY run, clock_id, t_s
