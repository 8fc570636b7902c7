-- The time axis of each run's charts: for a run whose requests are all on one clock, that clock
-- and the run's first arrival on it (t = 0 of the axis). Runs whose requests each have their own
-- clock (a tool without send times) or no arrival times have no row, and no time axis.
-- @grain one row per run with its requests on one clock
-- @column run [id] Run.
-- @column clock_id [id] The clock of the run's requests.
-- @column origin_ns [ns] The run's first arrival on it.
CREATE OR REPLACE VIEW report_clocks AS
SELECT run, min(clock_id)::BIGINT AS clock_id, min(arrival_ns)::BIGINT AS origin_ns
FROM request_latency
WHERE clock_id IS NOT NULL AND arrival_ns IS NOT NULL
GROUP BY run
HAVING count(DISTINCT clock_id) = 1
ORDER BY natural_sort_key(run), run
