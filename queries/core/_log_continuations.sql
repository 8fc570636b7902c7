-- A request a rotated log split across two of its files: begun in one file (server.log.1: its
-- arrival, still in flight when that file ended, or ended there with a late line of it in the
-- next) and ended in the next (server.log: its last tokens and its finish; no arrival, or one
-- that is only the engine taking it from the queue). The two rows are on one clock: the files of one log share
-- it (the parsers name a log's clock by its name without the rotation's suffix), so its rows
-- are never confused with another server's. A pair is kept only when it is unambiguous: the
-- later row has exactly one row that may begin it, and that row one candidate in its file.
-- request_latency reads the pair as one request (the first row's start, the second's end, the
-- chunks of both); the ingest stores the pairs in request_links (rule 'log-rotation').
-- @grain one row per request split across two files
-- @column key_a [id] request_key of the row that begins the request (it has an arrival).
-- @column key_b [id] request_key of a row that continues it (no arrival), in a later file.
-- @column rule [text] 'log-rotation'.
CREATE OR REPLACE VIEW _log_continuations AS
WITH r AS (
    SELECT q.request_key, q.run, q.request_id, q.source_id, q.clock_id, q.arrival_ns, q.queued_ns, q.finished_ns,
        coalesce(q.arrival_ns, q.first_token_ns, q.last_token_ns, q.finished_ns) AS first_known_ns, s.format
    FROM requests AS q
    JOIN sources AS s USING (source_id)
    -- the server logs, whose ids are unique within a file only
    WHERE s.format IN ('vllm-log', 'sglang-log', 'trtllm-log')
        AND q.clock_id IS NOT NULL
        AND NOT coalesce(list_contains(map_keys(q.extras), 'tokentime.stub'), false)
),
taken AS (
    -- a request received in one file and taken by the engine in a later one, after queueing:
    -- the later row's arrival is only its queueing (vLLM's Added line)
    SELECT a.request_key AS ka, b.request_key AS kb, a.source_id AS sa, b.source_id AS sb
    FROM r AS a
    JOIN r AS b ON a.run = b.run AND a.request_id = b.request_id AND a.clock_id = b.clock_id
        AND a.format = b.format AND a.source_id <> b.source_id
    WHERE a.arrival_ns IS NOT NULL AND a.finished_ns IS NULL AND a.queued_ns IS NULL
        AND b.arrival_ns = b.queued_ns AND b.arrival_ns >= a.arrival_ns
),
pairs AS (
    SELECT a.request_key AS ka, b.request_key AS kb, a.source_id AS sa, b.source_id AS sb
    FROM r AS a
    JOIN r AS b ON a.run = b.run AND a.request_id = b.request_id
        AND a.clock_id = b.clock_id AND a.format = b.format AND a.source_id <> b.source_id
    -- the second row begins mid-request (no arrival); the first is where the request began (an
    -- arrival that is not itself the queueing of a request received earlier)
    WHERE a.arrival_ns IS NOT NULL AND b.arrival_ns IS NULL
        AND coalesce(b.first_known_ns >= a.arrival_ns, true)
        AND a.request_key NOT IN (SELECT kb FROM taken)
    UNION ALL
    SELECT * FROM taken
),
unique_pairs AS (
    SELECT *,
        count(*) OVER (PARTITION BY ka, sb) AS candidates_of_a,
        count(*) OVER (PARTITION BY kb) AS beginnings_of_b
    FROM pairs
)
-- a request may span more than two files (server.log.2, .1, server.log): each later row is
-- paired with the one row that begins it
SELECT ka AS key_a, kb AS key_b, 'log-rotation' AS rule
FROM unique_pairs
WHERE candidates_of_a = 1 AND beginnings_of_b = 1
