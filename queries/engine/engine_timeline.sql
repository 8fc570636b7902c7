-- Running and waiting requests and KV cache usage over time, from the engine's periodic stats
-- (vLLM stats log lines, Prometheus gauges): one row per snapshot, and a 'no data' row (values
-- NULL) where snapshots stop for longer than twice their usual spacing, so a plot breaks there
-- instead of carrying the last value across the gap (vLLM V1 logs nothing while idle; a process
-- may have died). Snapshots hold the engine's last scheduler state, not averages. Companion lines
-- without running, waiting or KV usage (speculative decoding, V0's prefix cache line) are left
-- out. Times are on each row's clock; t_s counts from the first snapshot of the same source and
-- instance.
-- @grain one row per stats snapshot, plus one per gap
-- @column run [id] Run of the source file.
-- @column source_id [id] File the snapshot came from.
-- @column format [text] Input format of that file (vllm-log, vllm-prometheus, ...).
-- @column instance [text] Engine or instance (Engine 000, engine 0 / model, a process), NULL when unnamed.
-- @column row_kind [text] snapshot, or 'no data' for the start of a gap.
-- @column ts_ns [ns] When the snapshot was logged (for a gap: the usual spacing after the last snapshot).
-- @column t_s [s] Seconds since the first snapshot of this source and instance.
-- @column clock_id [id] Clock of ts_ns.
-- @column resolution_ns [ns] Resolution of that clock (1 s for vLLM's own log time).
-- @column running [count] Requests running (the batch), NULL in a gap.
-- @column waiting [count] Requests waiting (V0: pending), NULL in a gap.
-- @column swapped [count] Requests swapped to CPU (V0), NULL when not reported.
-- @column kv_usage [ratio] GPU KV cache usage, 0..1, NULL in a gap.
-- @column prompt_tokens_per_s [tokens/s] Prompt throughput over the engine's interval.
-- @column gen_tokens_per_s [tokens/s] Generation throughput over the engine's interval.
-- @column since_previous_s [s] Seconds since the previous snapshot of the source and instance.
-- @column no_data_s [s] For a gap row: seconds without a snapshot.
-- @column ts [timestamp] ts_ns as a TIMESTAMP (UTC, µs) for notebooks; NULL unless the clock is wall.
CREATE OR REPLACE VIEW engine_timeline AS
WITH snaps AS (
    SELECT
        s.run, e.source_id, s.format, e.instance, e.ts_ns, e.clock_id, c.resolution_ns,
        e.running, e.waiting, e.swapped, e.kv_usage, e.prompt_tokens_per_s, e.gen_tokens_per_s,
        e.line_no,
        (e.ts_ns - lag(e.ts_ns) OVER w) / 1e9 AS since_previous_s,
        (lead(e.ts_ns) OVER w - e.ts_ns) / 1e9 AS until_next_s,
        (e.ts_ns - first_value(e.ts_ns) OVER w) / 1e9 AS t_s
    FROM engine_stats AS e
    JOIN sources AS s USING (source_id)
    LEFT JOIN clocks AS c ON c.clock_id = e.clock_id
    WHERE e.ts_ns IS NOT NULL
        AND (e.running IS NOT NULL OR e.waiting IS NOT NULL OR e.kv_usage IS NOT NULL)
    WINDOW w AS (PARTITION BY e.source_id, e.instance ORDER BY e.ts_ns, e.line_no)
),
spacing AS (
    SELECT source_id, instance, median(since_previous_s) AS usual_s
    FROM snaps
    WHERE since_previous_s > 0
    GROUP BY ALL
),
gaps AS (
    SELECT
        n.run, n.source_id, n.format, n.instance, 'no data' AS row_kind,
        n.ts_ns + (p.usual_s * 1e9)::BIGINT AS ts_ns, n.t_s + p.usual_s AS t_s, n.clock_id,
        n.resolution_ns, n.line_no,
        n.until_next_s - p.usual_s AS no_data_s
    FROM snaps AS n
    JOIN spacing AS p ON p.source_id = n.source_id AND p.instance IS NOT DISTINCT FROM n.instance
    WHERE n.until_next_s > 2 * p.usual_s
)
-- ts only on a wall clock (a steady clock's epoch is arbitrary: 1970 would mislead)
SELECT u.*, CASE WHEN ck.kind = 'wall' THEN make_timestamp(u.ts_ns // 1000) END AS ts
FROM (
    SELECT run, source_id, format, instance, 'snapshot' AS row_kind, ts_ns, t_s, clock_id, resolution_ns,
        running, waiting, swapped, kv_usage, prompt_tokens_per_s, gen_tokens_per_s, since_previous_s,
        NULL::DOUBLE AS no_data_s
    FROM snaps
    UNION ALL
    SELECT run, source_id, format, instance, row_kind, ts_ns, t_s, clock_id, resolution_ns,
        NULL, NULL, NULL, NULL, NULL, NULL, NULL, no_data_s
    FROM gaps
) AS u
LEFT JOIN clocks AS ck ON ck.clock_id = u.clock_id
ORDER BY u.run, u.source_id, u.instance, u.ts_ns, u.row_kind DESC
