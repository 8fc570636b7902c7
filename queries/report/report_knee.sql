-- level_knee typed for the report, ordered by kind of level and level. The columns are
-- level_knee's; see it for the rule.
-- @grain one row per level of a sweep
-- @column level_kind [text] concurrency or request_rate.
-- @column level [level_kind] The level.
-- @column output_tokens_per_s [tokens/s] Median output throughput of its repeats.
-- @column e2e_p95_ms [ms] Median P95 E2E of its repeats.
-- @column ttft_p95_ms [ms] Median P95 TTFT of its repeats.
-- @column gain_per_doubling [ratio] Throughput gained per doubling since the previous level.
-- @column latency_growth_per_doubling [ratio] P95 E2E growth per doubling since the previous level.
-- @column past_knee [bool] This step gains little throughput for much latency.
-- @column is_knee [bool] The last level before the first step past the knee.
-- @column rule [text] The rule and thresholds used.
CREATE OR REPLACE VIEW report_knee AS
SELECT level_kind, level::DOUBLE AS level, output_tokens_per_s::DOUBLE AS output_tokens_per_s,
    e2e_p95_ms::DOUBLE AS e2e_p95_ms, ttft_p95_ms::DOUBLE AS ttft_p95_ms,
    gain_per_doubling::DOUBLE AS gain_per_doubling,
    latency_growth_per_doubling::DOUBLE AS latency_growth_per_doubling, past_knee, is_knee, rule
FROM level_knee
ORDER BY level_kind, level
