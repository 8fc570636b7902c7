package dev.tokentime.formats.peers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * NVIDIA Dynamo's request trace ({@code DYN_REQUEST_TRACE}): JSON lines of schema
 * {@code dynamo.request.trace.v1}, bare or in the recorder's envelope {@code {timestamp, event}},
 * plain or as gzip segments. A {@code request_end} record is one request as the frontend's
 * {@code RequestTracker} measured it: the wall-clock receive time in epoch ms and durations from
 * it on the frontend's monotonic clock. Tool and payload records are other lines.
 *
 * <p>The records have no per-token times: the first token and the end are placed at receive +
 * {@code ttft_ms} and receive + {@code total_time_ms}; the figures are kept as reported too.
 */
public final class DynamoRequestTraceFormat extends NamedFormat {

  /** The schema names: the request trace's, and the agent trace's it was renamed from (same record). */
  static final Set<String> SCHEMAS = Set.of("dynamo.request.trace.v1", "dynamo.agent.trace.v1");

  private static final Pattern SCHEMA_VALUE =
      Pattern.compile("\"schema\"\\s*:\\s*\"dynamo\\.(?:request|agent)\\.trace\\.v1\"");

  public DynamoRequestTraceFormat() {
    super("dynamo-request-trace",
        "runs, requests",
        "NVIDIA Dynamo request trace (dynamo.request.trace.v1 JSON lines): one request_end record per request");
  }

  @Override
  public int sniff(Sample sample) {
    List<String> lines = sample.firstLines(3);
    if (lines.isEmpty() || !lines.get(0).startsWith("{")) {
      return 0;
    }
    // the schema string as a value of "schema", on the first line: no other JSON has it (Dynamo
    // writes it compact; a copy through jq or Python's json spaces it)
    return SCHEMA_VALUE.matcher(lines.get(0)).find() ? 93 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    RequestRecord req = new RequestRecord();
    int clockId = sink.clock(new ClockSpec("wall", "Dynamo frontend wall clock, Unix epoch ms ("
        + folder(ctx.sourceName()) + ")", 1_000_000L, null, false));
    return PeerJson.objectLines(in, sink, (lineNo, node, buf, off, len) -> {
      JsonNode event = node;
      if (!node.has("schema") && node.path("event").isObject()) {
        event = node.get("event"); // the recorder's envelope {timestamp, event}
      }
      String schema = event.path("schema").asText("");
      if (!SCHEMAS.contains(schema)) {
        throw new PeerJson.Bad("not a dynamo.request.trace.v1 record (schema "
            + PeerJson.quote(event.path("schema").toString()) + ")");
      }
      if (!"request_end".equals(event.path("event_type").asText(""))) {
        sink.otherLine(); // tool_start / tool_end / tool_error / request_payload
        return;
      }
      read(req, ctx, clockId, lineNo, node, event);
      String range = Checked.requestProblem(req);
      if (range != null) {
        throw new PeerJson.Bad(range);
      }
      if (sink.request(req, buf, off, len) >= 0) {
        sink.record();
      }
    });
  }

  /** Request fields read into columns (the rest go to extras as written). */
  private static final Set<String> READ = Set.of("request_id", "request_received_ms", "ttft_ms",
      "total_time_ms", "avg_itl_ms", "prefill_wait_time_ms", "prefill_time_ms", "input_tokens",
      "output_tokens", "cached_tokens", "finish_reason_metadata", "worker", "replay", "kv_hit_rate",
      "queue_depth", "kv_transfer_estimated_latency_ms");

