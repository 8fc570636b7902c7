-- Failed measured requests grouped by what went wrong: per run, the status (error, cancelled,
-- lost), the HTTP status and the error text as the source wrote it, with how many requests and
-- one of their ids as an example. Error text and ids come from the logs: a report shows them as
-- text, escaped. Reports read this view for their failures table and sentences.
-- @grain one row per run, status, HTTP status and error text of failed measured requests
-- @column run [id] Run.
-- @column status [text] error, cancelled or lost.
-- @column http_status [code] HTTP status of the response, NULL when not reported.
-- @column error [text] Error text as the source wrote it, NULL when none.
-- @column requests [count] Failed measured requests with this status, HTTP status and error.
-- @column example_request_id [id] The smallest request id among them.
CREATE OR REPLACE VIEW request_failures AS
SELECT
    l.run,
    l.status,
    q.http_status,
    q.error,
    count(*) AS requests,
    min(l.request_id) AS example_request_id
FROM request_latency AS l
JOIN requests AS q USING (request_key)
WHERE l.measured AND NOT l.ok
GROUP BY l.run, l.status, q.http_status, q.error
ORDER BY l.run, requests DESC, l.status, q.error
