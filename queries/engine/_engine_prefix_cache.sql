-- Prefix-cache hits and queries of each engine over its stats rows, from vLLM's counters
-- (vllm:prefix_cache_hits_total / _queries_total, or the older vllm:gpu_prefix_cache_* names):
-- the sum of the deltas between consecutive samples, where a decrease is a counter reset (the
-- process restarted) and the new value is the count since then. The helper of engine_summary
-- and engine_instance_summary.
-- @grain one row per source per instance with prefix-cache counters
-- @column run [id] Run of the source.
-- @column source_id [id] Stats source.
-- @column instance [text] Engine or instance (NULL when unnamed).
-- @column hits [tokens] Prefix-cache hits (cached tokens) between the first and last sample.
-- @column queries [tokens] Prefix-cache queries (queried tokens) between the first and last sample.
CREATE OR REPLACE VIEW _engine_prefix_cache AS
WITH c AS (
    SELECT
        s.run, e.source_id, e.instance, e.ts_ns, e.line_no,
        coalesce(e.extras['prefix_cache_hits_total'], e.extras['prefix_cache_hits'],
            e.extras['gpu_prefix_cache_hits_total'], e.extras['gpu_prefix_cache_hits']) AS hits,
        coalesce(e.extras['prefix_cache_queries_total'], e.extras['prefix_cache_queries'],
            e.extras['gpu_prefix_cache_queries_total'], e.extras['gpu_prefix_cache_queries']) AS queries
    FROM engine_stats AS e
    JOIN sources AS s USING (source_id)
    WHERE e.ts_ns IS NOT NULL
),
d AS (
    SELECT
        run, source_id, instance,
        hits - lag(hits) OVER w AS dh, hits AS h,
        queries - lag(queries) OVER w AS dq, queries AS q
    FROM c
    WHERE hits IS NOT NULL AND queries IS NOT NULL
    WINDOW w AS (PARTITION BY source_id, instance ORDER BY ts_ns, line_no)
)
SELECT
    run, source_id, instance,
    coalesce(sum(CASE WHEN dh < 0 THEN h ELSE dh END), 0) AS hits,
    coalesce(sum(CASE WHEN dq < 0 THEN q ELSE dq END), 0) AS queries
FROM d
GROUP BY run, source_id, instance
