package dev.tokentime.formats.peers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.formats.json.ToolClocks;
import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * AIPerf's per-request records, {@code profile_export.jsonl}: one {@code MetricRecordInfo} per
 * line, {@code {metadata, metrics:{tag:{value, unit}}, error}}. Both schema generations are read:
 * the early-October-2025 one ({@code timestamp_ns}, {@code credit_phase}, tags {@code ttft} /
 * {@code ttst}) and the later one ({@code request_start_ns} / {@code request_end_ns},
 * {@code benchmark_phase}, {@code was_cancelled}, tags {@code time_to_first_token} / ...).
 *
 * <p>A record has no per-chunk timestamps, but its inter-chunk latency list does: the chunks are
 * rebuilt at start + TTFT + the running sum of the gaps, on AIPerf's wall clock (as vllm bench
 * serve's are from its ttft and itl). The record's own figures are kept as reported in the
 * {@code *_ms} columns, so a record without the list still has its TTFT and latency.
 */
public final class AiperfJsonlFormat extends NamedFormat {
  /** Where AIPerf's per-request files of one run (this and profile_export_raw.jsonl) share ids. */
  static final String ID_NAMESPACE = "aiperf";
  private static final java.util.regex.Pattern RAW =
      java.util.regex.Pattern.compile("profile_export_raw\\.jsonl(?:\\.gz|\\.zst)?");

  /** Whether profile_export_raw.jsonl beside this file gives the chunks (their measured times). */
  private final boolean chunksFromRaw;

  public AiperfJsonlFormat() {
    this(false);
  }

  private AiperfJsonlFormat(boolean chunksFromRaw) {
    super("aiperf-jsonl",
        "runs, requests, tokens",
        "AIPerf profile_export.jsonl: one record per request (metadata, metrics, error)");
    this.chunksFromRaw = chunksFromRaw;
  }

  @Override
  public String idNamespace() {
    // beside the raw file its chunk rows meet these requests by id; alone, ids are the file's own
    return chunksFromRaw ? ID_NAMESPACE : null;
  }

  @Override
  public String folderNamespace() {
    return AiperfJsonlFormat.ID_NAMESPACE;
  }

  @Override
  public InputFormat inFolder(String fileName, java.util.Set<String> folder) {
    return folder.stream().anyMatch(n -> RAW.matcher(n).matches()) ? new AiperfJsonlFormat(true) : this;
  }

  @Override
  public int sniff(Sample sample) {
    List<String> lines = sample.firstLines(3);
    if (lines.isEmpty()) {
      return 0;
    }
    String first = lines.get(0);
    if (!first.startsWith("{\"metadata\"") && !(first.startsWith("{") && first.contains("\"metadata\""))) {
      return 0;
    }
    boolean ids = first.contains("\"x_request_id\"") || first.contains("\"record_processor_id\"");
    boolean metrics = first.contains("\"metrics\"");
    return ids && metrics ? 92 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    RequestRecord req = new RequestRecord();
    // shared with the server-metric scrapes AIPerf wrote into the same folder (ToolClocks)
    int clockId = sink.clock(ToolClocks.aiperf(ctx));
    return PeerJson.objectLines(in, sink, (lineNo, node, buf, off, len) ->
        record(node, req, ctx, clockId, lineNo, sink, buf, off, len, !chunksFromRaw));
  }

  /**
   * One record ({@code {metadata, metrics, …}}, as this file writes it or as the per-record CSV's
   * row is rebuilt into it) to the sink: its request, then its chunks; a bad value throws.
   */
  static void record(JsonNode node, RequestRecord req, ParseContext ctx, int clockId, long lineNo,
      RecordSink sink, byte[] buf, int off, int len) throws PeerJson.Bad {
    record(node, req, ctx, clockId, lineNo, sink, buf, off, len, true);
  }

