-- Throughput over time: the measured window of each run cut into buckets of bucket_s seconds,
-- with the output tokens produced (content chunks of ok measured requests; a chunk of unknown
-- size counts one), requests that arrived and requests that finished in each bucket. Every
-- bucket of the window is listed, so a stall shows as zeros. Times are offsets from the window's
-- start on the run's clock.
-- @example SELECT * FROM throughput_timeline(1.0)
-- @grain one row per run per time bucket
-- @param bucket_s Bucket width in seconds.
-- @column run [id] Run name.
-- @column t_s [s] Start of the bucket, seconds after the window start.
-- @column bucket_start_ns [ns] Start of the bucket on the run's clock.
-- @column output_tokens [tokens] Output tokens produced in the bucket.
-- @column output_tokens_per_s [tokens/s] output_tokens / bucket_s.
-- @column requests_started [count] Measured requests that arrived in the bucket.
-- @column requests_finished [count] Ok measured requests that finished (last token, else finish) in the bucket.
-- @column requests_per_s [1/s] requests_finished / bucket_s.
CREATE OR REPLACE MACRO throughput_timeline(bucket_s) AS TABLE
WITH w AS (
    SELECT run, window_start_ns, duration_s
    FROM run_summary
    WHERE duration_s IS NOT NULL
),
buckets AS (
    SELECT run, window_start_ns, unnest(range(0, floor(duration_s / bucket_s)::BIGINT + 1)) AS b
    FROM w
),
tok AS (
    SELECT
        r.run,
        floor((t.ts_ns - w.window_start_ns) / 1e9 / bucket_s)::BIGINT AS b,
        sum(coalesce(t.n_tokens, 1)) AS n
    FROM tokens AS t
    JOIN requests AS r USING (request_key)
    JOIN _request_scope AS sc USING (request_key)
    JOIN w USING (run)
    WHERE t.chunk_kind IN ('content', 'reasoning')
        AND sc.measured AND sc.ok
    GROUP BY ALL
),
started AS (
    SELECT l.run, floor((l.arrival_ns - w.window_start_ns) / 1e9 / bucket_s)::BIGINT AS b, count(*) AS n
    FROM request_latency AS l JOIN w USING (run)
    WHERE l.measured AND l.arrival_ns IS NOT NULL
    GROUP BY ALL
),
finished AS (
    SELECT l.run,
        floor((coalesce(l.last_token_ns, l.finished_ns) - w.window_start_ns) / 1e9 / bucket_s)::BIGINT AS b,
        count(*) AS n
    FROM request_latency AS l JOIN w USING (run)
    WHERE l.measured AND l.ok AND coalesce(l.last_token_ns, l.finished_ns) IS NOT NULL
    GROUP BY ALL
)
SELECT
    k.run,
    k.b * bucket_s AS t_s,
    k.window_start_ns + (k.b * bucket_s * 1e9)::BIGINT AS bucket_start_ns,
    coalesce(sum(t.n), 0)::BIGINT AS output_tokens,
    coalesce(sum(t.n), 0) / bucket_s AS output_tokens_per_s,
    coalesce(any_value(s.n), 0) AS requests_started,
    coalesce(any_value(f.n), 0) AS requests_finished,
    coalesce(any_value(f.n), 0) / bucket_s AS requests_per_s
FROM buckets AS k
LEFT JOIN tok AS t ON t.run = k.run AND t.b = k.b
LEFT JOIN started AS s ON s.run = k.run AND s.b = k.b
LEFT JOIN finished AS f ON f.run = k.run AND f.b = k.b
GROUP BY k.run, k.b, k.window_start_ns
ORDER BY k.run, k.b
