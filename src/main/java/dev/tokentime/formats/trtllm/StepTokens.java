package dev.tokentime.formats.trtllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import java.util.Arrays;
import java.util.Map;

/**
 * The per-step times of {@code time_breakdown_metrics} (TensorRT-LLM PR #11340, 2026): one entry of
 * {@code step_metrics} per generation step, whose {@code token_time} (else
 * {@code prev_batch_token_time}, written under the overlap scheduler) is when the step's token was
 * ready — TensorRT-LLM's only server-side per-token times. Context chunks
 * ({@code ctx_chunk_metrics}) produce no token but the first; they are counted in extras.
 */
final class StepTokens {
  private StepTokens() {}

  /**
   * The token time of each generation step, in order. A first step whose token time equals the
   * request's first token is that token (not a second one). Steps without a token time are skipped.
   */
  static long[] read(JsonNode breakdown, String path, long firstToken, String prefix,
      Map<String, String> extras) throws PeerJson.Bad {
    JsonNode chunks = breakdown.get("ctx_chunk_metrics");
    if (chunks != null && chunks.isArray()) {
      extras.put(prefix + "ctx_chunks", Integer.toString(chunks.size()));
    }
    for (String k : new String[] {"ctx_gpu_forward_time", "ctx_gpu_sample_time"}) {
      if (breakdown.hasNonNull(k) && breakdown.get(k).isNumber()) {
        extras.put(prefix + k, breakdown.get(k).asText());
      }
    }
    JsonNode steps = breakdown.get("step_metrics");
    if (steps == null || steps.isNull()) {
      return new long[0];
    }
    if (!steps.isArray()) {
      throw new PeerJson.Bad(path + "step_metrics: expected an array");
    }
    extras.put(prefix + "steps", Integer.toString(steps.size()));
    long[] out = new long[steps.size()];
    int n = 0;
    long prev = firstToken;
    for (int i = 0; i < steps.size(); i++) {
      JsonNode s = steps.get(i);
      String at = path + "step_metrics[" + i + "].";
      if (!s.isObject()) {
        throw new PeerJson.Bad(at + ": expected an object");
      }
      long t = Fields.seconds(s, "token_time", at);
      if (t == NONE) {
        t = Fields.seconds(s, "prev_batch_token_time", at);
      }
      if (t == NONE) {
        continue;
      }
      if (n == 0 && t == firstToken) {
        continue; // the step that produced the first token
      }
      if (prev != NONE && t < prev) {
        throw new PeerJson.Bad("timestamps decrease: " + at + "token_time is before the "
            + (n == 0 ? "first token" : "previous step's"));
      }
      out[n++] = t;
      prev = t;
    }
    return Arrays.copyOf(out, n);
  }
}
