-- Every level that holds over an interval of time, as half-open segments [t0_ns, t1_ns): what the
-- timelines resample into buckets. Measures and where they come from (basis):
-- in_flight, queued, running from request intervals (basis requests; a sweep line over
-- arrival -> finish, arrival or queued -> scheduled, scheduled -> last token);
-- batch from engine steps (basis steps: context + generation requests, else running; a step
-- holds until the next step of its lane), from token timestamps (basis tokens: chunks of
-- different requests within _step_tolerance_ns() (tt_step_tolerance_ns, default 1 ms) of each
-- other form one engine step, whose batch is the number of requests in it; a chunk appears when
-- its step ends, so a step runs from the previous group of chunks to its own; approximate on
-- client clocks), and from
-- scheduled -> last token intervals (basis intervals); waiting and running from engine stats
-- snapshots (basis engine_stats; a snapshot holds until the next, at most 1.5 intervals, so a
-- gap in the snapshots stays a gap) and from steps.
-- @grain one row per segment of constant level per run, clock, measure, basis and lane
-- @column run [id] Run.
-- @column clock_id [id] Clock of t0_ns and t1_ns.
-- @column measure [text] in_flight, queued, running, waiting or batch.
-- @column basis [text] requests, intervals, tokens, steps or engine_stats.
-- @column lane [text] Engine instance and rank for steps and stats ('' otherwise); lanes add up.
-- @column approximate [bool] True for token-based batch sizes on a client clock.
-- @column t0_ns [ns] Segment start.
-- @column t1_ns [ns] Segment end (excluded).
-- @column level [count] The level over the segment.
CREATE OR REPLACE VIEW _level_segments AS
WITH req AS (
    SELECT
        r.run,
        r.clock_id,
        r.arrival_ns,
        coalesce(r.queued_ns, r.arrival_ns) AS queued_ns,
        r.scheduled_ns,
        coalesce(r.finished_ns, l.last_token_ns) AS done_ns,
        coalesce(l.last_token_ns, r.finished_ns) AS last_ns
    FROM requests AS r
    JOIN request_latency AS l USING (request_key)
),
ev AS (
    SELECT run, clock_id, 'in_flight' AS measure, 'requests' AS basis, arrival_ns AS ts, 1 AS d
    FROM req WHERE arrival_ns IS NOT NULL AND done_ns >= arrival_ns
    UNION ALL
    SELECT run, clock_id, 'in_flight', 'requests', done_ns, -1
    FROM req WHERE arrival_ns IS NOT NULL AND done_ns >= arrival_ns
    UNION ALL
    SELECT run, clock_id, 'queued', 'requests', queued_ns, 1
    FROM req WHERE queued_ns IS NOT NULL AND scheduled_ns >= queued_ns
    UNION ALL
    SELECT run, clock_id, 'queued', 'requests', scheduled_ns, -1
    FROM req WHERE queued_ns IS NOT NULL AND scheduled_ns >= queued_ns
    UNION ALL
    SELECT run, clock_id, m.measure, m.basis, scheduled_ns, 1
    FROM req, (VALUES ('running', 'requests'), ('batch', 'intervals')) AS m (measure, basis)
    WHERE scheduled_ns IS NOT NULL AND last_ns >= scheduled_ns
    UNION ALL
    SELECT run, clock_id, m.measure, m.basis, last_ns, -1
    FROM req, (VALUES ('running', 'requests'), ('batch', 'intervals')) AS m (measure, basis)
    WHERE scheduled_ns IS NOT NULL AND last_ns >= scheduled_ns
),
ev_at AS (
    SELECT run, clock_id, measure, basis, ts, sum(d) AS d
    FROM ev GROUP BY ALL
),
request_segments AS (
    SELECT
        run, clock_id, measure, basis, '' AS lane, false AS approximate,
        ts AS t0_ns,
        lead(ts) OVER w AS t1_ns,
        sum(d) OVER (w ROWS UNBOUNDED PRECEDING) AS level
    FROM ev_at
    WINDOW w AS (PARTITION BY run, clock_id, measure, basis ORDER BY ts)
),
st AS (
    SELECT
        src.run,
        s.clock_id,
        coalesce(s.instance, '') || '/' || coalesce(s.rank::VARCHAR, '') AS lane,
        s.ts_ns,
        lead(s.ts_ns) OVER (PARTITION BY src.run, s.clock_id, s.instance, s.rank, s.epoch ORDER BY s.ts_ns) AS next_ns,
        coalesce(s.ctx_requests + s.gen_requests, s.ctx_requests, s.gen_requests, s.running) AS batch,
        s.running,
        s.waiting
    FROM steps AS s
    JOIN sources AS src USING (source_id)
    WHERE s.ts_ns IS NOT NULL
),
step_segments AS (
    SELECT run, clock_id, m.measure, 'steps' AS basis, lane, false AS approximate, ts_ns AS t0_ns,
        next_ns AS t1_ns,
        CASE m.measure WHEN 'batch' THEN batch WHEN 'running' THEN running ELSE waiting END AS level
    FROM st, (VALUES ('batch'), ('running'), ('waiting')) AS m (measure)
),
es AS (
    SELECT
        src.run,
        e.clock_id,
        coalesce(e.instance, '') AS lane,
        e.ts_ns,
        least(
            lead(e.ts_ns) OVER (PARTITION BY src.run, e.clock_id, e.instance ORDER BY e.ts_ns),
            e.ts_ns + (coalesce(e.interval_s, 10) * 1.5e9)::BIGINT) AS next_ns,
        e.running,
        e.waiting
    FROM engine_stats AS e
    JOIN sources AS src USING (source_id)
    WHERE e.ts_ns IS NOT NULL
),
stats_segments AS (
    SELECT run, clock_id, m.measure, 'engine_stats' AS basis, lane, false AS approximate,
        ts_ns AS t0_ns,
        next_ns AS t1_ns,
        CASE m.measure WHEN 'running' THEN running ELSE waiting END AS level
    FROM es, (VALUES ('running'), ('waiting')) AS m (measure)
),
-- Chunks are first counted per cell of one tolerance width (a hash aggregate, which spills to
-- disk, where a window over every chunk of a run in time order ran out of memory at 10 M chunks).
-- Within a cell no two neighbours can be more than the tolerance apart, so steps only break
-- between cells: the same steps as grouping the chunks one by one. A request is counted once per
-- step: a chunk less than the tolerance after the request's previous chunk (gap_ns) is in the
-- same step as it and is not counted again.
tk_cells AS (
    SELECT r.run, r.clock_id, t.ts_ns // _step_tolerance_ns() AS cell,
        min(t.ts_ns) AS t_min, max(t.ts_ns) AS t_max,
        count(*) FILTER (WHERE t.gap_ns IS NULL OR t.gap_ns > _step_tolerance_ns()) AS requests
    FROM tokens AS t
    JOIN requests AS r USING (request_key)
    WHERE t.chunk_kind IN ('content', 'reasoning')
    GROUP BY ALL
),
-- One pass over the cells in time order: the previous cell's last chunk (a step starts where the
-- gap to it is over the tolerance) and the requests counted before the cell. A step's batch is
-- then the difference of that running count at its start and at the next step's start, so the
-- steps need no grouping (two window passes in all; grouping the steps took four passes, 7.3 s
-- instead of 5 s at 10 M tokens).
tk_pass AS (
    SELECT run, clock_id, cell, t_min,
        lag(t_max) OVER w AS prev_max,
        sum(requests) OVER (w ROWS UNBOUNDED PRECEDING) - requests AS counted_before,
        sum(requests) OVER (PARTITION BY run, clock_id) AS counted_total
    FROM tk_cells
    WINDOW w AS (PARTITION BY run, clock_id ORDER BY cell)
),
client_clocks AS (
    SELECT clock_id, bool_or(kind = 'client') AS client FROM clocks GROUP BY clock_id
),
token_segments AS (
    SELECT s.run, s.clock_id, 'batch' AS measure, 'tokens' AS basis, '' AS lane,
        coalesce(c.client, false) AS approximate,
        lag(s.t_min) OVER w AS t0_ns,
        s.t_min AS t1_ns,
        lead(s.counted_before, 1, s.counted_total) OVER w - s.counted_before AS level
    FROM tk_pass AS s
    LEFT JOIN client_clocks AS c ON c.clock_id = s.clock_id
    WHERE s.prev_max IS NULL OR s.t_min - s.prev_max > _step_tolerance_ns()
    WINDOW w AS (PARTITION BY s.run, s.clock_id ORDER BY s.cell)
)
SELECT run, clock_id, measure, basis, lane, approximate, t0_ns, t1_ns, level::DOUBLE AS level
FROM (
    SELECT * FROM request_segments
    UNION ALL SELECT * FROM step_segments
    UNION ALL SELECT * FROM stats_segments
    UNION ALL SELECT * FROM token_segments
)
WHERE t1_ns > t0_ns AND level IS NOT NULL