  /** The same, the chunks rebuilt from the gaps only when {@code chunks} (no raw file gives them). */
  static void record(JsonNode node, RequestRecord req, ParseContext ctx, int clockId, long lineNo,
      RecordSink sink, byte[] buf, int off, int len, boolean chunks) throws PeerJson.Bad {
    Record r = new Record(req, ctx, clockId, lineNo);
    r.read(node);
    String range = r.tokensProblem(); // before the request: the line is one unit
    if (range != null) {
      throw new PeerJson.Bad(range);
    }
    long key = sink.request(req, buf, off, len);
    if (key >= 0) {
      if (chunks) {
        r.emitTokens(sink, key);
      }
      sink.record();
    }
  }

  /** One record's meaning: fills the request and keeps the chunk gaps to rebuild its stream. */
  static final class Record {
    final RequestRecord req;
    final ParseContext ctx;
    double[] icl;
    Double ttftMs;
    Double latencyMs;

    Record(RequestRecord req, ParseContext ctx, int clockId, long lineNo) {
      this.req = req;
      this.ctx = ctx;
      req.reset();
      req.lineNo = lineNo;
      req.run = ctx.defaultRun();
      req.clockId = clockId;
      req.engine = "aiperf";
    }

    void read(JsonNode rec) throws PeerJson.Bad {
      JsonNode meta = rec.get("metadata");
      if (meta == null || !meta.isObject()) {
        throw new PeerJson.Bad("metadata is missing (not an AIPerf record)");
      }
      metadata(meta);
      JsonNode metrics = rec.get("metrics");
      if (metrics != null && !metrics.isNull()) {
        if (!metrics.isObject()) {
          throw new PeerJson.Bad("metrics: expected an object");
        }
        metrics(metrics);
      }
      error(rec.get("error"), meta);
      JsonNode trace = rec.get("trace_data");
      if (trace != null && !trace.isNull()) {
        traceData(trace);
      }
      JsonNode spec = rec.get("spec_decode_acceptance");
      if (spec != null && !spec.isNull()) {
        specDecode(spec);
      }
      // a member later versions add, as written (nothing left out unsaid)
      Iterator<Map.Entry<String, JsonNode>> more = rec.fields();
      while (more.hasNext()) {
        Map.Entry<String, JsonNode> e = more.next();
        if (!RECORD_MEMBERS.contains(e.getKey()) && !e.getValue().isNull()) {
          req.extras.put(e.getKey(), e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString());
        }
      }
      if (req.status == null) {
        req.status = "ok";
      }
      if (req.arrivalNs != RequestRecord.NONE && req.finishedNs == RequestRecord.NONE
          && latencyMs != null) {
        req.finishedNs = req.arrivalNs + PeerJson.msToNs(latencyMs);
      }
      if (req.finishedNs != RequestRecord.NONE && req.arrivalNs != RequestRecord.NONE
          && req.finishedNs < req.arrivalNs) {
        throw new PeerJson.Bad("timestamps decrease: the request ends (" + req.finishedNs
            + ") before it starts (" + req.arrivalNs + ")");
      }
    }

