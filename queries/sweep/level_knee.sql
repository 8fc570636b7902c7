-- The knee of a concurrency (or request-rate) sweep: going up the levels, where the throughput
-- gained per doubling of the level collapses while P95 latency climbs. Rule, per step from one
-- level to the next (figures from level_summary, medians over repeats): throughput gain per
-- doubling = (tokens/s ratio)^(1 / log2(level ratio)) - 1; latency growth per doubling likewise
-- from the P95 E2E. The first level whose gain per doubling is below tt_knee_gain (default 10 %)
-- while its latency growth per doubling is above tt_knee_latency (default 20 %) is past the
-- knee; the knee is the level before it (is_knee). Without such a step there is no knee in the
-- sweep (no row is marked).
-- @grain one row per level of a sweep (level_kind, level)
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
CREATE OR REPLACE VIEW level_knee AS
WITH l AS (
    SELECT level_kind, level, output_tokens_per_s, e2e_p95_ms, ttft_p95_ms,
        lag(level) OVER w AS prev_level,
        lag(output_tokens_per_s) OVER w AS prev_tput,
        lag(e2e_p95_ms) OVER w AS prev_e2e,
        row_number() OVER w AS pos
    FROM level_summary
    WHERE level_kind IS NOT NULL
    WINDOW w AS (PARTITION BY level_kind ORDER BY level)
),
g AS (
    SELECT *,
        CASE WHEN prev_level > 0 AND level > prev_level AND prev_tput > 0
            THEN pow(output_tokens_per_s / prev_tput, 1 / log2(level / prev_level)) - 1 END AS gain,
        CASE WHEN prev_level > 0 AND level > prev_level AND prev_e2e > 0
            THEN pow(e2e_p95_ms / prev_e2e, 1 / log2(level / prev_level)) - 1 END AS growth
    FROM l
),
p AS (
    SELECT *,
        coalesce(gain < coalesce(getvariable('tt_knee_gain'), 0.10)
            AND growth > coalesce(getvariable('tt_knee_latency'), 0.20), false) AS past
    FROM g
),
first_past AS (
    SELECT level_kind, min(pos) AS pos FROM p WHERE past GROUP BY level_kind
)
SELECT
    p.level_kind,
    p.level,
    p.output_tokens_per_s,
    p.e2e_p95_ms,
    p.ttft_p95_ms,
    p.gain AS gain_per_doubling,
    p.growth AS latency_growth_per_doubling,
    p.past AS past_knee,
    coalesce(p.pos = f.pos - 1, false) AS is_knee,
    'knee = last level before the first step with throughput gain per doubling < '
        || round(100 * coalesce(getvariable('tt_knee_gain'), 0.10))::INT || ' % and P95 E2E growth per doubling > '
        || round(100 * coalesce(getvariable('tt_knee_latency'), 0.20))::INT || ' %' AS rule
FROM p
LEFT JOIN first_past AS f USING (level_kind)
ORDER BY p.level_kind, p.level
