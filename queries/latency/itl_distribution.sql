-- Inter-token latency per run under each of its named definitions (docs/metrics.md), so figures
-- from different tools can be put side by side: chunk_gap (the default: gaps between consecutive
-- content chunks, pooled over requests — vLLM bench serve's ITL, AIPerf's inter-chunk latency),
-- per_token (each chunk gap divided by the tokens in the chunk), tpot (per request,
-- (E2E - TTFT) / (N - 1) for N > 1 — vLLM's TPOT, genai-perf's and AIPerf's "ITL"), and llmperf
-- (per request, (TTFT + decode) / N, which includes TTFT — LLMPerf's inter_token_latency_s).
-- Over ok measured requests; linear percentiles, population std.
-- @grain one row per run per ITL definition
-- @column run [id] Run name.
-- @column variant [text] chunk_gap, per_token, tpot or llmperf.
-- @column weighting [text] per chunk (pooled samples) or per request (one value per request).
-- @column count [count] Values the statistics are over.
-- @column mean_ms [ms] Mean.
-- @column std_ms [ms] Population standard deviation.
-- @column min_ms [ms] Smallest value.
-- @column p50_ms [ms] Median.
-- @column p90_ms [ms] 90th percentile.
-- @column p95_ms [ms] 95th percentile.
-- @column p99_ms [ms] 99th percentile.
-- @column max_ms [ms] Largest value.
CREATE OR REPLACE VIEW itl_distribution AS
WITH samples AS (
    SELECT run, 'tpot' AS variant, 'per request' AS weighting, tpot_ms AS v
    FROM request_latency WHERE measured AND ok AND tpot_ms IS NOT NULL
    UNION ALL
    SELECT run, 'llmperf', 'per request', (ttft_ms + decode_ms) / output_tokens
    FROM request_latency
    WHERE measured AND ok AND output_tokens > 0 AND ttft_ms IS NOT NULL AND decode_ms IS NOT NULL
),
dist AS (
    SELECT
        run,
        variant,
        any_value(weighting) AS weighting,
        count(v) AS count,
        avg(v) AS mean_ms,
        stddev_pop(v) AS std_ms,
        min(v) AS min_ms,
        quantile_cont(v, [0.50, 0.90, 0.95, 0.99]) AS q,
        max(v) AS max_ms
    FROM samples
    GROUP BY run, variant
    UNION ALL
    -- the two pooled variants have a value per chunk: their statistics come from _gap_quantiles
    -- (exact percentiles in bounded memory; p50, p90, p95, p99 are its 5th, 7th, 8th and 9th);
    -- the variant is written as a literal so that a filter on it skips the other's scans
    SELECT run, 'chunk_gap', 'per chunk', n, mean_ms, std_ms, min_ms, [q[5], q[7], q[8], q[9]], max_ms
    FROM _gap_quantiles('chunk_gap')
    UNION ALL
    SELECT run, 'per_token', 'per chunk', n, mean_ms, std_ms, min_ms, [q[5], q[7], q[8], q[9]], max_ms
    FROM _gap_quantiles('per_token')
)
SELECT
    run,
    variant,
    weighting,
    count,
    mean_ms,
    std_ms,
    min_ms,
    q[1] AS p50_ms,
    q[2] AS p90_ms,
    q[3] AS p95_ms,
    q[4] AS p99_ms,
    max_ms
FROM dist
ORDER BY run, list_position(['chunk_gap', 'per_token', 'tpot', 'llmperf'], variant)
