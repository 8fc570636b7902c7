-- Inter-token latency samples: the gap between consecutive content chunks of a request, in
-- stream (seq) order; the first chunk of a request has no gap (its wait is TTFT). This is the
-- default ITL of docs/metrics.md (chunk gaps pooled over requests, as vllm bench serve and
-- AIPerf's inter-chunk latency). Reasoning chunks count as content. The gaps are computed once,
-- by the derive step, and stored with the chunks (tokens.gap_ns).
-- @grain one row per content chunk after the first of its request
-- @column run [id] Run of the request.
-- @column request_key [id] Request (requests.request_key).
-- @column seq [count] seq of the chunk in its request's stream.
-- @column ts_ns [ns] When the chunk was produced or received, on the request's clock.
-- @column gap_ms [ms] Time since the previous content chunk of the same request.
-- @column gap_ns [ns] The same gap in whole nanoseconds (tokens.gap_ns): percentiles over it are
-- exact as well and about three times faster in DuckDB than over the DOUBLE gap_ms.
-- @column n_tokens [tokens] Tokens in the chunk; NULL when unknown.
-- @column gap_per_token_ms [ms] gap_ms / n_tokens when the chunk holds more than one token,
-- else gap_ms (tokens of one chunk arrive together).
-- @column measured [bool] Counted: the request is not warm-up and inside the analysis window.
-- @column ok [bool] True when the request's status is ok or unknown.
-- @column ts [timestamp] ts_ns as a TIMESTAMP (UTC, µs) for notebooks; NULL unless the request's clock is wall.
CREATE OR REPLACE VIEW token_gaps AS
SELECT
    r.run,
    t.request_key,
    t.seq,
    t.ts_ns,
    t.gap_ns / 1e6 AS gap_ms,
    t.gap_ns,
    t.n_tokens,
    CASE WHEN t.n_tokens > 1 THEN t.gap_ns / 1e6 / t.n_tokens ELSE t.gap_ns / 1e6 END
        AS gap_per_token_ms,
    sc.measured,
    sc.ok,
    -- only on a wall clock (a steady clock's epoch is arbitrary: 1970 would mislead)
    CASE WHEN r.wall THEN make_timestamp(t.ts_ns // 1000) END AS ts
FROM tokens AS t
-- the clock's kind joins the requests, not the chunks: a join per chunk made every scan of the
-- gaps (the ITL percentiles, the stall search) markedly slower
JOIN (
    SELECT q.request_key, q.run, c.kind = 'wall' AS wall
    FROM requests AS q
    LEFT JOIN clocks AS c ON c.clock_id = q.clock_id
) AS r USING (request_key)
JOIN _request_scope AS sc USING (request_key)
WHERE t.gap_ns IS NOT NULL
