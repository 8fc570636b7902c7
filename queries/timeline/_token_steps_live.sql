-- Engine steps found from every content chunk (_token_steps_from_cells over _token_cells), at the
-- session's step tolerance: the token batch method of _level_segments. A task that reads the
-- timelines several times (the report) snapshots _token_cells and then this view first: inside a
-- whole timeline query DuckDB ran the per-cell aggregate under memory pressure, about ten times
-- slower than the aggregate alone.
-- @grain one row per engine step per run and clock
-- @column run [id] Run.
-- @column clock_id [id] Clock of t0_ns and t1_ns.
-- @column t0_ns [ns] The previous step's first chunk (NULL for a run's first step).
-- @column t1_ns [ns] The step's first chunk.
-- @column level [count] Requests in the step (its batch).
CREATE OR REPLACE VIEW _token_steps_live AS
SELECT * FROM _token_steps_from_cells('_token_cells')
