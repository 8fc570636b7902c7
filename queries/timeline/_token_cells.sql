-- The first pass of the token batch method (_level_segments, basis tokens): each run's content
-- chunks counted per cell of one step tolerance (_step_tolerance_ns(), default 1 ms) on their
-- clock. A hash aggregate, which DuckDB can spill, where a window over every chunk of a run in
-- time order ran out of memory at 10 M chunks. Within a cell no two neighbours can be more than
-- the tolerance apart, so steps only break between cells: the same steps as grouping the chunks
-- one by one. A request is counted once per step: a chunk less than the tolerance after the
-- request's previous chunk (gap_ns) is in the same step as it and is not counted again.
-- @grain one row per run, clock and cell with content chunks
-- @column run [id] Run.
-- @column clock_id [id] Clock of the chunks.
-- @column cell [id] ts_ns // _step_tolerance_ns().
-- @column t_min [ns] First chunk in the cell.
-- @column t_max [ns] Last chunk in the cell.
-- @column requests [count] Chunks in the cell that start their request's part of a step.
CREATE OR REPLACE VIEW _token_cells AS
SELECT r.run, r.clock_id, t.ts_ns // _step_tolerance_ns() AS cell,
    min(t.ts_ns) AS t_min, max(t.ts_ns) AS t_max,
    count(*) FILTER (WHERE t.gap_ns IS NULL OR t.gap_ns > _step_tolerance_ns()) AS requests
FROM tokens AS t
JOIN requests AS r USING (request_key)
WHERE t.chunk_kind IN ('content', 'reasoning')
GROUP BY ALL
