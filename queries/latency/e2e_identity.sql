-- The identity E2E = TTFT + ITL x (N - 1) checked per request (seed methodology §3.1.1), with
-- ITL the request's mean chunk gap and N its output tokens. The residual is what the identity
-- misses: zero when every chunk carries one token and E2E ends at the last token; chunks of
-- several tokens make ITL x (N - 1) overshoot (negative residual); an E2E measured to another
-- end (the finish, [DONE]) or reported by the source leaves a positive one.
-- @grain one row per request with TTFT, E2E, a mean chunk gap and more than one output token
-- @column run [id] Run.
-- @column request_key [id] The request.
-- @column request_id [id] Its id.
-- @column measured [bool] Counted by the analysis.
-- @column ok [bool] Status ok or unknown.
-- @column output_tokens [tokens] N.
-- @column content_chunks [count] Content chunks of the stream.
-- @column ttft_ms [ms] TTFT.
-- @column itl_mean_ms [ms] Mean gap between consecutive content chunks.
-- @column e2e_ms [ms] E2E as request_latency defines it.
-- @column predicted_e2e_ms [ms] ttft_ms + itl_mean_ms x (output_tokens - 1).
-- @column residual_ms [ms] e2e_ms - predicted_e2e_ms.
-- @column residual_share [ratio] residual_ms / e2e_ms.
CREATE OR REPLACE VIEW e2e_identity AS
SELECT
    run,
    request_key,
    request_id,
    measured,
    ok,
    output_tokens,
    content_chunks,
    ttft_ms,
    itl_mean_ms,
    e2e_ms,
    ttft_ms + itl_mean_ms * (output_tokens - 1) AS predicted_e2e_ms,
    e2e_ms - (ttft_ms + itl_mean_ms * (output_tokens - 1)) AS residual_ms,
    (e2e_ms - (ttft_ms + itl_mean_ms * (output_tokens - 1))) / nullif(e2e_ms, 0) AS residual_share
FROM request_latency
WHERE ttft_ms IS NOT NULL AND e2e_ms IS NOT NULL AND itl_mean_ms IS NOT NULL AND output_tokens > 1
ORDER BY run, request_key
