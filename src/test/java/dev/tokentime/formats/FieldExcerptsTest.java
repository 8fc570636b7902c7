package dev.tokentime.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.testing.PinnedExcerpts;
import dev.tokentime.testing.RecordingSink;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Real excerpts of vLLM, SGLang and TensorRT-LLM logs as users published them, wrapped by what
 * ran the server (docker, compose, journald, Ray, CI, kserve, a terminal), in
 * src/test/resources/real-logs/field (PROVENANCE.md there). Each file is sniffed and read as
 * `ingest` reads it; its account (format, lines = records + other + rejected) is pinned, so a
 * change in how any of its lines is read shows here, and the lines each fix was made for are
 * checked by value.
 */
class FieldExcerptsTest {
  static final Path FIELD = Path.of("src/test/resources/real-logs/field");
  static final FormatRegistry FORMATS = FormatRegistry.standard();

  /** format, lines, records, other, rejected; "unrecognised" where no format is sure enough. */
  static final Map<String, String> ACCOUNTS = new TreeMap<>(Map.ofEntries(
      Map.entry("01-docker-timestamps-apiserver-tt3359.log", "vllm-log 5 4 1 0"),
      Map.entry("02-ray-llumlet-actor-llumnix118.log", "vllm-log 10 1 9 0"),
      Map.entry("03-buildkite-iso-pytest-apiserver-pr21747.log", "vllm-log 3 2 1 0"),
      Map.entry("04-apiserver-400-only-gaudi1098.log", "vllm-log 1 0 0 1"),
      Map.entry("05-bare-v1-404-vllm15018.log", "vllm-log 12 4 8 0"),
      Map.entry("06-apiserver-v1-received-added-suffix-vllm34503.log", "vllm-log 6 5 1 0"),
      Map.entry("07-apiserver-specdecode-club3090-93.log", "vllm-log 6 4 2 0"),
      Map.entry("08-kserve-formatter-v0-kserve4470.log", "vllm-log 4 4 0 0"),
      Map.entry("09-ansi-esc-lost-apiserver-ascend3024.log", "vllm-log 10 1 9 0"),
      // tracebacks only: the engine core's words and vLLM's frames say vLLM; each traceback a crash
      // one failed start: the engine core's traceback is the crash; the API server's, ending
      // "RuntimeError: Engine core initialization failed.", tells it again (was 2 records, 10 other)
      Map.entry("10-compose-enginecore-dp0-traceback-ascend4256.log", "vllm-log 12 1 11 0"),
      Map.entry("11-journald-apiserver-restart-dfch-llmops.log", "vllm-log 21 6 15 0"),
      Map.entry("12-compose-apiserver-stats-specdecode-strixhalo73.log", "vllm-log 5 4 1 0"),
      Map.entry("13-ray-servereplica-llmdeployment-ray54732.log", "vllm-log 4 0 4 0"),
      Map.entry("14-apiserver-500-burst-ascend2630.log", "vllm-log 12 0 0 12"),
      Map.entry("15-journald-bash-unit-v0190-vllm39037.log", "vllm-log 1 1 0 0"),
      Map.entry("16-apiserver-startup-stats-access-sparkdocker217.log", "vllm-log 12 4 8 0"),
      Map.entry("17-docker-rfc3339-offset-v052-vllm7019.log", "vllm-log 13 1 12 0"),
      Map.entry("18-terminal-hardwrapped-stats-v0-tt246.log", "vllm-log 11 5 6 0"),
      Map.entry("19-compose-single1-request-finished-syvai147.log", "vllm-log 7 4 3 0"),
      Map.entry("20-nested-ray-proc-repeated-stats-pr38476.log", "vllm-log 6 5 1 0"),
      // "[Worker_TP3 pid=540] " in brackets: 4 stats, the worker's crash and its traceback
      // (the engine core's "Dumping scheduler stats: SchedulerStats(…)" at the crash is a reading: was other)
      Map.entry("21-bracket-proc-tags-v0111-workerproc-oom-vllm29070.log", "vllm-log 14 6 8 0"),
      // "(EngineCore) " without a pid (2026): start-up lines only
      Map.entry("22-proc-tag-without-pid-startup-vllm43009.log", "vllm-log 10 1 9 0"),
      // a time of day alone before each stats line: dated by the file's date (time-of-day)
      Map.entry("23-hhmmss-only-stats-dev15830-vllm41081.log", "vllm-log 3 3 0 0"),
      // a router's request error with its traceback (uvicorn's "Exception in ASGI application"):
      // no crash; its 500 on /v1/models is no inference request
      Map.entry("24-router-asgi-traceback-models-500-ps490.log", "vllm-log 13 0 13 0"),
      Map.entry("25-disagg-proxy-asgi-traceback-post-500-aibrix1357.log", "vllm-log 18 0 17 1"),
      // vLLM's header cut to its source ("[loggers.py:248] "): the stats are read, without a time
      Map.entry("26-src-only-header-stats-mmcache-hekmon.log", "vllm-log 4 4 0 0"),
      // a KV connector's transfer figures: engine_stats rows of extras kv_*
      Map.entry("27-kv-transfer-metrics-nixl-3sources.log", "vllm-log 4 3 1 0"),
      // NVIDIA Dynamo's Rust tracing header in place of vLLM's ("…Z  INFO engine._handle_process_request: ")
      Map.entry("28-dynamo-srun-ansi-lost-tracing-vllm084-added-stats-dyn1074.log", "vllm-log 7 4 3 0"),
      Map.entry("29-dynamo-tracing-vllm084-added-dyn1089.log", "vllm-log 11 1 10 0"),
      // one failed start: the engine core's "EngineCore failed to start." (its traceback under
      // "Process EngineCore_0:", 0.8-0.10's name, is that death told again)
      Map.entry("30-dynamo-tracing-vllm090-enginecore-failed-dyn1408.log", "vllm-log 21 1 20 0"),
      // a --log-config formatter: "2025-11-17 14:50:30,270 INFO vllm.v1.metrics.loggers - Engine 000: …"
      Map.entry("31-logconfig-level-name-formatter-v0110-bettervllmlog.log", "vllm-log 14 13 1 0"),
      Map.entry("32-terminal-hardwrapped-at-swapped-v0-vllm30589.log", "vllm-log 12 5 7 0"),
      // vLLM 0.5's doubled word ("draft tokens tokens"): the usual spec_* names
      Map.entry("33-v05-medusa-spec-metrics-tokens-tokens-ipv6-access-vllm6768.log", "vllm-log 10 4 6 0"),
      // "Initializing a V0 LLM engine (v0.8.3)": an engine config event, as V1's line is
      Map.entry("34-compose-midline-padding-v0-083-engine-init-opea2068.log", "vllm-log 9 1 8 0"),
      // V0's preemption warning: the engine's cumulative count between two stats lines
      Map.entry("35-v05-tqdm-glued-stats-preempt-warning-vllm5578.log", "vllm-log 3 3 0 0"),
      // SGLang attention context parallelism: every ATTN_CP rank logs the one batch (five rows)
      Map.entry("36-sgl-attn-cp-tp-header-prefill-pending-token-sgl30755.log", "sglang-log 5 5 0 0"),
      Map.entry("37-sgl-pd-prefill-dp-tp-ep-unbootstrapped-transferring-trailing-comma-sgl11648.log", "sglang-log 6 5 1 0"),
      Map.entry("38-sgl-v046-prefill-cached-token-no-rank-access-200-burst-sgl6291.log", "sglang-log 13 3 10 0"),
      Map.entry("39-v1-engine001-external-prefix-cache-deferred-specdecode-access-ascend11876.log", "vllm-log 6 4 2 0"),
      Map.entry("40-v1-blockquote-on-first-line-only-stats-specdecode-vllm43447.log", "vllm-log 4 4 0 0"),
      Map.entry("41-v1-mm-cache-hit-rate-stats-metrics-scrape-access-recipes404.log", "vllm-log 12 2 10 0"),
      Map.entry("42-v0-072-added-stats-200-then-400-bad-request-vllm13340.log", "vllm-log 6 5 1 0"),
      // a Received line whose header was lost in the paste: rejected (no time), its Added line read
      Map.entry("43-v0-embeddings-received-bare-added-single-space-access-200-400-vllm15519.log", "vllm-log 7 4 2 1"),
      // Triton's JSON iteration stats hard-wrapped over five lines: one step
      Map.entry("44-triton-trtllm-backend-json-iter-stats-hardwrapped-backend217.log", "trtllm-iter-stats 7 1 6 0"),
      Map.entry("45-triton-trtllm-json-iter-counter-inline-backticks-trtllm431.log", "trtllm-iter-stats 3 1 2 0"),
      Map.entry("46-trtllm-pyexec-iter-log-before-after-num-scheduled-trtllm3914.log", "trtllm-iter-stats 11 2 9 0"),
      // Ray's " [repeated 2x across cluster]" removed from the stats lines
      Map.entry("47-ray-enginebackgroundprocess-v0-stats-repeated-across-cluster-ray54070.log", "vllm-log 4 2 2 0"),
      // wave 42: SGLang's batch lines behind a Python logging formatter's header (nothing was read)
      Map.entry("48-sgl-pylogging-header-scheduler-metrics-mixin-sglomni712.log", "sglang-log 8 5 3 0"),
      // iteration lines with a kv cache suffix, each hard-wrapped by a terminal (nothing was read)
      Map.entry("49-v1-iteration-kvcache-suffix-hardwrapped-vllm34860.log", "vllm-log 4 2 2 0"),
      Map.entry("50-apiserver-debug-level-stats-500-vllm40856.log", "vllm-log 3 3 0 0"),
      Map.entry("51-sgl-0511-responses-401-400-access-only-sgl25127.log", "sglang-log 6 6 0 0"),
      Map.entry("52-sgl-0518-tp-ep-swa-full-token-decode-accept-sgl36081.log", "sglang-log 6 4 2 0"),
      Map.entry("53-ci-iso-enginecore0-debug-v0101dev-pr22587.log", "vllm-log 5 0 5 0"),
      Map.entry("54-apiserver-mtp-stats-queue-drain-vllm43295.log", "vllm-log 5 5 0 0"),
      Map.entry("55-kubectl-ts-v062-debug-heartbeat-health-vllm9193.log", "vllm-log 6 0 6 0"),
      // stop 44: SGLang's last words (SIGQUIT, a manager's exception, the watchdog) are crashes; a
      // request's task that failed when its client left is none
      Map.entry("56-sgl-compose-sigquit-received-error-traceback-sgl12076.log", "sglang-log 15 1 14 0"),
      Map.entry("57-sgl-ci-iso-received-sigquit-child-failed-sgl12827.log", "sglang-log 1 1 0 0"),
      Map.entry("58-sgl-task-exception-client-disconnected-sgl17031.log", "unrecognised"),
      Map.entry("59-sgl-detokenizermanager-hit-exception-pr29853.log", "sglang-log 23 1 22 0"),
      Map.entry("60-sgl-watchdog-timeout-quoted-dp-tp-pr6555.log", "sglang-log 3 1 2 0"),
      // NIM's text header with the full date and ms
      Map.entry("61-nim-text-dated-header-stats-start-dstack1999.log", "vllm-log 6 5 1 0"),
      Map.entry("62-ray-serve-enginedead-untimed-ray53267.log", "vllm-log 7 2 5 0"),
      // vLLM 0.22's response_body line between a request's last line and its 200
      Map.entry("63-v0220-response-body-between-complete-and-200-iteration-deltas-codeidx67513209602.log", "vllm-log 32 13 19 0"),
      // Ray's own dated line behind vLLM's process tag dates the whole file
      Map.entry("64-ray-exec-v01011-ansi-ray-dated-line-behind-proc-tag-dennislee22.log", "vllm-log 29 5 24 0"),
      // SGLang's access lines behind a Ray actor's tag: SGLang's (was vllm-log: the engine said vllm)
      Map.entry("65-sgl-ray-sglangengine-ip-access-500-200-slime1514.log", "sglang-log 8 4 4 0"),
      // xinference's "Generate finished" ends the request vLLM's Added line opened
      Map.entry("66-xinference-vllm091-added-then-generate-finished-xinf3787.log", "vllm-log 2 2 0 0"),
      // SGLang's header-less batch lines indented as a docs code block: 3 steps (was 4 other lines)
      Map.entry("67-sgl-headerless-indented-batch-lines-lmcache-quickstart-pr2382.log", "sglang-log 4 3 1 0"),
      // a PD failure pasted alone, without its header: SGLang's, rejected for want of a time (was "cannot tell the format")
      Map.entry("68-sgl-052-pd-prefill-bootstrap-failed-untimed-sgl10110.log", "sglang-log 1 0 0 1"),
      // DJL Serving's "[INFO ] PyProcess - W-309-model-stdout: ": the worker is the instance
      Map.entry("69-djl-pyprocess-worker-stdout-v0-stats-vllm2912.log", "vllm-log 1 1 0 0"),
      // a logging config's "[date time][file:line][LEVEL]: " after SGLang's date: 4 prefill steps (was 4 other lines)
      Map.entry("70-sgl-05-logging-config-bracket-source-level-pd-prefill-sgl22877.log", "sglang-log 4 4 0 0"),
      // two API servers' "1 Engines Aggregated" with their SpecDecoding lines
      Map.entry("71-vllm-ascend-two-apiservers-engines-aggregated-specdecode-ascend9803.log", "vllm-log 4 4 0 0"),
      // V1's output handler failing after the engine died: one crash each, not a second for its traceback
      Map.entry("72-v1-enginecore-dp0-died-output-handler-traceback-mineru4463.log", "vllm-log 5 1 4 0"),
      Map.entry("73-v1-apiserver-n-output-handler-enginedead-ascend7384.log", "vllm-log 10 1 9 0"),
      // Ray Serve LLM (2026): its replica's engine stats; Ray Serve's own access lines are other
      Map.entry("74-ray-serve-llm-replica-stats-router-access-ray65486.log", "vllm-log 10 3 7 0"),
      // the EngineDeadError ending a request's traceback is a crash; the traceback after "Error in
      // message stream converter." (vLLM 0.25's Anthropic endpoint) is that request's error, none
      Map.entry("75-v025-anthropic-message-stream-converter-traceback-vllm48707.log", "vllm-log 10 1 9 0"),
      // the header's source pasted as a markdown link ("[[loggers.py:259](http://loggers.py:259/)]"): 2 stats rows (were near misses)
      Map.entry("76-v018-markdown-autolinked-src-header-ascend10532.log", "vllm-log 8 2 6 0"),
      // KServe passes no request id: two "Received request N.A." lines are two requests (the second was a reject)
      Map.entry("77-kserve-embedding-two-received-NA-same-pod-2025.log", "vllm-log 10 6 4 0"),
      // uvicorn's access line behind KServe's time and logger, a pid after the client, /openai/v1/ (was unrecognised)
      Map.entry("78-kserve-hfserver-uvicorn-access-pid-openai-path-2025.log", "vllm-log 3 0 3 0"),
      // Ray Serve LLM's own lines only (CALL … OK), no vLLM line: nothing to tell a format by
      Map.entry("79-rayserve249-slash-deployment-call-lines-ray55754.log", "unrecognised"),
      // Triton's glog lines among vLLM's (its vllm backend): the backend's failure and the server's exit, crashes
      Map.entry("80-triton-vllm-backend-failed-start-server8578.log", "vllm-log 13 2 11 0"),
      // LiteLLM's proxy header gives the time of day its uvicorn access lines lack: the 500 a failed request (was a reject)
      Map.entry("81-compose-litellm-proxy-access-200-500-2026.log", "vllm-log 4 1 3 0"),
      Map.entry("82-v016-debug-level-stats-path-header-500-vllm40856.log", "vllm-log 3 3 0 0"),
      Map.entry("83-v016-stats-two-500-same-port-toolparser-qwen38-148.log", "vllm-log 5 4 1 0"),
      Map.entry("84-v010-worker-died-unexpectedly-stats-continue-vllm23582.log", "vllm-log 9 2 7 0"),
      Map.entry("85-v011-docker-ts-stats-wrapped-midword-kv99-vllm27073.log", "vllm-log 9 2 7 0"),
      Map.entry("86-v0202-stats-mm-specdecode-3pos-access-vllm42363.log", "vllm-log 5 4 1 0"),
      // (the engine core's "Dumping scheduler stats: SchedulerStats(…)" at the crash is a reading: was other)
      Map.entry("87-v0160-neuron-ssm-docker-logs-65-patch-lines-before-header-gemma4tips.log", "vllm-log 342 5 337 0"),
      Map.entry("89-v0271-omni-plain-version-banner-startup-fail-xiao6pinggai.log", "vllm-log 69 3 66 0"),
      // 0.1-0.3: a Received line ends with its prompt's token ids ("prompt token ids: [1, 1824]."), not "None."
      Map.entry("90-v03-openllm-received-prompt-token-ids-mdfranz.log", "vllm-log 12 4 8 0"),
      Map.entry("91-v030-received-token-ids-lora-finished-500-vllm2706.log", "vllm-log 11 3 8 0"),
      // routers and orchestrators around the engines: their own lines are other lines; a log of
      // nothing else is no engine's (the vLLM router's Rust lines); SGLang's router is part of an
      // SGLang deployment: its log is sglang-log's, its start an engine event
      Map.entry("92-dynamo-run-subprocess-src-header-v0-stats-cut-dyn986.log", "vllm-log 9 0 8 1"),
      Map.entry("93-dynamo-kvbm-rust-slot-lines-among-apiserver-dyn4087.log", "vllm-log 6 1 5 0"),
      Map.entry("94-dynamo16-trtllm13rc25-decode-worker-startup-srtslurm.log", "trtllm-log 23 1 22 0"),
      Map.entry("95-sgl-router-rs-startup-debug-sgl12621.log", "sglang-log 6 1 5 0"),
      Map.entry("96-ps-router-routing-health-scrape-access-ps428.log", "vllm-log 12 0 12 0"),
      Map.entry("97-vllm-router-rs-pd-debug-request-span-router47.log", "unrecognised"),
      // LMCache's lookup with a negative "need to load" (vLLM's own prefix cache held more): it was a
      // near miss, an other line between the request's Added line and its access line
      Map.entry("98-v1-lmcache-negative-need-to-load-added-200-stats-codeidx19149627186.log", "vllm-log 4 4 0 0"),
      // the same lookups of requests the excerpt names nowhere else: other lines, no longer near misses
      Map.entry("99-enginecore-dp0-lmcache-negative-need-to-load-pressure-access-codeidx67545753814.log", "vllm-log 8 0 8 0"),
      // 2025-2026 shapes read as published (hunt-versions): SGLang behind an RL framework's Ray actor
      // tag, two API servers of one container failing, an ANSI-lost tag before a rerank 500, V1 stats
      // with metrics.py:120's spec decoding and the Anthropic route's access line
      Map.entry("100-sgl-2026-ray-sglangengine-actor-decode-trailing-comma-openclaw44.log", "sglang-log 7 7 0 0"),
      Map.entry("101-compose-two-apiservers-enginedead-500s-pr41834.log", "vllm-log 9 4 5 0"),
      Map.entry("102-ansi-lost-rerank-500-enginedead-qwen3reranker6.log", "vllm-log 5 2 3 0"),
      Map.entry("103-v1-specdecode-120-anthropic-messages-beta-access-club3090-986.log", "vllm-log 6 4 2 0"),
      Map.entry("104-v1-grammar-rejected-request-failed-500-codeidx61893643560.log", "vllm-log 4 2 2 0"),
      // a Python model's traceback alone (Triton's glog, no TensorRT-LLM line): no format is sure of it
      Map.entry("105-triton-trtllm-bls-model-py-request-traceback-backend193.log", "unrecognised"),
      // a doc's example wrapped by hand in three lines: all three joined as a hard wrap, the
      // space lost after the comma put back; the pieces after the first are other lines (docs/formats.md)
      Map.entry("106-sgl-pd-prefill-dp-tp-ep-wrapped-after-comma-srtslurm-doc-codeidx22165919356.log", "sglang-log 3 1 2 0"),
      Map.entry("107-sgl-2411-prefill-cache-hit-rate-tp0-sgl2255.log", "sglang-log 3 3 0 0"),
      // a disaggregated proxy's 500: the error its traceback ends in is the failed request's, no crash
      Map.entry("108-trt-13dev-disagg-proxy-serve-tag-internal-error-traceback-500-codeidx56537573517.log", "trtllm-log 17 3 14 0"),
      Map.entry("109-trt-triton-2402-backend-startup-json-warnings-mpi-rank-backend396.log", "trtllm-log 16 5 11 0"),
      Map.entry("110-sgl-pd-decode-spec-prealloc-transfer-retracted-headerless-codeidx55838197638.log", "sglang-log 1 1 0 0"),
      // a PD transfer worker's caught error and its traceback (bare, under the error's header): no
      // crash; the prefill lines' 2026 fields (#bootstrap-req, est. TFLOPS/s, fwd occupancy: nan%) read
      Map.entry("111-sgl-2026-pd-prefill-bootstrap-req-mfu-fwd-occupancy-nan-nixl-transfer-worker-traceback-nixl1983.log", "sglang-log 20 6 14 0"),
      // the same, pasted without headers: no time for the failures (rejected), no crash either
      Map.entry("112-sgl-0516-headerless-pd-transfer-worker-traceback-prefill-failed-no-room-llmd2433.log", "sglang-log 13 0 10 3"),
      Map.entry("sgl-jax-cache-miss-pr564.log", "sglang-log 5 4 1 0"),
      Map.entry("sgl-v02-bare-decode-i938.log", "sglang-log 1 1 0 0"),
      // 404s of a scanner on non-inference paths, nothing else: SGLang's access lines behind
      // kubectl's timestamps, claimed as they are without them (other lines)
      Map.entry("sgl-v046-kubectl-404-i6069.log", "sglang-log 10 0 10 0"),
      // a fork's own log format: its batch lines are no SGLang header's (other, listed by --explain)
      Map.entry("sgl-v05-customfmt-dp-ep-antgroup-pr4.log", "sglang-log 5 0 5 0"),
      // SGLANG_LOG_FORWARD_ITERS=1: "Prefill batch [10], …", the forward count the step's iter
      Map.entry("sgl-forward-iters-bracket-npu-doc.log", "sglang-log 13 13 0 0"),
      // --log-requests-format json (a diffusion model's request): one request, its e2e latency
      Map.entry("sgl-log-requests-json-diffusion-pr23049.log", "sglang-log 3 2 1 0"),
      Map.entry("sgl-dynamo-tracing-prefill-batch-2026.log", "sglang-log 8 1 7 0"),
      // a scheduler at TP7 crashed: the event keeps its rank
      Map.entry("sgl-v054-prefill-tp7-crash-i12567.log", "sglang-log 11 2 9 0"),
      Map.entry("trt-adp-iterstats-json-pr13649.log", "trtllm-iter-stats 2 0 0 2"),
      // a runtime WARNING alone: TensorRT-LLM's, with nothing to keep
      Map.entry("trt-compose-warning-120rc0-i8550.log", "trtllm-log 1 0 1 0"),
      Map.entry("trt-cpp-startup-110rc3-i8155.log", "trtllm-log 14 13 1 0"),
      Map.entry("trt-pyexec-elapsed-sched-pr6683.log", "trtllm-iter-stats 5 4 0 1"),
      Map.entry("trt-request-logging-pr5891.log", "trtllm-log 7 6 1 0"),
      // Triton's start with the backend's KV-cache lines: glog times, no event of a kind kept
      Map.entry("trt-triton-backend-tutorials-pr150.log", "trtllm-log 17 0 17 0"),
      // a model that failed to load: one crash (the E line with its reason, not the I line after)
      Map.entry("trt-triton-glog-load-failed-backend118.log", "trtllm-log 10 1 9 0"),
      // the PyTorch executor's failure through the Python logger: a crash (was "cannot tell the format")
      Map.entry("trt-019-pyexec-E-failed-init-executor-rank6-i3879.log", "trtllm-log 2 1 1 0"),
      // quoted glog messages (24.07+) and the server giving up: a crash without a time
      Map.entry("trt-triton-glog-quoted-shutdown-trtllm10450.log", "trtllm-log 5 1 4 0"),
      // the Triton backend refusing to stop a request it had finished: an other line (it was a crash)
      Map.entry("trt-triton-late-stop-request-not-active-server7181.log", "trtllm-log 1 0 1 0"),
      // a failed step: its error a crash, the request it took a failed request (no time in the
      // excerpt: rejected for want of one; it was a second crash)
      Map.entry("trt-triton-step-failed-error-for-requestid-backend435.log", "trtllm-log 3 1 1 1"),
      Map.entry("trt-version-0160-i2667.log", "trtllm-log 1 1 0 0"),
      Map.entry("trt-017-executor-forwardasync-nested-error-trt2708.log", "trtllm-log 5 1 4 0"),
      Map.entry("trt-130rc20-executor-module-tag-failed-init-modelopt1933.log", "trtllm-log 41 1 40 0"),
      // 1.3's rank-crash hard kill (was not recognised)
      Map.entry("trt-13rc25-executor-loop-crashed-hard-kill-trt18663.log", "trtllm-log 1 1 0 0"),
      Map.entry("trt-widep-srun-padded-ucx-bus-error-doc.log", "unrecognised"),
      // Triton's --log-format ISO8601 header (its documentation's example)
      Map.entry("trt-triton-iso8601-doc-extension-logging.log", "trtllm-log 7 0 7 0"),
      Map.entry("sgl-0517-pd-decode-spec-prealloc-retracted-sgl30393.log", "sglang-log 3 2 1 0"),
      Map.entry("sgl-2026-headerless-prefill-cudagraph-healthcheck-sgl19712.log", "sglang-log 12 6 6 0"),
      Map.entry("sgl-2026-receive-never-finished-hang-sgl26783.log", "sglang-log 1 1 0 0"),
      Map.entry("sgl-2026-diffusion-log-requests-dict-obj-pr23049.log", "sglang-log 6 4 2 0"),
      // a CI log: the server's lines, then the tail of the bench's result block (read with them)
      Map.entry("sgl-ci-server-lines-then-bench-block-tail-sgl30047.log", "sglang-log 32 20 12 0"),
      // 0.1.17-0.2.0's "[gpu_id=0] Prefill batch. …"
      Map.entry("sgl-v02-gpu-id-prefill-modeltpserver-exception-sgl747.log", "sglang-log 5 2 3 0"),
      // uvicorn's own file under a --log-config formatter: its start and readiness, 9 access lines
      // of 200 with no request line beside them (other lines)
      Map.entry("130-logconfig-uvicorn-access-file-v0110-bettervllmlog.log", "vllm-log 12 2 10 0"),
      // vLLM 0.13 on Ascend, P/D: the engine core's death (one crash: the API server's EngineDeadError
      // is its word on the same death), the API server's 500s to a proxy's retries, the proxy's own
      // bare lines between them
      Map.entry("131-v0130-ascend-pcp-dcp-workers-enginecore-assert-proxy-retries-500-ascend5784.log", "vllm-log 78 5 73 0"),
      // a job log viewer's "2025-11-04 10:08:01.175639 master-0 >> " (copied from its table)
      Map.entry("132-jobviewer-table-copy-master-0-v1-enginedead-qwen3vl1756.log", "vllm-log 7 1 6 0"),
      // vLLM's header to the minute ("ERROR 11-03 23:14 [serving_chat.py:1145] "): not read (a
      // request's error, its traceback: other lines either way)
      Map.entry("133-minute-only-header-stream-generator-error-vllm28028.log", "vllm-log 10 0 10 0"),
      // vLLM-Omni's shutdown under vLLM's colour formatter, its codes' ESC bytes lost: the stage
      // engine cores' painted headers are read (their messages no kind's), uvicorn's 3 stops
      Map.entry("134-omni-colour-header-esc-lost-stage-enginecore-shutdown-faultdoc.log", "vllm-log 22 3 19 0"),
      // vLLM 0.26.0: the engine core's fatal error, the output handler's EngineDeadError (the same
      // death: one crash), 8 requests answered 500, uvicorn's start, readiness and 3 stops, and the
      // scheduler's stats dumped at the crash, one reading (was an other line)
      Map.entry("135-v0260-enginecore-fatal-output-handler-enginedead-eight-500s-codeidx63390294774.log", "vllm-log 121 15 106 0"),
      // colour codes as a pager shows them ("^[[1;36m(APIServer pid=2963765)^[[0;0m "): 4 engines' stats
      Map.entry("136-omni-caret-escape-apiserver-four-engines-stats-omni517.log", "vllm-log 4 4 0 0"),
      // vLLM 0.19.1 offline (lm-eval's LLM()): "EngineCore failed to start." is the one crash; its
      // traceback, multiprocessing's "Process EngineCore:" traceback and the client's ending
      // "RuntimeError: Engine core initialization failed." tell it again (were 3 crashes)
      Map.entry("137-v0191-offline-enginecore-failed-process-traceback-client-runtimeerror-codeidx53942682719.log", "vllm-log 41 1 40 0")));

