-- The report's timelines, long form, on each run's time axis (report_clocks): chart "load" (in
-- flight, queued and running from concurrency_timeline, for the requests on the axis' own clock;
-- waiting from engine stats or steps, queue_depth_timeline), "batch" (batch size by method,
-- batch_size_timeline) and "tokens" (output tokens/s of ok measured requests in buckets as wide as
-- the run's load timeline: throughput_timeline's count, with each run's own width). Engine steps
-- and stats on a clock that clock_anchors relates to the axis (an SGLang log's batch lines beside
-- its requests' meta_info clock) are drawn on the axis too. Where the steps are a sample (SGLang
-- logs one decode batch in decode_log_interval), their series say so, as figure_basis does. x_s
-- is the middle of the bucket in seconds after the axis' origin (the run's first arrival, else its
-- first engine step). A bucket without data has no row (NULL means are left out), so a chart
-- breaks its line there.
-- @grain one row per run, chart, series and bucket with data
-- @column run [id] Run.
-- @column chart [text] load, batch or tokens.
-- @column series [text] in flight, queued, running, waiting (<basis>[, decode sampled 1 in N]), batch size (<method>[, approximate][, decode sampled 1 in N]) or output tokens/s.
-- @column x_s [s] Middle of the bucket, seconds after the axis' origin (report_clocks).
-- @column width_s [s] Bucket width.
-- @column y [count] The series' time-weighted mean over the bucket (requests; tokens/s for output tokens/s).
CREATE OR REPLACE VIEW report_timeline AS
WITH m AS (
    SELECT run, clock_id, origin_ns, axis, origin FROM report_clocks
),
-- clocks whose steps are a sample: one decode line every decode_log_interval steps
sampled AS (
    SELECT clock_id, ', decode sampled 1 in ' || max(CAST(extras['decode_log_interval'] AS BIGINT)) AS note
    FROM steps
    WHERE extras['decode_log_interval'] IS NOT NULL
    GROUP BY clock_id
),
-- read once: its rows, and the widths of the token buckets
load AS MATERIALIZED (
    SELECT run, 'load' AS chart, series, x_s, width_s, y
    FROM (
        UNPIVOT (
            SELECT b.run,
                ((b.bucket_start_ns - m.origin_ns) / 1e9 + b.width_s / 2)::DOUBLE AS x_s,
                b.width_s::DOUBLE AS width_s,
                b.in_flight_mean::DOUBLE AS "in flight",
                b.queued_mean::DOUBLE AS queued,
                b.running_mean::DOUBLE AS running
            FROM concurrency_timeline AS b
            JOIN m ON b.run = m.run AND b.clock_id = m.clock_id AND m.axis
        )
        ON "in flight", queued, running
        INTO NAME series VALUE y
    )
),
waiting AS (
    SELECT b.run, 'load' AS chart, 'waiting (' || b.basis || coalesce(sa.note, '') || ')' AS series,
        ((b.bucket_start_ns - m.origin_ns) / 1e9 + b.width_s / 2)::DOUBLE AS x_s,
        b.width_s::DOUBLE AS width_s, b.waiting_mean::DOUBLE AS y
    FROM queue_depth_timeline AS b
    JOIN m ON b.run = m.run AND b.clock_id = m.clock_id
    LEFT JOIN sampled AS sa ON sa.clock_id = b.clock_id
    WHERE b.basis <> 'requests' AND b.waiting_mean IS NOT NULL
),
batch AS (
    SELECT b.run, 'batch' AS chart,
        'batch size (' || b.method || CASE WHEN b.approximate THEN ', approximate' ELSE '' END
            || CASE WHEN b.method = 'steps' THEN coalesce(sa.note, '') ELSE '' END || ')' AS series,
        ((b.bucket_start_ns - m.origin_ns) / 1e9 + b.width_s / 2)::DOUBLE AS x_s,
        b.width_s::DOUBLE AS width_s, b.batch_mean::DOUBLE AS y
    FROM batch_size_timeline AS b
    JOIN m ON b.run = m.run AND b.clock_id = m.clock_id
    LEFT JOIN sampled AS sa ON sa.clock_id = b.clock_id
    WHERE b.batch_mean IS NOT NULL
),
-- output tokens/s as throughput_timeline counts them, in buckets of the run's load width over
-- its measured window (every bucket listed, so a stall shows as zeros)
win AS (
    SELECT s.run, s.window_start_ns, s.duration_s, w.width_s
    FROM run_summary AS s
    JOIN (SELECT run, any_value(width_s) AS width_s FROM load WHERE series = 'in flight' GROUP BY run) AS w
        USING (run)
    WHERE s.duration_s IS NOT NULL
),
tb AS (
    SELECT run, window_start_ns, width_s, unnest(range(0, floor(duration_s / width_s)::BIGINT + 1)) AS b
    FROM win
),
tok AS (
    SELECT r.run, floor((t.ts_ns - w.window_start_ns) / 1e9 / w.width_s)::BIGINT AS b,
        sum(coalesce(t.n_tokens, 1)) AS n
    FROM tokens AS t
    JOIN requests AS r USING (request_key)
    JOIN _request_scope AS sc USING (request_key)
    JOIN win AS w USING (run)
    WHERE t.chunk_kind IN ('content', 'reasoning') AND sc.measured AND sc.ok
    GROUP BY ALL
),
tokens_per_s AS (
    SELECT k.run, 'tokens' AS chart, 'output tokens/s' AS series,
        ((k.window_start_ns + (k.b * k.width_s * 1e9)::BIGINT - m.origin_ns) / 1e9 + k.width_s / 2)::DOUBLE AS x_s,
        k.width_s::DOUBLE AS width_s,
        (coalesce(t.n, 0) / k.width_s)::DOUBLE AS y
    FROM tb AS k
    JOIN m ON k.run = m.run AND m.axis AND m.origin = 'first arrival'
    LEFT JOIN tok AS t ON t.run = k.run AND t.b = k.b
)
SELECT run, chart, series, x_s, width_s, y
FROM (
    SELECT *, 1 AS part FROM load
    UNION ALL SELECT *, 1 FROM waiting
    UNION ALL SELECT *, 2 FROM batch
    UNION ALL SELECT *, 3 FROM tokens_per_s
)
ORDER BY natural_sort_key(run), run, part, series, x_s
