-- Invariant: (request_key, seq) is unique in tokens: one chunk per stream position. Returns the
-- requests with a position held by more than one row (counted by the derive step); zero rows
-- when all is well. SELECT * FROM tokens WHERE request_key = ... shows them.
-- @grain one row per request with a repeated seq
-- @column request_key [id] The request.
-- @column run [id] Its run.
-- @column request_id [id] Its id.
-- @column seq_repeats [count] Token rows beyond one per position.
CREATE OR REPLACE VIEW check_token_seq_unique AS
SELECT t.request_key, r.run, r.request_id, t.seq_repeats
FROM _request_tokens AS t
JOIN requests AS r USING (request_key)
WHERE t.seq_repeats > 0