  static final PinnedExcerpts EXCERPTS = new PinnedExcerpts(FIELD, "field", Instant.parse("2026-06-30T00:00:00Z"));

  static PinnedExcerpts.Read read(String file) throws IOException {
    return EXCERPTS.read(file);
  }

  @Test
  void everyExcerptIsAccountedAsPinned() throws IOException {
    EXCERPTS.assertAccounts(ACCOUNTS);
  }

  private static long ns(String instant) {
    Instant i = Instant.parse(instant);
    return i.getEpochSecond() * 1_000_000_000L + i.getNano();
  }

  /**
   * uvicorn's access lines under a --log-config formatter ("2025-11-17 14:50:31,662 INFO
   * uvicorn.access - 127.0.0.1:44490 - \"POST /v1/chat/completions HTTP/1.1\" 200", no "INFO:     "
   * of uvicorn's own and no reason phrase): the file is vLLM's, each line an access line; one
   * answered 500 is a failed request at its line's time, one cut before its status is rejected.
   */
  @Test
  void uvicornsAccessLinesUnderALogConfigFormatter() throws IOException {
    String file = "130-logconfig-uvicorn-access-file-v0110-bettervllmlog.log";
    var f = (dev.tokentime.formats.spec.SpecFormat) FORMATS.byId("vllm-log");
    var access = EXCERPTS.explain(f, file).kinds().stream().filter(k -> k.kind.equals("access_logconfig"))
        .findFirst().orElseThrow();
    assertEquals(List.of(9L, 0L), List.of(access.matched, access.nearMisses));
    // the same lines with the statuses a failing server gives, and one cut short
    String lines = "2025-11-17 14:50:31,662 INFO uvicorn.access - 127.0.0.1:44490 - \"POST /v1/chat/completions HTTP/1.1\" 500\n"
        + "2025-11-17 14:50:35,752 INFO uvicorn.access - 127.0.0.1:44498 - \"POST /v1/chat/comp\n";
    RecordingSink s = new RecordingSink();
    f.parse(new ByteArrayInputStream(lines.getBytes(java.nio.charset.StandardCharsets.UTF_8)), EXCERPTS.context("x.log"), s);
    assertEquals(1, s.requests.size());
    RequestRecord r = s.requests.get(0);
    assertEquals(List.of("error", 500), List.of(r.status, r.httpStatus));
    assertEquals(ns("2025-11-17T14:50:31.662Z"), r.arrivalNs);
    assertEquals(1, s.c.rejects.size());
  }