  private static void read(RequestRecord req, ParseContext ctx, int clockId, long lineNo,
      JsonNode envelope, JsonNode event) throws PeerJson.Bad {
    req.reset();
    req.lineNo = lineNo;
    req.run = ctx.defaultRun();
    req.clockId = clockId;
    req.engine = "dynamo";
    req.status = "ok"; // the record carries no error: a dropped stream is traced like a finished one
    JsonNode r = event.get("request");
    if (r == null || !r.isObject()) {
      throw new PeerJson.Bad("request_end without a request object");
    }
    JsonNode id = r.get("request_id");
    if (id == null || !id.isTextual() || id.asText().isEmpty()) {
      throw new PeerJson.Bad("request.request_id is missing");
    }
    req.requestId = id.asText();

    Long receivedMs = wholeMs(r, "request_received_ms");
    Long eventMs = wholeMs(event, "event_time_unix_ms");
    req.ttftMs = duration(r, "ttft_ms");
    req.e2eMs = duration(r, "total_time_ms");
    req.tpotMs = duration(r, "avg_itl_ms"); // (finish - first token) / (output tokens - 1)
    Double waitMs = duration(r, "prefill_wait_time_ms");
    req.prefillMs = duration(r, "prefill_time_ms");
    if (receivedMs != null) {
      req.arrivalNs = Checked.msToNs("request.request_received_ms", receivedMs);
      if (waitMs != null) {
        // receive to dispatch for prefill: parse, tokenize, route and admission in one, so a
        // scheduled time with no queued time (no pre-queue / queue split)
        req.scheduledNs = Checked.addNs("request.prefill_wait_time_ms", req.arrivalNs,
            Checked.msToNs("request.prefill_wait_time_ms", waitMs));
      }
      if (req.ttftMs != null) {
        req.firstTokenNs = Checked.addNs("request.ttft_ms", req.arrivalNs,
            Checked.msToNs("request.ttft_ms", req.ttftMs));
      }
      if (req.e2eMs != null) {
        req.finishedNs = Checked.addNs("request.total_time_ms", req.arrivalNs,
            Checked.msToNs("request.total_time_ms", req.e2eMs));
      } else if (eventMs != null && eventMs >= receivedMs) {
        req.finishedNs = Checked.msToNs("event_time_unix_ms", eventMs); // stamped at the end
      }
    } else if (eventMs != null) {
      req.finishedNs = Checked.msToNs("event_time_unix_ms", eventMs);
    }
    if (req.ttftMs != null && req.e2eMs != null && req.e2eMs < req.ttftMs) {
      throw new PeerJson.Bad("timestamps decrease: total_time_ms (" + req.e2eMs
          + ") is less than ttft_ms (" + req.ttftMs + ")");
    }

    req.promptTokens = count(r, "input_tokens");
    JsonNode replay = r.get("replay");
    if (replay != null && replay.isObject()) {
      if (req.promptTokens == null) {
        req.promptTokens = count(replay, "input_length");
      }
      Integer block = count(replay, "trace_block_size");
      if (block != null) {
        req.extras.put("trace_block_size", block.toString());
      }
    }
    req.outputTokens = count(r, "output_tokens");
    req.cachedTokens = count(r, "cached_tokens");
    Double hit = number(r, "kv_hit_rate");
    String p = Checked.shareProblem("request.kv_hit_rate", hit);
    if (p != null) {
      throw new PeerJson.Bad(p);
    }
    if (hit != null) {
      req.extras.put("kv_hit_rate", r.get("kv_hit_rate").asText());
    }
    Integer depth = count(r, "queue_depth");
    if (depth != null) {
      req.extras.put("queue_depth", depth.toString());
    }
    Double kvMs = duration(r, "kv_transfer_estimated_latency_ms");
    if (kvMs != null) {
      req.extras.put("kv_transfer_estimated_latency_ms", r.get("kv_transfer_estimated_latency_ms").asText());
    }
    if (waitMs != null) {
      req.extras.put("prefill_wait_time_ms", r.get("prefill_wait_time_ms").asText());
    }
    JsonNode fin = r.path("finish_reason_metadata");
    if (fin.isObject()) {
      String reason = fin.path("finish_reason").asText(null);
      if (reason != null && !reason.isEmpty()) {
        req.finishReason = reason;
      }
      flatten("", fin, "finish_reason", req);
    }
    JsonNode worker = r.path("worker");
    if (worker.isObject()) {
      flatten("", worker, null, req);
    }
    Iterator<Map.Entry<String, JsonNode>> it = r.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      if (v != null && !v.isNull() && !READ.contains(e.getKey())) {
        req.extras.put(e.getKey(), v.isValueNode() ? v.asText() : v.toString());
      }
    }
    JsonNode agent = event.path("agent_context");
    if (agent.isObject()) {
      flatten("agent_context.", agent, null, req);
    }
    if (envelope != event && envelope.hasNonNull("timestamp")) {
      req.extras.put("trace_timestamp_ms", envelope.get("timestamp").asText());
    }
  }

  private static void flatten(String prefix, JsonNode obj, String skip, RequestRecord req) {
    Iterator<Map.Entry<String, JsonNode>> it = obj.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      if (v != null && !v.isNull() && !e.getKey().equals(skip)) {
        req.extras.put(prefix + e.getKey(), v.isValueNode() ? v.asText() : v.toString());
      }
    }
  }

  private static Double number(JsonNode o, String field) throws PeerJson.Bad {
    JsonNode v = o.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isNumber()) {
      throw new PeerJson.Bad("request." + field + ": expected a number, got " + PeerJson.quote(v.toString()));
    }
    return v.asDouble();
  }

  private static Double duration(JsonNode o, String field) throws PeerJson.Bad {
    Double ms = number(o, field);
    String p = Checked.durationProblem("request." + field, ms);
    if (p != null) {
      throw new PeerJson.Bad(p);
    }
    return ms;
  }

  private static Long wholeMs(JsonNode o, String field) throws PeerJson.Bad {
    JsonNode v = o.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0) {
      throw new PeerJson.Bad(field + ": expected epoch milliseconds, got " + PeerJson.quote(v.toString()));
    }
    String p = Checked.timestampProblem(field, v.asLong() <= Long.MAX_VALUE / 1_000_000L
        ? v.asLong() * 1_000_000L : -1);
    if (p != null) {
      throw new PeerJson.Bad(field + ": " + v.asText() + " ms is not a time between 1990 and 2100");
    }
    return v.asLong();
  }

  private static Integer count(JsonNode o, String field) throws PeerJson.Bad {
    JsonNode v = o.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < 0) {
      throw new PeerJson.Bad(field + ": expected a count, got " + PeerJson.quote(v.toString()));
    }
    return v.asInt();
  }

  private static String folder(String sourceName) {
    if (sourceName.equals("-")) {
      return "standard input";
    }
    try {
      Path parent = Path.of(sourceName).toAbsolutePath().normalize().getParent();
      return parent == null ? sourceName : parent.toString();
    } catch (InvalidPathException e) {
      return sourceName;
    }
  }
}
