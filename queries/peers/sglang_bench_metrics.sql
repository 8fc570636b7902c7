-- SGLang bench_serving's figures, computed by tokentime from the canonical tables the way
-- python/sglang/bench_serving.py computes them (docs/metrics.md, "Named variants"): only
-- successful requests count; TTFT ends at the first chunk with text (reasoning counts); E2E
-- latency is stamped on every line received, so it ends at the end of the stream, [DONE]
-- included (the last chunk of any kind, else the request's finish, else tokentime's E2E: from a
-- results file, which keeps ttfts and itls and no latencies, TTFT + the ITLs, so a little below
-- SGLang's own, as peer_comparison's not_reproducible says); TPOT is
-- (E2E - TTFT) / (output_len - 1) per request with output_len > 1; ITL pools the gaps between
-- consecutive content chunks; concurrency is the sum of E2E over the duration (Little's law).
-- Throughputs divide by the duration SGLang reported, else by tokentime's measured window.
-- Statistics as numpy: mean, median, population std, linear percentiles, max. Times in ms.
-- @grain one row per run per SGLang metric per statistic
-- @column run [id] Run name.
-- @column metric [text] SGLang's name: ttft, tpot, itl, e2e_latency (statistics) or duration, completed, total_input_tokens, total_output_tokens, request_throughput, input_throughput, output_throughput, total_throughput, concurrency (run figures).
-- @column stat [text] mean, median, std, p1 ... p99, max (as in mean_e2e_latency_ms, p95_itl_ms, ...), or value for run figures.
-- @column value [unit] The figure.
-- @column unit [text] ms, s, count, requests/s or tokens/s.
CREATE OR REPLACE VIEW sglang_bench_metrics AS
WITH valid AS (
    SELECT
        run,
        request_key,
        output_tokens,
        prompt_tokens,
        -- a request SGLang counted as successful without receiving a chunk (its file: output 0,
        -- no ITLs, TTFT 0.0) counts at SGLang's default TTFT, 0
        coalesce(ttft_ms, CASE WHEN engine = 'sglang-bench' AND output_tokens = 0 THEN 0 END) AS ttft,
        coalesce((coalesce(last_chunk_ns, finished_ns) - arrival_ns) / 1e6, e2e_ms) AS e2e_latency
    FROM _peer_requests
    WHERE measured AND ok
),
-- SGLang's ITL samples: the chunk gaps of the counted requests. Where they are the gaps
-- token_gaps counts (_stored_gap_runs: the common case), the figures are _gap_quantiles'; else
-- the gaps are scanned where read (NOT MATERIALIZED), three times, rather than held
-- (_pooled_quantiles reads them by name)
valid_keys AS (
    SELECT run, request_key FROM valid
),
stored_runs AS (
    SELECT run FROM _stored_gap_runs('valid_keys')
),
chunk_gaps AS NOT MATERIALIZED (
    SELECT v.run, 'itl' AS metric, t.gap_ns / 1e6 AS v
    FROM tokens AS t
    JOIN (SELECT * FROM valid WHERE run NOT IN (SELECT run FROM stored_runs)) AS v USING (request_key)
    WHERE t.gap_ns IS NOT NULL
),
samples AS (
    SELECT run, 'ttft' AS metric, ttft AS value FROM valid
    UNION ALL
    SELECT run, 'e2e_latency', e2e_latency FROM valid
    UNION ALL
    SELECT run, 'tpot', (e2e_latency - ttft) / (output_tokens - 1) FROM valid WHERE output_tokens > 1
),
stats AS (
    SELECT
        run, metric,
        avg(value) AS mean,
        median(value) AS median,
        stddev_pop(value) AS std,
        max(value) AS max,
        quantile_cont(value, [0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99]) AS q
    FROM samples
    WHERE value IS NOT NULL
    GROUP BY run, metric
    UNION ALL
    -- the pooled chunk gaps: their median and percentiles in bounded memory (_pooled_quantiles: its
    -- p50 is the median), joined after the other figures are aggregated (holistic aggregates or a
    -- list on every gap held them all)
    SELECT a.run, a.metric, a.mean, pq.q[5], a.std, a.max, pq.q
    FROM (
        SELECT run, metric, avg(v) AS mean, stddev_pop(v) AS std, max(v) AS max
        FROM chunk_gaps
        GROUP BY run, metric
    ) AS a
    LEFT JOIN _pooled_quantiles('chunk_gaps') AS pq USING (run, metric)
    UNION ALL
    SELECT g.run, 'itl', g.mean_ms, g.q[5], g.std_ms, g.max_ms, g.q
    FROM _gap_quantiles('chunk_gap') AS g
    SEMI JOIN stored_runs USING (run)
),
reported_duration AS (
    SELECT run, duration_s AS duration FROM _reported_duration WHERE format = 'sglang-bench-jsonl'
),
per_run AS (
    SELECT
        u.run,
        coalesce(d.duration, u.duration_s) AS duration,
        count(v.request_key) AS completed,
        sum(v.prompt_tokens) AS total_input_tokens,
        sum(v.output_tokens) AS total_output_tokens,
        sum(v.e2e_latency) / 1e3 AS total_e2e_s
    FROM run_summary AS u
    LEFT JOIN valid AS v USING (run)
    LEFT JOIN reported_duration AS d USING (run)
    GROUP BY u.run, d.duration, u.duration_s
    HAVING count(v.request_key) > 0
)
SELECT run, metric, stat, value, 'ms' AS unit
FROM (
    SELECT run, metric, mean, median, std, max, q[1] AS p1, q[2] AS p5, q[3] AS p10, q[4] AS p25,
        q[5] AS p50, q[6] AS p75, q[7] AS p90, q[8] AS p95, q[9] AS p99
    FROM stats
) UNPIVOT (value FOR stat IN (mean, median, std, max, p1, p5, p10, p25, p50, p75, p90, p95, p99))
UNION ALL
SELECT run, metric, 'value' AS stat, value, unit
FROM (
    SELECT
        run,
        duration,
        completed::DOUBLE AS completed,
        total_input_tokens::DOUBLE AS total_input_tokens,
        total_output_tokens::DOUBLE AS total_output_tokens,
        completed / duration AS request_throughput,
        total_input_tokens / duration AS input_throughput,
        total_output_tokens / duration AS output_throughput,
        (total_input_tokens + total_output_tokens) / duration AS total_throughput,
        total_e2e_s / duration AS concurrency
    FROM per_run
) UNPIVOT (value FOR metric IN (duration, completed, total_input_tokens, total_output_tokens,
    request_throughput, input_throughput, output_throughput, total_throughput, concurrency))
JOIN (VALUES ('duration', 's'), ('completed', 'count'), ('total_input_tokens', 'tokens'),
    ('total_output_tokens', 'tokens'), ('request_throughput', 'requests/s'), ('input_throughput', 'tokens/s'),
    ('output_throughput', 'tokens/s'), ('total_throughput', 'tokens/s'), ('concurrency', 'count'))
    AS u(metric, unit) USING (metric)
ORDER BY run, metric, stat
