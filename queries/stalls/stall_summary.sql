-- What the ITL stalls of each run coincide with (itl_stalls), as shares of the stalls and a
-- one-line verdict naming the most frequent companion, e.g. "72 % of ITL stalls > 200 ms
-- overlap another request's prefill". A stall may have several companions, so the shares can
-- add up to more than 1; unexplained is the share with none.
-- @grain one row per run with measured chunk gaps
-- @column run [id] Run.
-- @column threshold_ms [ms] Gaps above this are stalls: tt_stall_ms, else the higher of the run's P99 gap and tt_stall_factor (2) times its median gap.
-- @column stalls [count] Number of stalls.
-- @column prefill_share [ratio] Share overlapping another request's prefill.
-- @column preemption_share [ratio] Share with a preemption.
-- @column batch_jump_share [ratio] Share with a sharp batch-size jump.
-- @column kv_full_share [ratio] Share with the KV cache near full.
-- @column unexplained_share [ratio] Share with none of these.
-- @column verdict [text] One sentence.
CREATE OR REPLACE VIEW stall_summary AS
-- the run's P99 and median chunk gaps from metric_stats (the same _gap_quantiles figures), so a
-- command that snapshots metric_stats (summary, report) does not count every gap again here. A
-- stall is above both the P99 and tt_stall_factor (default 2) times the median: the P99 alone
-- made every run's slowest 1 % stalls, the ordinary jitter of an idle run included (P99 17 ms
-- against a 13.5 ms median: 7,456 "stalls", all unexplained).
WITH thr AS MATERIALIZED (
    SELECT run, coalesce(getvariable('tt_stall_ms'),
        greatest(p99, coalesce(getvariable('tt_stall_factor'), 2) * p50)) AS threshold_ms
    FROM metric_stats
    WHERE metric = 'itl_ms'
),
s AS (
    SELECT
        run,
        count(*) AS stalls,
        avg((other_prefills > 0)::INT) AS prefill_share,
        avg(preempted::INT) AS preemption_share,
        avg(batch_jump::INT) AS batch_jump_share,
        avg(kv_near_full::INT) AS kv_full_share,
        avg((other_prefills = 0 AND NOT preempted AND NOT batch_jump AND NOT kv_near_full)::INT) AS unexplained_share
    FROM itl_stalls
    GROUP BY run
),
ranked AS (
    SELECT t.run, t.threshold_ms, coalesce(s.stalls, 0) AS stalls, s.prefill_share, s.preemption_share,
        s.batch_jump_share, s.kv_full_share, s.unexplained_share,
        arg_max(c.label, c.share ORDER BY c.share DESC, c.rank) AS top_label,
        max(c.share) AS top_share
    FROM thr AS t
    LEFT JOIN s USING (run)
    LEFT JOIN (
        SELECT run, 'overlap another request''s prefill' AS label, prefill_share AS share, 1 AS rank FROM s
        UNION ALL SELECT run, 'coincide with a preemption', preemption_share, 2 FROM s
        UNION ALL SELECT run, 'coincide with a batch-size jump', batch_jump_share, 3 FROM s
        UNION ALL SELECT run, 'happen with the KV cache near full', kv_full_share, 4 FROM s
    ) AS c USING (run)
    GROUP BY ALL
)
SELECT
    run,
    threshold_ms,
    stalls,
    prefill_share,
    preemption_share,
    batch_jump_share,
    kv_full_share,
    unexplained_share,
    CASE
        WHEN stalls = 0 THEN 'no ITL stall above ' || round(threshold_ms, 1) || ' ms'
        WHEN coalesce(top_share, 0) = 0 THEN 'none of the ' || stalls || ' ITL stalls > '
            || round(threshold_ms, 1) || ' ms coincides with a prefill, preemption, batch jump or full KV cache'
        ELSE round(100 * top_share)::INT || ' % of ITL stalls > ' || round(threshold_ms, 1) || ' ms ' || top_label
    END AS verdict
FROM ranked
ORDER BY run
