-- SLO attainment and goodput per run, for per-request targets set as session variables
-- (tokentime check sets them from --slo; any client may: SET VARIABLE tt_slo_ttft_ms = 1000):
-- tt_slo_ttft_ms, tt_slo_tpot_ms (also used for "itl" targets: a request's time per output
-- token), tt_slo_e2e_ms. A request attains the SLO when it is ok and meets every target set
-- (inclusive); unset targets are ignored. Attainment is the share of measured requests that
-- attain it (failed requests count as missing it); request goodput (run) is attaining requests
-- per second of the measured window — the figure genai-perf, AIPerf and vLLM call goodput, not
-- DistServe's (the highest rate at which attainment stays >= 90 %).
-- @grain one row per run
-- @column run [id] Run.
-- @column level_kind [text] concurrency or request_rate.
-- @column level [level_kind] The level.
-- @column requests [count] Measured requests.
-- @column attaining [count] Measured requests that are ok and meet every target.
-- @column attainment [ratio] attaining / requests.
-- @column goodput_per_s [1/s] attaining / the run's measured window (request goodput, run).
-- @column ttft_target_ms [ms] The TTFT target, NULL when not set.
-- @column tpot_target_ms [ms] The TPOT (per-request ITL) target, NULL when not set.
-- @column e2e_target_ms [ms] The E2E target, NULL when not set.
CREATE OR REPLACE VIEW slo_attainment AS
WITH t AS (
    SELECT
        getvariable('tt_slo_ttft_ms')::DOUBLE AS ttft_t,
        getvariable('tt_slo_tpot_ms')::DOUBLE AS tpot_t,
        getvariable('tt_slo_e2e_ms')::DOUBLE AS e2e_t
),
r AS (
    SELECT l.run,
        l.ok
        AND (t.ttft_t IS NULL OR l.ttft_ms <= t.ttft_t)
        AND (t.tpot_t IS NULL OR coalesce(l.tpot_ms, 0) <= t.tpot_t)
        AND (t.e2e_t IS NULL OR l.e2e_ms <= t.e2e_t) AS good
    FROM request_latency AS l, t
    WHERE l.measured
)
SELECT
    s.run,
    s.level_kind,
    s.level,
    count(r.run) AS requests,
    count(r.run) FILTER (WHERE r.good) AS attaining,
    count(r.run) FILTER (WHERE r.good) / nullif(count(r.run), 0) AS attainment,
    count(r.run) FILTER (WHERE r.good) / s.duration_s AS goodput_per_s,
    any_value(t.ttft_t) AS ttft_target_ms,
    any_value(t.tpot_t) AS tpot_target_ms,
    any_value(t.e2e_t) AS e2e_target_ms
FROM run_summary AS s
LEFT JOIN r USING (run)
CROSS JOIN t
GROUP BY s.run, s.level_kind, s.level, s.duration_s
ORDER BY s.level_kind NULLS LAST, s.level, s.run
