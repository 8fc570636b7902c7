-- slo_attainment as the report shows it (the targets are in the report's SLO line), typed for the
-- report and ordered as it lists runs. Columns as slo_attainment.
-- @grain one row per run
-- @column run [id] Run.
-- @column level_kind [text] concurrency or request_rate.
-- @column level [level_kind] The level.
-- @column requests [count] Measured requests.
-- @column attaining [count] Measured requests that are ok and meet every target.
-- @column attainment [ratio] attaining / requests.
-- @column goodput_per_s [1/s] attaining / the run's measured window (request goodput, run).
CREATE OR REPLACE VIEW report_slo_attainment AS
SELECT run, level_kind, level::DOUBLE AS level, requests::BIGINT AS requests,
    attaining::BIGINT AS attaining, attainment::DOUBLE AS attainment, goodput_per_s::DOUBLE AS goodput_per_s
FROM slo_attainment
ORDER BY level_kind NULLS LAST, level NULLS LAST, natural_sort_key(run), run
