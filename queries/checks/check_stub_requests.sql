-- Invariant: in a run whose requests have their own rows, no request is known from token lines
-- alone. Such a stub (extras 'tokentime.stub') that never met its request row is a mistyped
-- request_id, or a request whose line is in a file not read; it has no arrival and no status, and
-- its tokens stretch the run's window. Runs read from token lines only are exempt. Returns the
-- stubs; zero rows when all is well.
-- @grain one row per stub request in a run that has request rows
-- @column request_key [id] The stub's key.
-- @column run [id] Its run.
-- @column request_id [id] The id its token lines gave.
CREATE OR REPLACE VIEW check_stub_requests AS
WITH r AS (
    SELECT request_key, run, request_id,
        coalesce(list_contains(map_keys(extras), 'tokentime.stub'), false) AS stub
    FROM requests
)
SELECT request_key, run, request_id
FROM r
WHERE stub AND run IN (SELECT run FROM r WHERE NOT stub)
