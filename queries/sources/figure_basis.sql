-- Which source and clock resolution each figure of a run rests on, so that a summary never
-- suggests a precision that is not there (a vLLM log line has 1 s; an OTel span 1 ns). Latency
-- metrics follow request_latency (the row its durations came from, timing_source); ITL follows the
-- token rows of token_gaps; engine_timeline follows engine_stats; steps and metric_histograms
-- their own rows (steps of a log that logs decode steps only every N, SGLang's, say so: the
-- batch-size and queue-depth timelines read them as a sample). basis reads like
-- "vllm-otlp-json reported (12, 1 ns clock)".
-- @grain one row per run per figure
-- @column run [id] Run name.
-- @column figure [text] ttft_ms, pre_queue_ms, queue_ms, prefill_ms, decode_ms, e2e_ms, tpot_ms, itl_ms, engine_timeline, steps or metric_histograms.
-- @column values [count] Values (or rows) the figure rests on.
-- @column sources [count] Input formats contributing.
-- @column finest_resolution_ns [ns] Finest clock resolution among them.
-- @column coarsest_resolution_ns [ns] Coarsest clock resolution among them: the precision of the figure.
-- @column basis [text] Per format: how the values were obtained, how many, on what clock resolution.
CREATE OR REPLACE VIEW figure_basis AS
WITH latency AS (
    SELECT run, figure, timing_source AS format, 'requests' AS how, timing_resolution_ns AS res, 1 AS n
    FROM (
        SELECT run, timing_source, timing_basis, timing_resolution_ns,
            ttft_ms, pre_queue_ms, queue_ms, prefill_ms, decode_ms, e2e_ms, tpot_ms
        FROM request_latency
        WHERE measured AND ok
    ) UNPIVOT (value FOR figure IN (ttft_ms, pre_queue_ms, queue_ms, prefill_ms, decode_ms, e2e_ms, tpot_ms))
),
-- the gaps of token_gaps, counted per request and file first (joining every gap back to its token
-- row was most of the view's time)
itl AS (
    SELECT r.run, 'itl_ms' AS figure, s.format, 'token rows' AS how, c.resolution_ns AS res, t.n
    FROM (
        SELECT request_key, source_id, count(*) AS n
        FROM tokens WHERE gap_ns IS NOT NULL
        GROUP BY ALL
    ) AS t
    JOIN _request_scope AS sc USING (request_key)
    JOIN requests AS r USING (request_key)
    JOIN sources AS s ON s.source_id = t.source_id
    LEFT JOIN clocks AS c ON c.clock_id = r.clock_id
    WHERE sc.measured AND sc.ok
),
engine AS (
    SELECT run, 'engine_timeline' AS figure, format, 'snapshots' AS how, resolution_ns AS res, 1 AS n
    FROM engine_timeline
    WHERE row_kind = 'snapshot'
),
steps_ AS (
    SELECT s.run, 'steps' AS figure, s.format,
        CASE WHEN p.extras['decode_log_interval'] IS NULL THEN 'iterations'
            ELSE 'iterations, decode sampled 1 in ' || CAST(p.extras['decode_log_interval'] AS BIGINT) END AS how,
        c.resolution_ns AS res, 1 AS n
    FROM steps AS p
    JOIN sources AS s USING (source_id)
    LEFT JOIN clocks AS c ON c.clock_id = p.clock_id
),
histograms AS (
    SELECT s.run, 'metric_histograms' AS figure, s.format, 'bucket deltas' AS how, c.resolution_ns AS res, 1 AS n
    FROM metric_histograms AS h
    JOIN sources AS s USING (source_id)
    LEFT JOIN clocks AS c ON c.clock_id = h.clock_id
),
everything AS (
    SELECT * FROM latency
    UNION ALL SELECT * FROM itl
    UNION ALL SELECT * FROM engine
    UNION ALL SELECT * FROM steps_
    UNION ALL SELECT * FROM histograms
),
per_format AS (
    SELECT run, figure, format, how, sum(n) AS n, min(res) AS finest, max(res) AS coarsest
    FROM everything
    GROUP BY ALL
)
SELECT
    run,
    figure,
    sum(n)::BIGINT AS "values",
    count(DISTINCT format) AS sources,
    min(finest) AS finest_resolution_ns,
    max(coarsest) AS coarsest_resolution_ns,
    string_agg(coalesce(format, 'unknown source') || ' ' || coalesce(how, '') || ' (' || n || ', '
        || CASE coarsest WHEN 1000000000 THEN '1 s' WHEN 1000000 THEN '1 ms' WHEN 1000 THEN '1 µs'
            WHEN 1 THEN '1 ns' ELSE coalesce(coarsest || ' ns', 'unknown') END || ' clock)',
        '; ' ORDER BY format, how) AS basis
FROM per_format
GROUP BY run, figure
ORDER BY run, CASE figure WHEN 'ttft_ms' THEN 1 WHEN 'pre_queue_ms' THEN 2 WHEN 'queue_ms' THEN 3
    WHEN 'prefill_ms' THEN 4 WHEN 'decode_ms' THEN 5 WHEN 'itl_ms' THEN 6 WHEN 'tpot_ms' THEN 7
    WHEN 'e2e_ms' THEN 8 WHEN 'engine_timeline' THEN 9 WHEN 'steps' THEN 10 ELSE 11 END
