-- The time axis of each run's charts and the clocks placed on it. The axis is the run's request
-- clock, t = 0 at its first arrival: the clock most of its requests are on, provided every other
-- clock of its requests is related to it by clock_anchors (an SGLang log: requests with meta_info
-- times on a 1 µs clock, the others and the scheduler's batch lines on the log's clock). A run
-- without such a clock (each request on its own client clock, or no arrival times) whose engine
-- logged steps has the clock of most of its steps as the axis instead, t = 0 at the first step.
-- Other runs have no row, and no time axis. Beside the axis' own clock, every clock that
-- _clock_offsets relates to it is listed with the same t = 0 read on that clock, so engine steps
-- and stats logged on another clock are drawn on the run's axis.
-- @grain one row per run and clock placed on the run's time axis
-- @column run [id] Run.
-- @column clock_id [id] A clock on the axis: the axis' own, or one related to it by clock_anchors.
-- @column origin_ns [ns] t = 0 of the axis (the first arrival or first engine step), read on this clock.
-- @column axis [bool] True for the axis' own clock: the only one whose requests the load chart counts.
-- @column origin [text] What t = 0 is: first arrival or first engine step.
CREATE OR REPLACE VIEW report_clocks AS
WITH req AS (
    SELECT run, clock_id, count(*) AS n
    FROM request_latency
    WHERE clock_id IS NOT NULL AND arrival_ns IS NOT NULL
    GROUP BY run, clock_id
),
req_ranked AS (
    SELECT *, row_number() OVER (PARTITION BY run ORDER BY n DESC, clock_id) AS k FROM req
),
-- the request clock with most requests, when each other request clock of the run is related to it
req_axis AS (
    SELECT t.run, t.clock_id, 'first arrival' AS origin
    FROM req_ranked AS t
    LEFT JOIN req_ranked AS o ON o.run = t.run AND o.k > 1
    LEFT JOIN _clock_offsets AS f ON f.from_clock = o.clock_id AND f.to_clock = t.clock_id
    WHERE t.k = 1
    GROUP BY t.run, t.clock_id
    HAVING count(o.clock_id) = count(f.to_clock)
),
step_axis AS (
    SELECT run, clock_id, 'first engine step' AS origin
    FROM (
        SELECT s.run, p.clock_id,
            row_number() OVER (PARTITION BY s.run ORDER BY count(*) DESC, p.clock_id) AS k
        FROM steps AS p
        JOIN sources AS s USING (source_id)
        WHERE p.clock_id IS NOT NULL AND p.ts_ns IS NOT NULL
        GROUP BY s.run, p.clock_id
    )
    WHERE k = 1 AND run NOT IN (SELECT run FROM req_axis)
),
axes AS (
    SELECT * FROM req_axis
    UNION ALL
    SELECT * FROM step_axis
),
-- the axis' clock (offset 0) and the clocks related to it
placed AS (
    SELECT run, clock_id, 0::BIGINT AS offset_ns, true AS axis, origin FROM axes
    UNION ALL
    SELECT a.run, f.from_clock, f.offset_ns, false, a.origin
    FROM axes AS a
    JOIN _clock_offsets AS f ON f.to_clock = a.clock_id
),
-- t = 0 on the axis' clock: the first arrival (or first step) on any placed clock, shifted to it
origins AS (
    SELECT p.run, min(r.arrival_ns + p.offset_ns) AS origin_ns
    FROM placed AS p
    JOIN request_latency AS r ON r.run = p.run AND r.clock_id = p.clock_id
    WHERE p.origin = 'first arrival'
    GROUP BY p.run
    UNION ALL
    SELECT p.run, min(st.ts_ns + p.offset_ns)
    FROM placed AS p
    JOIN sources AS s ON s.run = p.run
    JOIN steps AS st ON st.source_id = s.source_id AND st.clock_id = p.clock_id
    WHERE p.origin = 'first engine step'
    GROUP BY p.run
)
SELECT p.run, p.clock_id::BIGINT AS clock_id, (o.origin_ns - p.offset_ns)::BIGINT AS origin_ns,
    p.axis, p.origin
FROM placed AS p
JOIN origins AS o USING (run)
ORDER BY natural_sort_key(p.run), p.run, NOT p.axis, p.clock_id
