-- The rows of itl_stalls (what each column attributes, and how, is documented there): every
-- chunk gap above the threshold, or, with n_longest, each run's n_longest longest. The
-- attributions (prefills, preemptions, batch jumps, KV) are computed for those rows only: the
-- report's table of the 20 longest stalls per run takes 20 rows through the joins instead of
-- every stall (at 200 M tokens, 2 M stalls through them ran out of DuckDB's 500 MB).
-- @grain one row per chunk gap above the threshold (each run's n_longest longest), of ok measured requests
-- @param n_longest How many of each run's longest stalls, or NULL for all.
-- @column run [id] Run.
-- @column request_key [id] The request that stalled.
-- @column seq [count] seq of the chunk that ended the stall.
-- @column t0_ns [ns] Start of the gap (the previous content chunk).
-- @column t1_ns [ns] End of the gap.
-- @column gap_ms [ms] Length of the gap.
-- @column threshold_ms [ms] The threshold it exceeds.
-- @column other_prefills [count] Other requests whose prefill overlaps the gap.
-- @column preempted [bool] A preemption happened during the gap.
-- @column batch_jump [bool] The batch grew sharply during the gap.
-- @column kv_near_full [bool] The KV cache was near full during the gap.
-- @column t0_ts [timestamp] t0_ns as a TIMESTAMP (UTC, µs) for notebooks; NULL unless the request's clock is wall.
-- @column t1_ts [timestamp] t1_ns as a TIMESTAMP (UTC, µs); NULL unless the request's clock is wall.
CREATE OR REPLACE MACRO _itl_stalls_top(n_longest) AS TABLE
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
over AS (
    SELECT g.run, g.request_key, g.seq, g.ts_ns - g.gap_ns AS t0_ns,
        g.ts_ns AS t1_ns, g.gap_ms, t.threshold_ms, r.clock_id
    FROM token_gaps AS g
    JOIN thr AS t USING (run)
    JOIN requests AS r USING (request_key)
    WHERE g.measured AND g.ok AND g.gap_ms > t.threshold_ms
        -- tt_stall_floor_ns, when a command sets it (the report does, from the thresholds of
        -- metric_stats): a floor at or under every run's threshold, a constant once the query
        -- is planned, so the scan of the tokens drops the short gaps before they meet their
        -- requests (several times faster at a day's scale, same rows)
        AND g.gap_ns > coalesce(getvariable('tt_stall_floor_ns'), -1)
),
-- every gap over the threshold, or each run's n_longest longest (longest first, then the
-- earlier, then the smaller request key and seq) by a top-n aggregate that holds n_longest rows
-- per run; n_longest is a constant, so only one branch runs
stall AS (
    SELECT * FROM over WHERE n_longest IS NULL
    UNION ALL
    SELECT unnest(s, recursive := true)
    FROM (
        SELECT unnest(max_by(o, {'g': o.gap_ms, 't': -o.t0_ns, 'r': -o.request_key, 'q': -o.seq},
            coalesce(n_longest, 1))) AS s
        FROM over AS o
        WHERE n_longest IS NOT NULL
        GROUP BY o.run
    )
),
prefill AS (
    SELECT l.run, l.clock_id, l.request_key, coalesce(r.scheduled_ns, l.first_token_ns) AS p0_ns,
        l.first_token_ns AS p1_ns
    FROM request_latency AS l
    JOIN requests AS r USING (request_key)
    WHERE l.first_token_ns IS NOT NULL
),
-- how many prefills had begun by an instant and how many had ended by it: a stall [t0, t1]
-- overlaps the prefills begun by t1 less those ended by t0. Both counts come from one sorted
-- pass over the prefills' instants and the stalls' (a running count, prefills first at a tie),
-- partitioned by which count it is (ended: 0 for begun by t1, 1 for ended by t0); as-of joins
-- gave the same counts but one of them took minutes of CPU at a day's scale, and a range join
-- compared every stall with every prefill of its run
running AS (
    SELECT request_key, seq, ended, n
    FROM (
        SELECT request_key, seq, ended, k,
            sum(1 - k) OVER (PARTITION BY run, clock_id, ended ORDER BY ts_ns, k ROWS UNBOUNDED PRECEDING) AS n
        FROM (
            SELECT p.run, p.clock_id, m.ended, CASE m.ended WHEN 0 THEN p.p0_ns ELSE p.p1_ns END AS ts_ns,
                0 AS k, NULL AS request_key, NULL AS seq
            FROM prefill AS p, (VALUES (0), (1)) AS m (ended)
            WHERE p.p1_ns >= p.p0_ns
            UNION ALL
            SELECT s.run, s.clock_id, m.ended, CASE m.ended WHEN 0 THEN s.t1_ns ELSE s.t0_ns END,
                1, s.request_key, s.seq
            FROM stall AS s, (VALUES (0), (1)) AS m (ended)
        )
    )
    WHERE k = 1
),
overlap_counts AS (
    SELECT request_key, seq,
        coalesce(sum(n) FILTER (WHERE ended = 0), 0) - coalesce(sum(n) FILTER (WHERE ended = 1), 0) AS n
    FROM running
    GROUP BY request_key, seq
),
prefill_hits AS (
    SELECT s.request_key, s.seq,
        coalesce(c.n, 0)
            - CASE WHEN o.p1_ns >= o.p0_ns AND o.p0_ns <= s.t1_ns AND o.p1_ns > s.t0_ns THEN 1 ELSE 0 END AS n
    FROM stall AS s
    LEFT JOIN overlap_counts AS c USING (request_key, seq)
    LEFT JOIN prefill AS o ON o.request_key = s.request_key
),
engine AS (
    SELECT src.run, st.clock_id, st.ts_ns, st.paused > 0 AS preempted, st.kv_usage
    FROM steps AS st JOIN sources AS src USING (source_id)
    WHERE st.ts_ns IS NOT NULL
    UNION ALL
    SELECT src.run, es.clock_id, es.ts_ns,
        -- a cumulative counter that rose, or V1's count of the interval the line closes
        es.preemptions > lag(es.preemptions) OVER (PARTITION BY es.source_id, es.instance ORDER BY es.ts_ns)
            OR es.extras['preemptions_interval'] > 0,
        es.kv_usage
    FROM engine_stats AS es JOIN sources AS src USING (source_id)
    WHERE es.ts_ns IS NOT NULL
),
engine_hits AS (
    SELECT s.request_key, s.seq, coalesce(bool_or(e.preempted), false) AS preempted,
        coalesce(max(e.kv_usage), 0) >= coalesce(getvariable('tt_kv_full'), 0.95) AS kv_near_full
    FROM stall AS s
    JOIN engine AS e ON e.run = s.run AND e.clock_id = s.clock_id
        AND e.ts_ns >= s.t0_ns AND e.ts_ns <= s.t1_ns
    GROUP BY s.request_key, s.seq
),
batch AS (
    SELECT run, clock_id, basis, t0_ns, t1_ns, level
    FROM _level_segments
    WHERE measure = 'batch' AND basis IN ('steps', 'intervals')
),
-- stalls and segments meet in time cells about one mean segment long, so a stall is compared
-- with the few segments near it, not with every segment of its run; a pair that shares several
-- cells counts once for max and bool_or
cell AS (
    SELECT run, clock_id, greatest(1000, (max(t1_ns) - min(t0_ns)) // count(*)) AS w_ns
    FROM batch
    GROUP BY run, clock_id
),
batch_cells AS (
    SELECT b.*, unnest(range(b.t0_ns // c.w_ns, (b.t1_ns - 1) // c.w_ns + 1)) AS cell
    FROM batch AS b JOIN cell AS c USING (run, clock_id)
),
stall_cells AS (
    SELECT s.run, s.clock_id, s.request_key, s.seq, s.t0_ns, s.t1_ns,
        unnest(range(s.t0_ns // c.w_ns, s.t1_ns // c.w_ns + 1)) AS cell
    FROM stall AS s JOIN cell AS c USING (run, clock_id)
),
batch_hits AS (
    SELECT s.request_key, s.seq,
        bool_or(b.basis = 'steps') AS from_steps,
        max(b.level) FILTER (WHERE b.basis = 'steps') AS steps_max,
        max(b.level) FILTER (WHERE b.basis = 'steps' AND b.t0_ns <= s.t0_ns) AS steps_start,
        max(b.level) FILTER (WHERE b.basis = 'intervals') AS iv_max,
        max(b.level) FILTER (WHERE b.basis = 'intervals' AND b.t0_ns <= s.t0_ns) AS iv_start
    FROM stall_cells AS s
    JOIN batch_cells AS b ON b.run = s.run AND b.clock_id = s.clock_id AND b.cell = s.cell
        AND b.t0_ns <= s.t1_ns AND b.t1_ns > s.t0_ns
    GROUP BY s.request_key, s.seq
)
SELECT
    s.run,
    s.request_key,
    s.seq,
    s.t0_ns,
    s.t1_ns,
    s.gap_ms,
    s.threshold_ms,
    coalesce(p.n, 0) AS other_prefills,
    coalesce(e.preempted, false) AS preempted,
    coalesce(
        CASE WHEN b.from_steps THEN b.steps_max - b.steps_start >= greatest(2, 0.25 * b.steps_start)
             ELSE b.iv_max - b.iv_start >= greatest(2, 0.25 * b.iv_start) END,
        false) AS batch_jump,
    coalesce(e.kv_near_full, false) AS kv_near_full,
    CASE WHEN ck.kind = 'wall' THEN make_timestamp(s.t0_ns // 1000) END AS t0_ts,
    CASE WHEN ck.kind = 'wall' THEN make_timestamp(s.t1_ns // 1000) END AS t1_ts
FROM stall AS s
LEFT JOIN clocks AS ck ON ck.clock_id = s.clock_id
LEFT JOIN prefill_hits AS p USING (request_key, seq)
LEFT JOIN engine_hits AS e USING (request_key, seq)
LEFT JOIN batch_hits AS b USING (request_key, seq)
ORDER BY s.run, s.t0_ns, s.request_key