  /**
   * A cloud ML platform's job log viewer before each line ("  |   | 2025-11-04 10:08:01.175639
   * master-0 >> (APIServer pid=2427) ERROR 11-04 10:08:01 …"): the replica is the origin, the
   * viewer's time (a year, µs) the line's; before, the crash had no instance and the file's year.
   */
  @Test
  void aJobViewersReplicaAndTimeAreTheLines() throws IOException {
    RecordingSink s = read("132-jobviewer-table-copy-master-0-v1-enginedead-qwen3vl1756.log").sink();
    assertEquals(1, s.events.size());
    assertEquals(List.of("crash", "master-0 / APIServer pid=2427", Long.toString(ns("2025-11-04T10:08:01.175662Z"))),
        List.of(s.events.get(0)[1], s.events.get(0)[3], s.events.get(0)[4]));
  }

  /** SGLang's launcher and watchdog quitting the server are crashes, at their lines' times. */
  @Test
  void sglangsLastWordsAreCrashes() throws IOException {
    RecordingSink sigquit = read("56-sgl-compose-sigquit-received-error-traceback-sgl12076.log").sink();
    // seven SIGQUIT lines of one death (each child's handler), one crash; uvicorn's "ERROR:
    // Traceback" is no crash of its own (it prints one at an ordinary Ctrl+C too)
    assertEquals(1, sigquit.events.size());
    assertTrue(sigquit.events.stream().allMatch(e -> e[1].equals("crash") && e[2].startsWith("SIGQUIT received. signum=None")),
        sigquit.events.toString());
    assertEquals(Long.toString(ns("2025-10-29T11:26:03Z")), sigquit.events.get(0)[4]);
    RecordingSink ci = read("57-sgl-ci-iso-received-sigquit-child-failed-sgl12827.log").sink();
    assertEquals(Long.toString(ns("2025-11-06T02:10:00.703Z")), ci.events.get(0)[4]);
    RecordingSink detok = read("59-sgl-detokenizermanager-hit-exception-pr29853.log").sink();
    assertEquals(1, detok.events.size());
    assertTrue(detok.events.get(0)[2].startsWith("DetokenizerManager hit an exception"), detok.events.get(0)[2]);
    RecordingSink watchdog = read("60-sgl-watchdog-timeout-quoted-dp-tp-pr6555.log").sink();
    assertEquals(List.of("crash", "Watchdog timeout (self.watchdog_timeout=300)", "DP0 TP0"),
        List.of(watchdog.events.get(0)[1], watchdog.events.get(0)[2], watchdog.events.get(0)[3]));
    // a request's task that failed because its client went away: no crash
    RecordingSink task = new RecordingSink();
    new dev.tokentime.formats.sglang.SglangLogFormat().parse(java.nio.file.Files.newInputStream(
        FIELD.resolve("58-sgl-task-exception-client-disconnected-sgl17031.log")), EXCERPTS.context("58.log"), task);
    assertEquals(0, task.events.size(), task.events.stream().map(e -> e[2]).toList().toString());
  }

  /** vLLM 0.22 logs the response body between the request's streaming-complete line and its access line. */
  @Test
  void aResponseBodyLineKeepsTheRequestNextToItsAccessLine() throws IOException {
    RecordingSink s = read("63-v0220-response-body-between-complete-and-200-iteration-deltas-codeidx67513209602.log").sink();
    assertEquals(1, s.requests.size());
    assertEquals(200, s.requests.get(0).httpStatus, "the 200 after response_body={streaming_started: …} is its");
    assertEquals("752", s.requests.get(0).extras.get("response_chunks"));
  }

  /**
   * A Ray executor's log: Ray's own "2025-09-10 23:26:51,364" line behind "(EngineCore_0 pid=1159) "
   * dates vLLM's month-day lines above it too; read in December of the next year, the version and
   * config events were dated 2026 and the start and ready after it 2025.
   */
  @Test
  void aDatedLineBehindAProcessTagGivesTheWholeFileItsYear() throws IOException {
    RecordingSink s = new RecordingSink();
    new dev.tokentime.formats.vllm.VllmLogFormat().parse(java.nio.file.Files.newInputStream(FIELD.resolve("64-ray-exec-v01011-ansi-ray-dated-line-behind-proc-tag-dennislee22.log")),
        new dev.tokentime.ingest.ParseContext("64-ray-exec-v01011-ansi-ray-dated-line-behind-proc-tag-dennislee22.log", "r", false, null, null, Instant.parse("2026-12-01T00:00:00Z"), null), s);
    assertEquals(List.of("version", "config", "config", "start", "ready"), s.events.stream().map(e -> e[1]).toList());
    assertEquals(List.of(2025), s.events.stream().map(e -> Instant.EPOCH.plusNanos(Long.parseLong(e[4])).atZone(java.time.ZoneOffset.UTC).getYear())
        .distinct().toList());
  }

  /** xinference around vLLM 0.9.1: its own end line closes the request with its reason and counts. */
  @Test
  void xinferencesGenerateFinishedEndsTheRequest() throws IOException {
    RecordingSink s = read("66-xinference-vllm091-added-then-generate-finished-xinf3787.log").sink();
    RequestRecord r = s.requests.get(0);
    assertEquals(List.of("17e83250-5bdf-11f0-be71-0242a0580c28", "ok", "stop", 30, 24),
        List.of(r.requestId, r.status, r.finishReason, r.promptTokens, r.outputTokens));
  }

  /** DJL Serving (SageMaker LMI) around vLLM: its worker is the stats' instance. */
  @Test
  void djlsWorkerIsTheInstance() throws IOException {
    RecordingSink s = read("69-djl-pyprocess-worker-stdout-v0-stats-vllm2912.log").sink();
    assertEquals(List.of("W-309-model"), s.stats.stream().map(r -> r.instance).toList());
  }

  /** A logging config's source and level in brackets after SGLang's own date: each step at that second. */
  @Test
  void sglangsHeaderWithALoggingConfigsSourceAndLevel() throws IOException {
    RecordingSink s = read("70-sgl-05-logging-config-bracket-source-level-pd-prefill-sgl22877.log").sink();
    assertEquals(4, s.stats.size());
    EngineStatsRecord first = s.stats.get(0);
    // [2026-04-15 17:13:10], local time read as UTC here (no zone given)
    assertEquals(ns("2026-04-15T17:13:10Z"), first.tsNs);
    assertEquals(List.of(0, 0, 2.49), List.of(first.running, first.waiting, first.promptTokensPerS));
    assertEquals(List.of(18.0, 22.0, 27.0, 28.0), s.stats.stream().map(r -> r.extras.get("prealloc_req")).toList());
  }

  /**
   * vLLM's "N Engines Aggregated" names no engine: two API servers each log one under that name,
   * kept apart by their process (they were one instance with two rows at one second).
   */
  @Test
  void eachApiServersAggregateIsItsOwnInstance() throws IOException {
    RecordingSink s = read("71-vllm-ascend-two-apiservers-engines-aggregated-specdecode-ascend9803.log").sink();
    assertEquals(List.of("APIServer pid=2523786 / 1 Engines Aggregated", "APIServer pid=2523786 / 1 Engines Aggregated",
        "APIServer pid=2523785 / 1 Engines Aggregated", "APIServer pid=2523785 / 1 Engines Aggregated"),
        s.stats.stream().map(r -> r.instance).toList());
    // a percentage is the double nearest its decimal: 32.9% is 0.329 (32.9 / 100 is 0.32899999999999996)
    assertEquals(List.of(0.329, 0.326), List.of(s.stats.get(0).kvUsage, s.stats.get(2).kvUsage));
    assertEquals(List.of(0.76, 0.745), List.of(s.stats.get(1).extras.get("spec_avg_draft_acceptance_rate"),
        s.stats.get(3).extras.get("spec_avg_draft_acceptance_rate")));
  }

  /**
   * The engine's death as V1's API server logs it: "Engine core proc EngineCore_DP0 died
   * unexpectedly" (or EngineDeadError at the end), then "AsyncLLM output_handler failed." and its
   * traceback. One crash, at the death (the traceback was a second crash event at the same second).
   */
  @Test
  void anOutputHandlersTracebackIsPartOfTheEnginesDeath() throws IOException {
    RecordingSink s = read("72-v1-enginecore-dp0-died-output-handler-traceback-mineru4463.log").sink();
    assertEquals(List.of("crash"), s.events.stream().map(e -> e[1]).toList());
    s = read("73-v1-apiserver-n-output-handler-enginedead-ascend7384.log").sink();
    assertEquals(1, s.events.size());
    assertTrue(s.events.get(0)[2].startsWith("vllm.v1.engine.exceptions.EngineDeadError"), s.events.get(0)[2]);
  }

  /**
   * A Ray Serve replica is where its engine's stats come from: replicas of one deployment, each
   * with its own "Engine 000", interleave in Ray's stream (they were one instance, "Engine 000").
   */
  @Test
  void aRayServeReplicasStatsAreItsOwn() throws IOException {
    RecordingSink s = read("74-ray-serve-llm-replica-stats-router-access-ray65486.log").sink();
    assertEquals(List.of("ServeReplica:anthropic-direct:LLMServer:claude-sonnet-4-5-20250929 pid=28488 / Engine 000"),
        s.stats.stream().map(r -> r.instance).distinct().toList());
    assertEquals(List.of(0, 0, 1), s.stats.stream().map(r -> r.running).toList());
  }

  /** NVIDIA NIM's text formatter: vLLM's header with the full date and ms. */
  @Test
  void nimsDatedHeaderGivesTheStatsTheirTimes() throws IOException {
    RecordingSink s = read("61-nim-text-dated-header-stats-start-dstack1999.log").sink();
    assertEquals(List.of(ns("2024-11-14T16:51:23.925Z"), ns("2024-11-14T16:51:33.926Z")),
        s.stats.stream().map(r -> r.tsNs).toList());
    assertEquals(List.of(0.3, 1.6), List.of(s.stats.get(0).promptTokensPerS, s.stats.get(0).genTokensPerS));
    assertEquals(List.of("start", "ready", "ready"), s.events.stream().map(e -> e[1]).toList());
  }

  /** vLLM 0.2x's second engine (Engine 001) with the external prefix cache's hit rate and a deferred request. */
  @Test
  void aSecondEnginesStatsKeepTheirInstanceAndNewFields() throws IOException {
    RecordingSink s = read("39-v1-engine001-external-prefix-cache-deferred-specdecode-access-ascend11876.log").sink();
    EngineStatsRecord first = s.stats.get(0);
    assertEquals("Engine 001", first.instance);
    assertEquals(2, first.running);
    assertEquals(1.0, first.extras.get("external_prefix_cache_hit_rate"));
  }

  /** Names of the same figure agree across versions, whatever their words (0.5.x doubled one). */
  @Test
  void aDoubledWordInAStatsNameIsReadOnce() throws IOException {
    RecordingSink s = read("33-v05-medusa-spec-metrics-tokens-tokens-ipv6-access-vllm6768.log").sink();
    var spec = s.stats.stream().filter(r -> r.extras.containsKey("spec_number_of_draft_tokens")).toList();
    assertEquals(List.of(42272.0, 51056.0), spec.stream().map(r -> r.extras.get("spec_number_of_draft_tokens")).toList());
    assertEquals(List.of(2642.0, 3191.0), spec.stream().map(r -> r.extras.get("spec_number_of_emitted_tokens")).toList());
    assertTrue(spec.stream().noneMatch(r -> r.extras.keySet().stream().anyMatch(k -> k.endsWith("tokens_tokens"))));
  }

  /** Triton serving vLLM: its E line of the backend's failure, at the glog header's time, and its last words. */
  @Test
  void tritonsWordsAboutItsVllmBackendAreCrashes() throws IOException {
    RecordingSink s = read("80-triton-vllm-backend-failed-start-server8578.log").sink();
    assertEquals(List.of("crash Failed to start engine: NoneType: None",
        "crash error: creating server: Internal - failed to load all models"),
        s.events.stream().map(e -> e[1] + " " + e[2]).toList());
    assertEquals(Long.toString(ns("2025-12-16T02:12:49.624646Z")), s.events.get(0)[4]);
  }

  /** SGLang's own health probe (rid HEALTH_CHECK_…, /health_generate) is no client's request. */
  @Test
  void sglangsHealthProbeIsNoRequest() throws IOException {
    RecordingSink s = read("sgl-2026-headerless-prefill-cudagraph-healthcheck-sgl19712.log").sink();
    assertEquals(List.of("jJKjafC4O-zhjMwPvrWDgQc"), s.requests.stream().map(r -> r.requestId).toList());
    assertEquals(5, s.steps.size(), "the five Prefill batch lines");
  }

