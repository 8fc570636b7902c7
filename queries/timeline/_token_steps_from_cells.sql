-- Engine steps found from token timestamps, from cells with _token_cells' columns in the table or
-- view cells_from (_token_cells, or a snapshot of it). One pass
-- over the cells in time order gives the previous cell's last chunk (a step starts where the gap
-- to it is over the tolerance) and the requests counted before the cell; a step's batch is then
-- the difference of that running count at its start and at the next step's start, so the steps
-- need no grouping (two window passes in all; grouping the steps takes four). The next start's
-- count is coalesce(lead(…), total) rather than lead's three-argument form: DuckDB 2.0 stores
-- that form in a way DuckDB 1.5 cannot bind ("LEAD needs 1 parameter"). A chunk appears when its step ends, so a step runs from the previous group of
-- chunks to its own: the first group of a run has no start (t0_ns NULL).
-- @grain one row per engine step per run and clock
-- @param cells_from Name of a table or view with _token_cells' columns.
-- @column run [id] Run.
-- @column clock_id [id] Clock of t0_ns and t1_ns.
-- @column t0_ns [ns] The previous step's first chunk (NULL for a run's first step).
-- @column t1_ns [ns] The step's first chunk.
-- @column level [count] Requests in the step (its batch).
CREATE OR REPLACE MACRO _token_steps_from_cells(cells_from) AS TABLE
WITH pass AS (
    SELECT run, clock_id, cell, t_min,
        lag(t_max) OVER w AS prev_max,
        sum(requests) OVER (w ROWS UNBOUNDED PRECEDING) - requests AS counted_before,
        sum(requests) OVER (PARTITION BY run, clock_id) AS counted_total
    FROM query_table(cells_from)
    WINDOW w AS (PARTITION BY run, clock_id ORDER BY cell)
)
SELECT run, clock_id,
    lag(t_min) OVER w AS t0_ns,
    t_min AS t1_ns,
    (coalesce(lead(counted_before) OVER w, counted_total) - counted_before)::INTEGER AS level
FROM pass
WHERE prev_max IS NULL OR t_min - prev_max > _step_tolerance_ns()
WINDOW w AS (PARTITION BY run, clock_id ORDER BY cell)
