-- stall_summary typed for the report, by run in natural order. Columns as stall_summary.
-- @grain one row per run with chunk gaps
-- @column run [id] Run.
-- @column threshold_ms [ms] Gaps above this are stalls.
-- @column stalls [count] Number of stalls.
-- @column prefill_share [ratio] Share overlapping another request's prefill.
-- @column preemption_share [ratio] Share with a preemption.
-- @column batch_jump_share [ratio] Share with a sharp batch-size jump.
-- @column kv_full_share [ratio] Share with the KV cache near full.
-- @column unexplained_share [ratio] Share with none of these.
-- @column verdict [text] One sentence.
CREATE OR REPLACE VIEW report_stall_summary AS
SELECT run, threshold_ms::DOUBLE AS threshold_ms, stalls::BIGINT AS stalls,
    prefill_share::DOUBLE AS prefill_share, preemption_share::DOUBLE AS preemption_share,
    batch_jump_share::DOUBLE AS batch_jump_share, kv_full_share::DOUBLE AS kv_full_share,
    unexplained_share::DOUBLE AS unexplained_share, verdict
FROM stall_summary
ORDER BY natural_sort_key(run), run