  /** SGLang 0.5.17's PD decode line with speculative decoding: every field read. */
  @Test
  void aPdDecodeLineWithSpeculativeFieldsIsReadWhole() throws IOException {
    RecordingSink s = read("sgl-0517-pd-decode-spec-prealloc-retracted-sgl30393.log").sink();
    assertEquals(2, s.stats.size());
    var st = s.stats.get(0);
    assertEquals(List.of(2, 0, 0.39), List.of(st.running, st.waiting, st.kvUsage));
    assertEquals(5.06, st.extras.get("spec_accept_len"), 1e-12);
    assertEquals(0.81, st.extras.get("spec_accept_rate"), 1e-12);
    assertEquals(0.0, st.extras.get("retracted_req"), 1e-12);
    assertEquals(240768.0, st.extras.get("kv_tokens"), 1e-12);
  }

  /**
   * LMCache's "need to load" is its hit less what vLLM's own prefix cache holds, below zero where
   * vLLM holds more (LMCache/LMCache#2574): the request's cached tokens are vLLM's 496 (256 + 240),
   * LMCache's 256 kept beside them, and the access line after the lookup gives the request its 200.
   * The line was a near miss: the request kept no prompt length, no cached tokens and no status.
   */
  @Test
  void negativeNeedToLoadIsVllmsOwnCacheHoldingMore() throws IOException {
    RecordingSink s = read("98-v1-lmcache-negative-need-to-load-added-200-stats-codeidx19149627186.log").sink();
    assertEquals(1, s.requests.size());
    RequestRecord r = s.requests.get(0);
    assertEquals("chatcmpl-917d97645fb9403c8a73e31bb9135e42", r.requestId);
    assertEquals(List.of(497, 496, 200), java.util.Arrays.asList(r.promptTokens, r.cachedTokens, r.httpStatus));
    assertEquals("-240", r.extras.get("lmcache_need_to_load"));
    assertEquals("256", r.extras.get("lmcache_hit_tokens"));
    var f = (dev.tokentime.formats.spec.SpecFormat) FORMATS.byId("vllm-log");
    var lookups = EXCERPTS.explain(f, "99-enginecore-dp0-lmcache-negative-need-to-load-pressure-access-codeidx67545753814.log")
        .kinds().stream().filter(k -> k.kind.equals("lmcache_hit")).findFirst().orElseThrow();
    assertEquals(List.of(4L, 0L), List.of(lookups.matched, lookups.nearMisses));
  }

  /**
   * 2025-2026 excerpts that were read right when found, pinned by value: SGLang's decode lines
   * behind a Ray actor's tag (one instance, TP0), each of two API servers' 500 a failed request of
   * its own server with the EngineDeadError before the first as its cause, a rerank 500, and
   * metrics.py:120's spec decoding beside its stats line, and a request the grammar ended failed with
   * the 500 its API server answered.
   */
  @Test
  void newerVersionsReadAsPublished() throws IOException {
    RecordingSink sgl = read("100-sgl-2026-ray-sglangengine-actor-decode-trailing-comma-openclaw44.log").sink();
    assertEquals(7, sgl.steps.size());
    var first = sgl.steps.get(0);
    assertEquals(List.of("SGLangEngine pid=41820", 0, 6, 0, 0.04), java.util.Arrays.asList(first.instance, first.rank,
        first.running, first.waiting, first.kvUsage));
    assertEquals(42414.0, first.extras.get("kv_tokens"), 1e-9);
    assertEquals(1374.02, first.extras.get("gen_tokens_per_s"), 1e-9);
    assertEquals(ns("2026-03-22T13:53:37Z"), first.tsNs);
    RecordingSink two = read("101-compose-two-apiservers-enginedead-500s-pr41834.log").sink();
    assertEquals(List.of("vllm-sm120 / ApiServer_1 pid=782 500 error", "vllm-sm120 / ApiServer_2 pid=783 500 error"),
        two.requests.stream().map(r -> r.instance + " " + r.httpStatus + " " + r.status).toList());
    assertTrue(two.requests.get(0).error.contains("EngineDeadError"), two.requests.get(0).error);
    RecordingSink rerank = read("102-ansi-lost-rerank-500-enginedead-qwen3reranker6.log").sink();
    assertEquals(1, rerank.requests.size());
    assertTrue(rerank.requests.get(0).error.startsWith("HTTP 500 POST /v1/rerank"), rerank.requests.get(0).error);
    assertTrue(rerank.requests.get(0).error.contains("EngineDeadError"), rerank.requests.get(0).error);
    RecordingSink spec = read("103-v1-specdecode-120-anthropic-messages-beta-access-club3090-986.log").sink();
    var d = spec.stats.stream().filter(r -> r.extras.containsKey("spec_mean_acceptance_length")).toList();
    assertEquals(2, d.size());
    assertEquals(4.00, d.get(0).extras.get("spec_mean_acceptance_length"), 1e-12);
    assertEquals(0.998, d.get(0).extras.get("spec_per_position_acceptance_rate_3"), 1e-12);
    assertEquals(List.of(1, 0, 0.065), spec.stats.stream().filter(r -> r.running != null).findFirst()
        .map(r -> List.<Object>of(r.running, r.waiting, r.kvUsage)).orElseThrow());
    RecordingSink grammar = read("104-v1-grammar-rejected-request-failed-500-codeidx61893643560.log").sink();
    assertEquals(List.of("chatcmpl-8da6fc665494abe1 error 500 failed with an internal error during generation"),
        grammar.requests.stream().map(r -> r.requestId + " " + r.status + " " + r.httpStatus + " " + r.error).toList());
  }

  /**
   * "[TensorRT-LLM][ERROR] Received stop request for requestId 7772708 but it's not active (might be
   * completed already)." is the Triton backend refusing a stop for a request it had already finished
   * (a client that sends one at each stream's end): no crash, the server goes on serving. It was
   * stored as a crash event.
   */
  @Test
  void aLateStopRequestIsNoCrash() throws IOException {
    RecordingSink s = read("trt-triton-late-stop-request-not-active-server7181.log").sink();
    assertEquals(List.of(), s.events.stream().map(e -> e[1] + " " + e[2]).toList());
    assertEquals(List.of(), s.requests);
  }

  /**
   * A failed step of TensorRT-LLM's executor logs its error, then "Encountered error for requestId N:
   * …" for each request it took with it, then "Step function failed, continuing.": one crash, and each
   * such line a failed request (here without a time anywhere in the excerpt, so rejected for want of
   * one, never dropped). The request's line was a second crash and no failure was counted.
   */
  @Test
  void aFailedStepsRequestIsAFailedRequestNotASecondCrash() throws IOException {
    RecordingSink s = read("trt-triton-step-failed-error-for-requestid-backend435.log").sink();
    assertEquals(List.of("crash Encountered an error in forward function: std::bad_cast"),
        s.events.stream().map(e -> e[1] + " " + e[2]).toList());
    assertEquals(1, s.c.rejects.size());
    assertTrue(s.c.rejects.get(0).reason().startsWith("no timestamp"), s.c.rejects.get(0).reason());
  }

  /** 2025-2026 stats lines as published: a docker copy's mid-word wrap, vLLM 0.20's per-position acceptance rates. */
  @Test
  void newerStatsLinesAreReadWhole() throws IOException {
    RecordingSink wrapped = read("85-v011-docker-ts-stats-wrapped-midword-kv99-vllm27073.log").sink();
    assertEquals(List.of(List.of(34, 18, 0.992), List.of(33, 40, 0.975)), wrapped.stats.stream()
        .map(r -> List.<Object>of(r.running, r.waiting, r.kvUsage)).toList());
    RecordingSink spec = read("86-v0202-stats-mm-specdecode-3pos-access-vllm42363.log").sink();
    var d = spec.stats.stream().filter(r -> r.extras.containsKey("spec_mean_acceptance_length")).findFirst().orElseThrow();
    assertEquals(3.97, d.extras.get("spec_mean_acceptance_length"), 1e-12);
    assertEquals(1.0, d.extras.get("spec_per_position_acceptance_rate_1"), 1e-12);
    assertTrue(d.extras.containsKey("spec_per_position_acceptance_rate_3"), d.extras.toString());
  }

  /**
   * vLLM's plain banner (0.18 on, printed without the logo: "vLLM server version 0.27.1, serving
   * model …") is a version event, which ends the requests a restart left in flight as lost.
   */
  @Test
  void thePlainVersionBannerIsAVersion() throws IOException {
    RecordingSink s = read("89-v0271-omni-plain-version-banner-startup-fail-xiao6pinggai.log").sink();
    assertEquals(List.of("0.27.1"), s.events.stream().filter(e -> e[1].equals("version")).map(e -> e[2]).toList());
    RecordingSink restart = new RecordingSink();
    new dev.tokentime.formats.vllm.VllmLogFormat().parse(new java.io.ByteArrayInputStream((
        "(APIServer pid=1) INFO 08-31 22:30:01 [async_llm.py:415] Added request chatcmpl-a1b2c3d4e5f60718-8181cd7c.\n"
        + "(APIServer pid=7) INFO 08-31 22:40:48 [api_utils.py:345] vLLM server version 0.27.1, serving model /m/x\n")
        .getBytes(java.nio.charset.StandardCharsets.UTF_8)), EXCERPTS.context("restart.log"), restart);
    assertEquals(List.of("lost"), restart.requests.stream().map(r -> r.status).toList());
  }

  /**
   * vLLM 0.1-0.3 logged the prompt's token ids last on a Received line, spelt with spaces
   * ("…, prompt token ids: [1, 1824, 349, 22377, 5244, 2059, 28804]."): a whole line, with its
   * arrival and its prompt's length. SGLang 0.2.0's "[gpu_id=0] " is the rank's GPU.
   */
  @Test
  void oldReceivedLinesEndWithTheirTokenIds() throws IOException {
    PinnedExcerpts.Read openllm = read("90-v03-openllm-received-prompt-token-ids-mdfranz.log");
    RequestRecord r = openllm.sink().requests.get(0);
    assertEquals("openllm-aec7ac3874b94367a201caf8310b0050", r.requestId);
    assertEquals(Integer.valueOf(7), r.promptTokens);
    assertTrue(r.arrivalNs != RequestRecord.NONE);
    List<RequestRecord> v030s = read("91-v030-received-token-ids-lora-finished-500-vllm2706.log").sink().requests;
    // its 500 after two bare "None" prints is its own response, not a failed request of its own
    assertEquals(List.of("cmpl-e3ab58bfc7834026a608eee91a74dc15-0"), v030s.stream().map(q -> q.requestId).toList());
    RequestRecord v030 = v030s.get(0);
    assertEquals(Integer.valueOf(5), v030.promptTokens);
    assertEquals("error", v030.status);
    assertEquals(Integer.valueOf(500), v030.httpStatus);
    RecordingSink sgl = read("sgl-v02-gpu-id-prefill-modeltpserver-exception-sgl747.log").sink();
    assertEquals(1, sgl.steps.size());
    assertEquals(Integer.valueOf(0), sgl.steps.get(0).rank);
    assertEquals(42.0, sgl.steps.get(0).extras.get("cached_tokens"), 0.0);
  }

