-- The longest ITL stalls of each run with the ids of their requests, for the report's stall table
-- and the stall bands of its timelines. The per_run longest gaps above the run's stall threshold
-- (itl_stalls' rows and attributions): a top-n aggregate picks them before the attributions are
-- computed, for those rows only (every stall through the attributions ran out of the memory limit
-- at 200 M tokens), and request ids come from the request rows, not request_latency (which beside
-- the stalls at 200 M tokens did not fit either). Longest first; ties: the earlier stall, then the
-- smaller request key and seq.
-- @example SELECT * FROM report_stalls(30)
-- @grain one row per stall, at most per_run per run
-- @param per_run How many of each run's longest stalls.
-- @column run [id] Run.
-- @column request_id [id] The request that stalled, as the source named it.
-- @column clock_id [id] Clock of the request (and of t0_ns, t1_ns).
-- @column seq [count] seq of the chunk that ended the stall.
-- @column t0_ns [ns] Start of the gap (the previous content chunk).
-- @column t1_ns [ns] End of the gap.
-- @column gap_ms [ms] Length of the gap.
-- @column threshold_ms [ms] The threshold it exceeds.
-- @column other_prefills [count] Other requests whose prefill overlaps the gap.
-- @column preempted [bool] A preemption happened during the gap (false when unknown).
-- @column batch_jump [bool] The batch grew sharply during the gap (false when unknown).
-- @column kv_near_full [bool] The KV cache was near full during the gap (false when unknown).
CREATE OR REPLACE MACRO report_stalls(per_run) AS TABLE
SELECT t.run, r.request_id, r.clock_id::BIGINT AS clock_id, t.seq::BIGINT AS seq,
    t.t0_ns::BIGINT AS t0_ns, t.t1_ns::BIGINT AS t1_ns, t.gap_ms::DOUBLE AS gap_ms,
    t.threshold_ms::DOUBLE AS threshold_ms, t.other_prefills::BIGINT AS other_prefills,
    coalesce(t.preempted, false) AS preempted, coalesce(t.batch_jump, false) AS batch_jump,
    coalesce(t.kv_near_full, false) AS kv_near_full
FROM _itl_stalls_top(per_run) AS t
LEFT JOIN requests AS r ON r.request_key = t.request_key
ORDER BY natural_sort_key(t.run), t.run, t.gap_ms DESC, t.t0_ns, t.request_key, t.seq
