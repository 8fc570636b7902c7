-- An estimate of how TensorRT-LLM's steady clock (per-request perf metrics: seconds since boot)
-- relates to wall time (iteration statistics: host-local timestamps), per run: no TensorRT-LLM
-- source writes both clocks, but a request's last_iter is an iteration of the statistics, so the
-- iteration's wall timestamp minus the request's last token (steady) is one reading of the offset.
-- Over the requests of a steady clock whose last_iter appears once in the run's statistics: the
-- median offset, and the spread (max - min: the iteration stamp is taken once per iteration, so
-- expect about one iteration's latency). A steady clock without such requests has a row with
-- pairs = 0 and no offset: no anchor exists for it. wall_ns = steady_ns + offset_ns.
-- @grain one row per run and steady request clock (and wall clock of the matched steps)
-- @column run [id] Run.
-- @column steady_clock_id [id] Clock of the requests (steady).
-- @column wall_clock_id [id] Clock of the matched iteration timestamps (wall); NULL when none matched.
-- @column pairs [count] Requests whose last iteration has a wall timestamp.
-- @column offset_ns [ns] Median of iteration timestamp minus last token: add to a steady reading for wall time.
-- @column spread_ms [ms] Largest minus smallest of the readings.
-- @column wall_first_token_min_ns [ns] The earliest first token of these requests on the wall clock (by the estimate).
CREATE OR REPLACE VIEW trtllm_clock_offsets AS
WITH req AS (
    SELECT r.run, r.clock_id, r.request_key, r.last_iter, r.first_token_ns, r.last_token_ns
    FROM requests AS r
    JOIN clocks AS c ON c.clock_id = r.clock_id
    WHERE c.kind = 'steady' AND r.last_iter IS NOT NULL AND r.last_token_ns IS NOT NULL
),
unique_steps AS (
    SELECT run, iter, any_value(ts_ns) AS ts_ns, any_value(clock_id) AS clock_id
    FROM _trtllm_steps
    WHERE ts_ns IS NOT NULL
    GROUP BY run, iter
    HAVING count(*) = 1
),
readings AS (
    SELECT q.run, q.clock_id AS steady_clock_id, s.clock_id AS wall_clock_id,
        s.ts_ns - q.last_token_ns AS offset_ns, q.first_token_ns
    FROM req AS q
    JOIN unique_steps AS s ON s.run = q.run AND s.iter = q.last_iter
),
estimates AS (
    SELECT run, steady_clock_id, wall_clock_id, count(*) AS pairs,
        quantile_disc(offset_ns, 0.5) AS offset_ns,
        (max(offset_ns) - min(offset_ns)) / 1e6 AS spread_ms,
        min(first_token_ns) AS first_token_min_ns
    FROM readings
    GROUP BY ALL
),
clocks_seen AS (
    SELECT DISTINCT r.run, r.clock_id AS steady_clock_id
    FROM requests AS r
    JOIN clocks AS c ON c.clock_id = r.clock_id
    JOIN sources AS s ON s.source_id = r.source_id
    WHERE c.kind = 'steady' AND s.format = 'trtllm-perf-metrics'
)
SELECT
    c.run,
    c.steady_clock_id,
    e.wall_clock_id,
    coalesce(e.pairs, 0) AS pairs,
    e.offset_ns,
    e.spread_ms,
    e.first_token_min_ns + e.offset_ns AS wall_first_token_min_ns
FROM clocks_seen AS c
LEFT JOIN estimates AS e USING (run, steady_clock_id)
ORDER BY c.run, c.steady_clock_id, e.wall_clock_id
