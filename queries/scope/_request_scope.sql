-- Which requests the analysis counts. A request is measured unless it is marked warm-up or falls
-- outside the analysis window that the session set (tokentime's --since, --until,
-- --warmup-requests, --warmup-seconds set these DuckDB variables; other clients may set them
-- too, e.g. SET VARIABLE tt_warmup_requests = 20):
-- tt_since_ns / tt_until_ns (arrival within [since, until), ns on the run's clock),
-- tt_since_rel_ns / tt_until_rel_ns (the same, relative to the run's first arrival),
-- tt_warmup_requests (the first N requests of each run by arrival are warm-up),
-- tt_warmup_ns (requests arriving in the first T ns of each run are warm-up).
-- With a window set, a request without an arrival time is not measured.
-- @grain one row per request row
-- @column request_key [id] The request (requests.request_key).
-- @column measured [bool] Counted by the analysis: not warm-up and inside the window.
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
    coalesce(
        coalesce(phase, 'measure') = 'measure'
        AND (getvariable('tt_warmup_requests') IS NULL OR nth_in_run > getvariable('tt_warmup_requests'))
        AND (getvariable('tt_warmup_ns') IS NULL OR arrival_ns >= run_start_ns + getvariable('tt_warmup_ns'))
        AND (getvariable('tt_since_ns') IS NULL OR arrival_ns >= getvariable('tt_since_ns'))
        AND (getvariable('tt_until_ns') IS NULL OR arrival_ns < getvariable('tt_until_ns'))
        AND (getvariable('tt_since_rel_ns') IS NULL OR arrival_ns >= run_start_ns + getvariable('tt_since_rel_ns'))
        AND (getvariable('tt_until_rel_ns') IS NULL OR arrival_ns < run_start_ns + getvariable('tt_until_rel_ns')),
        false) AS measured,
    coalesce(status, 'ok') = 'ok' AS ok,
    nth_in_run,
    run_start_ns
FROM r