    void metadata(JsonNode m) throws PeerJson.Bad {
      req.requestId = firstText(m, "x_request_id", "request_id", "session_num");
      if (req.requestId == null) {
        req.requestId = "line " + req.lineNo;
      }
      Long start = ns(m, "request_start_ns");
      if (start == null) {
        start = ns(m, "timestamp_ns");
      }
      if (start != null) {
        req.arrivalNs = start;
      }
      Long end = ns(m, "request_end_ns");
      if (end != null) {
        req.finishedNs = end;
      }
      String phase = firstText(m, "benchmark_phase", "credit_phase");
      if (phase != null) {
        // AIPerf measures only the profiling phase; anything else (warmup) is left out
        req.phase = phase.equals("profiling") ? "measure" : "warmup";
        if (!phase.equals("profiling") && !phase.equals("warmup")) {
          req.extras.put("benchmark_phase", phase);
        }
      }
      if (m.path("was_cancelled").asBoolean(false)) {
        req.status = "cancelled";
        Long at = ns(m, "cancellation_time_ns");
        if (at != null) {
          req.extras.put("cancellation_time_ns", Long.toString(at));
        }
      }
      // the rest as written (x_correlation_id, conversation_id, turn_index, worker_id,
      // request_ack_ns, and what later versions add: 0.10's credit_issued_ns, agent_depth,
      // record_processor_id), nothing left out unsaid
      String id = idField(m);
      Iterator<Map.Entry<String, JsonNode>> it = m.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        String k = e.getKey();
        JsonNode v = e.getValue();
        if (v != null && !v.isNull() && !k.equals(id) && !READ_METADATA.contains(k)) {
          req.extras.put(k, v.isValueNode() ? v.asText() : v.toString());
        }
      }
    }

    private static final java.util.Set<String> RECORD_MEMBERS =
        java.util.Set.of("metadata", "metrics", "error", "trace_data", "spec_decode_acceptance");

    /** trace_data's durations computed from its timestamps (k6/HAR names), in ns. */
    private static final java.util.Set<String> TRACE_DURATIONS = java.util.Set.of("sending_ns", "waiting_ns",
        "receiving_ns", "duration_ns", "blocked_ns", "dns_lookup_ns", "connecting_ns");

