-- Etalon's per-token deadlines of each request (project-etalon/etalon, etalon/metrics/
-- metric_utils.py, get_request_level_deadline_miss_rate; docs/metrics.md): the request's tokens
-- are Etalon's inter-token times, TTFT first and then, per content chunk, its gap to the chunk
-- before followed by a 0 for each further token of the chunk. The first token's deadline is the
-- TTFT target, every later token's the TBT target after the one before; a token that comes early
-- carries the time it saved (the slack) to the next deadlines, and a late token meets no deadline:
-- it counts floor((gap - slack) / TBT) missed deadlines (the first token
-- 1 + floor((TTFT - TTFT target) / TBT)) and the slack starts again at 0. Met tokens count one
-- deadline each. The deadline miss rate is missed / deadlines; the fluidity index is 1 minus it.
-- Computed in seconds as doubles, as Etalon does (its floor division of floats is reproduced;
-- a gap exactly on a boundary may round differently after many tokens). The slack follows
-- Lindley's recursion (slack = max(0, slack + TBT - gap)), so it is read from running sums and
-- running minima over the chunks in seq order, without a loop. Chunks of unknown size count one
-- token. Measured ok requests with a TTFT.
-- @grain one row per measured ok request with a TTFT
-- @example SELECT * FROM etalon_deadlines(100, 50)
-- @param ttft_deadline_ms TTFT target in ms (Etalon's ttft_deadline).
-- @param tbt_deadline_ms Time-between-tokens target in ms (Etalon's tbt_deadline); must be > 0.
-- @column run [id] Run of the request.
-- @column request_key [id] Request (requests.request_key).
-- @column request_id [id] Request id as the source wrote it.
-- @column tokens [tokens] Etalon's tokens of the request: the first chunk's and every later chunk's tokens.
-- @column deadlines [count] Deadlines counted: one per met token, floor(...) per late token.
-- @column missed_deadlines [count] Deadlines missed.
-- @column deadline_miss_rate [ratio] missed_deadlines / deadlines (0 when there are none), as Etalon's deadline_miss_rate.
-- @column fluidity_index [ratio] 1 - deadline_miss_rate.
CREATE OR REPLACE MACRO etalon_deadlines(ttft_deadline_ms, tbt_deadline_ms) AS TABLE
WITH req AS (
    SELECT run, request_key, request_id, ttft_ms / 1e3 AS ttft_s,
        ttft_deadline_ms / 1e3 AS d_ttft, tbt_deadline_ms / 1e3 AS d_tbt
    FROM request_latency
    WHERE measured AND ok AND ttft_ms IS NOT NULL
),
first_token AS (
    SELECT
        *,
        CASE WHEN ttft_s <= d_ttft THEN 1 ELSE 1 + floor((ttft_s - d_ttft) / d_tbt) END AS first_deadlines,
        CASE WHEN ttft_s <= d_ttft THEN 0 ELSE 1 + floor((ttft_s - d_ttft) / d_tbt) END AS first_missed,
        CASE WHEN ttft_s <= d_ttft THEN d_ttft - ttft_s ELSE 0 END AS slack_after_first
    FROM req
),
chunks AS (
    SELECT
        t.request_key,
        greatest(coalesce(t.n_tokens, 1), 1) AS k,
        (t.ts_ns - lag(t.ts_ns) OVER w) / 1e9 AS g,
        row_number() OVER w AS j
    FROM tokens AS t
    SEMI JOIN req USING (request_key)
    WHERE t.chunk_kind IN ('content', 'reasoning')
    WINDOW w AS (PARTITION BY t.request_key ORDER BY t.seq)
),
-- a chunk after the first: its gap is one event (TBT - gap added to the slack), its further
-- tokens k - 1 events of a 0 gap (TBT each); s is the running sum after the chunk, a the sum at
-- its gap event, where alone a new minimum (a miss) can occur
sums AS (
    SELECT
        c.request_key, c.j, c.k, c.g, f.d_tbt,
        f.slack_after_first + (first_value(c.k) OVER w - 1) * f.d_tbt AS w0,
        sum(CASE WHEN c.j > 1 THEN c.k * f.d_tbt - c.g ELSE 0 END) OVER w AS s
    FROM chunks AS c
    JOIN first_token AS f USING (request_key)
    WINDOW w AS (PARTITION BY c.request_key ORDER BY c.j ROWS UNBOUNDED PRECEDING)
),
events AS (
    SELECT
        *,
        s - (k - 1) * d_tbt AS a,
        s - (k * d_tbt - g) AS s_before
    FROM sums
),
floors AS (
    SELECT
        *,
        least(-w0, coalesce(min(a) OVER (PARTITION BY request_key ORDER BY j
            ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 'infinity'::DOUBLE)) AS floor_before
    FROM events
    WHERE j > 1
),
per_chunk AS (
    SELECT
        request_key,
        CASE WHEN a >= floor_before THEN 1 ELSE floor((g - (s_before - floor_before)) / d_tbt) END + (k - 1) AS deadlines,
        CASE WHEN a >= floor_before THEN 0 ELSE floor((g - (s_before - floor_before)) / d_tbt) END AS missed,
        k
    FROM floors
),
later AS (
    SELECT request_key, sum(deadlines) AS deadlines, sum(missed) AS missed, sum(k) AS tokens
    FROM per_chunk
    GROUP BY request_key
),
first_chunk AS (
    SELECT request_key, k FROM chunks WHERE j = 1
),
totals AS (
    SELECT
        f.run, f.request_key, f.request_id,
        (coalesce(fc.k, 1) + coalesce(l.tokens, 0))::BIGINT AS n_tokens,
        (f.first_deadlines + coalesce(fc.k - 1, 0) + coalesce(l.deadlines, 0))::BIGINT AS n_deadlines,
        (f.first_missed + coalesce(l.missed, 0))::BIGINT AS n_missed
    FROM first_token AS f
    LEFT JOIN first_chunk AS fc USING (request_key)
    LEFT JOIN later AS l USING (request_key)
)
SELECT
    run, request_key, request_id,
    n_tokens AS tokens,
    n_deadlines AS deadlines,
    n_missed AS missed_deadlines,
    coalesce(n_missed / nullif(n_deadlines, 0), 0) AS deadline_miss_rate,
    1 - coalesce(n_missed / nullif(n_deadlines, 0), 0) AS fluidity_index
FROM totals
ORDER BY run, request_key
