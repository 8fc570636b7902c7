-- Invariant: where pre-queue, queue, prefill and TTFT are all known for a request, TTFT equals
-- their sum within the clock's resolution (sources that report durations themselves may round
-- or measure from another arrival). Returns the requests that break it; zero rows when all is
-- well.
-- @grain one row per request whose TTFT parts do not add up
-- @column request_key [id] The request.
-- @column run [id] Its run.
-- @column request_id [id] Its id.
-- @column ttft_ms [ms] Its TTFT.
-- @column parts_ms [ms] pre_queue_ms + queue_ms + prefill_ms.
-- @column tolerance_ms [ms] The clock's resolution (1 ns when unknown).
CREATE OR REPLACE VIEW check_ttft_parts AS
SELECT
    l.request_key,
    l.run,
    l.request_id,
    l.ttft_ms,
    l.pre_queue_ms + l.queue_ms + l.prefill_ms AS parts_ms,
    coalesce(c.resolution_ns, 1) / 1e6 AS tolerance_ms
FROM request_latency AS l
LEFT JOIN clocks AS c USING (clock_id)
WHERE l.ttft_ms IS NOT NULL AND l.pre_queue_ms IS NOT NULL AND l.queue_ms IS NOT NULL
    AND l.prefill_ms IS NOT NULL
    AND abs(l.ttft_ms - (l.pre_queue_ms + l.queue_ms + l.prefill_ms))
        > coalesce(c.resolution_ns, 1) / 1e6 + 1e-9
