-- Invariant: within a request, a chunk is never earlier than the chunk before it in stream (seq)
-- order. Token lines may arrive out of order and across files, so this is checked after the
-- derive step. Returns the requests that break it; zero rows when all is well.
-- @grain one row per request whose token timestamps decrease in seq order
-- @column request_key [id] The request.
-- @column run [id] Its run.
-- @column request_id [id] Its id.
-- @column chunks [count] Token rows of the request.
CREATE OR REPLACE VIEW check_token_order AS
SELECT t.request_key, r.run, r.request_id, t.chunks
FROM _request_tokens AS t
JOIN requests AS r USING (request_key)
WHERE t.ts_decreases
