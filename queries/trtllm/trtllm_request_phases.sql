-- TensorRT-LLM's per-request phase breakdown, as its time_breakdown tool draws it, beside
-- request_latency's. TTFT starts at the executor's arrival_time (TensorRT-LLM's own definition), so
-- request_latency's queue (arrival -> first scheduled), prefill (first scheduled -> first token) and
-- decode (first -> last token) are TensorRT-LLM's; this view adds what happens outside them: the
-- HTTP server's pre-queue (server_arrival_time -> arrival_time: parsing, tokenisation, IPC to the
-- executor) and post-processing (first_token_time -> server_first_token_time: detokenisation and
-- the first response leaving the server), the TTFT the HTTP server itself saw, and, for
-- disaggregated serving, the disagg server's routing, the relay to the generation server, the
-- generation server's queue and KV-cache transfer, and the disagg server's own TTFT. All on the
-- request's clock (the servers' steady clocks, aligned by /steady_clock_offset when disaggregated).
-- For a non-streamed request server_first_token_time is written when the response is complete.
-- @grain one row per TensorRT-LLM perf-metrics request row
-- @column run [id] Run of the request.
-- @column request_key [id] The request (requests.request_key).
-- @column request_id [id] Request id as the server wrote it.
-- @column disaggregated [bool] True for a disaggregated-serving record.
-- @column http_pre_queue_ms [ms] The HTTP server's arrival to the executor's arrival (outside TTFT).
-- @column queue_ms [ms] Executor arrival to first scheduled (request_latency.queue_ms).
-- @column prefill_ms [ms] First scheduled to first token (request_latency.prefill_ms).
-- @column ttft_ms [ms] Executor arrival to first token (request_latency.ttft_ms), TensorRT-LLM's TTFT.
-- @column post_processing_ms [ms] The executor's first token to the HTTP server sending it.
-- @column http_ttft_ms [ms] TTFT as the serving front end saw it: its arrival to its first token sent
-- (the disagg server's when disaggregated).
-- @column decode_ms [ms] First to last token (request_latency.decode_ms).
-- @column disagg_routing_ms [ms] Disagg server arrival to the context server's HTTP arrival.
-- @column relay_ms [ms] The context server's first token sent to the generation server's HTTP arrival.
-- @column gen_pre_queue_ms [ms] The generation server's HTTP arrival to its executor's arrival.
-- @column gen_queue_ms [ms] The generation executor's arrival to the KV-cache transfer start.
-- @column kv_transfer_ms [ms] KV-cache transfer start to end (covers the request-info exchange too).
-- @column post_transfer_ms [ms] KV-cache transfer end to the generation executor's first scheduling.
-- @column kv_cache_size_bytes [bytes] Size of the transferred KV cache.
CREATE OR REPLACE VIEW trtllm_request_phases AS
SELECT
    t.run,
    t.request_key,
    t.request_id,
    t.disaggregated,
    (t.arrival_ns - t.server_arrival_ns) / 1e6 AS http_pre_queue_ms,
    l.queue_ms,
    l.prefill_ms,
    l.ttft_ms,
    (t.server_first_token_ns - t.first_token_ns) / 1e6 AS post_processing_ms,
    CASE WHEN t.disaggregated THEN (t.disagg_first_token_ns - t.disagg_arrival_ns) / 1e6
        ELSE (t.server_first_token_ns - t.server_arrival_ns) / 1e6 END AS http_ttft_ms,
    l.decode_ms,
    (t.server_arrival_ns - t.disagg_arrival_ns) / 1e6 AS disagg_routing_ms,
    (t.gen_server_arrival_ns - t.server_first_token_ns) / 1e6 AS relay_ms,
    (t.gen_arrival_ns - t.gen_server_arrival_ns) / 1e6 AS gen_pre_queue_ms,
    (t.kv_transfer_start_ns - t.gen_arrival_ns) / 1e6 AS gen_queue_ms,
    (t.kv_transfer_end_ns - t.kv_transfer_start_ns) / 1e6 AS kv_transfer_ms,
    (t.gen_first_scheduled_ns - t.kv_transfer_end_ns) / 1e6 AS post_transfer_ms,
    t.kv_cache_size_bytes
FROM _trtllm_requests AS t
JOIN request_latency AS l USING (request_key)
ORDER BY t.run, t.arrival_ns, t.request_key
