-- DistServe's goodput (OSDI'24): across a sweep, the highest level at which SLO attainment stays
-- at or above tt_slo_attainment (default 0.9), found by linear interpolation between the last
-- level that attains it and the next that does not — a request rate for request_rate sweeps
-- (DistServe's requests/s, per GPU when the run is per GPU), or a concurrency. This is not the
-- "request goodput (run)" of slo_attainment (attaining requests per second of one run). The
-- per-request targets are slo_attainment's session variables; attainment per level is the median
-- over its repeats, of the runs selected (_run_selected: tt_runs, tokentime's --run).
-- @grain one row per sweep (level_kind)
-- @column level_kind [text] concurrency or request_rate.
-- @column attainment_target [ratio] The attainment the goodput keeps (default 0.9).
-- @column levels [count] Levels in the sweep.
-- @column last_attaining_level [level_kind] Highest level, in order, before attainment first falls below the target.
-- @column first_failing_level [level_kind] The level after it, NULL when every level attains.
-- @column goodput [level_kind] The interpolated level where attainment crosses the target; the
-- highest level when all attain; NULL when even the lowest level misses.
-- @column goodput_interpolated [bool] Whether goodput lies between two levels run (interpolated)
-- rather than being a level that was run; NULL when there is no goodput.
-- @column goodput_note [text] The goodput in words, saying whether it is a level run or
-- interpolated and between which levels, e.g. "5.2, interpolated between 4 (attains) and 8 (misses)".
CREATE OR REPLACE VIEW distserve_goodput AS
WITH per_level AS (
    SELECT level_kind, level, median(attainment) AS attainment
    FROM slo_attainment
    WHERE level_kind IS NOT NULL AND attainment IS NOT NULL AND _run_selected(run)
    GROUP BY level_kind, level
),
ordered AS (
    SELECT *,
        coalesce(getvariable('tt_slo_attainment'), 0.9) AS target,
        row_number() OVER (PARTITION BY level_kind ORDER BY level) AS pos
    FROM per_level
),
first_fail AS (
    SELECT level_kind, min(pos) AS pos FROM ordered WHERE attainment < target GROUP BY level_kind
),
pairs AS (
    SELECT o.level_kind, any_value(o.target) AS target, count(*) AS levels,
        max(o.level) FILTER (WHERE o.pos = f.pos - 1) AS l1,
        max(o.attainment) FILTER (WHERE o.pos = f.pos - 1) AS a1,
        max(o.level) FILTER (WHERE o.pos = f.pos) AS l2,
        max(o.attainment) FILTER (WHERE o.pos = f.pos) AS a2,
        max(o.level) AS top_level,
        any_value(f.pos) AS fail_pos
    FROM ordered AS o
    LEFT JOIN first_fail AS f USING (level_kind)
    GROUP BY o.level_kind
),
figures AS (
    SELECT *,
        CASE
            WHEN fail_pos IS NULL THEN top_level
            WHEN l1 IS NULL THEN NULL
            ELSE l1 + (a1 - target) * (l2 - l1) / (a1 - a2)
        END AS goodput
    FROM pairs
)
SELECT
    level_kind,
    target AS attainment_target,
    levels,
    CASE WHEN fail_pos IS NULL THEN top_level ELSE l1 END AS last_attaining_level,
    l2 AS first_failing_level,
    goodput,
    CASE WHEN goodput IS NULL THEN NULL ELSE fail_pos IS NOT NULL AND goodput <> l1 END AS goodput_interpolated,
    CASE
        WHEN fail_pos IS NULL THEN _level_text(top_level) || ', the highest level run (every level attains)'
        WHEN l1 IS NULL THEN 'none: even the lowest level run, ' || _level_text(l2) || ', misses'
        WHEN goodput = l1 THEN _level_text(l1) || ', a level run (the next, ' || _level_text(l2) || ', misses)'
        ELSE _level_text(round(goodput, 2)) || ', interpolated between ' || _level_text(l1) || ' (attains) and '
            || _level_text(l2) || ' (misses)'
    END AS goodput_note
FROM figures
ORDER BY level_kind
