-- Per request, every timestamp a peer tool's definition may start or end at, next to tokentime's
-- own figures: the first and last content chunk (tokentime, genai-perf for OpenAI endpoints,
-- AIPerf, SGLang, LLMPerf), the first and last chunk that carries choices even without text
-- (vLLM's TTFT counts a role-only or empty delta), the last chunk of any kind including [DONE]
-- (SGLang's and LLMPerf's E2E end at the end of the stream), and the second chunk (TTST). The
-- helper of the per-tool views in queries/peers.
-- @grain one row per request row (per source)
-- @column run [id] Run of the request.
-- @column request_key [id] Request (requests.request_key).
-- @column measured [bool] Counted by the analysis (not warm-up, inside the window).
-- @column ok [bool] True when status is ok or unknown.
-- @column engine [text] Engine or tool that wrote the row (requests.engine).
-- @column session_id [id] The tool's session of a multi-turn run (genai-perf session_id), else NULL.
-- @column service_kind [text] genai-perf's service kind of the request (openai, triton, triton_c_api), else NULL.
-- @column non_generative [bool] The request answers a non-generative endpoint (embeddings, rankings: requests.extras['output_kind'] = 'none'): a latency without tokens.
-- @column arrival_ns [ns] Arrival (the client's send time for load generators).
-- @column first_content_ns [ns] First content or reasoning chunk (or the row's first_token_ns).
-- @column second_content_ns [ns] Second content or reasoning chunk.
-- @column last_content_ns [ns] Last content or reasoning chunk (or the row's last_token_ns).
-- @column first_choice_ns [ns] First chunk of kind content, reasoning, role or empty.
-- @column last_choice_ns [ns] Last chunk of kind content, reasoning, role or empty.
-- @column first_chunk_ns [ns] First chunk of any kind.
-- @column second_chunk_ns [ns] Chunk with seq 1, of any kind.
-- @column last_chunk_ns [ns] Last chunk of any kind, [DONE] and usage included.
-- @column finished_ns [ns] Request finished, as the source says.
-- @column chunks [count] Chunks of any kind.
-- @column content_chunks [count] Content and reasoning chunks.
-- @column ttft_ms [ms] tokentime's TTFT (request_latency.ttft_ms; the source's own figure when no timestamps).
-- @column e2e_ms [ms] tokentime's E2E (request_latency.e2e_ms).
-- @column tpot_ms [ms] tokentime's TPOT (request_latency.tpot_ms).
-- @column output_tokens [tokens] Output length (request_latency.output_tokens).
-- @column prompt_tokens [tokens] Input length.
-- @column reported_ttft_ms [ms] TTFT as the source reported it (requests.ttft_ms), else NULL.
-- @column reported_e2e_ms [ms] E2E as the source reported it (requests.e2e_ms), else NULL.
-- @column reported_itl_ms [ms] The per-request ITL a tool wrote itself (LLMPerf's inter_token_latency_s), else NULL.
-- @column reported_ttst_ms [ms] Time to second token as the tool wrote it per request (AIPerf's time_to_second_token / ttst), else NULL.
-- @column reported_icl_mean_ms [ms] The per-request mean inter-chunk latency AIPerf's export of September 2025 wrote in place of the list, else NULL.
-- @column reported_output_tokens_per_s [tokens/s] The per-request output throughput a tool wrote itself (LLMPerf), else NULL.
-- @column source_format [text] Input format of the file the request row came from (sources.format).
-- @column shared_clock [bool] The request's times are on a wall clock, or on the one clock of every request of its run, so spans across requests hold; false where a file gives each request a relative clock of its own (a vLLM result without start_times): a tool's benchmark duration and throughputs then have no reading.
CREATE OR REPLACE VIEW _peer_requests AS
SELECT
    l.run,
    l.request_key,
    l.measured,
    l.ok,
    r.engine,
    r.extras['session_id'] AS session_id,
    r.extras['service_kind'] AS service_kind,
    coalesce(r.extras['output_kind'] = 'none', false) AS non_generative,
    l.arrival_ns,
    l.first_token_ns AS first_content_ns,
    t.second_content_ns,
    l.last_token_ns AS last_content_ns,
    t.first_choice_ns,
    t.last_choice_ns,
    t.first_chunk_ns,
    t.second_chunk_ns,
    t.last_chunk_ns,
    l.finished_ns,
    t.chunks,
    t.content_chunks,
    l.ttft_ms,
    l.e2e_ms,
    l.tpot_ms,
    l.output_tokens,
    l.prompt_tokens,
    r.ttft_ms AS reported_ttft_ms,
    r.e2e_ms AS reported_e2e_ms,
    TRY_CAST(r.extras['inter_token_latency_ms'] AS DOUBLE) AS reported_itl_ms,
    TRY_CAST(r.extras['time_to_second_token_ms'] AS DOUBLE) AS reported_ttst_ms,
    TRY_CAST(r.extras['inter_chunk_latency_mean_ms'] AS DOUBLE) AS reported_icl_mean_ms,
    TRY_CAST(r.extras['request_output_throughput_token_per_s'] AS DOUBLE) AS reported_output_tokens_per_s,
    s.format AS source_format,
    coalesce(c.kind = 'wall', false) OR count(DISTINCT r.clock_id) OVER (PARTITION BY l.run) = 1 AS shared_clock
FROM request_latency AS l
JOIN requests AS r USING (request_key)
JOIN sources AS s ON s.source_id = r.source_id
LEFT JOIN clocks AS c ON c.clock_id = r.clock_id
-- the stream's instants come from the derive step's per-request row, not from the tokens: this
-- view is read by every peer view, several times each
LEFT JOIN _request_tokens AS t USING (request_key)
