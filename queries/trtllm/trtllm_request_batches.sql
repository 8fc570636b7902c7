-- What the batch was like while a request ran: its iterations, first_iter to last_iter
-- (TensorRT-LLM's RequestPerfMetrics), joined to the iteration statistics of the same run
-- (steps.iter). The first iteration is the request's context (prefill) step; the ones after it up
-- to last_iter are its decode steps (with chunked prefill the context spans several: they count as
-- decode here). Iteration counters restart with the server, and a request carries no epoch: when the
-- run's steps hold its iterations in several epochs, each is a row and ambiguous says so. Ranks are
-- added up per iteration; a step missing from the statistics (a drained /metrics poll loses some)
-- lowers steps_found, not the means.
-- @grain one row per request with first_iter and last_iter, per iteration epoch holding its iterations
-- @column run [id] Run of the request.
-- @column request_key [id] The request (requests.request_key).
-- @column request_id [id] Request id as the source wrote it.
-- @column epoch [count] Iteration-counter epoch of the steps matched.
-- @column ambiguous [bool] True when another epoch of the run also holds iterations in the range.
-- @column first_iter [count] The request's first iteration.
-- @column last_iter [count] The request's last iteration.
-- @column iterations [count] last_iter - first_iter + 1.
-- @column steps_found [count] Iterations of the range present in the statistics.
-- @column prefill_batch [count] Batch (context + generation requests) of the first iteration.
-- @column prefill_ctx_tokens [tokens] Context tokens of the first iteration.
-- @column decode_steps [count] Iterations after the first found in the statistics.
-- @column decode_batch_mean [count] Mean batch over those iterations.
-- @column decode_batch_min [count] Smallest batch over those iterations.
-- @column decode_batch_max [count] Largest batch over those iterations.
-- @column decode_ctx_requests_mean [count] Mean context requests sharing those iterations (prefill interference).
-- @column decode_ctx_tokens_mean [tokens] Mean context tokens of those iterations.
-- @column decode_waiting_mean [count] Mean queued requests during those iterations.
-- @column decode_step_ms_mean [ms] Mean iteration latency of those iterations.
CREATE OR REPLACE VIEW trtllm_request_batches AS
WITH r AS (
    SELECT request_key, run, request_id, first_iter, last_iter
    FROM requests
    WHERE first_iter IS NOT NULL AND last_iter IS NOT NULL AND last_iter >= first_iter
),
matched AS (
    SELECT
        r.run,
        r.request_key,
        r.request_id,
        s.epoch,
        r.first_iter,
        r.last_iter,
        count(DISTINCT s.iter) AS steps_found,
        sum(s.batch) FILTER (WHERE s.iter = r.first_iter) AS prefill_batch,
        sum(s.ctx_tokens) FILTER (WHERE s.iter = r.first_iter) AS prefill_ctx_tokens,
        count(*) FILTER (WHERE s.iter > r.first_iter) AS decode_steps,
        avg(s.batch) FILTER (WHERE s.iter > r.first_iter) AS decode_batch_mean,
        min(s.batch) FILTER (WHERE s.iter > r.first_iter) AS decode_batch_min,
        max(s.batch) FILTER (WHERE s.iter > r.first_iter) AS decode_batch_max,
        avg(s.ctx_requests) FILTER (WHERE s.iter > r.first_iter) AS decode_ctx_requests_mean,
        avg(s.ctx_tokens) FILTER (WHERE s.iter > r.first_iter) AS decode_ctx_tokens_mean,
        avg(s.waiting) FILTER (WHERE s.iter > r.first_iter) AS decode_waiting_mean,
        avg(s.duration_ms) FILTER (WHERE s.iter > r.first_iter) AS decode_step_ms_mean
    FROM r
    JOIN _trtllm_steps AS s ON s.run = r.run AND s.iter BETWEEN r.first_iter AND r.last_iter
    GROUP BY ALL
)
SELECT
    run,
    request_key,
    request_id,
    epoch,
    count(*) OVER (PARTITION BY request_key) > 1 AS ambiguous,
    first_iter,
    last_iter,
    last_iter - first_iter + 1 AS iterations,
    steps_found,
    prefill_batch,
    prefill_ctx_tokens,
    decode_steps,
    decode_batch_mean,
    decode_batch_min,
    decode_batch_max,
    decode_ctx_requests_mean,
    decode_ctx_tokens_mean,
    decode_waiting_mean,
    decode_step_ms_mean
FROM matched
ORDER BY run, first_iter, request_key, epoch
