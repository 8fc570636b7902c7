-- The engine timeline of each run in one line: how many snapshots over how long, running and
-- waiting requests (mean and max over the snapshots, not over time), the largest KV cache usage,
-- and the gaps without data, with the sources and clock resolution they rest on. Runs are those
-- of the stats files (a stats-only log still has a run).
-- @grain one row per run with engine statistics
-- @column run [id] Run of the stats files.
-- @column snapshots [count] Stats snapshots (rows of engine_timeline of kind snapshot).
-- @column instances [count] Engines or instances reporting.
-- @column first_ns [ns] First snapshot.
-- @column last_ns [ns] Last snapshot.
-- @column span_s [s] last_ns - first_ns when all snapshots share one clock, else NULL.
-- @column running_mean [count] Mean of running over the snapshots.
-- @column running_max [count] Largest running.
-- @column waiting_mean [count] Mean of waiting over the snapshots.
-- @column waiting_max [count] Largest waiting.
-- @column kv_usage_max [ratio] Largest KV cache usage, 0..1.
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
)
SELECT
    t.run,
    count(*) FILTER (WHERE row_kind = 'snapshot') AS snapshots,
    count(DISTINCT coalesce(instance, '')) AS instances,
    min(ts_ns) FILTER (WHERE row_kind = 'snapshot') AS first_ns,
    max(ts_ns) FILTER (WHERE row_kind = 'snapshot') AS last_ns,
    CASE WHEN count(DISTINCT clock_id) = 1
        THEN (max(ts_ns) FILTER (WHERE row_kind = 'snapshot')
            - min(ts_ns) FILTER (WHERE row_kind = 'snapshot')) / 1e9 END AS span_s,
    avg(running) AS running_mean,
    max(running) AS running_max,
    avg(waiting) AS waiting_mean,
    max(waiting) AS waiting_max,
    max(kv_usage) AS kv_usage_max,
    count(*) FILTER (WHERE row_kind = 'no data') AS gaps,
    coalesce(sum(no_data_s), 0) AS no_data_s,
    any_value(b.basis) AS basis
FROM t
JOIN basis AS b USING (run)
GROUP BY t.run
ORDER BY t.run
