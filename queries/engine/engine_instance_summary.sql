-- engine_summary for each engine or instance on its own: a data-parallel vLLM server's engines
-- (the `engine` label of a Prometheus scrape, `Engine 000` log lines) each with their snapshots,
-- running and waiting (mean and max over that engine's snapshots), largest KV cache usage and
-- prefix-cache hit rate over the window (counter deltas, as engine_summary).
-- @grain one row per run per engine or instance with engine statistics
-- @column run [id] Run of the stats files.
-- @column instance [text] Engine or instance (engine 0 / model, Engine 000, a process), NULL when unnamed.
-- @column snapshots [count] This engine's stats snapshots.
-- @column first_ns [ns] First snapshot.
-- @column last_ns [ns] Last snapshot.
-- @column running_mean [count] Mean of running over this engine's snapshots.
-- @column running_max [count] Largest running of this engine.
-- @column waiting_mean [count] Mean of waiting over this engine's snapshots.
-- @column waiting_max [count] Largest waiting of this engine.
-- @column kv_usage_max [ratio] Largest KV cache usage of this engine, 0..1.
-- @column prefix_cache_hit_rate [ratio] This engine's prefix-cache hits / queries over the window, 0..1; NULL without the counters.
-- @column gaps [count] Gaps without data of this engine.
CREATE OR REPLACE VIEW engine_instance_summary AS
WITH t AS (
    SELECT
        run, instance,
        count(*) FILTER (WHERE row_kind = 'snapshot') AS snapshots,
        min(ts_ns) FILTER (WHERE row_kind = 'snapshot') AS first_ns,
        max(ts_ns) FILTER (WHERE row_kind = 'snapshot') AS last_ns,
        avg(running) AS running_mean, max(running) AS running_max,
        avg(waiting) AS waiting_mean, max(waiting) AS waiting_max,
        max(kv_usage) AS kv_usage_max,
        count(*) FILTER (WHERE row_kind = 'no data') AS gaps
    FROM engine_timeline
    GROUP BY run, instance
),
p AS (
    SELECT run, instance, sum(hits) / nullif(sum(queries), 0) AS prefix_cache_hit_rate
    FROM _engine_prefix_cache
    GROUP BY run, instance
)
SELECT t.run, t.instance, t.snapshots, t.first_ns, t.last_ns, t.running_mean, t.running_max,
    t.waiting_mean, t.waiting_max, t.kv_usage_max, p.prefix_cache_hit_rate, t.gaps
FROM t
LEFT JOIN p ON p.run = t.run AND p.instance IS NOT DISTINCT FROM t.instance
ORDER BY t.run, t.instance