  /**
   * A crash logged as a traceback says what failed by the exception line that ends it, per
   * process, over the frames and a terminal's wraps between; a chained traceback ("The above
   * exception was the direct cause …") is the same crash, and so is the traceback of an executor
   * failure the line before named.
   */
  @Test
  void aTracebacksCrashSaysWhatFailed() throws IOException {
    RecordingSink chained = read("89-v0271-omni-plain-version-banner-startup-fail-xiao6pinggai.log").sink();
    assertEquals(List.of("58 ModuleNotFoundError: No module named 'mindiesd'"), chained.events.stream()
        .filter(e -> e[1].equals("crash")).map(e -> e[0] + " " + e[2]).toList());
    PinnedExcerpts lifecycle = new PinnedExcerpts(Path.of("src/test/resources/real-logs/lifecycle"), "lifecycle",
        Instant.parse("2026-06-30T00:00:00Z"));
    RecordingSink engine = lifecycle.read("19-v1-080-startup-duplicate-id-enginecore-exception-vllm15041.log").sink();
    assertEquals("EngineCore hit an exception: IndexError: index 1 is out of bounds for axis 0 with size 1",
        engine.events.stream().filter(e -> e[1].equals("crash")).findFirst().orElseThrow()[2]);
    RecordingSink trt = read("trt-130rc20-executor-module-tag-failed-init-modelopt1933.log").sink();
    assertEquals(List.of("Failed to initialize executor on rank 0: tuple index out of range"),
        trt.events.stream().filter(e -> e[1].equals("crash")).map(e -> e[2]).toList());
    // 1.3.0rc25: a rank's executor loop died, every rank hard-killed (TensorRT-LLM#18663)
    assertEquals(List.of("Executor loop crashed on this rank; hard-killing all 8 ranks in 9.99947s (peers cannot make"
            + " progress wit"),
        read("trt-13rc25-executor-loop-crashed-hard-kill-trt18663.log").sink().events.stream()
            .filter(e -> e[1].equals("crash")).map(e -> e[2]).toList());
    // SGLang's logger heads the traceback only: its frames and exception line come bare
    assertEquals(List.of("DetokenizerManager hit an exception: AttributeError: 'TiktokenTokenizer' object has no attribute"
            + " 'all_special_ids'"),
        read("59-sgl-detokenizermanager-hit-exception-pr29853.log").sink().events.stream()
            .filter(e -> e[1].equals("crash")).map(e -> e[2]).toList());
    // a bare traceback cut short: a later tool's "Warning: …" is no exception line of it (a
    // frame in vLLM's package makes a bare traceback the server's: FirstHourFrictionTest)
    RecordingSink warned = new RecordingSink();
    new dev.tokentime.formats.vllm.VllmLogFormat().parse(new java.io.ByteArrayInputStream((
        "Traceback (most recent call last):\n"
        + "  File \"/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/cli/main.py\", line 1, in main\n"
        + "  File \"/usr/lib/python3.12/multiprocessing/resource_tracker.py\", line 1, in main\n"
        + "(APIServer pid=1) INFO 08-31 22:30:05 [api_server.py:1] Starting vLLM API server on http://0.0.0.0:8000\n"
        + "Warning: The cache directory /root/.cache is not writable.\n")
        .getBytes(java.nio.charset.StandardCharsets.UTF_8)), EXCERPTS.context("warned.log"), warned);
    assertEquals(List.of("Traceback (most recent call last):"),
        warned.events.stream().filter(e -> e[1].equals("crash")).map(e -> e[2]).toList());
    // a held traceback's time out of range is its line's reject, at once, as any event's
    RecordingSink early = new RecordingSink();
    new dev.tokentime.formats.sglang.SglangLogFormat().parse(new java.io.ByteArrayInputStream((
        "[2024-10-01 12:00:00 TP0] Load weight begin.\n"
        + "[1985-10-01 12:00:01 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        + "[2024-10-01 12:00:02 TP0] Load weight end.\n")
        .getBytes(java.nio.charset.StandardCharsets.UTF_8)), EXCERPTS.context("early.log"),
        new dev.tokentime.ingest.CheckedSink(early));
    assertEquals(List.of(), early.events);
    assertEquals(List.of(2L), early.c.rejects.stream().map(r -> r.lineNo()).toList());
    // a traceback whose process printed nothing after its frames keeps the words it has
    RecordingSink cut = new RecordingSink();
    new dev.tokentime.formats.vllm.VllmLogFormat().parse(new java.io.ByteArrayInputStream((
        "(EngineCore_DP0 pid=4) ERROR 08-31 22:30:01 [core.py:1] EngineCore failed to start.\n"
        + "(APIServer pid=1) ERROR 08-31 22:30:01 [launcher.py:1] Traceback (most recent call last):\n"
        + "(APIServer pid=1) ERROR 08-31 22:30:01 [launcher.py:1]   File \"/x/api_server.py\", line 10, in run\n"
        + "(EngineCore_DP0 pid=4) ERROR 08-31 22:30:02 [core.py:1] Something else entirely\n"
        + "(APIServer pid=1) ERROR 08-31 22:30:02 [launcher.py:1]     raise RuntimeError(\"x\")\n")
        .getBytes(java.nio.charset.StandardCharsets.UTF_8)), EXCERPTS.context("cut.log"), cut);
    assertEquals(List.of("1 EngineCore failed to start.", "2 Traceback (most recent call last):"),
        cut.events.stream().sorted(java.util.Comparator.comparingLong(e -> Long.parseLong(e[0])))
            .map(e -> e[0] + " " + e[2]).toList());
  }

  /** SGLang's diffusion runtime logs its request as a dict, its id under request_id: two requests with SGLang's own E2E. */
  @Test
  void sglangsDiffusionRequestsAreRequests() throws IOException {
    RecordingSink s = read("sgl-2026-diffusion-log-requests-dict-obj-pr23049.log").sink();
    assertEquals(List.of(List.of("6ef3fb55-a97c-4c92-87c5-b8f1fb7735da", "ok"), List.of("5d6089f0-dc0f-466d-a95d-17d40f3a7c0f", "ok")),
        s.requests.stream().map(r -> List.of(r.requestId, r.status)).toList());
    assertEquals(2718.243174997042, s.requests.get(0).e2eMs, 1e-6);
    assertEquals(8437.134762993082, s.requests.get(1).e2eMs, 1e-6);
  }

  /** Ray Serve LLM's failure line for a call the engine's death failed: a failed request, with that cause. */
  @Test
  void rayServesFailureLineIsAFailedRequest() throws IOException {
    RecordingSink s = read("62-ray-serve-enginedead-untimed-ray53267.log").sink();
    assertEquals(1, s.requests.size());
    var r = s.requests.get(0);
    assertEquals(List.of("ray-failure-line-3", "error", "ServeReplica:default:LLMDeploymentqwen-0_5b pid=14262"),
        List.of(r.requestId, r.status, r.instance));
    assertEquals(ns("2025-05-23T00:42:04.876Z"), r.finishedNs);
    assertTrue(r.error.contains("700823bf-0cfe-460a-bb1c-00e25d0f3fb8") && r.error.contains("EngineDeadError"), r.error);
  }

  /**
   * A container's own start-up printed 65 lines before vLLM's first (its sniff looked at 40:
   * "cannot tell the format"); a patched engine's one line per request is the request whole.
   */
  @Test
  void aLateFirstLineAndAPatchedEnginesRequestLineAreRead() throws IOException {
    RecordingSink late = read("87-v0160-neuron-ssm-docker-logs-65-patch-lines-before-header-gemma4tips.log").sink();
    // the engine core's fatal error and the API server's EngineDeadError after it: one death
    assertEquals(List.of("version", "crash"), late.events.stream().map(e -> e[1])
        .filter(k -> !k.equals("config")).toList());
    RecordingSink patched = read("19-compose-single1-request-finished-syvai147.log").sink();
    assertEquals(1, patched.requests.size());
    var r = patched.requests.get(0);
    assertEquals(List.of("chatcmpl-a48d45d3ab7520d3-bd798162", "ok", "stop", 11448, 46),
        List.of(r.requestId, r.status, r.finishReason, r.promptTokens, r.outputTokens));
    // its elapsed_s dates the arrival: E2E is the engine's 2.59 s
    assertEquals(2_590_000_000L, r.finishedNs - r.arrivalNs);
    assertEquals(ns("2025-09-18T11:35:00Z"), r.finishedNs); // 09-18 of the year before the run's June 2026
  }

  /**
   * constructed/vllm-interleaved: another client's 400 between a streaming request's Received and
   * Added lines. The Added line shows the engine took the request: the 400 is a failed request of
   * its own (it ended the request as refused, then its Added line and chunks were rejects as
   * repeats of a request already written).
   */
  @Test
  void anotherClientsErrorBetweenReceivedAndAddedIsItsOwn() throws IOException {
    Path dir = Path.of("src/test/resources/constructed/vllm-interleaved");
    PinnedExcerpts p = new PinnedExcerpts(dir, "interleaved", Instant.parse("2026-06-30T00:00:00Z"));
    for (String f : List.of("received-other-clients-400-added.log", "received-other-clients-400-added-suffix.log")) {
      RecordingSink s = p.read(f).sink();
      assertEquals(List.of(List.of("chatcmpl-ba7c746153081a9d", "ok", 200), List.of("http-400-line-2", "error", 400)),
          s.requests.stream().map(r -> List.<Object>of(r.requestId, r.status, r.httpStatus))
              .sorted(java.util.Comparator.comparing(Object::toString)).toList(), f);
      assertEquals(2, s.tokens.size(), f);
      assertEquals(List.of(), s.c.rejects, f);
    }
  }

  /**
   * The C++ runtime's nested error: the line starts as the format's own part does, so the inner
   * "[TensorRT-LLM][ERROR]" is the message's, not where the line resumes behind a wrapper.
   */
  @Test
  void aNestedRuntimeErrorKeepsItsWholeMessage() throws IOException {
    RecordingSink s = read("trt-017-executor-forwardasync-nested-error-trt2708.log").sink();
    assertEquals(1, s.events.size());
    assertEquals("crash", s.events.get(0)[1]);
    assertTrue(s.events.get(0)[2].startsWith("Encountered an error in forwardAsync function: [TensorRT-LLM][ERROR]"
        + " Assertion failed: mNextBlocks.empty() ("), s.events.get(0)[2]);
  }

  /**
   * "Received request N.A." (KServe): each a request named by its line, the placeholder kept in
   * extras; KServe's latency line after the predict ends it (before, both were in flight at the
   * log's end), and the access line right after, on KServe's v1 route ":predict", gives its status.
   */
  @Test
  void aPlaceholderIdNamesNoRequest() throws IOException {
    RecordingSink s = read("77-kserve-embedding-two-received-NA-same-pod-2025.log").sink();
    assertEquals(List.of("line-1", "line-6"), s.requests.stream().map(r -> r.requestId).toList());
    assertEquals(List.of(ns("2025-04-23T08:50:38.031Z"), ns("2025-04-23T09:08:15.583Z")),
        s.requests.stream().map(r -> r.arrivalNs).toList());
    assertEquals(List.of(ns("2025-04-23T08:50:43.539Z"), ns("2025-04-23T09:08:20.750Z")),
        s.requests.stream().map(r -> r.finishedNs).toList());
    assertEquals(List.of(List.of("ok", 200), List.of("ok", 200)),
        s.requests.stream().map(r -> List.<Object>of(r.status, r.httpStatus)).toList());
    assertEquals("N.A.", s.requests.get(0).extras.get("logged_request_id"));
    assertEquals("1a186d52-aebd-4739-bbd4-3ac64b8c99c1", s.requests.get(0).extras.get("kserve_request_id"));
    assertEquals("5422.189950943", s.requests.get(0).extras.get("kserve_predict_ms"));
  }

  /**
   * constructed/stacks: two placeholder requests in flight. KServe's latency line ends the one
   * whose arrival fits the start its figures imply (its time less its steps' ms), and the access
   * line after it gives that one its status; the other stays in flight. Two arrivals 2 ms apart
   * both fit: the line cannot say which, neither ends nor takes the access line. A 500 on KServe's
   * ":predict" route right after a Received line ends that request as failed.
   */
  @Test
  void kserveLatencyLinesEndThePlaceholderTheirFiguresFit() throws IOException {
    Path dir = Path.of("src/test/resources/constructed/stacks");
    PinnedExcerpts stacks = new PinnedExcerpts(dir, "stacks", Instant.parse("2026-06-30T00:00:00Z"));
    RecordingSink two = stacks.read("kserve-two-in-flight.log").sink();
    assertEquals(List.of(List.of("line-1", "ok", 200, ns("2025-04-23T08:50:43.539Z")),
        java.util.Arrays.asList("line-2", null, null, null)), two.requests.stream()
        .map(r -> java.util.Arrays.asList((Object) r.requestId, r.status, r.httpStatus,
            r.finishedNs == dev.tokentime.ingest.RequestRecord.NONE ? null : r.finishedNs)).toList());
    RecordingSink tie = stacks.read("kserve-tie.log").sink();
    assertEquals(2, tie.requests.size());
    for (var r : tie.requests) {
      assertEquals(java.util.Arrays.asList(null, null), java.util.Arrays.asList(r.status, r.httpStatus), r.requestId);
      assertEquals("log ended while the request was in flight", r.extras.get("end"), r.requestId);
    }
    assertEquals(4, tie.c.other, "the latency line, the access line and KServe's two timing lines");
    RecordingSink failed = stacks.read("kserve-predict-500.log").sink();
    assertEquals(List.of(List.of("line-1", "error", 500)), failed.requests.stream()
        .map(r -> List.<Object>of(r.requestId, r.status, r.httpStatus)).toList());
  }

  /**
   * The same stacks' failures (constructed/stacks: a real line with its status made 500): KServe's
   * access line, sniffed as a vLLM log, and Ray Serve's behind a deployment named with a "/".
   */
  @Test
  void stacksFailuresAreFailedRequests() throws IOException {
    Path dir = Path.of("src/test/resources/constructed/stacks");
    PinnedExcerpts.Read kserve = new PinnedExcerpts(dir, "stacks", Instant.parse("2026-06-30T00:00:00Z"))
        .read("kserve-uvicorn-access-500.log");
    assertEquals(List.of(List.of("error", 500)), kserve.sink().requests.stream()
        .map(r -> List.<Object>of(r.status, r.httpStatus)).toList());
    RecordingSink ray = new RecordingSink();
    new dev.tokentime.formats.vllm.VllmLogFormat().parse(
        java.nio.file.Files.newInputStream(dir.resolve("rayserve-slash-deployment-500.log")),
        new dev.tokentime.ingest.ParseContext("ray.log", "r", false, java.time.ZoneOffset.UTC, 2025), ray);
    assertEquals(List.of(List.of("error", 500)), ray.requests.stream().map(r -> List.<Object>of(r.status, r.httpStatus)).toList());
    assertEquals("ServeReplica:default:meta-llama/Llama-2-7b-hf:meta-llama--Llama-2-7b-hf pid=522791",
        ray.requests.get(0).instance);
  }

  @Test
  void aHeaderWhoseSourceAPasteLinkedIsReadAsItsSource() throws IOException {
    RecordingSink s = read("76-v018-markdown-autolinked-src-header-ascend10532.log").sink();
    assertEquals(List.of(1L, 5L), s.stats.stream().map(r -> r.lineNo).toList());
    assertEquals(List.of(3, 0.40, 0.108), List.of(s.stats.get(1).running, s.stats.get(1).kvUsage, s.stats.get(1).prefixHitRate));
    assertEquals(0.063, s.stats.get(1).extras.get("external_prefix_cache_hit_rate"), 1e-12);
  }

  /**
   * The same lines as a terminal capture keeps them (script(1)): tqdm's carriage return before
   * each bar, and CRLF ends passed through the terminal ("\r\r\n"). Each line reads as the terminal
   * showed it (the text after the bar's last redraw): the same 3 records. Every line was a
   * "control character U+000D" reject before. A lone CR between two log lines (no bar) is still
   * named.
   */
  @Test
  void aTerminalCapturesCarriageReturnsAreReadAsTheTerminalShowedThem() throws IOException {
    String text = java.nio.file.Files.readString(FIELD.resolve("35-v05-tqdm-glued-stats-preempt-warning-vllm5578.log"));
    StringBuilder captured = new StringBuilder();
    for (String line : text.split("\n")) {
      captured.append(line.startsWith("Processed prompts:") ? "\r" + line.replace("|  |", "|  |\rProcessed prompts:   0%|  |") : line)
          .append("\r\r\n");
    }
    RecordingSink s = new RecordingSink();
    new dev.tokentime.formats.vllm.VllmLogFormat().parse(new java.io.ByteArrayInputStream(
        captured.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)), EXCERPTS.context("captured.log"), s);
    assertEquals(List.of(1L, 2L, 3L), s.stats.stream().map(r -> r.lineNo).toList());
    assertEquals(List.of(), s.c.rejects);
  }

  @Test
  void aV0PreemptionWarningIsAPreemptionsReading() throws IOException {
    RecordingSink s = read("35-v05-tqdm-glued-stats-preempt-warning-vllm5578.log").sink();
    assertEquals(List.of(1L, 2L, 3L), s.stats.stream().map(r -> r.lineNo).toList());
    assertEquals(151L, s.stats.get(1).preemptions);
    assertEquals(List.of(100, 137), List.of(s.stats.get(0).swapped, s.stats.get(2).swapped));
  }

  @Test
  void aV0EngineInitLineIsAConfigEvent() throws IOException {
    RecordingSink s = read("34-compose-midline-padding-v0-083-engine-init-opea2068.log").sink();
    assertEquals(1, s.events.size());
    assertEquals("config", s.events.get(0)[1]);
    assertTrue(s.events.get(0)[2].startsWith("(v0.8.3) with config:"), s.events.get(0)[2]);
  }