    /**
     * {@code --export-http-trace}'s {@code trace_data} (AIPerf 2026): the HTTP exchange on AIPerf's
     * wall clock. The response's status is the request's {@code http_status} (the server's, where
     * the error's code may be AIPerf's own 499); the rest is kept in extras as
     * {@code trace_data.<field>}, headers as JSON. Its {@code request_chunks} / {@code response_chunks}
     * lists (socket writes and reads, not the stream's chunks) are not kept: their counts and bytes are.
     */
    private void traceData(JsonNode t) throws PeerJson.Bad {
      if (!t.isObject()) {
        throw new PeerJson.Bad("trace_data: expected an object, got " + shown(t));
      }
      Iterator<Map.Entry<String, JsonNode>> it = t.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        String k = e.getKey();
        JsonNode v = e.getValue();
        if (v == null || v.isNull() || k.equals("request_chunks") || k.equals("response_chunks")) {
          continue;
        }
        String field = "trace_data." + k;
        if (k.equals("response_status_code")) {
          if (!v.isIntegralNumber() || v.asLong() < 100 || v.asLong() > 599) {
            throw new PeerJson.Bad(field + ": expected an HTTP status, got " + shown(v));
          }
          req.httpStatus = v.asInt();
          continue;
        }
        if (k.endsWith("_ns") || k.endsWith("_count") || k.endsWith("_total") || k.endsWith("_port")) {
          if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0) {
            throw new PeerJson.Bad(field + ": expected a whole number of at least 0, got "
                + shown(v));
          }
          String p = !k.endsWith("_ns") ? null : TRACE_DURATIONS.contains(k)
              ? dev.tokentime.ingest.Checked.durationProblem(field, v.asLong() / 1e6)
              : dev.tokentime.ingest.Checked.timestampProblem(field, v.asLong());
          if (p != null) {
            throw new PeerJson.Bad(p);
          }
        }
        req.extras.put(field, v.isValueNode() ? v.asText() : v.toString());
      }
    }

    /**
     * The engine's speculative-decoding acceptance for the request (AIPerf 2026,
     * {@code spec_decode_acceptance}): kept in extras as {@code spec_decode_acceptance.<field>}, the
     * histogram and per-step lists as JSON; a count that is no whole number of at least 0, or a
     * mean or rate that is no finite number of at least 0, rejects the record.
     */
    private void specDecode(JsonNode sd) throws PeerJson.Bad {
      if (!sd.isObject()) {
        throw new PeerJson.Bad("spec_decode_acceptance: expected an object, got " + shown(sd));
      }
      Iterator<Map.Entry<String, JsonNode>> it = sd.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        String k = e.getKey();
        JsonNode v = e.getValue();
        if (v == null || v.isNull()) {
          continue;
        }
        String field = "spec_decode_acceptance." + k;
        if (k.startsWith("num_") || k.equals("completion_tokens")) {
          if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0) {
            throw new PeerJson.Bad(field + ": expected a count, got " + shown(v));
          }
        } else if (k.equals("mean_acceptance_length") || k.equals("draft_acceptance_rate")) {
          if (!v.isNumber() || !Double.isFinite(v.asDouble()) || v.asDouble() < 0) {
            throw new PeerJson.Bad(field + ": expected a finite number of at least 0, got "
                + shown(v));
          }
        }
        req.extras.put(field, v.isValueNode() ? v.asText() : v.toString());
      }
    }

    /** A value as a reject names it: a string's text (not its JSON quotes), else its JSON. */
    private static String shown(JsonNode v) {
      return PeerJson.quote(v.isTextual() ? v.asText() : v.toString());
    }

    /** Metadata read into columns above (or its phase's, kept when not a known phase). */
    private static final java.util.Set<String> READ_METADATA = java.util.Set.of("request_start_ns", "timestamp_ns",
        "request_end_ns", "benchmark_phase", "credit_phase", "was_cancelled", "cancellation_time_ns");

    private static String idField(JsonNode m) {
      return m.hasNonNull("x_request_id") ? "x_request_id" : m.hasNonNull("request_id")
          ? "request_id" : "session_num";
    }

    private void metrics(JsonNode metrics) throws PeerJson.Bad {
      Iterator<Map.Entry<String, JsonNode>> it = metrics.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        String tag = e.getKey();
        JsonNode m = e.getValue();
        JsonNode v = m != null && m.isObject() ? m.get("value") : m;
        String unit = m != null && m.isObject() ? m.path("unit").asText("") : "";
        if (v == null || v.isNull()) {
          continue;
        }
        switch (tag) {
          case "time_to_first_token", "ttft" -> {
            req.ttftMs = ttftMs = ms(tag, v, unit);
            if (ttftMs < 0) {
              throw new PeerJson.Bad("timestamps decrease: metrics." + tag + " is negative");
            }
          }
          case "max_response_timestamp" -> req.finishedNs = (long) v.asDouble(); // old schema, ns
          case "request_latency" -> req.e2eMs = latencyMs = ms(tag, v, unit);
          case "inter_token_latency" -> req.tpotMs = ms(tag, v, unit);
          case "time_to_second_token", "ttst" -> {
            // kept as reported too: a record without the gap list has no second chunk to time
            req.extras.put(tag, v.asText());
            req.extras.put("time_to_second_token_ms", Double.toString(ms(tag, v, unit)));
          }
          case "output_sequence_length" -> req.outputTokens = count(tag, v);
          case "input_sequence_length", "error_isl" -> req.promptTokens = count(tag, v);
          case "usage_prompt_cache_read_tokens" -> {
            // the server's count of prompt tokens read from its prefix cache (usage's
            // prompt_tokens_details.cached_tokens), AIPerf 0.10
            req.cachedTokens = count(tag, v);
          }
          case "inter_chunk_latency" -> {
            if (v.isArray()) {
              icl = new double[v.size()];
              for (int i = 0; i < icl.length; i++) {
                icl[i] = ms(tag + "[" + i + "]", v.get(i), unit);
                if (icl[i] < 0) {
                  throw new PeerJson.Bad(tag + "[" + i + "]: negative gap " + v.get(i).asText());
                }
              }
            } else {
              // the two-day schema of Sept 2025 kept a per-record mean here, not the list
              req.extras.put("inter_chunk_latency_mean_ms", Double.toString(ms(tag, v, unit)));
            }
          }
          default -> req.extras.put(tag, v.isValueNode() ? v.asText() : v.toString());
        }
      }
    }

    void error(JsonNode err, JsonNode meta) {
      if (err == null || err.isNull()) {
        return;
      }
      int code = err.path("code").asInt(0);
      String type = err.path("type").asText("");
      String message = err.path("message").asText("");
      boolean cancelled = code == 499 || type.contains("Cancel")
          || meta.path("was_cancelled").asBoolean(false);
      req.status = cancelled ? "cancelled" : "error";
      req.error = type.isEmpty() ? message : message.isEmpty() ? type : type + ": " + message;
      if (code >= 100 && code <= 599) {
        req.httpStatus = code;
      }
    }

    /** Why the chunks {@link #emitTokens} would place are out of range, or null. */
    String tokensProblem() {
      if (icl == null || ttftMs == null) {
        return null;
      }
      double atMs = ttftMs;
      for (double g : icl) {
        if (!Double.isFinite(g)) {
          return "inter_chunk_latency is not a finite number: " + g;
        }
        atMs += g;
      }
      return dev.tokentime.ingest.Checked.durationProblem("time_to_first_token + inter_chunk_latency", atMs);
    }

    /** Rebuilds the chunks from TTFT and the gaps: start + TTFT, then each gap added. */
    void emitTokens(RecordSink sink, long key) {
      if (req.arrivalNs == RequestRecord.NONE || ttftMs == null || !"ok".equals(req.status)) {
        return;
      }
      int n = icl == null ? 1 : icl.length + 1;
      if (icl == null && req.outputTokens != null && req.outputTokens > 1) {
        return; // several chunks, but no gaps to place them with
      }
      boolean oneEach = req.outputTokens != null && req.outputTokens == n;
      double atMs = ttftMs;
      for (int i = 0; i < n; i++) {
        if (i > 0) {
          atMs += icl[i - 1];
        }
        sink.token(key, i, req.arrivalNs + PeerJson.msToNs(atMs), oneEach ? 1 : -1, ChunkKind.CONTENT);
      }
    }

    private static String firstText(JsonNode m, String... names) {
      for (String n : names) {
        JsonNode v = m.get(n);
        if (v != null && !v.isNull() && v.isValueNode() && !v.asText().isEmpty()) {
          return v.asText();
        }
      }
      return null;
    }

    private static Long ns(JsonNode m, String field) throws PeerJson.Bad {
      JsonNode v = m.get(field);
      if (v == null || v.isNull()) {
        return null;
      }
      if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0) {
        throw new PeerJson.Bad("metadata." + field + ": expected a timestamp in ns, got "
            + PeerJson.quote(v.toString()));
      }
      return v.asLong();
    }

    private static double ms(String tag, JsonNode v, String unit) throws PeerJson.Bad {
      if (!v.isNumber()) {
        throw new PeerJson.Bad("metrics." + tag + ": expected a number, got "
            + PeerJson.quote(v.toString()));
      }
      double x = v.asDouble();
      if (!Double.isFinite(x)) {
        throw new PeerJson.Bad("metrics." + tag + ": not a finite number");
      }
      return switch (unit) {
        case "ns" -> x / 1e6;
        case "us" -> x / 1e3;
        case "s", "sec" -> x * 1e3;
        default -> x; // ms, AIPerf's display unit
      };
    }

    private static int count(String tag, JsonNode v) throws PeerJson.Bad {
      // (int) of a double past Integer.MAX_VALUE clamps: 1e23 tokens were 2147483647 with no reject
      if (!v.isNumber() || v.asDouble() != Math.rint(v.asDouble()) || v.asDouble() < 0 || v.asDouble() > Integer.MAX_VALUE) {
        throw new PeerJson.Bad("metrics." + tag + ": expected a token count, got "
            + PeerJson.quote(v.toString()));
      }
      return (int) v.asDouble();
    }
  }
}
