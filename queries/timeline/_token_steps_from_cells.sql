-- Engine steps found from token timestamps, from cells with _token_cells' columns in the table or
-- view cells_from (_token_cells, or a snapshot of it). One pass over the cells in time order gives
-- the previous cell's last chunk (a step starts where the gap to it is over the tolerance) and the
-- requests counted before the cell; a step's batch is then the difference of that running count at
-- its start and at the next step's start, so the steps need no grouping (two window passes in all;
-- grouping the steps takes four). The passes order every run and clock one after another instead
-- of partitioning by them: DuckDB sorts one ordered window in parallel but evaluates a partition on
-- one thread, and a day's run is one partition. So a previous cell or step counts only where it is
-- of the same run and clock, and the running count, taken over all runs, is still right as a
-- difference: after a run's last step comes the next run's first, whose count before it is the
-- total up to the end of the run. After the last step of all comes the last cell, kept in the
-- second pass for that (its count includes itself: the total), so no pass over all cells is needed
-- for the total, which a window over the whole input or a second read of a live cells_from would
-- be. The next start's count is coalesce(lead(…), …) rather than lead's three-argument form:
-- DuckDB 2.0 stores that form in a way DuckDB 1.5 cannot bind ("LEAD needs 1 parameter"). A chunk
-- appears when its step ends, so a step runs from the previous group of chunks to its own: the
-- first group of a run has no start (t0_ns NULL).
-- @grain one row per engine step per run and clock
-- @param cells_from Name of a table or view with _token_cells' columns.
-- @column run [id] Run.
-- @column clock_id [id] Clock of t0_ns and t1_ns.
-- @column t0_ns [ns] The previous step's first chunk (NULL for a run's first step).
-- @column t1_ns [ns] The step's first chunk.
-- @column level [count] Requests in the step (its batch).
CREATE OR REPLACE MACRO _token_steps_from_cells(cells_from) AS TABLE
WITH pass AS (
    SELECT run, clock_id, t_min, requests,
        CASE WHEN lag(run) OVER w IS NOT DISTINCT FROM run AND lag(clock_id) OVER w IS NOT DISTINCT FROM clock_id
            THEN lag(t_max) OVER w END AS prev_max,
        -- BIGINT: a sum is a HUGEINT, slower to carry through the second pass
        (sum(requests) OVER (w ROWS UNBOUNDED PRECEDING))::BIGINT - requests AS counted_before,
        lead(cell) OVER w IS NULL AS last_cell
    FROM query_table(cells_from)
    WINDOW w AS (ORDER BY run, clock_id, cell)
),
-- the steps' first cells, and the last cell of all; mark: the count the step before ends at
edges AS (
    SELECT run, clock_id, t_min, requests, counted_before, starts,
        CASE WHEN starts THEN counted_before ELSE counted_before + requests END AS mark
    FROM (
        SELECT *, prev_max IS NULL OR t_min - prev_max > _step_tolerance_ns() AS starts
        FROM pass
    )
    WHERE starts OR last_cell
)
SELECT run, clock_id, t0_ns, t1_ns, level
FROM (
    SELECT run, clock_id, starts,
        CASE WHEN lag(run) OVER w IS NOT DISTINCT FROM run AND lag(clock_id) OVER w IS NOT DISTINCT FROM clock_id
            THEN lag(t_min) OVER w END AS t0_ns,
        t_min AS t1_ns,
        (coalesce(lead(mark) OVER w, counted_before + requests) - counted_before)::INTEGER AS level
    FROM edges
    WINDOW w AS (ORDER BY run, clock_id, t_min)
)
WHERE starts
