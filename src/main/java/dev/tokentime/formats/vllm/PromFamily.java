package dev.tokentime.formats.vllm;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Which Prometheus series belong to one serving engine and what its gauges mean: vLLM's
 * ({@code vllm:}), SGLang's ({@code sglang:}), trtllm-serve's (no prefix: {@code
 * e2e_request_latency_seconds}, …; {@code trtllm_} / {@code trtllm:} where a wrapper adds one) and
 * Triton's ({@code nv_inference_*}, {@code nv_trt_llm_*}, …). {@link VllmPrometheusFormat} reads
 * all of them the same way, through {@link PromSeries}; docs/formats.md lists each mapping.
 *
 * @param format the format id ({@code --from})
 * @param description for {@code tokentime formats}
 * @param names the series names this family owns
 * @param prefix removed from a name to make its extras name ("" when none)
 * @param gauges series name → engine_stats column
 * @param renames histogram name → the name it is stored under
 * @param textMarkers a /metrics text is this family's when it holds one of these (a sample
 *     line or a TYPE line of an owned series)
 * @param jsonMarker a Prometheus API answer is this family's when it holds this
 */
public record PromFamily(String format, String description, Pattern names, String prefix,
    Map<String, String> gauges, Map<String, String> renames, Pattern textMarkers, String jsonMarker) {

  boolean owns(String name) {
    return names.matcher(name).lookingAt();
  }

  /** vLLM (vllm.md §4): V0 and V1 names; {@code time_per_output_token} is stored as ITL. */
  public static final PromFamily VLLM = new PromFamily("vllm-prometheus",
      "vLLM Prometheus metrics: query_range/query JSON from the Prometheus API, or /metrics text scrapes",
      Pattern.compile("vllm:"), "vllm:",
      Map.ofEntries(
          Map.entry("vllm:num_requests_running", "running"),
          Map.entry("vllm:num_requests_waiting", "waiting"),
          Map.entry("vllm:num_requests_swapped", "swapped"),
          Map.entry("vllm:kv_cache_usage_perc", "kv_usage"),
          Map.entry("vllm:gpu_cache_usage_perc", "kv_usage"),
          Map.entry("vllm:gpu_prefix_cache_hit_rate", "prefix_hit_rate"),
          Map.entry("vllm:num_preemptions_total", "preemptions"),
          Map.entry("vllm:num_preemptions", "preemptions"),
          Map.entry("vllm:avg_prompt_throughput_toks_per_s", "prompt_tokens_per_s"),
          Map.entry("vllm:avg_generation_throughput_toks_per_s", "gen_tokens_per_s")),
      Map.of("vllm:time_per_output_token_seconds", "vllm:inter_token_latency_seconds"),
      // a series' name after the prefix: never the CLI's "vllm: error: …" in a server's log
      Pattern.compile("(?m)^(?:# TYPE )?vllm:[A-Za-z_]"), "\"vllm:");

  /**
   * SGLang (metrics_collector.py, {@code --enable-metrics}): the scheduler's gauges (labels
   * {@code model_name}, {@code engine_type}, and {@code tp_rank} / {@code dp_rank} /
   * {@code pp_rank} where several schedulers report) and the tokenizer's histograms (TTFT, ITL,
   * TPOT before 0.4.4 named ITL so, E2E, queue time).
   */
  public static final PromFamily SGLANG = new PromFamily("sglang-prometheus",
      "SGLang Prometheus metrics (sglang:*): query_range/query JSON from the Prometheus API, or /metrics text scrapes",
      Pattern.compile("sglang:"), "sglang:",
      Map.ofEntries(
          Map.entry("sglang:num_running_reqs", "running"),
          Map.entry("sglang:num_requests_running", "running"),
          Map.entry("sglang:num_queue_reqs", "waiting"),
          Map.entry("sglang:num_requests_waiting", "waiting"),
          Map.entry("sglang:token_usage", "kv_usage"),
          Map.entry("sglang:cache_hit_rate", "prefix_hit_rate"),
          Map.entry("sglang:gen_throughput", "gen_tokens_per_s"),
          Map.entry("sglang:num_retracted_reqs", "preemptions")),
      Map.of(),
      Pattern.compile("(?m)^(?:# TYPE )?sglang:[A-Za-z_]"), "\"sglang:");

  /**
   * trtllm-serve's {@code /prometheus/metrics} (tensorrt_llm/metrics/collector.py): request
   * histograms without a prefix, labels {@code model_name} and {@code engine_type} (often
   * {@code "undefined"}); a wrapper may prefix them {@code trtllm_} or {@code trtllm:}.
   */
  public static final PromFamily TRTLLM = new PromFamily("trtllm-prometheus",
      "trtllm-serve Prometheus metrics (/prometheus/metrics: e2e_request_latency_seconds, time_to_first_token_seconds, …)",
      Pattern.compile("(?:trtllm[_:])?(?:e2e_request_latency_seconds|time_to_first_token_seconds"
          + "|time_per_output_token_seconds|request_queue_time_seconds|request_success_total"
          + "|kv_cache_hit_rate|kv_cache_utilization|num_requests_running|num_requests_waiting)"
          + "(?:_bucket|_count|_sum|_created)?$"),
      "",
      Map.of("kv_cache_utilization", "kv_usage", "kv_cache_hit_rate", "prefix_hit_rate",
          "num_requests_running", "running", "num_requests_waiting", "waiting",
          "trtllm_kv_cache_utilization", "kv_usage", "trtllm_kv_cache_hit_rate", "prefix_hit_rate",
          "trtllm:kv_cache_utilization", "kv_usage", "trtllm:kv_cache_hit_rate", "prefix_hit_rate"),
      Map.of(),
      Pattern.compile("(?m)^(?:# TYPE )?(?:trtllm[_:])?(?:e2e_request_latency_seconds|time_to_first_token_seconds"
          + "|request_queue_time_seconds)"),
      "\"e2e_request_latency_seconds");

  /**
   * Triton Inference Server's {@code /metrics} (port 8002): per model and version, cumulative
   * counters ({@code nv_inference_request_success}, {@code _failure}, {@code nv_inference_count},
   * {@code nv_inference_exec_count}) and cumulative durations in µs ({@code
   * nv_inference_request_duration_us}, {@code _queue_duration_us}, {@code
   * _compute_{input,infer,output}_duration_us}); the pending-request gauge; the TensorRT-LLM
   * backend's {@code nv_trt_llm_*} gauges; the first-response histogram (ms).
   */
  public static final PromFamily TRITON = new PromFamily("triton-prometheus",
      "Triton Inference Server /metrics (nv_inference_* counters and durations, nv_trt_llm_* backend gauges)",
      Pattern.compile("nv_(?:inference|trt_llm|cache|gpu|cpu|energy|pinned|cuda)_"), "nv_",
      Map.of("nv_inference_pending_request_count", "waiting"),
      Map.of(),
      Pattern.compile("(?m)^(?:# TYPE )?nv_(?:inference|trt_llm)_"), "\"nv_inference_");

  /** The families besides vLLM's, each a format of its own. */
  public static List<PromFamily> others() {
    return List.of(SGLANG, TRTLLM, TRITON);
  }
}
