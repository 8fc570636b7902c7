package dev.tokentime.formats.trtllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import java.util.Map;

/**
 * One server's view of a request: the C++ {@code RequestPerfMetrics} as the LLM API and
 * {@code trtllm-serve} export it ({@code timing_metrics}, {@code first_iter}/{@code last_iter},
 * {@code kv_cache_metrics}, {@code speculative_decoding}), with the per-step times of newer
 * releases ({@code time_breakdown_metrics.step_metrics}) when the record carries them.
 */
final class WorkerPerf {
  String requestId;
  TimingMetrics timing;
  Long firstIter;
  Long lastIter;
  /** Token times of the generation steps (ns), in order; empty when the record has none. */
  long[] stepTokens = new long[0];
  /** Whether speculative decoding was on (a step may then emit several tokens). */
  boolean speculative;

  /**
   * Reads a worker record {@code {request_id, perf_metrics, time_breakdown_metrics?}} or a bare
   * {@code RequestPerfMetrics} object ({@code {timing_metrics, ...}}); extras get the fields
   * without a canonical column, keys prefixed.
   */
  static WorkerPerf read(JsonNode worker, String path, String prefix, Map<String, String> extras)
      throws PeerJson.Bad {
    WorkerPerf w = new WorkerPerf();
    JsonNode perf = Fields.object(worker, "perf_metrics", path);
    String perfPath = path + "perf_metrics.";
    if (perf == null) {
      perf = worker; // a bare RequestPerfMetrics
      perfPath = path;
    }
    w.requestId = Fields.id(worker, "request_id", path);
    JsonNode timing = Fields.object(perf, "timing_metrics", perfPath);
    if (timing == null) {
      throw new PeerJson.Bad(perfPath + "timing_metrics is missing");
    }
    w.timing = TimingMetrics.seconds(timing, perfPath + "timing_metrics.");
    w.timing.extras(prefix, extras);
    w.firstIter = Fields.integer(perf, "first_iter", perfPath);
    w.lastIter = Fields.integer(perf, "last_iter", perfPath);
    Long iter = Fields.integer(perf, "iter", perfPath);
    if (iter != null) {
      extras.put(prefix + "iter", Long.toString(iter));
    }
    Fields.scalars(Fields.object(perf, "kv_cache_metrics", perfPath), prefix + "kv_cache.", extras);
    JsonNode spec = Fields.object(perf, "speculative_decoding", perfPath);
    Fields.scalars(spec, prefix + "spec_decoding.", extras);
    Long drafts = Fields.integer(spec, "total_draft_tokens", perfPath + "speculative_decoding.");
    w.speculative = drafts != null && drafts > 0;
    for (String k : new String[] {"ctx_request_id", "disagg_request_id", "status"}) {
      String v = Fields.id(worker, k, path);
      if (v != null) {
        extras.put(prefix + k, v);
      }
    }
    // newer releases put the breakdown beside perf_metrics, the first ones inside it
    JsonNode breakdown = Fields.object(worker, "time_breakdown_metrics", path);
    String breakdownPath = path + "time_breakdown_metrics.";
    if (breakdown == null) {
      breakdown = Fields.object(perf, "time_breakdown_metrics", perfPath);
      breakdownPath = perfPath + "time_breakdown_metrics.";
    }
    if (breakdown == null && perf.has("step_metrics")) {
      breakdown = perf;
      breakdownPath = perfPath;
    }
    if (breakdown != null) {
      w.stepTokens = StepTokens.read(breakdown, breakdownPath, w.timing.firstToken, prefix, extras);
    }
    return w;
  }

  /** The token times of the request: the first token, then one per generation step. */
  long[] tokenTimes() {
    if (timing.firstToken == NONE) {
      return stepTokens;
    }
    long[] out = new long[stepTokens.length + 1];
    out[0] = timing.firstToken;
    System.arraycopy(stepTokens, 0, out, 1, stepTokens.length);
    return out;
  }
}
