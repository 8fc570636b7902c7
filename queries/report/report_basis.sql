-- figure_basis as the report shows it: per run and figure, how many values it rests on, the
-- coarsest clock resolution among its sources and the basis in words. Columns as figure_basis.
-- @grain one row per run and figure
-- @column run [id] Run name.
-- @column figure [text] The figure (ttft_ms, itl_ms, engine_timeline, ...), as figure_basis.
-- @column values [count] Values (or rows) the figure rests on.
-- @column coarsest_resolution_ns [ns] Coarsest clock resolution among its sources: the precision of the figure.
-- @column basis [text] Per format: how the values were obtained, how many, on what clock resolution.
CREATE OR REPLACE VIEW report_basis AS
SELECT run, figure, "values"::BIGINT AS "values",
    coarsest_resolution_ns::BIGINT AS coarsest_resolution_ns, basis
FROM figure_basis
ORDER BY natural_sort_key(run), run, figure