  /** uvicorn's own start-up lines (no vLLM header) start the server: requests in flight are lost. */
  @Test
  void uvicornStartLinesAreEngineEvents() throws IOException {
    RecordingSink s = read("16-apiserver-startup-stats-access-sparkdocker217.log").sink();
    // each event: line, kind, detail, instance
    assertEquals(List.of("start 57 APIServer pid=57", "ready Application startup complete APIServer pid=57"),
        s.events.stream().map(e -> e[1] + " " + e[2] + " " + e[3]).toList());
    RecordingSink restart = read("11-journald-apiserver-restart-dfch-llmops.log").sink();
    assertTrue(restart.events.stream().anyMatch(e -> e[1].equals("version") && e[2].equals("0.26.0")),
        "0.26's banner line gives the version");
  }

  /**
   * A --log-config formatter's header ("%(asctime)s %(levelname)s %(name)s - %(message)s") in place
   * of vLLM's: its lines are read as vLLM's, timed to its milliseconds with its year.
   */
  @Test
  void aLogConfigFormattersHeaderIsPeeled() throws IOException {
    RecordingSink s = read("31-logconfig-level-name-formatter-v0110-bettervllmlog.log").sink();
    assertEquals(7, s.stats.size());
    assertEquals(Instant.parse("2025-11-17T14:50:30.270Z").toEpochMilli() * 1_000_000L, s.stats.get(0).tsNs);
    assertEquals(1, s.stats.get(0).running);
    assertEquals(2, s.requests.size());
    RequestRecord first = s.requests.get(0);
    assertEquals("chatcmpl-d74b68c03b92436198481964c169c4c9", first.requestId);
    assertEquals(Instant.parse("2025-11-17T14:50:29.291Z").toEpochMilli() * 1_000_000L, first.arrivalNs);
    assertEquals(Instant.parse("2025-11-17T14:50:31.662Z").toEpochMilli() * 1_000_000L, first.finishedNs);
    assertEquals("stop", first.finishReason);
  }

  /** A Ray actor whose name holds its own parenthesised id is peeled like any other. */
  @Test
  void rayActorWithParenthesesIsPeeled() throws IOException {
    EngineStatsRecord r = read("02-ray-llumlet-actor-llumnix118.log").sink().stats.get(0);
    assertEquals("Llumlet(iid=f3664) pid=26863", r.instance);
    assertEquals(0, r.running);
    assertEquals(0.0, r.kvUsage);
  }

  /**
   * Stats lines a terminal wrapped at 130 columns ("Running: 17 r" / "eqs, Swapped: …"): each
   * wrapped line is read joined to its rest, at its first line, the rest an other line; never a row
   * of NULLs.
   */
  @Test
  void hardWrappedStatsLinesAreReadJoinedToTheirRest() throws IOException {
    RecordingSink s = read("18-terminal-hardwrapped-stats-v0-tt246.log").sink();
    assertEquals(List.of(), s.c.rejects);
    assertEquals(List.of(1L, 4L, 6L, 8L, 10L), s.stats.stream().map(r -> r.lineNo).toList());
    assertEquals(List.of(17, 17, 17, 17, 17), s.stats.stream().map(r -> r.running).toList());
    assertEquals(List.of(39.2, 40.3, 41.6, 42.7, 43.8),
        s.stats.stream().map(r -> Math.round(r.kvUsage * 1000) / 10.0).toList(), "GPU KV cache usage, %");
    assertEquals(306.5, s.stats.get(0).genTokensPerS);
    assertEquals(0, s.stats.get(0).waiting, "Pending: 0 reqs, after the wrap");
  }

  /**
   * Free text a CI runner printed between its own prefix and vLLM's (a pytest id, then the
   * "(APIServer pid=N)" tag) is an unknown wrapper, peeled up to the tag: the Received line reads
   * as the bare line does and ties to its Added line.
   */
  @Test
  void textBetweenTheRunnersPrefixAndVllmsIsPeeled() throws IOException {
    RecordingSink s = read("03-buildkite-iso-pytest-apiserver-pr21747.log").sink();
    assertEquals(1, s.requests.size());
    var r = s.requests.get(0);
    assertEquals("cmpl-8b7164b9fc23428786198dcc3fe516ab-0", r.requestId);
    assertEquals("APIServer pid=6095", r.instance);
    assertEquals(java.time.Instant.parse("2025-07-29T16:48:56Z").getEpochSecond() * 1_000_000_000L, r.arrivalNs);
    assertEquals(r.arrivalNs, r.queuedNs, "its Added line, tied");
    // --explain says which lines were read behind a wrapper no prefix knows, and what it peeled
    String file = "03-buildkite-iso-pytest-apiserver-pr21747.log";
    var f = (dev.tokentime.formats.spec.SpecFormat) FORMATS.byId("vllm-log");
    var stats = EXCERPTS.explain(f, file);
    assertEquals(1, stats.unknownWrapperLines);
    assertTrue(stats.unknownWrapperExamples.get(0).startsWith("1: \"entrypoints/openai/test_completion_with_prompt_embeds.py::"),
        stats.unknownWrapperExamples.get(0));
  }

  /** Colour codes whose ESC byte a copy lost: the file is still vLLM's, its lines still read. */
  @Test
  void colourCodesWithoutTheirEscapeArePeeled() throws IOException {
    RecordingSink s = read("09-ansi-esc-lost-apiserver-ascend3024.log").sink();
    assertEquals(1, s.events.size(), "the engine's fatal error");
    assertEquals("crash", s.events.get(0)[1]);
  }

