-- Throughput per run over its measured window (docs/metrics.md): requests/s, output, input and
-- total tokens/s, with the mean input and output lengths that make tokens/s comparable, and the
-- peak output tokens/s over any whole second of the window (vLLM bench serve's
-- max_output_tokens_per_s). The peak counts content chunks' tokens (a chunk of unknown size
-- counts one) of the ok measured requests; it is NULL for runs without token rows.
-- @grain one row per run
-- @column run [id] Run name.
-- @column level_kind [text] concurrency or request_rate; NULL when the run has no level.
-- @column level [level_kind] Concurrency or request rate.
-- @column repeat [count] Repeat number, when known.
-- @column duration_s [s] The measured window: first arrival to last finish of measured requests.
-- @column ok_requests [count] Ok measured requests.
-- @column requests_per_s [1/s] ok_requests / duration_s.
-- @column output_tokens [tokens] Output tokens of the ok measured requests.
-- @column output_tokens_per_s [tokens/s] output_tokens / duration_s.
-- @column input_tokens [tokens] Prompt tokens of the ok measured requests.
-- @column input_tokens_per_s [tokens/s] input_tokens / duration_s.
-- @column total_tokens_per_s [tokens/s] (input_tokens + output_tokens) / duration_s.
-- @column mean_input_tokens [tokens] Mean prompt length.
-- @column mean_output_tokens [tokens] Mean output length.
-- @column peak_output_tokens_per_s [tokens/s] Most output tokens in one whole second of the window.
CREATE OR REPLACE VIEW throughput AS
-- the requests counted, with their window's start, are joined with the chunks as one small
-- relation: with requests, scope and run_summary joined to the chunks one by one, DuckDB
-- misjudged their sizes and built its hash tables from the chunks (many times slower, and over
-- the memory target)
WITH counted AS MATERIALIZED (
    SELECT r.request_key, r.run, s.window_start_ns
    FROM requests AS r
    JOIN _request_scope AS sc USING (request_key)
    JOIN run_summary AS s USING (run)
    WHERE sc.measured AND sc.ok
),
per_second AS (
    SELECT
        c.run,
        (t.ts_ns - c.window_start_ns) // 1000000000 AS second,
        sum(coalesce(t.n_tokens, 1)) FILTER (WHERE t.ts_ns >= c.window_start_ns) AS tokens
    FROM tokens AS t
    JOIN counted AS c USING (request_key)
    -- the window's start filters inside the sum, not beside the join: as a join condition DuckDB
    -- 2.0 joined the tokens to run_summary first (a nested loop over every token) or built its
    -- hash table from the tokens (out of memory at 50 M tokens); seconds before the start sum to
    -- NULL, which max() below leaves out
    WHERE t.chunk_kind IN ('content', 'reasoning')
    GROUP BY ALL
),
peak AS (
    SELECT run, max(tokens) AS peak_tokens
    FROM per_second
    GROUP BY run
)
SELECT
    s.run,
    s.level_kind,
    s.level,
    s.repeat,
    s.duration_s,
    s.ok_requests,
    s.requests_per_s,
    s.output_tokens,
    s.output_tokens_per_s,
    s.input_tokens,
    s.input_tokens / s.duration_s AS input_tokens_per_s,
    (coalesce(s.input_tokens, 0) + coalesce(s.output_tokens, 0)) / s.duration_s AS total_tokens_per_s,
    s.mean_input_tokens,
    s.mean_output_tokens,
    p.peak_tokens::DOUBLE AS peak_output_tokens_per_s
FROM run_summary AS s
LEFT JOIN peak AS p USING (run)
ORDER BY s.level_kind NULLS LAST, s.level, s.repeat, s.run
