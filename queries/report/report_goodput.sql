-- distserve_goodput as the report prints it: per sweep, DistServe's goodput and the note that
-- says whether it is a level that was run or interpolated between two (and which), typed for the
-- report. The per-request targets are slo_attainment's session variables, which the report sets
-- from --slo. Columns as distserve_goodput.
-- @grain one row per sweep (level_kind)
-- @column level_kind [text] concurrency or request_rate.
-- @column attainment_target [ratio] The attainment the goodput keeps (default 0.9).
-- @column goodput [level_kind] The level where attainment crosses the target; NULL when even the lowest level misses.
-- @column goodput_interpolated [bool] Whether goodput lies between two levels run rather than being one.
-- @column goodput_note [text] The goodput in words: a level run, or interpolated between which levels.
CREATE OR REPLACE VIEW report_goodput AS
SELECT level_kind, attainment_target::DOUBLE AS attainment_target, goodput::DOUBLE AS goodput,
    goodput_interpolated, goodput_note
FROM distserve_goodput
ORDER BY level_kind
