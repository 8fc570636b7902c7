-- Spark variant of request_latency (core/request_latency.sql), the same definitions; only the
-- dialect differs (first_value(x, true) for IGNORE NULLS, explicit columns for * REPLACE).
-- Per-request latency: time to first token split into pre-queue, queue and prefill, then
-- decode, end-to-end latency, TPOT and token counts. Each figure comes from the request row's own
-- timestamps (all on the row's clock) or its token stream, and falls back to the duration the
-- source reported itself; timing_basis says which. Arrival is the source's own definition: the
-- client's send time for load generators, the frontend's receive time for servers
-- (docs/metrics.md). E2E ends at the last token; for a request without token times, at its finish.
-- Rows of one request seen by several sources (request_links: a vLLM log line and an OTel span)
-- are merged into one: the row with timing figures on the finest clock leads and gives every
-- timestamp and duration (so the parts of TTFT stay on one clock); lengths and status come from
-- the finest-resolution row that has them. timing_source and timing_resolution_ns say which
-- source and clock resolution the durations rest on, linked_rows how many rows were merged.
-- @grain one row per request row (rows of one request linked across sources count once)
-- @column run [id] Run of the request.
-- @column level_kind [text] concurrency or request_rate, from runs; NULL when the run has no level.
-- @column level [level_kind] Concurrency or request rate of the run.
-- @column repeat [count] Repeat number of the run, when known.
-- @column request_key [id] Surrogate key (requests.request_key).
-- @column request_id [id] Request id as the source wrote it.
-- @column source_id [id] File the request row came from.
-- @column engine [text] Engine or tool kind, when stated.
-- @column clock_id [id] Clock of the timestamps below.
-- @column status [text] ok, error, cancelled or lost; NULL when unknown.
-- @column measured [bool] Counted: not warm-up and inside the analysis window (_request_scope).
-- @column ok [bool] True when status is ok or unknown: the requests latency statistics use.
-- @column arrival_ns [ns] Arrival, as the source defines it.
-- @column first_token_ns [ns] First output token: the row's first_token_ns, else its first content chunk.
-- @column last_token_ns [ns] Last output token: the row's last_token_ns, else its last content chunk.
-- @column finished_ns [ns] Request finished.
-- @column prompt_tokens [tokens] Input length.
-- @column output_tokens [tokens] Output length: as reported, else the tokens of the content chunks,
-- else the number of content chunks.
-- @column output_tokens_basis [text] reported, chunk tokens, or chunks (how output_tokens was found).
-- @column content_chunks [count] Content (and reasoning) chunks in the token stream.
-- @column pre_queue_ms [ms] Arrival to queued.
-- @column queue_ms [ms] Queued to first scheduled.
-- @column prefill_ms [ms] First scheduled to first token.
-- @column ttft_ms [ms] Time to first token: first token minus arrival.
-- @column decode_ms [ms] First token to last token.
-- @column e2e_ms [ms] End-to-end latency: last token (or finish) minus arrival.
-- @column tpot_ms [ms] Time per output token after the first: (e2e - ttft) / (output_tokens - 1),
-- only when output_tokens > 1.
-- @column itl_mean_ms [ms] Mean gap between consecutive content chunks of this request.
-- @column itl_max_ms [ms] Largest gap between consecutive content chunks of this request.
-- @column timing_basis [text] timestamps when ttft_ms comes from timestamps, reported when from
-- the source's own figure, NULL when unknown.
-- @column timing_source [text] Input format of the row the durations come from (NULL without any).
-- @column timing_resolution_ns [ns] Resolution of that row's clock: the precision the durations rest on.
-- @column linked_rows [count] Request rows merged into this one (1 when the request has no link).
CREATE OR REPLACE VIEW request_latency AS
WITH base AS (
    SELECT
        r.*,
        t.content_chunks,
        t.content_tokens,
        t.max_gap_ns,
        t.first_content_ns,
        t.last_content_ns,
        coalesce(r.first_token_ns, t.first_content_ns) AS first_ns,
        coalesce(r.last_token_ns, t.last_content_ns, r.finished_ns) AS end_ns,
        coalesce(r.last_token_ns, t.last_content_ns) AS last_ns
    FROM requests AS r
    LEFT JOIN _request_tokens AS t USING (request_key)
),
timed AS (
    SELECT
        b.*,
        coalesce((b.queued_ns - b.arrival_ns) / 1e6, b.pre_queue_ms) AS pre_queue_ms_,
        coalesce((b.scheduled_ns - b.queued_ns) / 1e6, b.queue_ms) AS queue_ms_,
        coalesce((b.first_ns - b.scheduled_ns) / 1e6, b.prefill_ms) AS prefill_ms_,
        coalesce((b.first_ns - b.arrival_ns) / 1e6, b.ttft_ms) AS ttft_ms_,
        coalesce((b.last_ns - b.first_ns) / 1e6, b.decode_ms) AS decode_ms_,
        coalesce((b.end_ns - b.arrival_ns) / 1e6, b.e2e_ms) AS e2e_ms_,
        coalesce(b.output_tokens, b.content_tokens, b.content_chunks) AS output_tokens_
    FROM base AS b
),
link_edges AS (
    -- request_links both ways: a row and each row it is linked to
    SELECT key_a AS k, key_b AS p FROM request_links
    UNION ALL SELECT key_b AS k, key_a AS p FROM request_links
),
merged AS (
    -- linked rows of one request form a group keyed by its smallest request_key
    SELECT
        x.*,
        coalesce(g.group_key, x.request_key) AS group_key,
        c.resolution_ns AS row_resolution_ns,
        s.format AS row_format
    FROM timed AS x
    LEFT JOIN (
        -- two links away: a request whose rows link in a star (the router's and a client's row
        -- each to the server's) or a chain of three is one group whichever row has the smallest key
        SELECT e1.k AS request_key, least(e1.k, min(least(e1.p, e2.p))) AS group_key
        FROM link_edges AS e1
        JOIN link_edges AS e2
            ON e2.k = e1.p
        GROUP BY e1.k
    ) AS g ON g.request_key = x.request_key
    LEFT JOIN clocks AS c ON c.clock_id = x.clock_id
    LEFT JOIN sources AS s ON s.source_id = x.source_id
),
best AS (
    -- the lead row of a group: one with timing figures, on the finest clock
    SELECT
        m.*,
        row_number() OVER lead_first AS rank_in_group,
        count(*) OVER (PARTITION BY m.group_key) AS linked_rows,
        first_value(m.output_tokens_, true) OVER all_rows AS output_tokens_best,
        first_value(m.prompt_tokens, true) OVER all_rows AS prompt_tokens_best,
        first_value(m.status, true) OVER all_rows AS status_best,
        first_value(m.phase, true) OVER all_rows AS phase_best
    FROM merged AS m
    WINDOW
        lead_first AS (PARTITION BY m.group_key
            ORDER BY (m.ttft_ms_ IS NULL AND m.e2e_ms_ IS NULL), m.row_resolution_ns NULLS LAST, m.request_key),
        all_rows AS (PARTITION BY m.group_key
            ORDER BY (m.ttft_ms_ IS NULL AND m.e2e_ms_ IS NULL), m.row_resolution_ns NULLS LAST, m.request_key
            ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
),
x AS (
    -- timing figures all come from the lead row, so TTFT's parts stay on one clock; sizes and
    -- status from the finest row that has them
    SELECT
        b.run, b.request_key, b.request_id, b.source_id, b.engine, b.clock_id,
        b.arrival_ns, b.first_ns, b.last_ns, b.finished_ns,
        b.output_tokens, b.content_tokens, b.content_chunks, b.first_content_ns, b.last_content_ns,
        b.max_gap_ns, b.tpot_ms, b.linked_rows,
        b.pre_queue_ms_, b.queue_ms_, b.prefill_ms_, b.ttft_ms_, b.decode_ms_, b.e2e_ms_,
        CASE WHEN b.linked_rows = 1 THEN b.output_tokens_ ELSE b.output_tokens_best END AS output_tokens_,
        CASE WHEN b.linked_rows = 1 THEN b.prompt_tokens ELSE b.prompt_tokens_best END AS prompt_tokens,
        CASE WHEN b.linked_rows = 1 THEN b.status ELSE b.status_best END AS status,
        CASE WHEN b.linked_rows = 1 THEN b.phase ELSE b.phase_best END AS phase,
        CASE WHEN b.ttft_ms_ IS NOT NULL OR b.e2e_ms_ IS NOT NULL THEN b.row_format END AS timing_source,
        CASE WHEN b.ttft_ms_ IS NOT NULL OR b.e2e_ms_ IS NOT NULL THEN b.row_resolution_ns END
            AS timing_resolution_ns
    FROM best AS b
    WHERE b.rank_in_group = 1
)
SELECT
    ---- identity
    x.run,
    u.level_kind,
    u.level,
    u.repeat,
    x.request_key,
    x.request_id,
    x.source_id,
    x.engine,
    x.clock_id,
    x.status,
    -- the lead row decides the window; a warm-up mark or a failure on any linked row counts
    sc.measured AND coalesce(x.phase, 'measure') = 'measure' AS measured,
    coalesce(x.status, 'ok') = 'ok' AS ok,
    ---- timestamps
    x.arrival_ns,
    x.first_ns AS first_token_ns,
    x.last_ns AS last_token_ns,
    x.finished_ns,
    ---- sizes
    x.prompt_tokens,
    x.output_tokens_ AS output_tokens,
    CASE
        WHEN x.output_tokens IS NOT NULL THEN 'reported'
        WHEN x.content_tokens IS NOT NULL THEN 'chunk tokens'
        WHEN x.content_chunks IS NOT NULL THEN 'chunks'
    END AS output_tokens_basis,
    x.content_chunks,
    ---- durations
    x.pre_queue_ms_ AS pre_queue_ms,
    x.queue_ms_ AS queue_ms,
    x.prefill_ms_ AS prefill_ms,
    x.ttft_ms_ AS ttft_ms,
    x.decode_ms_ AS decode_ms,
    x.e2e_ms_ AS e2e_ms,
    CASE
        WHEN x.output_tokens_ > 1 AND x.e2e_ms_ IS NOT NULL AND x.ttft_ms_ IS NOT NULL
            THEN (x.e2e_ms_ - x.ttft_ms_) / (x.output_tokens_ - 1)
        ELSE x.tpot_ms
    END AS tpot_ms,
    CASE
        WHEN x.content_chunks > 1
            THEN (x.last_content_ns - x.first_content_ns) / 1e6 / (x.content_chunks - 1)
    END AS itl_mean_ms,
    x.max_gap_ns / 1e6 AS itl_max_ms,
    CASE
        WHEN x.first_ns IS NOT NULL AND x.arrival_ns IS NOT NULL THEN 'timestamps'
        WHEN x.ttft_ms_ IS NOT NULL THEN 'reported'
    END AS timing_basis,
    x.timing_source,
    x.timing_resolution_ns,
    x.linked_rows
FROM x
JOIN _request_scope AS sc ON sc.request_key = x.request_key
LEFT JOIN runs AS u ON u.run = x.run
