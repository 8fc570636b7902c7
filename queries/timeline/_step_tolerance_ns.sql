-- How far apart two token chunks of different requests may be and still belong to one engine step:
-- the variable tt_step_tolerance_ns, default 1 ms. A scalar, not a one-row table, so that a query
-- can divide and compare by it without a join (a join with the one-row table ran as a
-- nested-loop join over every step).
-- @grain one value
CREATE OR REPLACE MACRO _step_tolerance_ns() AS coalesce(getvariable('tt_step_tolerance_ns'), 1000000)::BIGINT