  /**
   * vLLM's colour formatter paints the header's level, time and source apart; a copy that lost
   * the codes' ESC bytes leaves "[32mINFO[0m [90m05-19 12:24:51[0m [90m[core.py:1242][0m " (the
   * stage engine cores' lines of excerpt 134), a pager's notation "^[[32mINFO^[[0m …": the header
   * is read as vLLM's own, and the kinds of the lines it heads with it, at its time.
   */
  @Test
  void theColourFormattersHeaderWithoutItsEscapesIsRead() throws IOException {
    String file = "134-omni-colour-header-esc-lost-stage-enginecore-shutdown-faultdoc.log";
    var matcher = new dev.tokentime.formats.spec.LineMatcher(
        dev.tokentime.formats.spec.SpecReader.load("vllm-log.spec"));
    List<String> headers = new java.util.ArrayList<>();
    for (String line : java.nio.file.Files.readAllLines(FIELD.resolve(file))) {
      var m = new dev.tokentime.formats.spec.MatchedLine();
      matcher.match(1, line, m);
      if (line.contains("StageEngineCoreProc")) {
        headers.add(m.prefixValue("process") + " " + m.prefixValue("level") + " " + m.prefixValue("md") + " "
            + m.prefixValue("hms") + " " + m.prefixValue("src") + " | " + m.message());
      }
    }
    assertEquals(6, headers.size());
    // a log of such lines alone is vLLM's (no format knew it)
    byte[] painted = String.join("\n", headers.stream().map(h -> "[32mINFO[0m [90m05-19 12:24:51[0m [90m[core.py:1242][0m "
        + h.substring(h.indexOf("| ") + 2)).toList()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals("vllm-log", FORMATS.sniff(new dev.tokentime.ingest.Sample("painted.log", painted, painted.length)).id());
    assertEquals("StageEngineCoreProc INFO 05-19 12:24:51 core.py:1242 | Shutdown initiated (timeout=0)", headers.get(0));
    assertEquals("StageEngineCoreProc INFO 05-19 12:25:00 core.py:1265 | Shutdown complete", headers.get(5));
    // the codes as a pager writes them, "^[[1;36m(APIServer pid=2963765)^[[0;0m " (excerpt 136):
    // removed as the codes are, so the process tag is the line's own, no wrapper's text
    String caret = "136-omni-caret-escape-apiserver-four-engines-stats-omni517.log";
    var caretExplain = EXCERPTS.explain((dev.tokentime.formats.spec.SpecFormat) FORMATS.byId("vllm-log"), caret);
    assertEquals(0, caretExplain.unknownWrapperLines, caretExplain.unknownWrapperExamples.toString());
    assertEquals(List.of("Engine 000", "Engine 003"),
        List.of(read(caret).sink().stats.get(0).instance, read(caret).sink().stats.get(3).instance));
    // the same header over the lines that carry figures: a stats line, a request's lines
    String stats = "Engine 000: Avg prompt throughput: 1.0 tokens/s, Avg generation throughput: 48.0 tokens/s, "
        + "Running: 2 reqs, Waiting: 0 reqs, GPU KV cache usage: 3.5%, Prefix cache hit rate: 12.0%";
    String lines = ""
        + "[0;36m(APIServer pid=556855)[0;0m [32mINFO[0m [90m05-19 12:24:40[0m [90m[logger.py:49][0m Received request "
        + "chatcmpl-a1: params: SamplingParams(n=1, max_tokens=16), lora_request: None.\n"
        + "^[[0;36m(APIServer pid=556855)^[[0;0m ^[[32mINFO^[[0m ^[[90m05-19 12:24:40^[[0m ^[[90m[async_llm.py:382]^[[0m "
        + "Added request chatcmpl-a1-a8a65d16.\n"
        + "[0;36m(APIServer pid=556855)[0;0m [32mINFO[0m [90m05-19 12:24:45[0m [90m[loggers.py:271][0m " + stats + "\n"
        + "[0;36m(APIServer pid=556855)[0;0m [31mERROR[0m [90m05-19 12:24:50[0m [90m[core.py:1012][0m "
        + "EngineCore encountered a fatal error.\n";
    RecordingSink s = new RecordingSink();
    FORMATS.byId("vllm-log").parse(new ByteArrayInputStream(lines.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        EXCERPTS.context("colour.log"), s);
    assertEquals(List.of(), s.c.rejects);
    assertEquals(1, s.stats.size());
    EngineStatsRecord st = s.stats.get(0);
    assertEquals(List.of(2.0, 0.035, 0.12), List.of(st.running.doubleValue(), st.kvUsage, st.prefixHitRate));
    assertEquals(List.of("crash"), s.events.stream().map(e -> e[1]).toList());
    assertEquals(1, s.requests.size());
    RequestRecord r = s.requests.get(0);
    assertEquals("chatcmpl-a1", r.requestId);
    assertEquals(12 * 3600 + 24 * 60 + 40, (r.arrivalNs / 1_000_000_000L) % 86_400);
  }

  /**
   * The engine core's "Dumping scheduler stats: SchedulerStats(num_running_reqs=8, …,
   * kv_cache_usage=0.0052…, …)" right before its fatal error (vllm/logging_utils/dump_input.py) is
   * one engine_stats reading at the crash's time: running, waiting and KV usage (the scheduler's 0..1
   * fraction, as the stats line before it in excerpt 21 says 51.3% and the dump 0.5217); it was an
   * other line. A dump cut before its object closes is rejected as truncated.
   */
  @Test
  void theSchedulerStatsDumpedAtACrashAreAReading() throws IOException {
    RecordingSink s = read("135-v0260-enginecore-fatal-output-handler-enginedead-eight-500s-codeidx63390294774.log").sink();
    assertEquals(1, s.stats.size());
    var dump = s.stats.get(0);
    assertEquals(List.of(35L, 8, 0), List.of(dump.lineNo, dump.running, dump.waiting));
    assertEquals(0.0052161039982420165, dump.kvUsage, 1e-15);
    long crash = s.events.stream().filter(e -> e[1].equals("crash")).map(e -> Long.parseLong(e[4])).findFirst().orElseThrow();
    assertEquals(crash, dump.tsNs);
    assertEquals("EngineCore pid=57666", dump.instance);
    assertTrue(dump.extras.isEmpty(), dump.extras.toString());
    var at21 = read("21-bracket-proc-tags-v0111-workerproc-oom-vllm29070.log").sink().stats;
    assertEquals(0.5217360521098839, at21.get(at21.size() - 1).kvUsage, 1e-15);
    assertEquals(200, at21.get(at21.size() - 1).running);
    String cut = "(EngineCore pid=57666) ERROR 08-06 21:18:16 [dump_input.py:81] Dumping scheduler stats:"
        + " SchedulerStats(num_running_reqs=8, num_waiting_reqs=0, num_skipped_waiting_reqs=0, step_coun\n";
    RecordingSink c = new RecordingSink();
    FORMATS.byId("vllm-log").parse(new ByteArrayInputStream(cut.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        EXCERPTS.context("cut.log"), c);
    assertEquals(0, c.stats.size());
    assertEquals(1, c.c.rejects.size());
    assertTrue(c.c.rejects.get(0).reason().startsWith("truncated"), c.c.rejects.get(0).reason());
    // 0.9-0.10 named the fraction gpu_cache_usage (constructed from that SchedulerStats' field names)
    String old = "(EngineCore_0 pid=912) ERROR 06-06 09:52:01 [dump_input.py:79] Dumping scheduler stats:"
        + " SchedulerStats(num_running_reqs=3, num_waiting_reqs=1, gpu_cache_usage=0.25, prefix_cache_stats=None)\n";
    RecordingSink v09 = new RecordingSink();
    FORMATS.byId("vllm-log").parse(new ByteArrayInputStream(old.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        EXCERPTS.context("v09.log"), v09);
    assertEquals(1, v09.stats.size(), v09.c.rejects.toString());
    assertEquals(0.25, v09.stats.get(0).kvUsage, 1e-15);
  }

  /**
   * One failed start, one crash (vLLM 0.19.1 offline, a real log): the engine core's "EngineCore
   * failed to start." is the crash; its logged traceback, multiprocessing's "Process EngineCore:"
   * traceback and the client's traceback ending "RuntimeError: Engine core initialization failed.
   * See root cause above." were two more crashes. Where the log holds only the last tracebacks
   * (the engine core's logger line cut away), the first of them is the crash; where it holds only
   * the front end's traceback (field excerpt 10's API server lines alone), that one is.
   */
  @Test
  void oneFailedStartIsOneCrash() throws IOException {
    String file = "137-v0191-offline-enginecore-failed-process-traceback-client-runtimeerror-codeidx53942682719.log";
    RecordingSink s = read(file).sink();
    assertEquals(List.of("2 crash EngineCore pid=1639 EngineCore failed to start."),
        s.events.stream().map(e -> e[0] + " " + e[1] + " " + e[3] + " " + e[2]).toList());
    List<String> lines = java.nio.file.Files.readAllLines(FIELD.resolve(file));
    String tail = String.join("\n", lines.subList(15, lines.size())) + "\n";
    RecordingSink noLogger = new RecordingSink();
    FORMATS.byId("vllm-log").parse(new ByteArrayInputStream(tail.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        EXCERPTS.context("tail.log"), noLogger);
    assertEquals(List.of("2 crash torch.AcceleratorError: CUDA error: the provided PTX was compiled with an unsupported toolchain."),
        noLogger.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2]).toList());
    List<String> ten = java.nio.file.Files.readAllLines(FIELD.resolve("10-compose-enginecore-dp0-traceback-ascend4256.log"));
    String apiServer = String.join("\n", ten.subList(6, 11)) + "\n";
    RecordingSink alone = new RecordingSink();
    FORMATS.byId("vllm-log").parse(new ByteArrayInputStream(apiServer.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        EXCERPTS.context("apiserver.log"), alone);
    assertEquals(List.of("1 crash RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}"),
        alone.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2]).toList());
  }

  /**
   * V1's death as 0.26 logs it: the engine core's "EngineCore encountered a fatal error." and its
   * traceback, then the API server's "AsyncLLM output_handler failed." traceback ending in
   * "vllm.v1.engine.exceptions.EngineDeadError: …", and every request open then or after raises the
   * same EngineDeadError (its stream generator's traceback): one death, one crash (it was one a
   * witness); where the API server's word is the log's only one, it is the crash.
   */
  @Test
  void theFrontEndsEngineDeadErrorIsTheDeathAlreadyCounted() throws IOException {
    RecordingSink s = read("135-v0260-enginecore-fatal-output-handler-enginedead-eight-500s-codeidx63390294774.log").sink();
    assertEquals(List.of("start", "ready", "crash", "stop", "stop", "stop"), s.events.stream().map(e -> e[1]).toList());
    assertEquals(List.of("36", "EngineCore encountered a fatal error."),
        s.events.stream().filter(e -> e[1].equals("crash")).map(e -> List.of(e[0], e[2])).findFirst().orElseThrow());
    assertEquals(8, s.requests.stream().filter(r -> "error".equals(r.status) && r.httpStatus == 500).count());
    // a stream generator's traceback for each open request (vllm-project/vllm#27194's shape), and a
    // log of the API server alone whose first EngineDeadError is its only word of the death
    String generator = "(APIServer pid=1) ERROR 10-20 03:20:50 [serving_chat.py:1136] Error in chat completion stream generator.\n"
        + "(APIServer pid=1) ERROR 10-20 03:20:50 [serving_chat.py:1136] Traceback (most recent call last):\n"
        + "(APIServer pid=1) ERROR 10-20 03:20:50 [serving_chat.py:1136]   File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/async_llm.py\", line 392, in generate\n"
        + "(APIServer pid=1) ERROR 10-20 03:20:50 [serving_chat.py:1136] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.\n";
    String lines = "(EngineCore_DP0 pid=559) ERROR 10-20 03:20:50 [core.py:710] EngineCore encountered a fatal error.\n"
        + generator + generator;
    RecordingSink both = new RecordingSink();
    FORMATS.byId("vllm-log").parse(new ByteArrayInputStream(lines.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        EXCERPTS.context("generators.log"), both);
    assertEquals(List.of("EngineCore encountered a fatal error."), both.events.stream().map(e -> e[2]).toList());
    RecordingSink alone = new RecordingSink();
    FORMATS.byId("vllm-log").parse(new ByteArrayInputStream((generator + generator).getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        EXCERPTS.context("apiserver.log"), alone);
    assertEquals(List.of("4 crash"), alone.events.stream().map(e -> e[0] + " " + e[1]).toList());
  }

  /**
   * A program embedding SGLang logs its scheduler through its own formatter ("2026-06-07
   * 10:59:31,659 [INFO] sglang.srt.managers.scheduler_metrics_mixin: Decode batch, …"): the
   * batch lines are read, at the header's ms with its year.
   */
  @Test
  void sglangBehindAPythonLoggingHeaderIsRead() throws IOException {
    RecordingSink s = read("48-sgl-pylogging-header-scheduler-metrics-mixin-sglomni712.log").sink();
    assertEquals(List.of(1L, 3L, 4L, 6L, 7L), s.steps.stream().map(r -> r.lineNo).toList());
    assertEquals(java.time.LocalDateTime.parse("2026-06-07T10:59:31.659")
        .atZone(java.time.ZoneOffset.UTC).toInstant().toEpochMilli() * 1_000_000L, s.steps.get(0).tsNs);
  }

  /**
   * vLLM iteration lines a terminal wrapped at its width ("… 50 gen" / "eration tokens, iteration
   * elapsed time: 10.25 ms, kv cache: 5.1% (…)"): each is joined and read, the fields after its
   * time kept (every step was lost, not even rejected).
   */
  @Test
  void hardWrappedIterationLinesAreJoinedAndTheirSuffixRead() throws IOException {
    RecordingSink s = read("49-v1-iteration-kvcache-suffix-hardwrapped-vllm34860.log").sink();
    assertEquals(List.of(188L, 189L), s.steps.stream().map(r -> r.iter).toList());
    assertEquals(List.of(10.25, 0.72), s.steps.stream().map(r -> r.durationMs).toList());
    assertEquals(List.of(0.051, 0.051), s.steps.stream().map(r -> r.kvUsage).toList());
    assertEquals(List.of(50, 50), s.steps.stream().map(r -> r.genRequests).toList());
  }

  /**
   * A failed request known from its access line alone carries the error its handler logged on the
   * line right before (vLLM's error response: the model does not exist; the last line of a
   * traceback), not only "access line only".
   */
  @Test
  void anErrorAccessLineCarriesTheErrorLoggedRightBeforeIt() throws IOException {
    RecordingSink s = read("05-bare-v1-404-vllm15018.log").sink();
    assertEquals(List.of("HTTP 404 POST /v1/chat/completions (access line only: no request line names it); the error"
        + " logged right before it: NotFoundError: The model `QwQ-32B-Q4_K_M` does not exist.",
        "HTTP 404 POST /v1/chat/completions (access line only: no request line names it); the error logged right"
        + " before it: NotFoundError: The model `DeepSeek-R1-Distill-Qwen-32B-Q4_K_M` does not exist."),
        s.requests.stream().map(r -> r.error).toList());
    assertEquals("VLLMValidationError: 'max_tokens' is too large: 16000.",
        dev.tokentime.formats.spec.ErrorAccessLines.cause("vllm.exceptions.VLLMValidationError: 'max_tokens' is too large: 16000.", 400));
    assertEquals(null, dev.tokentime.formats.spec.ErrorAccessLines.cause("Traceback (most recent call last):", 500));
    // an error response of another status is another request's
    assertEquals(null, dev.tokentime.formats.spec.ErrorAccessLines.cause("Error with model object='error' message='x'"
        + " type='NotFoundError' param=None code=404", 400));
  }

  /** print_iter_log cut mid-line: a reject, not a step with only its iteration number. */
  @Test
  void cutIterationLineIsRejected() throws IOException {
    RecordingSink s = read("trt-pyexec-elapsed-sched-pr6683.log").sink();
    assertEquals(4, s.steps.size());
    assertEquals(5L, s.c.rejects.get(0).lineNo());
    assertTrue(s.c.rejects.get(0).reason().startsWith("truncated"), s.c.rejects.get(0).reason());
    assertTrue(read("trt-cpp-startup-110rc3-i8155.log").sink().events.stream()
        .anyMatch(e -> e[2].startsWith("MPI size: 1, MPI local size: 1, rank: 0")));
  }

  /** Access-only logs of vLLM 0.10+ ("(APIServer pid=1) INFO:     …") are vLLM's. */
  @Test
  void accessOnlyLogsBehindTheApiServerTagAreSniffed() throws IOException {
    RecordingSink s = read("14-apiserver-500-burst-ascend2630.log").sink();
    // no line of the excerpt has a time: a failed request needs one, so each is rejected, named
    s.c.rejects.forEach(r -> assertEquals("no timestamp: an HTTP 500 access line before any line with a time", r.reason()));
  }

  /**
   * vLLM's process tags in the shapes of other builds: in brackets ("[Worker_TP3 pid=540] ", a
   * 0.11.1 build) and without a pid ("(EngineCore) ", 2026) name the line's process as the usual
   * "(EngineCore_DP0 pid=404) " does; a worker's exception is the engine's death.
   */
  @Test
  void processTagsOfOtherBuildsNameTheProcess() throws IOException {
    RecordingSink s = read("21-bracket-proc-tags-v0111-workerproc-oom-vllm29070.log").sink();
    // 4 stats lines and the scheduler's stats the engine core dumped at the crash
    assertEquals(5, s.stats.size());
    // the worker's traceback right after its death line is that death (no second crash)
    assertEquals(List.of("8 crash WorkerProc hit an exception. Worker_TP3 pid=540"),
        s.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2] + " " + e[3]).toList());
    var matcher = new dev.tokentime.formats.spec.LineMatcher(
        ((dev.tokentime.formats.spec.SpecFormat) FORMATS.byId("vllm-log")).spec());
    var m = new dev.tokentime.formats.spec.MatchedLine();
    matcher.match(1, "(EngineCore) INFO 05-18 17:27:37 [core.py:299] init engine (profile, create kv cache, warmup model)"
        + " took 127.39 s (compilation: 62.45 s)", m);
    assertEquals("EngineCore", m.origin());
    assertEquals(List.of("nopid", "vllm"), m.prefixes);
    var stats = EXCERPTS.explain((dev.tokentime.formats.spec.SpecFormat) FORMATS.byId("vllm-log"),
        "22-proc-tag-without-pid-startup-vllm43009.log");
    assertEquals(0, stats.unknownWrapperLines);
  }

  /**
   * NVIDIA Dynamo re-emits the engine's lines under its Rust tracing header (time, level, target),
   * the engine's own header gone: read as the bare lines, at Dynamo's millisecond time, also with
   * srun's label and colour codes whose ESC a copy lost; V1's "EngineCore failed to start." is a death.
   */
  @Test
  void dynamoTracingHeadersAreWrappers() throws IOException {
    RecordingSink s = read("28-dynamo-srun-ansi-lost-tracing-vllm084-added-stats-dyn1074.log").sink();
    assertEquals(List.of("1dc13645-4559-4377-b72d-1f3d783f6cbe", "41ddebe3-b589-4697-877c-df70c8c787d4",
        "5c23ec31-1832-47a3-8042-7d41fe043c21"), s.requests.stream().map(r -> r.requestId).toList());
    assertEquals(Instant.parse("2025-05-13T13:47:38.880Z"), Instant.EPOCH.plusNanos(s.requests.get(0).arrivalNs));
    assertEquals(1, s.stats.size());
    assertEquals(8, s.stats.get(0).running);
    RecordingSink p = read("29-dynamo-tracing-vllm084-added-dyn1089.log").sink();
    assertEquals(Instant.parse("2025-05-15T08:05:10.736Z"), Instant.EPOCH.plusNanos(p.requests.get(0).arrivalNs));
    RecordingSink c = read("30-dynamo-tracing-vllm090-enginecore-failed-dyn1408.log").sink();
    assertEquals(List.of("crash EngineCore failed to start."),
        c.events.stream().map(e -> e[1] + " " + e[2]).toList());
    assertEquals(Instant.parse("2025-06-06T09:52:01.833Z"), Instant.EPOCH.plusNanos(Long.parseLong(c.events.get(0)[4])));
    assertEquals(1, read("sgl-dynamo-tracing-prefill-batch-2026.log").sink().steps.size());
  }

  /**
   * Engines behind routers and orchestrators: NVIDIA Dynamo's Rust lines (its runtime, its KV block
   * manager's per-request lines, its TensorRT-LLM worker's start) and the routers' own lines
   * (sgl-router, the production-stack router, the vLLM router) are other lines, never rejects, and
   * never hide the engine's lines beside them: a log of them and an engine's is the engine's.
   */
  @Test
  void routersAndOrchestratorsLinesAreOtherLines() throws IOException {
    // `dynamo-run`'s subprocess re-emits vLLM's lines with vLLM's source header left in them
    // ("… DEBUG dynamo_run::subprocess: [metrics.py:489] Avg prompt throughput: …"): a stats line,
    // here cut by the paste, so a truncated one
    RecordingSink run = read("92-dynamo-run-subprocess-src-header-v0-stats-cut-dyn986.log").sink();
    assertEquals(List.of(9L), run.c.rejects.stream().map(r -> r.lineNo()).toList());
    assertTrue(run.c.rejects.get(0).reason().startsWith("truncated: a stats line"), run.c.rejects.get(0).reason());
    RecordingSink kvbm = read("93-dynamo-kvbm-rust-slot-lines-among-apiserver-dyn4087.log").sink();
    assertEquals(List.of(16), kvbm.stats.stream().map(x -> x.running).toList());
    assertEquals(List.of(), kvbm.requests);
    RecordingSink trt = read("94-dynamo16-trtllm13rc25-decode-worker-startup-srtslurm.log").sink();
    assertEquals(List.of("version 1.3.0rc25"), trt.events.stream().map(e -> e[1] + " " + e[2]).toList());
    assertEquals(List.of(), read("96-ps-router-routing-health-scrape-access-ps428.log").sink().requests);

    // constructed: the same real lines interleaved with an engine's (README.md there)
    PinnedExcerpts mixed = new PinnedExcerpts(Path.of("src/test/resources/constructed/router-interleaved"), "routers",
        Instant.parse("2026-06-30T00:00:00Z"));
    mixed.assertAccounts(Map.of("sglang-batches-among-sgl-router-lines.log", "sglang-log 10 4 6 0",
        "vllm-requests-among-router-lines.log", "vllm-log 14 5 9 0",
        // an EPP's JSON lines first: the text lines after them are a log (was "cannot tell")
        "vllm-requests-after-epp-json-lines.log", "vllm-log 10 5 5 0"));
    RecordingSink sgl = mixed.read("sglang-batches-among-sgl-router-lines.log").sink();
    assertEquals(List.of(8192, 8192, 4096), sgl.steps.stream().map(x -> x.ctxTokens).toList());
    RecordingSink vllm = mixed.read("vllm-requests-among-router-lines.log").sink();
    assertEquals(List.of("chatcmpl-a269fdcb7c6ce890 200"),
        vllm.requests.stream().map(r -> r.requestId + " " + r.httpStatus).toList());
    RecordingSink epp = mixed.read("vllm-requests-after-epp-json-lines.log").sink();
    assertEquals(List.of("chatcmpl-a269fdcb7c6ce890 200"),
        epp.requests.stream().map(r -> r.requestId + " " + r.httpStatus).toList());
  }

  /**
   * A traceback right after uvicorn's "Exception in ASGI application" is a request's error, not
   * the engine's crash; a time of day alone before a stats line is peeled (no date: no time).
   */
  @Test
  void requestTracebacksAreNoCrashAndTimeOfDayStatsAreRead() throws IOException {
    assertEquals(List.of(), read("24-router-asgi-traceback-models-500-ps490.log").sink().events);
    assertEquals(List.of(), read("25-disagg-proxy-asgi-traceback-post-500-aibrix1357.log").sink().events);
    EngineStatsRecord kv = read("27-kv-transfer-metrics-nixl-3sources.log").sink().stats.get(1);
    assertEquals(Map.of("kv_num_successful_transfers", 2.0, "kv_avg_xfer_time_ms", 63.33, "kv_p90_xfer_time_ms", 66.245,
        "kv_avg_post_time_ms", 9.647, "kv_p90_post_time_ms", 11.595, "kv_avg_mb_per_transfer", 15.75,
        "kv_throughput_mb_s", 248.699, "kv_avg_number_of_descriptors", 56.0), Map.copyOf(kv.extras));
    assertEquals("APIServer pid=388692", kv.instance);
    RecordingSink src = read("26-src-only-header-stats-mmcache-hekmon.log").sink();
    assertEquals(List.of(52, 61, 35, 59), src.stats.stream().map(x -> x.running).toList());
    assertEquals(0.09, src.stats.get(0).extras.get("mm_cache_hit_rate"), 1e-9);
    RecordingSink s = read("23-hhmmss-only-stats-dev15830-vllm41081.log").sink();
    assertEquals(List.of(2, 11, 11), s.stats.stream().map(x -> x.running).toList());
    assertEquals(2598.6, s.stats.get(0).promptTokensPerS);
    assertEquals(0.969, s.stats.get(0).prefixHitRate, 1e-9);
  }

  /**
   * SGLang's forward count ("Decode batch [42], …") is the step's iter; --log-requests-format
   * json's events are requests; a crash keeps its TP rank.
   */
  @Test
  void sglangForwardItersAndTheCrashedRank() throws IOException {
    RecordingSink s = read("sgl-forward-iters-bracket-npu-doc.log").sink();
    assertEquals(List.of(10L, 42L, 82L), s.steps.subList(0, 3).stream().map(x -> x.iter).toList());
    assertEquals(1, s.steps.get(0).ctxRequests);
    assertEquals(128, s.steps.get(0).ctxTokens);
    assertEquals(1, s.steps.get(1).genRequests);
    RecordingSink j = read("sgl-log-requests-json-diffusion-pr23049.log").sink();
    RequestRecord r = j.request("ff61568f-f577-468f-afde-ea1aab475acc");
    assertEquals(2876.824, r.e2eMs, 0.001);
    // the events' own timestamps (1 µs), not the header's second
    assertEquals(Instant.parse("2026-06-30T09:15:47.282730Z"), Instant.EPOCH.plusNanos(r.arrivalNs));
    assertEquals(Instant.parse("2026-06-30T09:15:50.214678Z"), Instant.EPOCH.plusNanos(r.finishedNs));
    RecordingSink c = read("sgl-v054-prefill-tp7-crash-i12567.log").sink();
    assertEquals("TP7", c.events.get(0)[3]);
    assertEquals("crash", c.events.get(0)[1]);
  }

  /**
   * Crash logs with nothing else (a traceback, Triton failing to load a model) are recognised and
   * their crashes kept: a post-mortem's first file is often one of these.
   */
  @Test
  void crashOnlyLogsKeepTheirCrashes() throws IOException {
    RecordingSink v = read("10-compose-enginecore-dp0-traceback-ascend4256.log").sink();
    // one failed start, one crash: the engine core's traceback (cut before its exception line);
    // the API server's, ending in "RuntimeError: Engine core initialization failed.", is the same
    // failed start told again (it was a second crash)
    assertEquals(List.of("4 crash Traceback (most recent call last):"),
        v.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2]).toList());
    RecordingSink t = read("trt-triton-glog-load-failed-backend118.log").sink();
    assertEquals(1, t.events.size());
    assertEquals("crash", t.events.get(0)[1]);
    assertTrue(t.events.get(0)[2].startsWith("failed to load 'tensorrt_llm' version 1: Internal: unexpected error"),
        t.events.get(0)[2]);
    // glog's "E1114 17:20:34.602463": month and day without a year (the file's date, 2026-06-30, is
    // earlier in the year: the November before), local time to the microsecond
    assertEquals(Instant.parse("2025-11-14T17:20:34.602463Z"), Instant.EPOCH.plusNanos(Long.parseLong(t.events.get(0)[4])));
    RecordingSink q = read("trt-triton-glog-quoted-shutdown-trtllm10450.log").sink();
    assertEquals("crash error: creating server: Internal - failed to load all models",
        q.events.get(0)[1] + " " + q.events.get(0)[2]);
  }

