-- Rows of one request seen by SGLang's router and by a server behind it; the ingest stores them in
-- request_links (rule 'router-id'). The router (sgl-router, the model gateway) writes each answer
-- as a row of its own, request_id 'router:' + its id, extras.router_request_id the id itself; the
-- gateway passes that id on to the server as the rid, so the server's row of the same request
-- bears it as its request_id. Two such rows of one run match, in one file or two. A match is kept
-- only when it is unambiguous: the router's row has exactly one server row of that id in its run
-- (a PD pair's prefill and decode servers both log the rid: no link), and that row one router row.
-- Only an SGLang server's row is the server's: a load generator's row of the same id (a client
-- that sends X-Request-ID, which the gateway takes as its id) is the client's, and neither links
-- nor makes the server's link ambiguous. Unlinked, the router's and the server's rows of one
-- request are two requests of the run.
-- @grain one row per matched pair of request rows
-- @column key_a [id] request_key of the row with the smaller key.
-- @column key_b [id] request_key of the other row.
-- @column rule [text] The rule that matched them ('router-id: the router's id is the server's').
CREATE OR REPLACE VIEW _router_request_matches AS
WITH router_rows AS (
    SELECT request_key, run, extras['router_request_id'] AS id
    FROM requests
    WHERE starts_with(request_id, 'router:') AND extras['source'] = 'router'
        AND extras['router_request_id'] IS NOT NULL
),
pairs AS (
    SELECT g.request_key AS router_key, s.request_key AS server_key
    FROM router_rows AS g
    JOIN requests AS s ON s.run = g.run AND s.request_id = g.id
    JOIN sources AS f ON f.source_id = s.source_id AND f.format = 'sglang-log'
    WHERE s.extras['source'] IS DISTINCT FROM 'router'
        AND NOT coalesce(list_contains(map_keys(s.extras), 'tokentime.stub'), false)
),
unique_pairs AS (
    SELECT *,
        count(*) OVER (PARTITION BY router_key) AS servers_of_router_row,
        count(*) OVER (PARTITION BY server_key) AS routers_of_server_row
    FROM pairs
)
SELECT least(router_key, server_key) AS key_a, greatest(router_key, server_key) AS key_b,
    'router-id: the router''s id is the server''s' AS rule
FROM unique_pairs
WHERE servers_of_router_row = 1 AND routers_of_server_row = 1
