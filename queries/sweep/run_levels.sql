-- The level of each run: as labelled (a record field, the tool's own file, or the run's name —
-- runs.notes says which), and as detected from the requests themselves: the time-weighted mean
-- of requests in flight over the run's measured window, which for a closed-loop load test at
-- concurrency C is close to C. detected_concurrency rounds it; use it for runs without a label.
-- @grain one row per run
-- @column run [id] Run.
-- @column level_kind [text] concurrency or request_rate, as labelled; NULL without a label.
-- @column level [level_kind] The labelled level.
-- @column label_source [text] Where the label came from (runs.notes).
-- @column mean_in_flight [count] Time-weighted mean of requests in flight over the measured window.
-- @column max_in_flight [count] Most requests in flight at once in the window.
-- @column detected_concurrency [count] mean_in_flight rounded to a whole number.
CREATE OR REPLACE VIEW run_levels AS
WITH w AS (
    SELECT run, window_start_ns, window_end_ns FROM run_summary WHERE duration_s IS NOT NULL
),
s AS (
    SELECT g.run,
        sum(g.level * (least(g.t1_ns, w.window_end_ns) - greatest(g.t0_ns, w.window_start_ns)))
            / sum(least(g.t1_ns, w.window_end_ns) - greatest(g.t0_ns, w.window_start_ns)) AS mean_in_flight,
        max(g.level) AS max_in_flight
    FROM _level_segments AS g
    JOIN w USING (run)
    WHERE g.measure = 'in_flight' AND g.basis = 'requests'
        AND g.t1_ns > w.window_start_ns AND g.t0_ns < w.window_end_ns
    GROUP BY g.run
)
SELECT
    u.run,
    u.level_kind,
    u.level,
    u.notes AS label_source,
    s.mean_in_flight,
    s.max_in_flight,
    round(s.mean_in_flight)::INTEGER AS detected_concurrency
FROM runs AS u
LEFT JOIN s USING (run)
ORDER BY u.level_kind NULLS LAST, u.level, natural_sort_key(u.run), u.run
