-- The engine's periodic stats as the report draws them, per run, source and instance: running,
-- waiting and KV usage over time, on the engine's own clock from its first snapshot. A source
-- with more than 400 snapshots is averaged into about 400 buckets of equal width; a bucket that
-- touches a gap ('no data' row of engine_timeline) stays NULL, so the chart breaks its line there
-- and never bridges a gap.
-- @grain one row per run, source, instance and snapshot (or bucket of snapshots)
-- @column run [id] Run of the source file.
-- @column source_id [id] File the snapshots came from.
-- @column format [text] Input format of that file.
-- @column instance [text] Engine or instance; '' when unnamed.
-- @column x_s [s] Seconds since the first snapshot of the source and instance (start of the bucket).
-- @column running [count] Requests running (mean over the bucket), NULL in a gap.
-- @column waiting [count] Requests waiting (mean over the bucket), NULL in a gap.
-- @column kv_pct [percent] GPU KV cache usage (mean over the bucket), NULL in a gap or when not reported.
CREATE OR REPLACE VIEW report_engine AS
WITH e AS (
    SELECT run, source_id, format, coalesce(instance, '') AS instance, row_kind,
        t_s, running, waiting, kv_usage, count(*) OVER w AS n, max(t_s) OVER w AS span
    FROM engine_timeline
    WINDOW w AS (PARTITION BY run, source_id, instance)
)
SELECT run, source_id::BIGINT AS source_id, format, instance,
    (CASE WHEN n > 400 AND span > 0 THEN floor(t_s / (span / 400)) * (span / 400) ELSE t_s END)::DOUBLE AS x_s,
    (CASE WHEN bool_or(row_kind = 'no data') THEN NULL ELSE avg(running) END)::DOUBLE AS running,
    (CASE WHEN bool_or(row_kind = 'no data') THEN NULL ELSE avg(waiting) END)::DOUBLE AS waiting,
    (CASE WHEN bool_or(row_kind = 'no data') THEN NULL ELSE 100 * avg(kv_usage) END)::DOUBLE AS kv_pct
FROM e
GROUP BY run, source_id, format, instance, 5
ORDER BY natural_sort_key(run), run, source_id, instance, x_s