  /**
   * --explain lists lines that hold a kind's words under a header no prefix knows (a fork's own
   * logging format), so a user sees why they were not read; lines about nothing stay unlisted.
   */
  @Test
  void explainListsKindLinesUnderAnUnknownHeader() throws IOException {
    String file = "sgl-v05-customfmt-dp-ep-antgroup-pr4.log";
    var f = (dev.tokentime.formats.spec.SpecFormat) FORMATS.byId("sglang-log");
    var stats = EXCERPTS.explain(f, file);
    assertEquals(5, stats.unmatchedLogLines);
    assertTrue(stats.unmatchedExamples.get(0).startsWith("1: 2025-10-29 02:27:35 INFO 8900 [ DP15 TP15 EP15"),
        stats.unmatchedExamples.get(0));
    String plain = "Loading safetensors checkpoint shards: 100% Completed\nsome text about nothing\n";
    var none = f.explain(new ByteArrayInputStream(plain.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        EXCERPTS.context("plain.log"), new RecordingSink());
    assertEquals(0, none.unmatchedLogLines);
  }

  /**
   * Triton's Python models (the TensorRT-LLM BLS, pre- and postprocessing) log a request's error
   * with its traceback under their own glog source ("E1206 10:58:56.559834 61613 model.py:345]
   * Traceback …") and answer that request with it; the server goes on serving. It was a crash.
   */
  @Test
  void aTritonPythonModelsRequestTracebackIsNoCrash() throws IOException {
    String file = "105-triton-trtllm-bls-model-py-request-traceback-backend193.log";
    RecordingSink s = new RecordingSink();
    FORMATS.byId("trtllm-log").parse(java.nio.file.Files.newInputStream(FIELD.resolve(file)), EXCERPTS.context(file), s);
    assertEquals(List.of(), s.events.stream().map(e -> e[1] + " " + e[2]).toList());
    assertEquals(List.of(), s.requests);
    // the C++ runtime's own traceback-less errors and a traceback under another glog source stay crashes
    RecordingSink t = new RecordingSink();
    String other = "E1206 10:58:56.559834 61613 pb_stub.cc:345] Traceback (most recent call last):\n"
        + "RuntimeError: stub died\n";
    FORMATS.byId("trtllm-log").parse(new ByteArrayInputStream(other.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        EXCERPTS.context("other.log"), t);
    assertEquals(List.of("crash RuntimeError: stub died"), t.events.stream().map(e -> e[1] + " " + e[2]).toList());
  }

  /**
   * A line wrapped right after a list's comma lost the space after it (a paste keeps no trailing
   * whitespace): joined as "16384,#cached-token: 0", the cached tokens were one item with the new
   * tokens and were dropped. The space is put back between the pieces.
   */
  @Test
  void aWrapAfterACommaKeepsTheFieldAfterIt() throws IOException {
    var s = read("106-sgl-pd-prefill-dp-tp-ep-wrapped-after-comma-srtslurm-doc-codeidx22165919356.log").sink().steps;
    assertEquals(1, s.size());
    var p = s.get(0);
    assertEquals(List.of("DP0", 0, 18, 16384, 0, 0, 0.0), List.<Object>of(p.instance, p.rank, p.ctxRequests, p.ctxTokens,
        p.running, p.waiting, p.kvUsage));
    assertEquals(0.0, p.extras.get("cached_tokens"), "was missing: joined into #new-token's item");
    // the third piece goes on the second's trailing comma: the PD queues and the throughput (an
    // other line before: the two pieces joined already ended whole at "#queue-req: 0,")
    assertEquals(Map.of("cached_tokens", 0.0, "prealloc_req", 0.0, "inflight_req", 0.0, "input_tokens_per_s", 0.0),
        p.extras.entrySet().stream().filter(e -> !e.getKey().startsWith("decode_log"))
            .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
  }

  /** SGLang and Triton/TensorRT-LLM lines of versions not pinned before, read right when found. */
  @Test
  void sglangAndTritonExcerptsReadByValue() throws IOException {
    // 2024-11, 0.3.x: "Prefill batch. …, cache hit rate: 0.00%, …" at TP0
    var pre = read("107-sgl-2411-prefill-cache-hit-rate-tp0-sgl2255.log").sink().steps;
    assertEquals(List.of(List.of(2, 2048, 2048.0, 0.0, 0.00, 1, 30), List.of(2, 2048, 2031.0, 0.0, 0.00, 2, 48),
            List.of(2, 2048, 2014.0, 0.0, 0.01, 3, 70)),
        pre.stream().map(r -> List.<Object>of(r.ctxRequests, r.ctxTokens, r.extras.get("cached_tokens"),
            r.extras.get("cache_hit_rate"), r.kvUsage, r.running, r.waiting)).toList());
    assertEquals(List.of(0, 0, 0), pre.stream().map(r -> r.rank).toList());
    assertEquals(Instant.parse("2024-11-29T10:28:25Z"), Instant.EPOCH.plusNanos(pre.get(0).tsNs));
    // a PD decode server's line with spec decoding: its queues (prealloc, transfer, retracted) in extras
    var d = read("110-sgl-pd-decode-spec-prealloc-transfer-retracted-headerless-codeidx55838197638.log").sink().steps.get(0);
    assertEquals(List.of(1, 0, 0.01), List.<Object>of(d.genRequests, d.waiting, d.kvUsage));
    assertEquals(Map.of("kv_tokens", 41536.0, "spec_accept_len", 2.20, "spec_accept_rate", 0.73, "pre_allocated_usage", 0.0,
            "prealloc_req", 0.0, "transfer_req", 1.0, "retracted_req", 0.0, "gen_tokens_per_s", 0.40),
        d.extras.entrySet().stream().filter(e -> !e.getKey().startsWith("decode_log"))
            .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    // trtllm-serve's disaggregated proxy (1.3 dev, 2026-05): "[E] [serve   ] Internal server error:  Traceback …"
    // then the 500: one failed request carrying the ValueError, ready twice, no crash
    RecordingSink px = read("108-trt-13dev-disagg-proxy-serve-tag-internal-error-traceback-500-codeidx56537573517.log").sink();
    assertEquals(List.of("ready All servers are ready", "ready Application startup complete"),
        px.events.stream().map(e -> e[1] + " " + e[2]).toList());
    assertEquals(1, px.requests.size());
    RequestRecord r = px.requests.get(0);
    assertEquals(List.of("error", 500), List.<Object>of(r.status, r.httpStatus));
    assertTrue(r.error.endsWith("ValueError: Context server returned 4 choices, expecting 1."), r.error);
    assertEquals(Instant.parse("2026-05-19T14:25:08Z"), Instant.EPOCH.plusNanos(r.finishedNs));
    // Triton 24.02's TensorRT-LLM backend start-up: its JSON warnings are other lines; version and config kept
    RecordingSink t = read("109-trt-triton-2402-backend-startup-json-warnings-mpi-rank-backend396.log").sink();
    assertEquals(List.of("version 0.8.0", "config MPI size: 4, rank: 0", "config Rank 0 is using GPU 0",
            "config TRTGptModel maxNumSequences: 1", "config TRTGptModel maxBatchSize: 1"),
        t.events.stream().map(e -> e[1] + " " + e[2]).toList());
  }

  /**
   * SGLang 2026's PD prefill server (ai-dynamo/nixl#1983): "Unexpected transfer worker error for
   * room …" and the traceback Python's logger.exception writes under it, without the header, are
   * the transfer worker's caught error (it fails the room's request and runs on), not a crash;
   * before, the bare traceback was a crash event. The prefill lines' 2026 fields are read by value.
   */
  @Test
  void aTransferWorkersCaughtErrorIsNoCrash() throws IOException {
    RecordingSink s = read("111-sgl-2026-pd-prefill-bootstrap-req-mfu-fwd-occupancy-nan-nixl-transfer-worker-traceback-nixl1983.log").sink();
    assertEquals(0, s.events.size(), s.events.stream().map(e -> e[1] + " " + e[2]).toList().toString());
    assertEquals(1, s.requests.size());
    RequestRecord r = s.requests.get(0);
    assertEquals(List.of("a04107cc-ff53-49ba-b428-03eb77df5cd5", "error"), List.of(r.requestId, r.status));
    assertEquals(List.of(List.of(1, 64, 0, 0, 0.00, 10048.0, 0.0, 1.0, 178.18, 9.90),
            List.of(2, 20224, 0, 7, 0.01, 0.0, 0.0, 2.0, 192.82, 11.68)),
        s.steps.stream().map(x -> List.<Object>of(x.ctxRequests, x.ctxTokens, x.running, x.waiting, x.kvUsage,
            x.extras.get("cached_tokens"), x.extras.get("bootstrap_req"), x.extras.get("inflight_req"),
            x.extras.get("input_tokens_per_s"), x.extras.get("est_prefill_tflops_s_per_gpu"))).toList());
    // "fwd occupancy: nan%" (the device timer's window not yet full) is no figure
    assertTrue(s.steps.stream().noneMatch(x -> x.extras.containsKey("fwd_occupancy")), s.steps.get(0).extras.toString());
    assertEquals(Instant.parse("2026-07-21T08:06:26Z"), Instant.EPOCH.plusNanos(s.steps.get(1).tsNs));
    // pasted without headers (llm-d/llm-d#2433, SGLang 0.5.16): the same traceback is no crash either
    assertEquals(0, read("112-sgl-0516-headerless-pd-transfer-worker-traceback-prefill-failed-no-room-llmd2433.log")
        .sink().events.size());
  }

  /** V1's SpecDecoding line names no engine: it is the engine's whose stats line came just before. */
  @Test
  void specDecodingRowsShareTheirEnginesInstance() throws IOException {
    for (String file : List.of("07-apiserver-specdecode-club3090-93.log",
        "12-compose-apiserver-stats-specdecode-strixhalo73.log", "19-compose-single1-request-finished-syvai147.log")) {
      List<EngineStatsRecord> s = read(file).sink().stats;
      assertEquals(1, s.stream().map(r -> r.instance).distinct().count(), file + ": " + s.stream().map(r -> r.instance).toList());
      assertTrue(s.get(0).instance.endsWith("Engine 000"), s.get(0).instance);
    }
  }

  /** The access line's 404s after their ERROR lines: failed requests of their own (vLLM 0.8). */
  @Test
  void errorAccessLinesAreFailedRequests() throws IOException {
    List<RequestRecord> r = read("05-bare-v1-404-vllm15018.log").sink().requests;
    assertEquals(List.of("http-404-line-9 error 404", "http-404-line-11 error 404"),
        r.stream().map(x -> x.requestId + " " + x.status + " " + x.httpStatus).toList());
  }
}
