-- The engine iterations read from TensorRT-LLM iteration statistics (trtllm-iter-stats), one row per
-- run, epoch and iteration with the ranks added up (attention-DP writes one record per rank; a
-- request runs on one of them, and the batch of the step is the ranks' sum).
-- @grain one row per run, instance, epoch and iteration
-- @column run [id] Run of the steps.
-- @column instance [text] Engine instance ('' when the source names none).
-- @column epoch [count] Iteration-counter epoch (bumped when the counter went back).
-- @column iter [count] Iteration number.
-- @column ranks [count] Rank records of the iteration.
-- @column ts_ns [ns] Earliest wall timestamp of the iteration's records.
-- @column clock_id [id] Clock of ts_ns.
-- @column batch [count] Context plus generation requests (else running) over the ranks.
-- @column ctx_requests [count] Context (prefill) requests over the ranks.
-- @column ctx_tokens [tokens] Context tokens over the ranks.
-- @column gen_requests [count] Generation requests over the ranks.
-- @column waiting [count] Queued requests over the ranks.
-- @column duration_ms [ms] Longest iteration latency of the ranks.
CREATE OR REPLACE VIEW _trtllm_steps AS
SELECT
    src.run,
    coalesce(s.instance, '') AS instance,
    s.epoch,
    s.iter,
    count(*) AS ranks,
    min(s.ts_ns) AS ts_ns,
    min(s.clock_id) AS clock_id,
    sum(coalesce(s.ctx_requests + s.gen_requests, s.ctx_requests, s.gen_requests, s.running)) AS batch,
    sum(s.ctx_requests) AS ctx_requests,
    sum(s.ctx_tokens) AS ctx_tokens,
    sum(s.gen_requests) AS gen_requests,
    sum(s.waiting) AS waiting,
    max(s.duration_ms) AS duration_ms
FROM steps AS s
JOIN sources AS src USING (source_id)
WHERE src.format = 'trtllm-iter-stats' AND s.iter IS NOT NULL
GROUP BY ALL
