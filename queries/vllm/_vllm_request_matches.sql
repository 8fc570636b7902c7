-- Rows of one request seen by two sources of a run, by vLLM's id rules; the ingest stores them in
-- request_links (rule 'vllm-id'). Two request rows match when they are in the same run, come
-- from files of different formats (a log and a span export; two files of one format are two
-- requests, as ids repeat across restarts), and one id is the other, or the other followed by a
-- completion choice index (-0, as cmpl-<hex>-0 against cmpl-<hex>) and/or the 8-hex random
-- suffix vLLM appends to internal ids since #27987 (chatcmpl-<hex>-1a2b3c4d). A match is kept
-- only when it is unambiguous: the row has exactly one candidate in the other file, and that
-- candidate exactly one in this file.
-- @grain one row per matched pair of request rows
-- @column key_a [id] request_key of the row with the smaller key.
-- @column key_b [id] request_key of the other row.
-- @column rule [text] The rule that matched them ('vllm-id: same id' or 'vllm-id: suffix').
CREATE OR REPLACE VIEW _vllm_request_matches AS
WITH mixed_runs AS (
    -- only runs with request rows of several formats can have matches
    SELECT q.run
    FROM requests AS q JOIN sources AS s USING (source_id)
    GROUP BY q.run
    HAVING count(DISTINCT s.format) > 1
),
r AS (
    SELECT q.request_key, q.run, q.request_id, q.source_id, s.format,
        regexp_replace(q.request_id, '(-[0-9]+)?(-[0-9a-f]{8})?$', '') AS stem
    FROM requests AS q
    JOIN sources AS s USING (source_id)
    JOIN mixed_runs AS mr ON mr.run = q.run
    WHERE NOT coalesce(list_contains(map_keys(q.extras), 'tokentime.stub'), false)
),
pairs AS (
    SELECT a.request_key AS ka, b.request_key AS kb, a.source_id AS sa, b.source_id AS sb,
        CASE WHEN a.request_id = b.request_id THEN 'vllm-id: same id' ELSE 'vllm-id: suffix' END AS rule
    FROM r AS a
    JOIN r AS b ON a.run = b.run AND a.stem = b.stem AND a.format <> b.format
    WHERE a.request_id = b.request_id
        OR (starts_with(b.request_id, a.request_id)
            AND regexp_full_match(substr(b.request_id, length(a.request_id) + 1), '(-[0-9]+)?(-[0-9a-f]{8})?'))
        OR (starts_with(a.request_id, b.request_id)
            AND regexp_full_match(substr(a.request_id, length(b.request_id) + 1), '(-[0-9]+)?(-[0-9a-f]{8})?'))
),
unique_pairs AS (
    SELECT *,
        count(*) OVER (PARTITION BY ka, sb) AS candidates_of_a,
        count(*) OVER (PARTITION BY kb, sa) AS candidates_of_b
    FROM pairs
)
SELECT ka AS key_a, kb AS key_b, rule
FROM unique_pairs
WHERE ka < kb AND candidates_of_a = 1 AND candidates_of_b = 1
