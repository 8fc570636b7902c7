package dev.tokentime.formats.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.StepRecord;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * The legacy batch-manager stats line of 2023–2024 (gptManagerBenchmark
 * {@code --log_iteration_data}, the Triton TensorRT-LLM backend at {@code --log-verbose}): one JSON
 * object with display keys ("Active Request Count", "Iteration Counter", "Scheduled Requests", ...).
 * Values may be numbers or, in the quoted form of newer Triton logs, numeric text.
 */
final class LegacyIterStats {
  private LegacyIterStats() {}

  /** Display keys that become extras, under the names the executor's JSON maps to as well. */
  private static final Map<String, String> NAMES = Map.ofEntries(
      Map.entry("Scheduled Requests", "scheduled_requests"),
      Map.entry("Max Request Count", "max_active_requests"),
      Map.entry("MicroBatch ID", "micro_batch_id"),
      Map.entry("Runtime GPU Memory Usage", "gpu_mem_bytes"),
      Map.entry("Runtime CPU Memory Usage", "cpu_mem_bytes"),
      Map.entry("Runtime Pinned Memory Usage", "pinned_mem_bytes"),
      Map.entry("Free KV cache blocks", "kv_blocks_free"),
      Map.entry("Max KV cache blocks", "kv_blocks_max"),
      Map.entry("Used KV cache blocks", "kv_blocks_used"),
      Map.entry("Tokens per KV cache block", "tokens_per_kv_block"),
      Map.entry("Reused KV cache blocks", "kv_blocks_reused"),
      Map.entry("KV cache transfer time", "kv_transfer_ms"),
      Map.entry("Request count", "kv_transfer_requests"));

  static boolean is(JsonNode node) {
    return node.has("Iteration Counter") || node.has("Active Request Count");
  }

  static void fill(JsonNode n, StepRecord s) throws PeerJson.Bad {
    Long iter = Fields.integer(n, "Iteration Counter", "");
    if (iter == null) {
      throw new PeerJson.Bad("\"Iteration Counter\" is missing");
    }
    s.iter = iter;
    s.running = Fields.count(n, "Active Request Count", "");
    s.waiting = Fields.count(n, "Waiting Requests", "");
    s.ctxRequests = Fields.count(n, "Context Requests", "");
    s.genRequests = Fields.count(n, "Generation Requests", "");
    s.paused = Fields.count(n, "Paused Requests", "");
    s.ctxTokens = Fields.count(n, "Total Context Tokens", "");
    Double fraction = Fields.number(n, "Fraction used KV cache blocks", "");
    Double used = Fields.number(n, "Used KV cache blocks", "");
    Double max = Fields.number(n, "Max KV cache blocks", "");
    s.kvUsage = fraction != null ? fraction : used != null && max != null && max > 0 ? used / max : null;
    Iterator<Map.Entry<String, JsonNode>> it = n.fields();
    while (it.hasNext()) {
      var e = it.next();
      String k = e.getKey();
      if (k.equals("Timestamp") || k.equals("Iteration Counter") || k.equals("Active Request Count")
          || k.equals("Waiting Requests") || k.equals("Context Requests")
          || k.equals("Generation Requests") || k.equals("Paused Requests")
          || k.equals("Total Context Tokens") || k.equals("Fraction used KV cache blocks")) {
        continue;
      }
      Double v = Fields.number(n, k, "");
      if (v != null && Double.isFinite(v)) {
        s.extras.put(NAMES.getOrDefault(k, snake(k)), v);
      }
    }
  }

  private static String snake(String display) {
    return display.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_|_$", "");
  }
}
