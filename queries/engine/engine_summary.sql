-- The engine timeline of each run in one line: how many snapshots over how long, running and
-- waiting requests (mean and max over the snapshot instants, not over time), the largest KV cache
-- usage, the prefix-cache hit rate over the window, and the gaps without data, with the sources
-- and clock resolution they rest on. Runs are those of the stats files (a stats-only log still
-- has a run). Several engines of one server (vLLM's data-parallel engines: the `engine` label of
-- a Prometheus scrape, `Engine 000` / `Engine 001` log lines) are one server: at each instant of
-- a source, running and waiting are the sums over the engines that reported at that instant, as
-- vLLM's own server-load figures and its aggregated log line sum them (engine_instance_summary
-- keeps each engine's own figures). The prefix-cache hit rate is the window's hits over its
-- queries, from the deltas of the counters (vllm:prefix_cache_hits / _queries, or their older
-- gpu_ names) summed over engines (a decrease is a restart: the new value counts from zero), as
-- vLLM's bench computes it between its scrapes before and after a run; NULL without the counters.
-- @grain one row per run with engine statistics
-- @column run [id] Run of the stats files.
-- @column snapshots [count] Stats snapshots (rows of engine_timeline of kind snapshot; one per engine per instant).
-- @column instances [count] Engines or instances reporting.
-- @column first_ns [ns] First snapshot.
-- @column last_ns [ns] Last snapshot.
-- @column span_s [s] last_ns - first_ns when all snapshots share one clock, else NULL.
-- @column running_mean [count] Mean over the instants of running summed over the engines.
-- @column running_max [count] Largest running summed over the engines at one instant.
-- @column waiting_mean [count] Mean over the instants of waiting summed over the engines.
-- @column waiting_max [count] Largest waiting summed over the engines at one instant.
-- @column kv_usage_max [ratio] Largest KV cache usage of any engine, 0..1 (each engine has its own cache).
-- @column prefix_cache_hit_rate [ratio] Prefix-cache hits / queries over the window, from counter deltas summed over engines, 0..1; NULL without the counters.
-- @column gaps [count] Gaps without data (engine_timeline rows of kind 'no data').
-- @column no_data_s [s] Seconds inside those gaps.
-- @column basis [text] Which sources and clock resolutions the figures rest on.
CREATE OR REPLACE VIEW engine_summary AS
WITH t AS (
    SELECT * FROM engine_timeline
),
per_source AS (
    SELECT run, format, resolution_ns, count(*) AS n
    FROM t WHERE row_kind = 'snapshot'
    GROUP BY ALL
),
basis AS (
    SELECT run,
        string_agg(format || ' (' || n || ' snapshots, ' ||
            CASE resolution_ns WHEN 1000000000 THEN '1 s' WHEN 1000000 THEN '1 ms'
                WHEN 1000 THEN '1 µs' WHEN 1 THEN '1 ns' ELSE coalesce(resolution_ns || ' ns', '? ns') END
            || ' clock)', '; ' ORDER BY format, resolution_ns) AS basis
    FROM per_source
    GROUP BY run
),
-- one row per source and instant: the engines that reported then, summed
instants AS (
    SELECT run, source_id, ts_ns, sum(running) AS running, sum(waiting) AS waiting
    FROM t
    WHERE row_kind = 'snapshot'
    GROUP BY run, source_id, ts_ns
),
load AS (
    SELECT run, avg(running) AS running_mean, max(running) AS running_max,
        avg(waiting) AS waiting_mean, max(waiting) AS waiting_max
    FROM instants
    GROUP BY run
),
prefix AS (
    SELECT run, sum(hits) / nullif(sum(queries), 0) AS prefix_cache_hit_rate
    FROM _engine_prefix_cache
    GROUP BY run
),
whole AS (
    SELECT
        t.run,
        count(*) FILTER (WHERE row_kind = 'snapshot') AS snapshots,
        count(DISTINCT coalesce(instance, '')) AS instances,
        min(ts_ns) FILTER (WHERE row_kind = 'snapshot') AS first_ns,
        max(ts_ns) FILTER (WHERE row_kind = 'snapshot') AS last_ns,
        CASE WHEN count(DISTINCT clock_id) = 1
            THEN (max(ts_ns) FILTER (WHERE row_kind = 'snapshot')
                - min(ts_ns) FILTER (WHERE row_kind = 'snapshot')) / 1e9 END AS span_s,
        max(kv_usage) AS kv_usage_max,
        count(*) FILTER (WHERE row_kind = 'no data') AS gaps,
        coalesce(sum(no_data_s), 0) AS no_data_s
    FROM t
    GROUP BY t.run
)
SELECT
    w.run, w.snapshots, w.instances, w.first_ns, w.last_ns, w.span_s,
    l.running_mean, l.running_max, l.waiting_mean, l.waiting_max, w.kv_usage_max,
    p.prefix_cache_hit_rate, w.gaps, w.no_data_s, b.basis
FROM whole AS w
JOIN basis AS b USING (run)
LEFT JOIN load AS l USING (run)
LEFT JOIN prefix AS p USING (run)
ORDER BY w.run
