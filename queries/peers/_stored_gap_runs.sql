-- The runs whose chunk gaps a peer view counts are exactly the gaps token_gaps counts: the same
-- requests with gaps, in the same runs, as the measured, ok requests of _request_scope. For these
-- runs a peer view's pooled ITL figures are _gap_quantiles' (which the derive step keeps), and
-- the view reads no chunk gap; for the other runs (linked rows that disagree on warm-up or
-- status, requests a tool leaves out) it counts them itself. Reads per-request rows only.
-- @grain one row per run
-- @param counted_from Name of a relation (the caller's CTE) with columns run and request_key: the requests whose chunk gaps the caller pools.
-- @column run [id] Run name.
CREATE OR REPLACE MACRO _stored_gap_runs(counted_from) AS TABLE
WITH stored AS (
    SELECT q.run, q.request_key
    FROM requests AS q
    JOIN _request_scope AS sc USING (request_key)
    JOIN _request_tokens AS t USING (request_key)
    WHERE sc.measured AND sc.ok AND t.second_content_ns IS NOT NULL
),
counted AS (
    SELECT c.run, c.request_key
    FROM query_table(counted_from) AS c
    JOIN _request_tokens AS t USING (request_key)
    WHERE t.second_content_ns IS NOT NULL
),
differ AS (
    SELECT run FROM (SELECT run, request_key FROM stored EXCEPT SELECT run, request_key FROM counted)
    UNION
    SELECT run FROM (SELECT run, request_key FROM counted EXCEPT SELECT run, request_key FROM stored)
)
SELECT DISTINCT run
FROM stored
WHERE run NOT IN (SELECT run FROM differ)
