-- How to read a timestamp of one clock on another: for each pair of clocks that clock_anchors
-- relates (in both directions), the median difference of their paired readings. Two wall clocks
-- (both Unix time) whose readings differ by less than the coarser one's resolution agree: the
-- difference is the coarser clock's rounding, not an offset, and is taken as 0 (a log clock of
-- 1 s beside a 1 µs one). Wall clocks further apart (a time zone assumed wrongly) keep the median.
-- @grain one row per ordered pair of clocks related by clock_anchors
-- @column from_clock [id] The clock a timestamp is on.
-- @column to_clock [id] The clock to read it on.
-- @column offset_ns [ns] Add to a timestamp of from_clock to place it on to_clock.
-- @column anchors [count] Pairs of readings the offset rests on.
CREATE OR REPLACE VIEW _clock_offsets AS
WITH pairs AS (
    SELECT clock_a AS from_clock, clock_b AS to_clock, ns_b - ns_a AS d FROM clock_anchors
    UNION ALL
    SELECT clock_b, clock_a, ns_a - ns_b FROM clock_anchors
),
med AS (
    SELECT from_clock, to_clock, quantile_disc(d, 0.5) AS d, count(*) AS anchors
    FROM pairs
    WHERE from_clock <> to_clock AND d IS NOT NULL
    GROUP BY from_clock, to_clock
)
SELECT m.from_clock::BIGINT AS from_clock, m.to_clock::BIGINT AS to_clock,
    (CASE WHEN f.kind = 'wall' AND t.kind = 'wall'
            AND abs(m.d) < greatest(f.resolution_ns, t.resolution_ns) THEN 0
        ELSE m.d END)::BIGINT AS offset_ns,
    m.anchors::BIGINT AS anchors
FROM med AS m
JOIN clocks AS f ON f.clock_id = m.from_clock
JOIN clocks AS t ON t.clock_id = m.to_clock
