-- True when the session sets none of the variables _request_scope reads (no analysis window, no
-- warm-up beyond what the sources marked): every ok request not marked warm-up is then measured.
-- Figures the derive step keeps (_gap_stats) hold for this scope only; readers take them when
-- this is true and compute from the rows otherwise. getvariable is a constant when a query is
-- planned, so a branch filtered on this is dropped before it runs. QueryLibraryLintTest checks
-- that every variable _request_scope reads is listed here.
-- @grain one value
CREATE OR REPLACE MACRO _scope_is_default() AS (
    getvariable('tt_warmup_requests') IS NULL
    AND getvariable('tt_warmup_ns') IS NULL
    AND getvariable('tt_since_ns') IS NULL
    AND getvariable('tt_until_ns') IS NULL
    AND getvariable('tt_since_rel_ns') IS NULL
    AND getvariable('tt_until_rel_ns') IS NULL
)
