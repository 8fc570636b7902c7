-- AIPerf's figures, computed by tokentime from the canonical tables the way AIPerf's metric
-- classes compute them (docs/metrics.md, "Named variants"): only ok requests of the profiling
-- phase count (warm-up, errors and cancellations are left out); TTFT is the first non-empty
-- chunk (reasoning counts); request latency ends at the last response; ITL is per request
-- (latency - TTFT) / (OSL - 1) as a float, only when OSL >= 2; inter-chunk latency (ICL) pools
-- every gap between consecutive responses of all requests (a record of AIPerf's September-2025
-- export, which wrote one mean per record instead of the list, adds that mean as its one sample,
-- as AIPerf aggregated it then); time to second token is the second chunk minus the first, or
-- the record's own figure when its chunks are not known; output token throughput per user is
-- 1 / ITL (a request with a gap that is not positive has no ICL, as AIPerf refuses it, except in
-- AIPerf's own export, whose lists hold the gaps AIPerf counted); benchmark duration is max(start + latency) - min(start) over the counted requests,
-- and request and output throughput divide the counted requests and their OSL by it.
-- Time to first output token (the first answer chunk, not reasoning) and tokens per chunk come
-- from request_output_timing. Statistics as numpy: mean, linear percentiles, population std.
-- Times in ms.
-- @grain one row per run per AIPerf metric per statistic
-- @column run [id] Run name.
-- @column metric [text] AIPerf's metric tag (time_to_first_token, time_to_first_output_token, inter_token_latency, inter_chunk_latency, tokens_per_chunk, request_throughput, the error-adjusted adj_request_latency, ...).
-- @column stat [text] count, avg, min, max, std, p1 ... p99 as AIPerf names them (run-level figures: avg only).
-- @column value [unit] The figure.
-- @column unit [text] ms, sec, tokens, tokens/sec, tokens/sec/user, requests/sec or requests.
CREATE OR REPLACE VIEW aiperf_metrics AS
WITH valid AS (
    SELECT
        run,
        request_key,
        arrival_ns,
        shared_clock,
        ttft_ms AS time_to_first_token,
        coalesce((second_content_ns - first_content_ns) / 1e6, reported_ttst_ms) AS time_to_second_token,
        reported_icl_mean_ms,
        source_format,
        e2e_ms AS request_latency,
        CASE WHEN output_tokens >= 2 THEN (e2e_ms - ttft_ms) / (output_tokens - 1) END AS inter_token_latency,
        output_tokens::DOUBLE AS output_sequence_length,
        prompt_tokens::DOUBLE AS input_sequence_length
    FROM _peer_requests
    WHERE measured AND ok
),
-- AIPerf's inter-chunk latency samples: the chunk gaps of the counted requests, except requests
-- with a gap that is not positive when tokentime rebuilds the gaps from other sources' chunks
-- (AIPerf refuses them; the derive step keeps each request's smallest gap). Where they are the gaps token_gaps counts (_stored_gap_runs: the common case),
-- the figures are _gap_quantiles'; else the gaps are scanned where read (NOT MATERIALIZED), three
-- times, rather than held (_pooled_quantiles reads them by name)
kept_keys AS (
    SELECT v.run, v.request_key
    FROM valid AS v
    LEFT JOIN _request_tokens AS t USING (request_key)
    -- a record of AIPerf's own export carries the gaps AIPerf counted (one it refused has no
    -- list): all of them stay, a 0.0 among them too (AIPerf 0.8 writes and pools zero gaps)
    WHERE coalesce(t.min_gap_ns > 0, true) OR v.source_format = 'aiperf-jsonl'
),
stored_runs AS (
    SELECT run FROM _stored_gap_runs('kept_keys')
    -- a run with September-2025 per-record means has samples no token row holds
    EXCEPT
    SELECT run FROM valid WHERE reported_icl_mean_ms IS NOT NULL
),
chunk_gaps AS NOT MATERIALIZED (
    SELECT k.run, 'inter_chunk_latency' AS metric, t.gap_ns / 1e6 AS v
    FROM tokens AS t
    JOIN (SELECT * FROM kept_keys WHERE run NOT IN (SELECT run FROM stored_runs)) AS k USING (request_key)
    WHERE t.gap_ns IS NOT NULL
    UNION ALL
    -- the September-2025 schema: one per-record mean (such a record has no gap list, so no
    -- rebuilt gaps above)
    SELECT v.run, 'inter_chunk_latency' AS metric, v.reported_icl_mean_ms AS v
    FROM valid AS v
    WHERE v.reported_icl_mean_ms IS NOT NULL
),
samples AS (
    SELECT run, metric, value
    FROM (
        SELECT
            run, time_to_first_token, time_to_second_token, request_latency, inter_token_latency,
            CASE WHEN inter_token_latency > 0 THEN 1000 / inter_token_latency END AS output_token_throughput_per_user,
            output_sequence_length, input_sequence_length
        FROM valid
    ) UNPIVOT (value FOR metric IN (time_to_first_token, time_to_second_token, request_latency,
        inter_token_latency, output_token_throughput_per_user, output_sequence_length, input_sequence_length))
    UNION ALL
    SELECT o.run, m.metric, m.value
    FROM request_output_timing AS o
    SEMI JOIN valid USING (request_key)
    CROSS JOIN LATERAL (VALUES ('time_to_first_output_token', o.ttfo_ms), ('tokens_per_chunk', o.tokens_per_chunk)) AS m(metric, value)
    WHERE m.value IS NOT NULL
),
stats AS (
    SELECT
        s.run, s.metric, u.unit,
        count(value)::DOUBLE AS count,
        avg(value) AS avg,
        min(value) AS min,
        max(value) AS max,
        stddev_pop(value) AS std,
        quantile_cont(value, [0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99]) AS q
    FROM samples AS s
    JOIN (VALUES ('time_to_first_token', 'ms'), ('time_to_second_token', 'ms'), ('request_latency', 'ms'),
        ('inter_token_latency', 'ms'), ('output_token_throughput_per_user', 'tokens/sec/user'),
        ('output_sequence_length', 'tokens'), ('input_sequence_length', 'tokens'),
        ('time_to_first_output_token', 'ms'), ('tokens_per_chunk', 'tokens')) AS u(metric, unit) USING (metric)
    GROUP BY s.run, s.metric, u.unit
    UNION ALL
    -- the pooled chunk gaps: their percentiles in bounded memory (_pooled_quantiles), joined after
    -- the other figures are aggregated (holistic aggregates or a list on every gap held them all)
    SELECT a.run, a.metric, 'ms', a.count, a.avg, a.min, a.max, a.std, pq.q
    FROM (
        SELECT run, metric, count(v)::DOUBLE AS count, avg(v) AS avg, min(v) AS min, max(v) AS max,
            stddev_pop(v) AS std
        FROM chunk_gaps
        GROUP BY run, metric
    ) AS a
    LEFT JOIN _pooled_quantiles('chunk_gaps') AS pq USING (run, metric)
    UNION ALL
    SELECT g.run, 'inter_chunk_latency', 'ms', g.n::DOUBLE, g.mean_ms, g.min_ms, g.max_ms, g.std_ms, g.q
    FROM _gap_quantiles('chunk_gap') AS g
    SEMI JOIN stored_runs USING (run)
),
-- AIPerf's error-adjusted companions (2026: adj_request_latency, adj_time_to_first_token,
-- adj_inter_token_latency): the metric's samples plus one unbounded (+inf) sample per failed
-- request, percentiles by numpy's "nearest" (index round-half-even(q * (n - 1))), count over
-- both; a run with no failure or no success has none. A statistic the failures reach (avg, sum,
-- max, std, the upper percentiles) is no figure, as AIPerf's JSON writes it null. Only the runs
-- with a failure have their samples ranked (the others have no such figure to rank them for).
adj_samples AS (
    SELECT run, 'adj_' || metric AS metric, value
    FROM samples
    WHERE metric IN ('request_latency', 'time_to_first_token', 'inter_token_latency') AND value IS NOT NULL
        AND run IN (SELECT run FROM _peer_requests WHERE measured AND NOT ok)
    UNION ALL
    SELECT p.run, m.metric, 'inf'::DOUBLE
    FROM _peer_requests AS p
    CROSS JOIN (VALUES ('adj_request_latency'), ('adj_time_to_first_token'), ('adj_inter_token_latency')) AS m(metric)
    WHERE p.measured AND NOT p.ok
),
adj_ranked AS (
    SELECT run, metric, value,
        row_number() OVER (PARTITION BY run, metric ORDER BY value) - 1 AS i,
        count(*) OVER (PARTITION BY run, metric) AS n
    FROM adj_samples
),
adj_stats AS (
    SELECT run, metric, any_value(n)::DOUBLE AS count, min(value) AS min,
        max(value) FILTER (WHERE i = round_even(0.01 * (n - 1), 0)) AS p1,
        max(value) FILTER (WHERE i = round_even(0.05 * (n - 1), 0)) AS p5,
        max(value) FILTER (WHERE i = round_even(0.10 * (n - 1), 0)) AS p10,
        max(value) FILTER (WHERE i = round_even(0.25 * (n - 1), 0)) AS p25,
        max(value) FILTER (WHERE i = round_even(0.50 * (n - 1), 0)) AS p50,
        max(value) FILTER (WHERE i = round_even(0.75 * (n - 1), 0)) AS p75,
        max(value) FILTER (WHERE i = round_even(0.90 * (n - 1), 0)) AS p90,
        max(value) FILTER (WHERE i = round_even(0.95 * (n - 1), 0)) AS p95,
        max(value) FILTER (WHERE i = round_even(0.99 * (n - 1), 0)) AS p99
    FROM adj_ranked
    GROUP BY run, metric
    HAVING min(value) < 'inf'::DOUBLE AND max(value) = 'inf'::DOUBLE
),
per_run AS (
    SELECT
        run,
        count(*) AS request_count,
        sum(output_sequence_length) AS total_osl,
        -- a span across requests needs their one clock (_peer_requests.shared_clock)
        CASE WHEN bool_and(shared_clock) THEN (max(arrival_ns + request_latency * 1e6) - min(arrival_ns)) / 1e9 END
            AS benchmark_duration
    FROM valid
    GROUP BY run
),
errors AS (
    SELECT run, count(*) FILTER (WHERE NOT ok) AS error_request_count
    FROM _peer_requests
    WHERE measured
    GROUP BY run
)
SELECT run, metric, stat, value, CASE WHEN stat = 'count' THEN 'count' ELSE unit END AS unit
FROM (
    SELECT run, metric, unit, count, avg, min, max, std, q[1] AS p1, q[2] AS p5, q[3] AS p10, q[4] AS p25,
        q[5] AS p50, q[6] AS p75, q[7] AS p90, q[8] AS p95, q[9] AS p99
    FROM stats
) UNPIVOT (value FOR stat IN (count, avg, min, max, std, p1, p5, p10, p25, p50, p75, p90, p95, p99))
UNION ALL
SELECT run, metric, 'avg' AS stat, value, unit
FROM (
    SELECT
        e.run,
        p.benchmark_duration,
        CASE WHEN p.benchmark_duration > 0 THEN p.request_count / p.benchmark_duration END AS request_throughput,
        CASE WHEN p.benchmark_duration > 0 THEN p.total_osl / p.benchmark_duration END AS output_token_throughput,
        p.request_count::DOUBLE AS request_count,
        e.error_request_count::DOUBLE AS error_request_count
    -- from every measured run: a run whose every request failed still has its error count
    -- (AIPerf reports it), its other figures none
    FROM errors AS e
    LEFT JOIN per_run AS p USING (run)
) UNPIVOT (value FOR metric IN (benchmark_duration, request_throughput, output_token_throughput,
    request_count, error_request_count))
JOIN (VALUES ('benchmark_duration', 'sec'), ('request_throughput', 'requests/sec'),
    ('output_token_throughput', 'tokens/sec'), ('request_count', 'requests'),
    ('error_request_count', 'requests')) AS u(metric, unit) USING (metric)
UNION ALL
SELECT run, metric, stat, value, CASE WHEN stat = 'count' THEN 'count' ELSE 'ms' END AS unit
FROM adj_stats
UNPIVOT (value FOR stat IN (count, min, p1, p5, p10, p25, p50, p75, p90, p95, p99))
WHERE isfinite(value)
ORDER BY run, metric, stat
