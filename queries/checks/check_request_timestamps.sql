-- Invariant: the timestamps of one request on one clock never decrease, in lifecycle order
-- arrival <= queued <= scheduled <= first token <= last token <= finished (absent ones skipped).
-- Returns the request rows that break it; zero rows when all is well.
-- @grain one row per request row with decreasing lifecycle timestamps
-- @column request_key [id] The request row.
-- @column run [id] Its run.
-- @column request_id [id] Its id.
-- @column source_id [id] The file it came from.
-- @column line_no [count] Its line in that file.
CREATE OR REPLACE VIEW check_request_timestamps AS
WITH chain AS (
    SELECT request_key, run, request_id, source_id, line_no,
        list_filter([arrival_ns, queued_ns, scheduled_ns, first_token_ns, last_token_ns, finished_ns],
            x -> x IS NOT NULL) AS ts
    FROM requests
)
SELECT request_key, run, request_id, source_id, line_no
FROM chain
WHERE ts <> list_sort(ts)
