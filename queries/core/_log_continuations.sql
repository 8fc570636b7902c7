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
WITH logged AS (
    SELECT q.request_key, q.run, q.request_id, q.source_id, q.clock_id, q.arrival_ns, q.queued_ns, q.finished_ns,
        -- a request its server's restart ended (lost) continues in no later file
        q.status IS NOT DISTINCT FROM 'lost' AS lost,
        coalesce(q.arrival_ns, q.first_token_ns, q.last_token_ns, q.finished_ns) AS first_known_ns,
        coalesce(q.finished_ns, q.last_token_ns, q.first_token_ns, q.arrival_ns) AS last_known_ns,
        t.request_key IS NOT NULL AS has_chunks, s.format, c.kind AS clock_kind
    FROM requests AS q
    JOIN sources AS s USING (source_id)
    JOIN clocks AS c USING (clock_id)
    LEFT JOIN _request_tokens AS t USING (request_key)
    -- the server logs, whose ids are unique within a file only
    WHERE s.format IN ('vllm-log', 'sglang-log', 'trtllm-log')
        AND q.clock_id IS NOT NULL
        AND NOT coalesce(list_contains(map_keys(q.extras), 'tokentime.stub'), false)
),
spans AS (
    -- each file's first and last time: the files of a rotation follow one another
    SELECT source_id, min(first_known_ns) AS file_first_ns, max(last_known_ns) AS file_last_ns
    FROM logged
    GROUP BY source_id
),
r AS (
    SELECT l.*, p.file_first_ns, p.file_last_ns
    FROM logged AS l
    JOIN spans AS p USING (source_id)
),
restarts AS (
    -- a server (re)started: no request continues across it (ids begin again: V0's 1, 2, …)
    SELECT q.run, s.format, e.ts_ns
    FROM engine_events AS e
    JOIN sources AS s USING (source_id)
    JOIN (SELECT DISTINCT source_id, run FROM logged) AS q USING (source_id)
    WHERE e.kind IN ('start', 'version') AND e.ts_ns IS NOT NULL
),
followed AS (
    -- a row of a later file with the id, run and format of a row that began a request in an
    -- earlier one (an arrival; not ended by a restart, lost), no server start between them; the
    -- later file begins where the earlier ended (1 s: a header's whole seconds), never while it
    -- was still being written (two servers' logs of one name)
    SELECT a.request_key AS ka, b.request_key AS kb, a.source_id AS sa, b.source_id AS sb,
        a.clock_id = b.clock_id AS same_clock, a.clock_kind = 'wall' AND b.clock_kind = 'wall' AS both_wall,
        a.arrival_ns AS a_arrival_ns, a.queued_ns AS a_queued_ns, a.finished_ns AS a_finished_ns,
        b.arrival_ns AS b_arrival_ns, b.queued_ns AS b_queued_ns, b.finished_ns AS b_finished_ns,
        b.first_known_ns AS b_first_ns, b.has_chunks AS b_has_chunks
    FROM r AS a
    JOIN r AS b ON a.run = b.run AND a.request_id = b.request_id
        AND a.format = b.format AND a.source_id <> b.source_id
        AND a.file_last_ns <= b.file_first_ns + 1000000000
    WHERE a.arrival_ns IS NOT NULL AND NOT a.lost
        AND NOT EXISTS (SELECT 1 FROM restarts AS x WHERE x.run = a.run AND x.format = a.format
            AND x.ts_ns > a.arrival_ns AND x.ts_ns <= b.first_known_ns)
),
taken AS (
    -- a request received in one file and taken by the engine in a later one, after queueing:
    -- the later row's arrival is only its queueing (vLLM's Added line)
    SELECT ka, kb, sa, sb
    FROM followed
    WHERE same_clock AND a_finished_ns IS NULL AND a_queued_ns IS NULL
        AND b_arrival_ns = b_queued_ns AND b_arrival_ns >= a_arrival_ns
),
pairs AS (
    -- the first row is where the request began (an arrival that is not itself the queueing of a
    -- request received earlier), the second has no arrival, on the log's clock
    SELECT ka, kb, sa, sb
    FROM followed
    WHERE same_clock AND b_arrival_ns IS NULL
        AND ka NOT IN (SELECT kb FROM taken)
        AND coalesce(b_first_ns >= a_arrival_ns, true)
        AND (
            -- the second begins mid-request, the first still open at its file's end
            a_finished_ns IS NULL
            -- or is a late line of a request that ended in its own file (its access line): no
            -- chunks, within seconds (with chunks, an id the next process used again)
            OR NOT b_has_chunks AND b_first_ns <= a_finished_ns + 10000000000)
    UNION ALL
    SELECT * FROM taken
    UNION ALL
    -- a later row that states the whole request again at its end (SGLang's Finish line: its own
    -- arrival on the request's wall clock, the Receive line's within a second) leads: the
    -- earlier row, its beginning alone, is read with it
    SELECT kb, ka, sb, sa
    FROM followed
    WHERE both_wall AND a_finished_ns IS NULL AND b_arrival_ns IS NOT NULL AND b_finished_ns IS NOT NULL
        AND abs(b_arrival_ns - a_arrival_ns) <= 1000000000
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
