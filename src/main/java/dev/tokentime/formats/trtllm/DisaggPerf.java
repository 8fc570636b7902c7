package dev.tokentime.formats.trtllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.RequestRecord;

/**
 * A disaggregated-serving record of the disagg server's {@code /perf_metrics}
 * ({@code DisaggPerfMetricsRecord}): the context server's and the generation server's own records
 * ({@code ctx_perf_metrics}, {@code gen_perf_metrics}) and the disagg server's arrival, dispatch
 * and first-token times. All are seconds of one steady clock: the servers' clocks are aligned by
 * {@code /steady_clock_offset} before they are exported.
 *
 * <p>As one request row: arrival, queue, scheduling and the first token are the context
 * server's (it runs the prefill and produces the first token), the last token and the iterations
 * the generation server's (it decodes, so {@code first_iter}/{@code last_iter} join its steps);
 * the rest is kept in extras with {@code ctx.}, {@code gen.} and {@code disagg.} prefixes.
 */
final class DisaggPerf {
  private DisaggPerf() {}

  static boolean is(JsonNode node) {
    return node.has("ctx_perf_metrics") || node.has("gen_perf_metrics")
        || node.has("disagg_server_arrival_time");
  }

  /** Fills the request; returns the generation server's step token times (may be empty). */
  static long[] fill(JsonNode node, RequestRecord req) throws PeerJson.Bad {
    JsonNode ctxNode = Fields.object(node, "ctx_perf_metrics", "");
    JsonNode genNode = Fields.object(node, "gen_perf_metrics", "");
    WorkerPerf ctx = ctxNode == null ? null : WorkerPerf.read(ctxNode, "ctx_perf_metrics.", "ctx.", req.extras);
    WorkerPerf gen = genNode == null ? null : WorkerPerf.read(genNode, "gen_perf_metrics.", "gen.", req.extras);
    long arrival = Fields.seconds(node, "disagg_server_arrival_time", "");
    long dispatch = Fields.seconds(node, "disagg_ctx_dispatch_time", "");
    long firstToken = Fields.seconds(node, "disagg_server_first_token_time", "");
    TimingMetrics.put(req.extras, "disagg.server_arrival_ns", arrival);
    TimingMetrics.put(req.extras, "disagg.ctx_dispatch_ns", dispatch);
    TimingMetrics.put(req.extras, "disagg.server_first_token_ns", firstToken);
    for (String k : new String[] {"ctx_server", "gen_server", "status"}) {
      String v = Fields.id(node, k, "");
      if (v != null) {
        req.extras.put("disagg." + k, v);
      }
    }
    String id = Fields.id(node, "disagg_request_id", "");
    if (id == null && ctx != null) {
      id = ctx.requestId;
    }
    if (id == null && gen != null) {
      id = gen.requestId;
    }
    req.requestId = id;
    req.instance = req.extras.get("disagg.gen_server");
    if (ctx != null) {
      TimingMetrics c = ctx.timing;
      req.arrivalNs = c.arrival;
      req.queuedNs = c.arrival;
      req.scheduledNs = c.firstScheduled;
      req.firstTokenNs = c.firstToken;
      TimingMetrics.put(req.extras, "ctx.last_token_ns", c.lastToken);
      if (ctx.firstIter != null) {
        req.extras.put("ctx.first_iter", Long.toString(ctx.firstIter));
      }
      if (ctx.lastIter != null) {
        req.extras.put("ctx.last_iter", Long.toString(ctx.lastIter));
      }
    }
    if (gen != null) {
      TimingMetrics g = gen.timing;
      g.allExtras("gen.", req.extras);
      req.lastTokenNs = g.lastToken;
      req.firstIter = gen.firstIter;
      req.lastIter = gen.lastIter;
      if (req.firstTokenNs == NONE) {
        req.firstTokenNs = g.firstToken; // a record without its context half
      }
    }
    if (ctx == null && gen == null) {
      throw new PeerJson.Bad("neither ctx_perf_metrics nor gen_perf_metrics is present");
    }
    if (req.firstTokenNs != NONE && req.lastTokenNs != NONE && req.lastTokenNs < req.firstTokenNs) {
      throw new PeerJson.Bad("timestamps decrease: gen_perf_metrics last_token_time is before the"
          + " context server's first_token_time");
    }
    if (gen == null || gen.stepTokens.length == 0) {
      return new long[0]; // no per-step times: the row's first and last token are all there is
    }
    long[] genTokens = gen.tokenTimes();
    if (ctx == null || ctx.timing.firstToken == NONE) {
      return genTokens;
    }
    // the context server's first token, then the generation server's own tokens
    long[] out = new long[genTokens.length + 1];
    out[0] = req.firstTokenNs;
    System.arraycopy(genTokens, 0, out, 1, genTokens.length);
    for (int i = 1; i < out.length; i++) {
      if (out[i] < out[i - 1]) {
        throw new PeerJson.Bad("timestamps decrease: gen_perf_metrics token times start before"
            + " the context server's first token");
      }
    }
    return out;
  }
}
