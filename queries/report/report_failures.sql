-- request_failures typed for the report: by run (natural order), most frequent first. Columns as request_failures.
-- @grain one row per run, status, HTTP status and error text
-- @column run [id] Run.
-- @column status [text] error, cancelled or lost.
-- @column http_status [code] HTTP status of the response, NULL when not reported.
-- @column error [text] Error text as the source wrote it, NULL when none.
-- @column requests [count] Failed measured requests with this status, HTTP status and error.
-- @column example_request_id [id] The smallest request id among them.
CREATE OR REPLACE VIEW report_failures AS
SELECT run, status, http_status::BIGINT AS http_status, error,
    requests::BIGINT AS requests, example_request_id
FROM request_failures
ORDER BY natural_sort_key(run), run, requests DESC, status, error
