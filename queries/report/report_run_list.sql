-- The runs of the database with their labelled level, without computing anything from their
-- requests (run_levels and run_summary do), for choosing runs by name or level; in natural order
-- of kind of level, level and name (c1, c4, c16).
-- @grain one row per run
-- @column run [id] Run.
-- @column level_kind [text] concurrency or request_rate; NULL without a level.
-- @column level [level_kind] The labelled level.
-- @column repeat [count] The repeat number, when labelled.
-- @column sort_key [text] natural_sort_key(run).
CREATE OR REPLACE VIEW report_run_list AS
SELECT run, level_kind, level::DOUBLE AS level, "repeat", natural_sort_key(run) AS sort_key
FROM runs
ORDER BY level_kind NULLS LAST, level NULLS LAST, sort_key, run
