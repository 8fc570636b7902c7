-- TTFT as the client saw it against TTFT as the server saw it, for requests recorded on both
-- sides and joined by id (request_links: the documented rules, e.g. vllm-id). The difference is
-- what the server's own figure leaves out: the network both ways, the HTTP frontend before the
-- server's arrival stamp, and the client's own overhead. The client side is the row on a client
-- clock (load generators; canonical files that say "clock":"client"), the server side the other.
-- Requests whose ids differ between client and server are not joined (time alignment is not
-- attempted). TTFT parts as request_latency defines them, per row.
-- @grain one row per linked pair of a client-side and a server-side request row
-- @column run [id] Run.
-- @column request_id [id] The client's id of the request.
-- @column client_key [id] request_key of the client-side row.
-- @column server_key [id] request_key of the server-side row.
-- @column rule [text] The rule that joined them.
-- @column client_format [text] Input format of the client-side row.
-- @column server_format [text] Input format of the server-side row.
-- @column client_ttft_ms [ms] TTFT measured by the client.
-- @column server_ttft_ms [ms] TTFT measured by the server.
-- @column network_ms [ms] client_ttft_ms - server_ttft_ms: network, frontend and client overhead.
-- @column server_queue_ms [ms] The server's queue time.
-- @column server_prefill_ms [ms] The server's prefill time.
-- @column resolution_ns [ns] The coarser of the two clocks' resolutions: network_ms is no finer.
CREATE OR REPLACE VIEW ttft_network AS
WITH row_ttft AS (
    SELECT
        r.request_key,
        r.run,
        r.request_id,
        s.format,
        c.kind AS clock_kind,
        c.resolution_ns,
        coalesce((coalesce(r.first_token_ns, t.first_content_ns) - r.arrival_ns) / 1e6, r.ttft_ms) AS ttft_ms,
        coalesce((r.scheduled_ns - r.queued_ns) / 1e6, r.queue_ms) AS queue_ms,
        coalesce((coalesce(r.first_token_ns, t.first_content_ns) - r.scheduled_ns) / 1e6, r.prefill_ms)
            AS prefill_ms
    FROM requests AS r
    LEFT JOIN _request_tokens AS t USING (request_key)
    JOIN sources AS s USING (source_id)
    LEFT JOIN clocks AS c ON c.clock_id = r.clock_id
),
pairs AS (
    SELECT l.rule,
        CASE WHEN a.clock_kind = 'client' THEN a.request_key ELSE b.request_key END AS client_key,
        CASE WHEN a.clock_kind = 'client' THEN b.request_key ELSE a.request_key END AS server_key
    FROM request_links AS l
    JOIN row_ttft AS a ON a.request_key = l.key_a
    JOIN row_ttft AS b ON b.request_key = l.key_b
    WHERE (a.clock_kind = 'client') <> (b.clock_kind = 'client')
)
SELECT
    c.run,
    c.request_id,
    p.client_key,
    p.server_key,
    p.rule,
    c.format AS client_format,
    s.format AS server_format,
    c.ttft_ms AS client_ttft_ms,
    s.ttft_ms AS server_ttft_ms,
    c.ttft_ms - s.ttft_ms AS network_ms,
    s.queue_ms AS server_queue_ms,
    s.prefill_ms AS server_prefill_ms,
    greatest(c.resolution_ns, s.resolution_ns) AS resolution_ns
FROM pairs AS p
JOIN row_ttft AS c ON c.request_key = p.client_key
JOIN row_ttft AS s ON s.request_key = p.server_key
ORDER BY c.run, c.request_id
