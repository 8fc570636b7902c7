-- Invariant: every token row belongs to a request row (a stub stands in until the request row
-- arrives). Returns the request keys without one; zero rows when all is well.
-- @grain one row per request_key of tokens that has no request row
-- @column request_key [id] The key the token rows refer to.
-- @column rows [count] Token rows with that key.
CREATE OR REPLACE VIEW check_tokens_have_request AS
SELECT t.request_key, count(*) AS rows
FROM tokens AS t
ANTI JOIN requests AS r USING (request_key)
GROUP BY t.request_key
