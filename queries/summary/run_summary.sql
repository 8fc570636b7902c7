-- One line per run: request counts, the measured window and the throughputs over it, and the
-- mean input and output lengths. Measured requests are those not warm-up and inside the analysis
-- window (_request_scope); failed ones
-- (status error, cancelled or lost) count in the window but not in the throughputs. The window
-- runs from the first arrival to the last finish (or last token) of the measured requests, and
-- is left NULL when the run's requests are on more than one clock. Runs are ordered by level,
-- then by name in natural order (c1, c4, c16, c64: natural_sort_key).
-- @grain one row per run
-- @column run [id] Run name.
-- @column level_kind [text] concurrency or request_rate; NULL when the run has no level.
-- @column level [level_kind] Concurrency or request rate.
-- @column repeat [count] Repeat number, when known.
-- @column requests [count] Measured requests (all statuses).
-- @column ok_requests [count] Measured requests with status ok (or unknown).
-- @column failed_requests [count] Measured requests with status error, cancelled or lost.
-- @column unfinished_requests [count] Of ok_requests, those a server log ended, or was cut, while
-- they were in flight: status unknown, no finish time, and marked so by their parser
-- (extras.end 'log ended …'; a format with no line that ends a request marks none).
-- @column excluded_requests [count] Requests left out of every figure: marked warm-up, or warm-up
-- or outside the window by the session's analysis settings (_request_scope).
-- @column window_start_ns [ns] First arrival of a measured request.
-- @column window_end_ns [ns] Last finish (else last token) of a measured request.
-- @column duration_s [s] window_end_ns - window_start_ns.
-- @column input_tokens [tokens] Prompt tokens of the ok measured requests.
-- @column output_tokens [tokens] Output tokens of the ok measured requests.
-- @column output_tokens_per_s [tokens/s] output_tokens / duration_s.
-- @column requests_per_s [1/s] ok_requests / duration_s.
-- @column mean_input_tokens [tokens] Mean prompt length of the ok measured requests.
-- @column mean_output_tokens [tokens] Mean output length of the ok measured requests.
CREATE OR REPLACE VIEW run_summary AS
WITH cut AS (
    -- requests their parser wrote at the log's end while in flight
    SELECT request_key FROM requests WHERE extras['end'] LIKE 'log ended%'
),
measured AS (
    SELECT
        run,
        count(*) AS requests,
        count(*) FILTER (WHERE ok) AS ok_requests,
        count(*) FILTER (WHERE NOT ok) AS failed_requests,
        count(*) FILTER (WHERE status IS NULL AND finished_ns IS NULL AND c.request_key IS NOT NULL)
            AS unfinished_requests,
        -- one clock: min = max (NULL when none). Not count(DISTINCT clock_id) = 1: DuckDB 2.0
        -- rewrites a distinct aggregate beside others into a join whose row estimate is the
        -- product of both sides, and views joining this one to tokens then built their hash
        -- table from the tokens (a 1 GiB allocation at 50 M tokens: out of memory).
        min(clock_id) = max(clock_id) AS one_clock,
        min(arrival_ns) AS window_start_ns,
        max(coalesce(finished_ns, last_token_ns)) AS window_end_ns,
        sum(prompt_tokens) FILTER (WHERE ok) AS input_tokens,
        sum(output_tokens) FILTER (WHERE ok) AS output_tokens,
        avg(prompt_tokens) FILTER (WHERE ok) AS mean_input_tokens,
        avg(output_tokens) FILTER (WHERE ok) AS mean_output_tokens
    FROM request_latency
    LEFT JOIN cut AS c USING (request_key)
    WHERE measured
    GROUP BY run
),
excluded AS (
    SELECT run, count(*) AS excluded_requests
    FROM request_latency
    WHERE NOT measured
    GROUP BY run
),
windowed AS (
    SELECT
        m.*,
        CASE
            WHEN m.one_clock AND m.window_end_ns > m.window_start_ns
                THEN (m.window_end_ns - m.window_start_ns) / 1e9
        END AS duration_s
    FROM measured AS m
)
SELECT
    u.run,
    u.level_kind,
    u.level,
    u.repeat,
    coalesce(w.requests, 0) AS requests,
    coalesce(w.ok_requests, 0) AS ok_requests,
    coalesce(w.failed_requests, 0) AS failed_requests,
    coalesce(w.unfinished_requests, 0) AS unfinished_requests,
    coalesce(wu.excluded_requests, 0) AS excluded_requests,
    w.window_start_ns,
    w.window_end_ns,
    w.duration_s,
    w.input_tokens::BIGINT AS input_tokens,
    w.output_tokens::BIGINT AS output_tokens,
    w.output_tokens / w.duration_s AS output_tokens_per_s,
    w.ok_requests / w.duration_s AS requests_per_s,
    w.mean_input_tokens,
    w.mean_output_tokens
FROM runs AS u
LEFT JOIN windowed AS w USING (run)
LEFT JOIN excluded AS wu USING (run)
ORDER BY u.level_kind NULLS LAST, u.level, u.repeat, natural_sort_key(u.run), u.run
