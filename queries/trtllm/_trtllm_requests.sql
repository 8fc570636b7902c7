-- The request rows read from TensorRT-LLM per-request perf metrics (trtllm-perf-metrics), with the
-- times kept in extras as ns on the row's clock: the HTTP server's own arrival and first-token
-- times and, for a disaggregated request, the context, generation and disagg servers' times and
-- the KV-cache transfer. Aggregated records carry them without a prefix, disaggregated ones with
-- ctx., gen. and disagg. prefixes (docs/formats.md).
-- @grain one row per TensorRT-LLM perf-metrics request row
-- @column request_key [id] The request (requests.request_key).
-- @column run [id] Run of the request.
-- @column request_id [id] Request id as the server wrote it.
-- @column clock_id [id] Clock of every ns column here.
-- @column disaggregated [bool] True for a disaggregated-serving record (context and generation servers).
-- @column arrival_ns [ns] The executor's arrival (the context server's when disaggregated): where TTFT starts.
-- @column server_arrival_ns [ns] The HTTP server's arrival (the context server's when disaggregated).
-- @column first_token_ns [ns] The executor's first token (the context server's when disaggregated).
-- @column server_first_token_ns [ns] When the HTTP server sent the first token (the context server's when disaggregated).
-- @column disagg_arrival_ns [ns] The disagg server's arrival.
-- @column disagg_first_token_ns [ns] When the disagg server sent the first token.
-- @column gen_server_arrival_ns [ns] The generation server's HTTP arrival.
-- @column gen_arrival_ns [ns] The generation executor's arrival.
-- @column gen_first_scheduled_ns [ns] The generation executor's first scheduling (after the KV transfer).
-- @column kv_transfer_start_ns [ns] KV-cache transfer start (generation side).
-- @column kv_transfer_end_ns [ns] KV-cache transfer end (generation side).
-- @column kv_cache_size_bytes [bytes] Size of the transferred KV cache.
CREATE OR REPLACE VIEW _trtllm_requests AS
SELECT
    r.request_key,
    r.run,
    r.request_id,
    r.clock_id,
    r.extras['disagg.server_arrival_ns'] IS NOT NULL OR r.extras['gen.arrival_ns'] IS NOT NULL
        OR r.extras['ctx.server_arrival_ns'] IS NOT NULL AS disaggregated,
    r.arrival_ns,
    TRY_CAST(coalesce(r.extras['server_arrival_ns'], r.extras['ctx.server_arrival_ns']) AS BIGINT) AS server_arrival_ns,
    r.first_token_ns,
    TRY_CAST(coalesce(r.extras['server_first_token_ns'], r.extras['ctx.server_first_token_ns']) AS BIGINT) AS server_first_token_ns,
    TRY_CAST(r.extras['disagg.server_arrival_ns'] AS BIGINT) AS disagg_arrival_ns,
    TRY_CAST(r.extras['disagg.server_first_token_ns'] AS BIGINT) AS disagg_first_token_ns,
    TRY_CAST(r.extras['gen.server_arrival_ns'] AS BIGINT) AS gen_server_arrival_ns,
    TRY_CAST(r.extras['gen.arrival_ns'] AS BIGINT) AS gen_arrival_ns,
    TRY_CAST(r.extras['gen.first_scheduled_ns'] AS BIGINT) AS gen_first_scheduled_ns,
    TRY_CAST(coalesce(r.extras['kv_cache_transfer_start_ns'], r.extras['gen.kv_cache_transfer_start_ns']) AS BIGINT) AS kv_transfer_start_ns,
    TRY_CAST(coalesce(r.extras['kv_cache_transfer_end_ns'], r.extras['gen.kv_cache_transfer_end_ns']) AS BIGINT) AS kv_transfer_end_ns,
    TRY_CAST(coalesce(r.extras['kv_cache_size'], r.extras['gen.kv_cache_size']) AS BIGINT) AS kv_cache_size_bytes
FROM requests AS r
JOIN sources AS s USING (source_id)
WHERE s.format = 'trtllm-perf-metrics'
