-- inference-perf's figures, computed by tokentime from the canonical tables the way
-- kubernetes-sigs/inference-perf computes them (inference_perf/reportgen/base.py,
-- summarize_requests; docs/metrics.md, "Named variants"): successful requests are those without
-- an error; the output token times are its output_token_times, one per token: a chunk of k tokens
-- is k equal times (tokens.n_tokens; a chunk of unknown size is one); TTFT = first token time -
-- start and TPOT = (last - first token time)/(N - 1), only for a request with more than one token
-- time (TPOT also N > 1); NTPOT = (end - start)/N (0 without tokens), every successful request;
-- ITL POOLED over consecutive token times, so each chunk of k tokens adds k - 1 gaps of 0; request
-- latency = end - start. N is the output length the file states. Statistics as numpy: mean, min,
-- max and percentiles by linear interpolation (p0.1 … p99.9, p50 named median). Throughputs over
-- total_time = last end - first start of ALL the run's requests, failed included: input, output and
-- total tokens and successful requests per second. Times in s, as inference-perf writes them.
-- @grain one row per run per inference-perf metric per statistic
-- @column run [id] Run name.
-- @column metric [text] inference-perf's name: request_latency, normalized_time_per_output_token, time_per_output_token, time_to_first_token, inter_token_latency, or a throughput (input_tokens_per_sec, output_tokens_per_sec, total_tokens_per_sec, requests_per_sec).
-- @column stat [text] mean, min, max, median, p0.1, p1, p5, p10, p25, p75, p90, p95, p99, p99.9, or value for a throughput.
-- @column value [unit] The figure.
-- @column unit [text] s, tokens/s or requests/s.
CREATE OR REPLACE VIEW inference_perf_metrics AS
WITH req AS (
    SELECT run, request_key, arrival_ns, finished_ns, output_tokens, prompt_tokens
    FROM _peer_requests
    WHERE measured AND ok
),
-- per request: its first and last token time and whether it has more than one token time (a
-- chunk of k tokens is k equal times). A request whose chunks are all content, each position once
-- and in time order, has them in _request_tokens; the others are read from their chunks
plain AS (
    SELECT r.run, r.request_key, NOT rt.ts_decreases AS ordered, rt.first_content_ns, rt.last_content_ns,
        rt.content_chunks > 1 OR (rt.content_chunks = 1 AND coalesce(rt.content_tokens, 1) > 1) AS several
    FROM req AS r
    JOIN _request_tokens AS rt USING (request_key)
    WHERE rt.seq_repeats = 0 AND rt.reasoning_chunks = 0
),
per_request AS (
    SELECT r.run, r.request_key, r.arrival_ns, r.finished_ns, r.output_tokens,
        p.first_content_ns AS first_ns, p.last_content_ns AS last_ns, p.several
    FROM req AS r
    JOIN plain AS p USING (request_key)
    WHERE p.ordered
    UNION ALL
    SELECT r.run, r.request_key, r.arrival_ns, r.finished_ns, r.output_tokens,
        min(t.ts_ns) AS first_ns, max(t.ts_ns) AS last_ns,
        coalesce(sum(greatest(coalesce(t.n_tokens, 1), 1)), 0) > 1 AS several
    FROM (SELECT * FROM req ANTI JOIN (SELECT request_key FROM plain WHERE ordered) USING (request_key)) AS r
    LEFT JOIN tokens AS t ON t.request_key = r.request_key AND t.chunk_kind = 'content'
    GROUP BY ALL
),
samples AS (
    SELECT run, 'request_latency' AS metric, (finished_ns - arrival_ns) / 1e9 AS value
    FROM per_request
    UNION ALL
    SELECT run, 'normalized_time_per_output_token',
        CASE WHEN output_tokens > 0 THEN (finished_ns - arrival_ns) / 1e9 / output_tokens ELSE 0.0 END
    FROM per_request
    UNION ALL
    SELECT run, 'time_to_first_token', (first_ns - arrival_ns) / 1e9
    FROM per_request WHERE several
    UNION ALL
    SELECT run, 'time_per_output_token', (last_ns - first_ns) / 1e9 / (output_tokens - 1)
    FROM per_request WHERE several AND output_tokens > 1
),
-- the runs whose pooled token gaps are the ones token_gaps counts (_stored_gap_runs: every request
-- with gaps is plain, the same requests as the default ITL's) and that have no chunk of several
-- tokens (whose gaps of 0 only inference-perf counts): their figures are _gap_quantiles' (kept by
-- the derive step, tails included), in s; the view reads no token of these runs. A database
-- derived before the tails were kept has none (q_tails NULL): its gaps are counted below
plain_keys AS (
    SELECT run, request_key FROM plain
),
multi_token_runs AS (
    SELECT DISTINCT r.run
    FROM (SELECT DISTINCT request_key FROM tokens WHERE chunk_kind = 'content' AND n_tokens > 1) AS t
    JOIN req AS r USING (request_key)
),
stored_itl AS MATERIALIZED (
    SELECT g.run, g.mean_ms, g.min_ms, g.max_ms, g.q, g.q_tails
    FROM _gap_quantiles('chunk_gap') AS g
    WHERE g.q_tails IS NOT NULL
        AND g.run IN (SELECT run FROM _stored_gap_runs('plain_keys'))
        AND g.run NOT IN (SELECT run FROM multi_token_runs)
),
-- the other runs' pooled token gaps, read where used (twice: counted per bucket, then the few
-- buckets' values) and never held: a request whose content chunks are every chunk the stored gaps
-- run over (no reasoning chunk) and each position once (plain) has the stored gaps
-- (tokens.gap_ns); the others' are put in seq order here. Then each chunk's k - 1 tokens after its
-- first, at its time: gaps of 0. (A window over every chunk and quantile_cont over every gap held
-- a day's tokens in memory.)
counted_req AS (
    SELECT * FROM req WHERE run NOT IN (SELECT run FROM stored_itl)
),
counted_plain AS (
    SELECT * FROM plain WHERE run NOT IN (SELECT run FROM stored_itl)
),
gaps AS NOT MATERIALIZED (
    SELECT p.run, t.gap_ns
    FROM tokens AS t
    JOIN counted_plain AS p USING (request_key)
    WHERE t.chunk_kind = 'content' AND t.gap_ns IS NOT NULL
    UNION ALL
    SELECT run, gap_ns
    FROM (
        SELECT o.run, t.ts_ns - lag(t.ts_ns) OVER (PARTITION BY t.request_key ORDER BY t.seq) AS gap_ns
        FROM tokens AS t
        JOIN (SELECT run, request_key FROM counted_req ANTI JOIN plain USING (request_key)) AS o USING (request_key)
        WHERE t.chunk_kind = 'content'
    )
    WHERE gap_ns IS NOT NULL
    UNION ALL
    SELECT r.run, 0 AS gap_ns
    FROM (SELECT request_key, unnest(range(n_tokens - 1)) AS i FROM tokens WHERE chunk_kind = 'content' AND n_tokens > 1) AS c
    JOIN counted_req AS r USING (request_key)
),
itl_values AS NOT MATERIALIZED (
    SELECT run, 'inter_token_latency' AS metric, gap_ns / 1e9 AS v, _gap_bucket(gap_ns) AS b
    FROM gaps
),
itl_counts AS (
    SELECT run, metric, b, count(*) AS n
    FROM itl_values
    GROUP BY run, metric, b
),
stats AS (
    SELECT run, metric, avg(value) AS mean, min(value) AS min, max(value) AS max,
        quantile_cont(value, [0.001, 0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99, 0.999]) AS q
    FROM samples
    WHERE value IS NOT NULL
    GROUP BY run, metric
    UNION ALL
    -- the token gaps' percentiles in bounded memory (_bucket_quantiles: quantile_cont's, exactly)
    SELECT a.run, a.metric, a.mean, a.min, a.max, bq.q
    FROM (
        SELECT run, metric, avg(v) AS mean, min(v) AS min, max(v) AS max
        FROM itl_values
        GROUP BY run, metric
    ) AS a
    LEFT JOIN _bucket_quantiles('itl_counts', 'itl_values',
        ps := [0.001, 0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99, 0.999]) AS bq USING (run, metric)
    UNION ALL
    -- (min and max are whole ns: back to ns first, so they print as the gaps' own values)
    SELECT run, 'inter_token_latency', mean_ms / 1e3, round(min_ms * 1e6) / 1e9, round(max_ms * 1e6) / 1e9,
        list_transform([q_tails[1]] || q || [q_tails[2]], x -> x / 1e3)
    FROM stored_itl
),
-- every request of the run, failed included, spans the time the throughputs divide by
span AS (
    SELECT run, CASE WHEN bool_and(shared_clock) THEN (max(finished_ns) - min(arrival_ns)) / 1e9 END AS total_time
    FROM _peer_requests
    WHERE measured
    GROUP BY run
),
throughputs AS (
    SELECT s.run, s.total_time,
        sum(r.prompt_tokens) AS input_tokens, sum(r.output_tokens) AS output_tokens, count(r.request_key) AS successes
    FROM span AS s
    LEFT JOIN req AS r USING (run)
    GROUP BY s.run, s.total_time
)
SELECT run, metric, stat, value, 's' AS unit
FROM (
    SELECT run, metric, mean, min, max, q[1] AS "p0.1", q[2] AS p1, q[3] AS p5, q[4] AS p10, q[5] AS p25,
        q[6] AS median, q[7] AS p75, q[8] AS p90, q[9] AS p95, q[10] AS p99, q[11] AS "p99.9"
    FROM stats
) UNPIVOT (value FOR stat IN (mean, min, max, "p0.1", p1, p5, p10, p25, median, p75, p90, p95, p99, "p99.9"))
UNION ALL
SELECT run, metric, 'value' AS stat, value, CASE WHEN metric = 'requests_per_sec' THEN 'requests/s' ELSE 'tokens/s' END
FROM (
    SELECT run,
        -- a file without token counts (0.1) sums none: 0, as the tool's own sum
        coalesce(input_tokens, 0) / total_time AS input_tokens_per_sec,
        coalesce(output_tokens, 0) / total_time AS output_tokens_per_sec,
        (coalesce(input_tokens, 0) + coalesce(output_tokens, 0)) / total_time AS total_tokens_per_sec,
        successes / total_time AS requests_per_sec
    FROM throughputs
    WHERE total_time > 0
) UNPIVOT (value FOR metric IN (input_tokens_per_sec, output_tokens_per_sec, total_tokens_per_sec, requests_per_sec))
