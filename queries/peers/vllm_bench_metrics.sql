-- vllm bench serve's figures, computed by tokentime from the canonical tables the way
-- vllm/benchmarks/serve.py computes them (docs/metrics.md, "Named variants"): only successful
-- requests count; TTFT ends at the first chunk that carries choices, even a role-only or empty
-- delta; E2EL ends at the last such chunk (usage and [DONE] excluded); TPOT is per request
-- (E2EL - TTFT) / (output_len - 1), only when output_len > 1; ITL pools the gaps between
-- consecutive choice-bearing chunks of all requests (chunk-weighted); max_concurrent_requests is
-- the peak of a sweep over the half-open intervals [start, start + E2EL) of the successful
-- requests (departures before arrivals at equal times; needs start times on one clock). Throughputs divide by the
-- run's duration as vLLM reported it (reported_metrics), else by tokentime's measured window.
-- client_queue_time (the wait for the client's --max-concurrency semaphore, requests.extras
-- 'client_queue_ms') and e2el_including_client_queue (E2EL plus that wait) are computed for the
-- runs whose file reports them (vLLM computes them only with --max-concurrency, the latter only at
-- a finite request rate), over the successful requests as vLLM does.
-- Statistics as numpy: mean, median, population std, linear percentiles. Times in ms.
-- @grain one row per run per vLLM metric per statistic
-- @column run [id] Run name.
-- @column metric [text] vLLM's name: ttft, tpot, itl, e2el, client_queue_time, e2el_including_client_queue (statistics) or duration, completed, failed, request_throughput, output_throughput, total_token_throughput, total_input_tokens, total_output_tokens, max_concurrent_requests (run figures).
-- @column stat [text] mean, median, std, p1 ... p99 (as in vLLM's mean_ttft_ms, p99_itl_ms, ...), or value for run figures.
-- @column value [unit] The figure.
-- @column unit [text] ms, s, count, tokens, requests/s or tokens/s.
CREATE OR REPLACE VIEW vllm_bench_metrics AS
WITH valid AS (
    SELECT
        run,
        request_key,
        output_tokens,
        prompt_tokens,
        arrival_ns,
        -- a request vLLM counted as successful without receiving a chunk (its file: output 0, no
        -- ITLs, TTFT 0.0) counts at vLLM's default TTFT, 0; its latency the file does not give
        coalesce((first_choice_ns - arrival_ns) / 1e6, ttft_ms,
            CASE WHEN engine = 'vllm-bench' AND output_tokens = 0 THEN 0 END) AS ttft,
        -- a vLLM file's own per-request latency is its E2EL; elsewhere the last choice-bearing chunk
        coalesce(CASE WHEN engine = 'vllm-bench' THEN reported_e2e_ms END,
            (last_choice_ns - arrival_ns) / 1e6, e2e_ms) AS e2el
    FROM _peer_requests
    WHERE measured AND ok
),
valid_clocked AS (
    SELECT v.run, v.arrival_ns, v.e2el, r.clock_id
    FROM valid AS v
    JOIN requests AS r USING (request_key)
    WHERE v.arrival_ns IS NOT NULL AND v.e2el IS NOT NULL
),
-- vLLM's ITL samples: the gaps between consecutive chunks that carry choices (content, reasoning,
-- role-only and empty deltas). A request without role or empty chunks and with every position
-- once has its content chunks for choice-bearing chunks, so its gaps are the stored chunk gaps
-- (tokens.gap_ns); only the others are put in seq order here (a window over every chunk was most
-- of the view's time). A run with none of the others, whose counted requests are the ones
-- token_gaps counts (_stored_gap_runs: the common case), takes _gap_quantiles' figures and reads
-- no gap; the other runs' gaps are scanned where read (NOT MATERIALIZED), three times, rather
-- than held (_pooled_quantiles reads them by name).
unordered AS (
    SELECT request_key FROM _request_tokens WHERE choice_chunks > content_chunks OR seq_repeats > 0
),
ordered_keys AS (
    SELECT run, request_key FROM valid ANTI JOIN unordered USING (request_key)
),
stored_runs AS (
    SELECT run FROM _stored_gap_runs('ordered_keys')
    EXCEPT
    SELECT run FROM valid SEMI JOIN unordered USING (request_key)
),
choice_gaps AS NOT MATERIALIZED (
    SELECT s.run, 'itl' AS metric, t.gap_ns / 1e6 AS v
    FROM tokens AS t
    JOIN (SELECT * FROM ordered_keys WHERE run NOT IN (SELECT run FROM stored_runs)) AS s USING (request_key)
    WHERE t.gap_ns IS NOT NULL
    UNION ALL
    SELECT run, 'itl' AS metric, v
    FROM (
        SELECT o.run, (t.ts_ns - lag(t.ts_ns) OVER (PARTITION BY t.request_key ORDER BY t.seq)) / 1e6 AS v
        FROM tokens AS t
        JOIN (SELECT run, request_key FROM valid SEMI JOIN unordered USING (request_key)) AS o USING (request_key)
        WHERE t.chunk_kind IN ('content', 'reasoning', 'role', 'empty')
    )
    WHERE v IS NOT NULL
),
-- the client-side queue of the runs whose file reports its statistics
client_queue AS (
    SELECT v.run, TRY_CAST(r.extras['client_queue_ms'] AS DOUBLE) AS q, v.e2el
    FROM valid AS v
    JOIN requests AS r USING (request_key)
    WHERE r.extras['client_queue_ms'] IS NOT NULL
),
queue_reported AS (
    SELECT DISTINCT run, metric FROM reported_metrics
    WHERE metric IN ('client_queue_time', 'e2el_including_client_queue')
),
samples AS (
    SELECT run, 'client_queue_time' AS metric, q AS value FROM client_queue
    SEMI JOIN (SELECT run FROM queue_reported WHERE metric = 'client_queue_time') USING (run)
    UNION ALL
    SELECT run, 'e2el_including_client_queue', e2el + q FROM client_queue
    SEMI JOIN (SELECT run FROM queue_reported WHERE metric = 'e2el_including_client_queue') USING (run)
    UNION ALL
    SELECT run, 'ttft' AS metric, ttft AS value FROM valid
    UNION ALL
    SELECT run, 'e2el', e2el FROM valid
    UNION ALL
    SELECT run, 'tpot', (e2el - ttft) / (output_tokens - 1) FROM valid WHERE output_tokens > 1
),
stats AS (
    SELECT
        run, metric,
        avg(value) AS mean,
        median(value) AS median,
        stddev_pop(value) AS std,
        quantile_cont(value, [0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99]) AS q
    FROM samples
    WHERE value IS NOT NULL
    GROUP BY run, metric
    UNION ALL
    -- the pooled chunk gaps: their median and percentiles in bounded memory (_pooled_quantiles: its
    -- p50 is the median), joined after the other figures are aggregated (holistic aggregates or a
    -- list on every gap held them all)
    SELECT a.run, a.metric, a.mean, pq.q[5], a.std, pq.q
    FROM (
        SELECT run, metric, avg(v) AS mean, stddev_pop(v) AS std
        FROM choice_gaps
        GROUP BY run, metric
    ) AS a
    LEFT JOIN _pooled_quantiles('choice_gaps') AS pq USING (run, metric)
    UNION ALL
    SELECT g.run, 'itl', g.mean_ms, g.q[5], g.std_ms, g.q
    FROM _gap_quantiles('chunk_gap') AS g
    SEMI JOIN stored_runs USING (run)
),
events AS (
    SELECT run, clock_id, arrival_ns AS t, 1 AS d FROM valid_clocked
    UNION ALL
    SELECT run, clock_id, arrival_ns + CAST(round(e2el * 1e6) AS BIGINT), -1 FROM valid_clocked
),
peak AS (
    SELECT run, max(level) AS max_concurrent_requests
    FROM (
        SELECT run, sum(d) OVER (PARTITION BY run ORDER BY t, d ROWS UNBOUNDED PRECEDING) AS level
        FROM events
        WHERE run IN (SELECT run FROM valid_clocked GROUP BY run HAVING count(DISTINCT clock_id) = 1)
    )
    GROUP BY run
),
reported_duration AS (
    SELECT run, duration_s AS duration FROM _reported_duration WHERE format = 'vllm-bench-json'
),
per_run AS (
    SELECT
        u.run,
        coalesce(d.duration, u.duration_s) AS duration,
        count(v.request_key) AS completed,
        f.failed,
        sum(v.prompt_tokens) AS total_input_tokens,
        sum(v.output_tokens) AS total_output_tokens,
        any_value(k.max_concurrent_requests) AS max_concurrent_requests
    FROM run_summary AS u
    LEFT JOIN valid AS v USING (run)
    LEFT JOIN reported_duration AS d USING (run)
    LEFT JOIN peak AS k USING (run)
    LEFT JOIN (SELECT run, count(*) FILTER (WHERE NOT ok) AS failed FROM _peer_requests WHERE measured GROUP BY run) AS f USING (run)
    GROUP BY u.run, d.duration, u.duration_s, f.failed
    HAVING count(v.request_key) > 0
)
SELECT run, metric, stat, value, 'ms' AS unit
FROM (
    SELECT run, metric, mean, median, std, q[1] AS p1, q[2] AS p5, q[3] AS p10, q[4] AS p25,
        q[5] AS p50, q[6] AS p75, q[7] AS p90, q[8] AS p95, q[9] AS p99
    FROM stats
) UNPIVOT (value FOR stat IN (mean, median, std, p1, p5, p10, p25, p50, p75, p90, p95, p99))
UNION ALL
SELECT run, metric, 'value' AS stat, value, unit
FROM (
    SELECT
        run,
        duration,
        completed::DOUBLE AS completed,
        failed::DOUBLE AS failed,
        total_input_tokens::DOUBLE AS total_input_tokens,
        total_output_tokens::DOUBLE AS total_output_tokens,
        completed / duration AS request_throughput,
        total_output_tokens / duration AS output_throughput,
        (total_input_tokens + total_output_tokens) / duration AS total_token_throughput,
        max_concurrent_requests::DOUBLE AS max_concurrent_requests
    FROM per_run
) UNPIVOT (value FOR metric IN (duration, completed, failed, total_input_tokens, total_output_tokens,
    request_throughput, output_throughput, total_token_throughput, max_concurrent_requests))
JOIN (VALUES ('duration', 's'), ('completed', 'count'), ('failed', 'count'), ('total_input_tokens', 'tokens'),
    ('total_output_tokens', 'tokens'), ('request_throughput', 'requests/s'), ('output_throughput', 'tokens/s'),
    ('total_token_throughput', 'tokens/s'), ('max_concurrent_requests', 'count')) AS u(metric, unit) USING (metric)
ORDER BY run, metric, stat
