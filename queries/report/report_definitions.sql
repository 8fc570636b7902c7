-- The definitions of the figures a report shows, read from the documentation the query library
-- stores with its views and macros (COMMENT ON), so a report states exactly what the views and
-- docs/metrics.md say: a column's comment for a column, the object's comment for a whole view or
-- table macro. In the order the report lists them.
-- @grain one row per figure the report defines
-- @column figure [text] The figure's name in the report.
-- @column source [text] The view or table macro that defines it.
-- @column definition [text] Its documentation ("[unit] doc" for a column); NULL when the object is missing.
CREATE OR REPLACE VIEW report_definitions AS
SELECT v.figure, v.source, coalesce(c.comment, w.comment, f.comment) AS definition
FROM (VALUES
    (0, 'TTFT', 'request_latency', 'ttft_ms'),
    (1, 'pre-queue', 'request_latency', 'pre_queue_ms'),
    (2, 'queue', 'request_latency', 'queue_ms'),
    (3, 'prefill', 'request_latency', 'prefill_ms'),
    (4, 'decode', 'request_latency', 'decode_ms'),
    (5, 'E2E', 'request_latency', 'e2e_ms'),
    (6, 'TPOT', 'request_latency', 'tpot_ms'),
    (7, 'ITL', 'token_gaps', 'gap_ms'),
    (8, 'measured window', 'run_summary', 'duration_s'),
    (9, 'output tokens/s', 'run_summary', 'output_tokens_per_s'),
    (10, 'requests/s', 'run_summary', 'requests_per_s'),
    (11, 'percentiles', 'metric_stats', NULL),
    (12, 'per-level table', 'level_summary', NULL),
    (13, 'TTFT breakdown', 'ttft_breakdown', NULL),
    (14, 'in flight, queued, running', 'concurrency_timeline_at', NULL),
    (15, 'effective batch size', 'batch_size_timeline_at', NULL),
    (16, 'engine timeline, KV usage', 'engine_timeline', NULL),
    (17, 'ITL stalls', 'itl_stalls', NULL),
    (18, 'knee', 'level_knee', NULL),
    (19, 'SLO attainment', 'slo_attainment', NULL),
    (20, 'basis', 'figure_basis', NULL)
) AS v(i, figure, source, col)
LEFT JOIN duckdb_columns() AS c ON c.table_name = v.source AND c.column_name = v.col
LEFT JOIN duckdb_views() AS w ON v.col IS NULL AND w.view_name = v.source
LEFT JOIN (
    SELECT function_name, any_value(comment) AS comment
    FROM duckdb_functions()
    WHERE function_type = 'table_macro'
    GROUP BY ALL
) AS f ON v.col IS NULL AND f.function_name = v.source
ORDER BY v.i
