-- The invariant checks of docs/design.md in one place: how many rows each check view returns.
-- Every count should be 0; ingest prints the checks that are not.
-- @grain one row per invariant check
-- @column check_name [text] The view that lists the violations.
-- @column violations [count] Rows it returns.
-- @column invariant [text] What must hold.
CREATE OR REPLACE VIEW checks AS
-- the checks in the order above: the rows of a UNION ALL come in no fixed order
SELECT check_name, violations, invariant FROM (
    SELECT 1 AS _position, 'check_source_lines' AS check_name, (SELECT count(*) FROM check_source_lines) AS violations,
        'lines = records + other lines + rejects, per file' AS invariant
    UNION ALL
    SELECT 2, 'check_request_timestamps', (SELECT count(*) FROM check_request_timestamps),
        'a request''s timestamps never decrease'
    UNION ALL
    SELECT 3, 'check_token_order', (SELECT count(*) FROM check_token_order),
        'token timestamps never decrease in seq order'
    UNION ALL
    SELECT 4, 'check_token_seq_unique', (SELECT count(*) FROM check_token_seq_unique),
        '(request_key, seq) is unique'
    UNION ALL
    SELECT 5, 'check_tokens_have_request', (SELECT count(*) FROM check_tokens_have_request),
        'every token row has a request row'
    UNION ALL
    SELECT 6, 'check_stub_requests', (SELECT count(*) FROM check_stub_requests),
        'a run with request rows has no request known from token lines alone'
    UNION ALL
    SELECT 7, 'check_ttft_parts', (SELECT count(*) FROM check_ttft_parts),
        'TTFT = pre-queue + queue + prefill within the clock resolution'
)
ORDER BY _position
