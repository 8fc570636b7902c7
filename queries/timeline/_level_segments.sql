-- Every level that holds over an interval of time, as half-open segments [t0_ns, t1_ns): what the
-- timelines resample into buckets. Measures and where they come from (basis):
-- in_flight, queued, running from request intervals (basis requests; a sweep line over
-- arrival -> finish, arrival or queued -> scheduled, scheduled -> last token);
-- batch from engine steps (basis steps: context + generation requests, else running; a step
-- holds until the next step of its lane; in a sampled lane, where decode steps are logged only
-- every extras['decode_log_interval'] steps, a prefill step holds its running + new requests),
-- from token timestamps (basis tokens: chunks of different requests within _step_tolerance_ns() (tt_step_tolerance_ns, default 1 ms) of each
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
        lead(s.ts_ns) OVER (PARTITION BY src.run, s.clock_id, s.instance, s.rank, s.epoch ORDER BY s.ts_ns, s.line_no) AS next_ns,
        -- a sampled lane (SGLang: every prefill, but a decode line only every decode_log_interval
        -- steps) holds, after a prefill line, the decode batch that follows it: running + new
        CASE WHEN s.extras['decode_log_interval'] IS NOT NULL
            THEN coalesce(s.gen_requests, s.running + s.ctx_requests, s.ctx_requests)
            ELSE coalesce(s.ctx_requests + s.gen_requests, s.ctx_requests, s.gen_requests, s.running)
        END AS batch,
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
client_clocks AS (
    SELECT clock_id, bool_or(kind = 'client') AS client FROM clocks GROUP BY clock_id
),
-- engine steps from token timestamps (_token_steps_live, from the cells of _token_cells)
token_segments AS (
    SELECT s.run, s.clock_id, 'batch' AS measure, 'tokens' AS basis, '' AS lane,
        coalesce(c.client, false) AS approximate, s.t0_ns, s.t1_ns, s.level
    FROM _token_steps_live AS s
    LEFT JOIN client_clocks AS c ON c.clock_id = s.clock_id
)
SELECT run, clock_id, measure, basis, lane, approximate, t0_ns, t1_ns, level::DOUBLE AS level
FROM (
    SELECT * FROM request_segments
    UNION ALL SELECT * FROM step_segments
    UNION ALL SELECT * FROM stats_segments
    UNION ALL SELECT * FROM token_segments
)
WHERE t1_ns > t0_ns AND level IS NOT NULL
