-- A floor under every run's stall threshold, for the variable tt_stall_floor_ns that the report
-- sets while it reads its stall sections: the lowest threshold of any run (tt_stall_ms when set,
-- else the run's P99 chunk gap from metric_stats, as _itl_stalls_top takes it) in whole ns, less
-- one for rounding. _itl_stalls_top then drops shorter gaps in its scan of the tokens, before
-- they meet their requests (a constant once the query is planned); at or under every threshold,
-- it drops no stall.
-- @grain one row
-- @column floor_ns [ns] The floor; NULL when no run has chunk gaps.
CREATE OR REPLACE VIEW report_stall_floor AS
SELECT floor(min(coalesce(getvariable('tt_stall_ms'), p99)) * 1e6)::BIGINT - 1 AS floor_ns
FROM metric_stats
WHERE metric = 'itl_ms'
