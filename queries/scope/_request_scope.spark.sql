-- Spark variant of _request_scope (scope/_request_scope.sql): which requests the analysis counts.
-- Spark has no DuckDB session variables (getvariable), so there is no analysis window here: a
-- request is measured unless its source marked it warm-up (phase), which is the DuckDB view's
-- default scope (no --since, --until or --warmup-* given).
-- @grain one row per request row
-- @column request_key [id] The request (requests.request_key).
-- @column measured [bool] Counted by the analysis: not marked warm-up.
-- @column ok [bool] Status ok or unknown.
-- @column nth_in_run [count] Position of the request in its run by arrival, from 1.
-- @column run_start_ns [ns] First arrival of the run.
CREATE OR REPLACE VIEW _request_scope AS
WITH r AS (
    SELECT
        request_key,
        phase,
        status,
        arrival_ns,
        row_number() OVER (PARTITION BY run ORDER BY arrival_ns NULLS LAST, request_key) AS nth_in_run,
        min(arrival_ns) OVER (PARTITION BY run) AS run_start_ns
    FROM requests
)
SELECT
    request_key,
    coalesce(phase, 'measure') = 'measure' AS measured,
    coalesce(status, 'ok') = 'ok' AS ok,
    nth_in_run,
    run_start_ns
FROM r
