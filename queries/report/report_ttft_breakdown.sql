-- ttft_breakdown typed for the report (BIGINT counts, DOUBLE figures), ordered as the report
-- lists runs, then by percentile. The columns are ttft_breakdown's; see it for their definitions.
-- @grain one row per run and percentile (50, 90, 95, 99)
-- @column run [id] Run name.
-- @column level_kind [text] concurrency or request_rate; NULL when the run has no level.
-- @column level [level_kind] Concurrency or request rate.
-- @column percentile [percent] 50, 90, 95 or 99.
-- @column ttft_ms [ms] The percentile of TTFT over the ok measured requests.
-- @column pre_queue_ms [ms] The percentile of pre-queue time (its own percentile).
-- @column queue_ms [ms] The percentile of queue time (its own percentile).
-- @column prefill_ms [ms] The percentile of prefill time (its own percentile).
-- @column tail_requests [count] Requests with the parts known whose TTFT is at or above ttft_ms.
-- @column pre_queue_share [ratio] Share of pre-queue in the TTFT of those requests, 0..1.
-- @column queue_share [ratio] Share of queueing in the TTFT of those requests, 0..1.
-- @column prefill_share [ratio] Share of prefill in the TTFT of those requests, 0..1.
-- @column requests_with_parts [count] Ok measured requests of the run with pre-queue and TTFT known.
-- @column queue_prefill_ms [ms] The percentile of queue + prefill (TTFT minus pre-queue), split or not.
-- @column queue_prefill_share [ratio] Share of queue + prefill together in the TTFT of the tail requests, 0..1.
-- @column parts_basis [text] What the shares rest on: 'pre-queue, queue, prefill', 'pre-queue, queue + prefill
-- (not split)' (a source without scheduled times), NULL (no part known).
CREATE OR REPLACE VIEW report_ttft_breakdown AS
SELECT run, level_kind, level::DOUBLE AS level, percentile::BIGINT AS percentile,
    ttft_ms::DOUBLE AS ttft_ms, pre_queue_ms::DOUBLE AS pre_queue_ms, queue_ms::DOUBLE AS queue_ms,
    prefill_ms::DOUBLE AS prefill_ms, tail_requests::BIGINT AS tail_requests,
    pre_queue_share::DOUBLE AS pre_queue_share, queue_share::DOUBLE AS queue_share,
    prefill_share::DOUBLE AS prefill_share, requests_with_parts::BIGINT AS requests_with_parts,
    queue_prefill_ms::DOUBLE AS queue_prefill_ms, queue_prefill_share::DOUBLE AS queue_prefill_share, parts_basis
FROM ttft_breakdown
ORDER BY level_kind NULLS LAST, level NULLS LAST, natural_sort_key(run), run, percentile
