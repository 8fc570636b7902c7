-- Spark variant of ttft_breakdown (latency/ttft_breakdown.sql), the same figures: Spark's exact
-- percentile for quantile_cont, element_at for list indexing.
-- Where time to first token goes, per run, at P50, P90, P95 and P99: pre-queue (arrival to the
-- engine taking the request: frontend, tokenisation, HTTP), queue (waiting for a batch slot) and
-- prefill. Where a source logs no scheduled time it cannot split queue from prefill: the engine's
-- part of TTFT is then one figure, queue_prefill_ms (TTFT minus pre-queue: engine queue + prefill,
-- not split), and parts_basis says which split the shares rest on. vLLM's text log is such a
-- source: its Received line is the frontend's arrival, Added the engine taking the request, the
-- first streaming delta the first token, and no line marks scheduling. ttft_ms is the percentile
-- of TTFT; the part columns are each part's own percentile (they do not add up). The share columns
-- answer "what is TTFT made of at this percentile": over the requests whose TTFT is at or above the
-- percentile (the slowest half at P50, the slowest 1 % at P99), the sum of each part divided by the
-- sum of their TTFT; pre_queue_share + queue_prefill_share = 1, and where queue and prefill are
-- split, queue_share + prefill_share = queue_prefill_share. Only ok measured requests with
-- pre-queue and TTFT known count for the shares (requests_with_parts); queue_share and
-- prefill_share need every request of the tail split. Percentiles are linear.
-- @grain one row per run per percentile (50, 90, 95, 99)
-- @column run [id] Run name.
-- @column level_kind [text] concurrency or request_rate; NULL when the run has no level.
-- @column level [level_kind] Concurrency or request rate.
-- @column percentile [percent] 50, 90, 95 or 99.
-- @column ttft_ms [ms] The percentile of TTFT over the ok measured requests.
-- @column pre_queue_ms [ms] The percentile of pre-queue time (its own percentile).
-- @column queue_ms [ms] The percentile of queue time (its own percentile); NULL when not split.
-- @column prefill_ms [ms] The percentile of prefill time (its own percentile); NULL when not split.
-- @column tail_requests [count] Requests with the parts known whose TTFT is at or above ttft_ms.
-- @column pre_queue_share [ratio] Share of pre-queue in the TTFT of those requests, 0..1.
-- @column queue_share [ratio] Share of queueing in the TTFT of those requests, 0..1; NULL when not split.
-- @column prefill_share [ratio] Share of prefill in the TTFT of those requests, 0..1; NULL when not split.
-- @column requests_with_parts [count] Ok measured requests of the run with pre-queue and TTFT known.
-- @column queue_prefill_ms [ms] The percentile of queue + prefill (TTFT minus pre-queue: the engine's part), split or not.
-- @column queue_prefill_share [ratio] Share of queue + prefill together in the TTFT of the tail requests, 0..1.
-- @column parts_basis [text] What the shares rest on: 'pre-queue, queue, prefill' (every tail request split),
-- 'pre-queue, queue + prefill (not split)' (a source without scheduled times), NULL (no part known).
CREATE OR REPLACE VIEW ttft_breakdown AS
WITH r0 AS (
    SELECT run, level_kind, level, ttft_ms, pre_queue_ms, queue_ms, prefill_ms,
        queue_ms IS NOT NULL AND prefill_ms IS NOT NULL AS is_split
    FROM request_latency
    WHERE measured AND ok AND ttft_ms IS NOT NULL
),
r AS (
    -- split requests keep their parts' own sum, so their shares are those of the three parts
    SELECT *,
        CASE WHEN is_split THEN queue_ms + prefill_ms ELSE ttft_ms - pre_queue_ms END AS queue_prefill_ms,
        pre_queue_ms IS NOT NULL AS has_parts
    FROM r0
),
lists AS (
    SELECT
        run,
        any_value(level_kind) AS level_kind,
        any_value(level) AS level,
        percentile(ttft_ms, array(0.50, 0.90, 0.95, 0.99)) AS ttft,
        percentile(pre_queue_ms, array(0.50, 0.90, 0.95, 0.99)) AS pre_queue,
        percentile(queue_ms, array(0.50, 0.90, 0.95, 0.99)) AS queue,
        percentile(prefill_ms, array(0.50, 0.90, 0.95, 0.99)) AS prefill,
        percentile(queue_prefill_ms, array(0.50, 0.90, 0.95, 0.99)) AS queue_prefill,
        count(*) FILTER (WHERE has_parts) AS requests_with_parts
    FROM r
    GROUP BY run
),
pct AS (
    SELECT
        l.run,
        l.level_kind,
        l.level,
        p.percentile,
        element_at(l.ttft, p.i) AS ttft_ms,
        element_at(l.pre_queue, p.i) AS pre_queue_ms,
        element_at(l.queue, p.i) AS queue_ms,
        element_at(l.prefill, p.i) AS prefill_ms,
        element_at(l.queue_prefill, p.i) AS queue_prefill_ms,
        l.requests_with_parts
    FROM lists AS l
    CROSS JOIN (VALUES (50, 1), (90, 2), (95, 3), (99, 4)) AS p (percentile, i)
),
tail AS (
    SELECT
        q.run,
        q.percentile,
        count(*) AS tail_requests,
        bool_and(r.is_split) AS all_split,
        sum(r.pre_queue_ms) AS pre_queue_sum,
        sum(r.queue_ms) AS queue_sum,
        sum(r.prefill_ms) AS prefill_sum,
        sum(r.queue_prefill_ms) AS queue_prefill_sum,
        sum(r.pre_queue_ms + r.queue_prefill_ms) AS parts_sum
    FROM pct AS q
    JOIN r ON r.run = q.run AND r.has_parts AND r.ttft_ms >= q.ttft_ms
    GROUP BY q.run, q.percentile
)
SELECT
    q.run,
    q.level_kind,
    q.level,
    q.percentile,
    q.ttft_ms,
    q.pre_queue_ms,
    q.queue_ms,
    q.prefill_ms,
    coalesce(t.tail_requests, 0) AS tail_requests,
    t.pre_queue_sum / nullif(t.parts_sum, 0) AS pre_queue_share,
    CASE WHEN t.all_split THEN t.queue_sum / nullif(t.parts_sum, 0) END AS queue_share,
    CASE WHEN t.all_split THEN t.prefill_sum / nullif(t.parts_sum, 0) END AS prefill_share,
    q.requests_with_parts,
    q.queue_prefill_ms,
    t.queue_prefill_sum / nullif(t.parts_sum, 0) AS queue_prefill_share,
    CASE
        WHEN t.all_split THEN 'pre-queue, queue, prefill'
        WHEN t.tail_requests > 0 THEN 'pre-queue, queue + prefill (not split)'
    END AS parts_basis
FROM pct AS q
LEFT JOIN tail AS t USING (run, percentile)
ORDER BY q.level_kind NULLS LAST, q.level, natural_sort_key(q.run), q.run, q.percentile
