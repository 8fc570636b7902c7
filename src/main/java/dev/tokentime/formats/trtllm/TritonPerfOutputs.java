package dev.tokentime.formats.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.RequestRecord;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * A response of the Triton TensorRT-LLM backend with {@code return_perf_metrics} (the C++
 * {@code inflight_batcher_llm} model) or {@code sampling_param_return_perf_metrics} (the LLM API
 * model): output tensors {@code arrival_time_ns}, {@code first_scheduled_time_ns},
 * {@code first_token_time_ns}, {@code last_token_time_ns} — steady-clock ns since boot, written as
 * numbers, one-element tensors, or (LLM API backend) strings — and KV-cache and
 * speculative-decoding counters, kept in extras.
 */
final class TritonPerfOutputs {
  private TritonPerfOutputs() {}

  private static final Set<String> TIMES = Set.of("arrival_time_ns", "first_scheduled_time_ns",
      "first_token_time_ns", "last_token_time_ns");
  /** Outputs that are text or token lists: never extras (text only with --keep-text). */
  private static final Set<String> TEXT = Set.of("text_output", "output_ids", "output_log_probs",
      "context_logits", "generation_logits", "cum_log_probs");

  static boolean is(JsonNode node) {
    return node.has("arrival_time_ns") || node.has("first_token_time_ns");
  }

  static void fill(JsonNode node, RequestRecord req, boolean keepText) throws PeerJson.Bad {
    TimingMetrics t = new TimingMetrics();
    t.arrival = Fields.nanos(node, "arrival_time_ns", "");
    t.firstScheduled = Fields.nanos(node, "first_scheduled_time_ns", "");
    t.firstToken = Fields.nanos(node, "first_token_time_ns", "");
    t.lastToken = Fields.nanos(node, "last_token_time_ns", "");
    t.checkOrder("");
    String id = Fields.id(node, "id", "");
    if (id == null) {
      id = Fields.id(node, "request_id", "");
    }
    req.requestId = id;
    req.arrivalNs = t.arrival;
    req.queuedNs = t.arrival;
    req.scheduledNs = t.firstScheduled;
    req.firstTokenNs = t.firstToken;
    req.lastTokenNs = t.lastToken;
    req.promptTokens = Fields.count(node, "num_input_tokens", "");
    req.outputTokens = Fields.count(node, "num_output_tokens", "");
    Iterator<Map.Entry<String, JsonNode>> it = node.fields();
    while (it.hasNext()) {
      var e = it.next();
      String k = e.getKey();
      JsonNode v = e.getValue();
      while (v.isArray() && v.size() == 1) {
        v = v.get(0);
      }
      if (TIMES.contains(k) || !v.isValueNode() || v.isNull() || k.equals("id")
          || k.equals("num_input_tokens") || k.equals("num_output_tokens")) {
        continue;
      }
      if (TEXT.contains(k)) {
        if (keepText && k.equals("text_output")) {
          req.extras.put(k, v.asText());
        }
        continue;
      }
      req.extras.put(k, v.asText());
    }
  }
}
