package dev.tokentime.formats.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.StepRecord;
import java.util.Iterator;
import java.util.Map;

/**
 * The executor's {@code IterationStats} JSON (C++ {@code JsonSerialization}; what
 * {@code trtllm-serve /metrics} returns, gptManagerBenchmark logs and trtllm-bench's
 * {@code --iteration_log} writes as a Python dict) as a steps row. In-flight batching counts come
 * from {@code inflightBatchingStats}, static batching from {@code staticBatchingStats}; the KV
 * cache's used/max blocks give {@code kv_usage}. Every other number is kept in extras: the common
 * ones under the names the three TRT-LLM sources share (docs/formats.md), the rest under their
 * dotted JSON path.
 */
final class ExecutorIterStats {
  private ExecutorIterStats() {}

  /** Extras names shared with the legacy key set and print_iter_log. */
  private static final Map<String, String> NAMES = Map.ofEntries(
      Map.entry("inflightBatchingStats.numScheduledRequests", "scheduled_requests"),
      Map.entry("staticBatchingStats.numScheduledRequests", "scheduled_requests"),
      Map.entry("inflightBatchingStats.microBatchId", "micro_batch_id"),
      Map.entry("kvCacheStats.usedNumBlocks", "kv_blocks_used"),
      Map.entry("kvCacheStats.maxNumBlocks", "kv_blocks_max"),
      Map.entry("kvCacheStats.freeNumBlocks", "kv_blocks_free"),
      Map.entry("kvCacheStats.tokensPerBlock", "tokens_per_kv_block"),
      Map.entry("kvCacheStats.reusedBlocks", "kv_blocks_reused"),
      Map.entry("kvCacheStats.cacheHitRate", "kv_cache_hit_rate"),
      Map.entry("gpuMemUsage", "gpu_mem_bytes"),
      Map.entry("cpuMemUsage", "cpu_mem_bytes"),
      Map.entry("pinnedMemUsage", "pinned_mem_bytes"),
      Map.entry("maxNumActiveRequests", "max_active_requests"),
      Map.entry("numNewActiveRequests", "new_requests"),
      Map.entry("newActiveRequestsQueueLatencyMS", "new_requests_queue_latency_ms"),
      Map.entry("numCompletedRequests", "completed_requests"),
      Map.entry("hostStepTimeMS", "host_step_ms"),
      Map.entry("prevDeviceStepTimeMS", "prev_device_step_ms"),
      Map.entry("gpuForwardTimeMS", "gpu_forward_ms"));

  /** Keys that fill canonical columns (not repeated in extras). */
  private static final java.util.Set<String> COLUMNS = java.util.Set.of("iter", "iterLatencyMS",
      "numActiveRequests", "numQueuedRequests", "attentionDpRank", "rank",
      "inflightBatchingStats.numContextRequests", "inflightBatchingStats.numGenRequests",
      "inflightBatchingStats.numPausedRequests", "inflightBatchingStats.numCtxTokens",
      "staticBatchingStats.numContextRequests", "staticBatchingStats.numCtxTokens",
      "staticBatchingStats.numGenTokens");

  static boolean is(JsonNode node) {
    return node.has("iter") && (node.has("iterLatencyMS") || node.has("inflightBatchingStats")
        || node.has("kvCacheStats") || node.has("numActiveRequests") || node.has("timestamp"));
  }

  /** Fills the step (already reset; lineNo, clock and timestamp are the caller's). */
  static void fill(JsonNode n, StepRecord s) throws PeerJson.Bad {
    Long iter = Fields.integer(n, "iter", "");
    if (iter == null) {
      throw new PeerJson.Bad("iter is missing");
    }
    s.iter = iter;
    s.durationMs = Fields.number(n, "iterLatencyMS", "");
    s.running = Fields.count(n, "numActiveRequests", "");
    s.waiting = Fields.count(n, "numQueuedRequests", "");
    // "rank" (PR #13221, TLLM_METRICS_ALL_RANKS=1 under attention DP): rank 0 gathers every TP
    // rank's IterationStats and tags each with the rank it came from, one record per (iteration,
    // rank); each rank has its own scheduler, batch and KV cache, so it is the record's lane, as
    // attentionDpRank is where a build tags records by attention-DP rank (#13649). Under attention
    // DP the two are one number; where both are there and differ, attentionDpRank is kept aside.
    Integer gathered = Fields.count(n, "rank", "");
    Integer dpRank = Fields.count(n, "attentionDpRank", "");
    s.rank = gathered != null ? gathered : dpRank;
    if (gathered != null && dpRank != null && !gathered.equals(dpRank)) {
      s.extras.put("attention_dp_rank", dpRank.doubleValue());
    }
    JsonNode ifb = Fields.object(n, "inflightBatchingStats", "");
    JsonNode sb = Fields.object(n, "staticBatchingStats", "");
    if (ifb != null) {
      String p = "inflightBatchingStats.";
      s.ctxRequests = Fields.count(ifb, "numContextRequests", p);
      s.genRequests = Fields.count(ifb, "numGenRequests", p);
      s.paused = Fields.count(ifb, "numPausedRequests", p);
      s.ctxTokens = Fields.count(ifb, "numCtxTokens", p);
    } else if (sb != null) {
      String p = "staticBatchingStats.";
      s.ctxRequests = Fields.count(sb, "numContextRequests", p);
      Integer scheduled = Fields.count(sb, "numScheduledRequests", p);
      if (scheduled != null && s.ctxRequests != null) {
        s.genRequests = scheduled - s.ctxRequests;
      }
      s.ctxTokens = Fields.count(sb, "numCtxTokens", p);
      s.genTokens = Fields.count(sb, "numGenTokens", p);
    }
    JsonNode kv = Fields.object(n, "kvCacheStats", "");
    Double used = Fields.number(kv, "usedNumBlocks", "kvCacheStats.");
    Double max = Fields.number(kv, "maxNumBlocks", "kvCacheStats.");
    if (used != null && max != null && max > 0) {
      s.kvUsage = used / max;
    }
    extras(n, "", s.extras);
  }

  /** Every number of the record (booleans as 0/1) outside the canonical columns. */
  private static void extras(JsonNode obj, String prefix, Map<String, Double> out) {
    Iterator<Map.Entry<String, JsonNode>> it = obj.fields();
    while (it.hasNext()) {
      var e = it.next();
      String key = prefix + e.getKey();
      JsonNode v = e.getValue();
      if (v.isObject()) {
        extras(v, key + ".", out);
      } else if (v.isArray()) {
        out.put(key + ".count", (double) v.size()); // requestStats: one entry per request
      } else if (key.equals("schedulerMode") && v.isTextual()) {
        // 2026: "overlap" (iterLatencyMS then spans about two loops: hostStepTimeMS is one loop's
        // cost) or "non_overlap"; another word is no known mode
        switch (v.asText()) {
          case "overlap" -> out.put("overlap_scheduler", 1.0);
          case "non_overlap" -> out.put("overlap_scheduler", 0.0);
          default -> { }
        }
      } else if ((v.isNumber() || v.isBoolean()) && !COLUMNS.contains(key)) {
        double d = v.isBoolean() ? (v.asBoolean() ? 1 : 0) : v.asDouble();
        if (Double.isFinite(d)) {
          out.put(NAMES.getOrDefault(key, key), d);
        }
      }
    }
  }

}
