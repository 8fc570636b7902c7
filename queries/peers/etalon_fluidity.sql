-- Etalon's service-level deadline figures of each run (etalon/metrics/metric_utils.py,
-- get_service_level_deadline_miss_rate): the missed deadlines of all requests over all their
-- deadlines (etalon_deadlines), so long requests weigh more, and the fluidity index 1 minus that
-- rate; beside them the per-request miss rates' mean and the share of requests whose own
-- fluidity index reaches 0.9 (Etalon's fluid token generation rate is the highest load at which
-- 99 % of requests do: a sweep over runs, level_summary's job, not one run's figure).
-- @grain one row per run with measured ok requests
-- @example SELECT * FROM etalon_fluidity(100, 50)
-- @param ttft_deadline_ms TTFT target in ms.
-- @param tbt_deadline_ms Time-between-tokens target in ms; must be > 0.
-- @column run [id] Run name.
-- @column requests [count] Requests counted.
-- @column deadlines [count] Deadlines of all requests.
-- @column missed_deadlines [count] Deadlines missed.
-- @column deadline_miss_rate [ratio] missed_deadlines / deadlines (Etalon's service-level rate).
-- @column fluidity_index [ratio] 1 - deadline_miss_rate.
-- @column mean_request_miss_rate [ratio] Mean of the requests' own deadline miss rates.
-- @column fluid_requests [ratio] Share of requests with a fluidity index of at least 0.9.
CREATE OR REPLACE MACRO etalon_fluidity(ttft_deadline_ms, tbt_deadline_ms) AS TABLE
SELECT
    run,
    count(*) AS requests,
    sum(deadlines)::BIGINT AS deadlines,
    sum(missed_deadlines)::BIGINT AS missed_deadlines,
    coalesce(sum(missed_deadlines) / nullif(sum(deadlines), 0), 0) AS deadline_miss_rate,
    1 - coalesce(sum(missed_deadlines) / nullif(sum(deadlines), 0), 0) AS fluidity_index,
    avg(deadline_miss_rate) AS mean_request_miss_rate,
    avg(CASE WHEN fluidity_index >= 0.9 THEN 1.0 ELSE 0.0 END) AS fluid_requests
FROM etalon_deadlines(ttft_deadline_ms, tbt_deadline_ms)
GROUP BY run
ORDER BY run
