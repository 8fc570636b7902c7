package dev.tokentime.formats.peers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.formats.json.ToolClocks;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * AIPerf's raw export, {@code profile_export_raw.jsonl} ({@code --export-level raw}, 2026): one
 * {@code RawRecordInfo} per line, {@code {metadata, start_perf_ns, request_headers, status,
 * responses, error, payload}}. The metadata is the record's in {@code profile_export.jsonl} (the same
 * ids and wall-clock times); each response carries its arrival on the perf counter
 * ({@code perf_ns}, as {@code start_perf_ns}), placed on the wall clock the way AIPerf places the
 * request's end: {@code request_start_ns + (perf_ns - start_perf_ns)}.
 *
 * <p>Beside {@code profile_export.jsonl} (which AIPerf always writes with it; else beside the
 * per-record CSV) that file's records are the requests and this file gives only their chunks, met
 * by id; alone it gives the requests too (ids, times, status, error, the server's usage counts).
 */
public final class AiperfRawFormat extends NamedFormat {
  /** The files of the run that hold its requests: the JSONL, else the per-record CSV. */
  private static final Pattern RECORDS =
      Pattern.compile("profile_export(?:\\.jsonl|_records\\.csv)(?:\\.gz|\\.zst)?");
  /** Members read into columns, or not kept (the request's body and headers, the responses). */
  private static final Set<String> READ = Set.of("metadata", "start_perf_ns", "status", "responses", "error",
      "payload", "request_headers", "response_headers");

  /** Whether profile_export.jsonl beside this file gives the requests (this file their chunks). */
  private final boolean chunksOnly;

  public AiperfRawFormat() {
    this(false);
  }

  private AiperfRawFormat(boolean chunksOnly) {
    super("aiperf-raw-jsonl",
        "runs, requests, tokens",
        "AIPerf profile_export_raw.jsonl: one raw record per request (metadata, start_perf_ns, responses)");
    this.chunksOnly = chunksOnly;
  }

  @Override
  public String idNamespace() {
    return chunksOnly ? AiperfJsonlFormat.ID_NAMESPACE : null;
  }

  @Override
  public String folderNamespace() {
    return AiperfJsonlFormat.ID_NAMESPACE;
  }

  @Override
  public InputFormat inFolder(String fileName, Set<String> folder) {
    return folder.stream().anyMatch(n -> RECORDS.matcher(n).matches()) ? new AiperfRawFormat(true) : this;
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text();
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    // the first line may be longer than the sample (a long prompt): its head decides
    int nl = text.indexOf('\n');
    String first = nl < 0 ? text : text.substring(0, nl);
    return first.startsWith("{\"metadata\"") && first.contains("\"start_perf_ns\"") ? 95 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    RequestRecord req = new RequestRecord();
    // AIPerf's wall clock, the one of profile_export.jsonl and the server-metric scrapes beside it
    int clockId = sink.clock(ToolClocks.aiperf(ctx));
    return PeerJson.objectLines(in, sink, (lineNo, node, buf, off, len) ->
        record(node, req, ctx, clockId, lineNo, sink, buf, off, len));
  }

  private void record(JsonNode node, RequestRecord req, ParseContext ctx, int clockId, long lineNo,
      RecordSink sink, byte[] buf, int off, int len) throws PeerJson.Bad {
    JsonNode meta = node.get("metadata");
    if (meta == null || !meta.isObject()) {
      throw new PeerJson.Bad("metadata is missing (not an AIPerf raw record)");
    }
    AiperfJsonlFormat.Record r = new AiperfJsonlFormat.Record(req, ctx, clockId, lineNo);
    r.metadata(meta);
    if (req.arrivalNs == RequestRecord.NONE) {
      throw new PeerJson.Bad("metadata.request_start_ns is missing: the responses have no wall-clock time");
    }
    long startPerf = perfNs(node.get("start_perf_ns"), "start_perf_ns");
    JsonNode responses = node.get("responses");
    if (responses == null || responses.isNull()) {
      responses = PeerJson.TREE.createArrayNode();
    }
    if (!responses.isArray()) {
      throw new PeerJson.Bad("responses: expected a list, got " + PeerJson.quote(responses.toString()));
    }
    int n = responses.size();
    long[] ts = new long[n];
    List<String> texts = new ArrayList<>(n);
    long before = startPerf;
    for (int i = 0; i < n; i++) {
      JsonNode resp = responses.get(i);
      String field = "responses[" + i + "]";
      if (resp == null || !resp.isObject()) {
        throw new PeerJson.Bad(field + ": expected an object");
      }
      long perf = perfNs(resp.get("perf_ns"), field + ".perf_ns");
      if (perf < before) {
        throw new PeerJson.Bad("timestamps decrease: " + field + ".perf_ns (" + perf + ") is before "
            + (i == 0 ? "start_perf_ns (" : "responses[" + (i - 1) + "].perf_ns (") + before + ")");
      }
      before = perf;
      String far = Checked.durationProblem(field + ".perf_ns - start_perf_ns", (perf - startPerf) / 1e6);
      if (far != null) {
        throw new PeerJson.Bad(far);
      }
      ts[i] = req.arrivalNs + (perf - startPerf);
      texts.add(text(resp, field));
    }
    String range = Checked.tokensProblem(ts, n);
    if (range != null) {
      throw new PeerJson.Bad("responses: " + range); // before the request is stored
    }
    SseResponses chunks = SseResponses.classify(texts, "responses");
    long key;
    if (chunksOnly) {
      // profile_export.jsonl beside it holds the request (its figures, status and error)
      key = sink.requestKeyFor(req.run, req.requestId, clockId, lineNo);
    } else {
      request(node, meta, r, req, chunks, n, startPerf, ctx);
      key = sink.request(req, buf, off, len);
      if (key < 0) {
        return;
      }
    }
    for (int i = 0; i < n; i++) {
      sink.token(key, i, ts[i], -1, chunks.kinds[i]);
    }
    sink.record();
  }

  /** The request as this file alone tells it: status and error, the server's usage counts. */
  private static void request(JsonNode node, JsonNode meta, AiperfJsonlFormat.Record r, RequestRecord req,
      SseResponses chunks, int n, long startPerf, ParseContext ctx) throws PeerJson.Bad {
    r.error(node.get("error"), meta);
    JsonNode status = node.get("status");
    if (status != null && !status.isNull()) {
      if (!status.isIntegralNumber() || status.asLong() < 100 || status.asLong() > 599) {
        throw new PeerJson.Bad("status: expected an HTTP status, got " + PeerJson.quote(status.toString()));
      }
      req.httpStatus = status.asInt(); // the server's, where the error's code may be AIPerf's own
    }
    if (req.status == null) {
      if (chunks.error != null) {
        req.status = "error";
        req.error = chunks.error;
      } else if (n == 0) {
        req.status = "error";
        req.error = "no response received";
      } else {
        req.status = "ok";
      }
    }
    if (chunks.completionTokens != null) {
      req.outputTokens = chunks.completionTokens;
    }
    if (chunks.promptTokens != null) {
      req.promptTokens = chunks.promptTokens;
    }
    if (chunks.nonGenerative) {
      req.extras.put("output_kind", "none");
    }
    req.extras.put("start_perf_ns", Long.toString(startPerf));
    JsonNode payload = node.get("payload");
    if (payload != null && payload.isObject()) {
      if (payload.path("model").isTextual()) {
        req.extras.put("model", payload.get("model").asText());
      }
      if (ctx.keepText()) {
        req.extras.put("payload", payload.toString());
      }
    }
    // a member later versions add (cache_bust_marker, cache_bust_target), as written
    Iterator<Map.Entry<String, JsonNode>> more = node.fields();
    while (more.hasNext()) {
      Map.Entry<String, JsonNode> e = more.next();
      if (!READ.contains(e.getKey()) && !e.getValue().isNull()) {
        req.extras.put(e.getKey(), e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString());
      }
    }
  }

  /**
   * One response as text, the way the stream carried it: an SSE message's fields as lines
   * ({@code data: …}, {@code event: …}; ids, retries and comments carry no data and are left out),
   * a plain response's body, and nothing for a binary one.
   */
  private static String text(JsonNode resp, String field) throws PeerJson.Bad {
    JsonNode packets = resp.get("packets");
    if (packets != null && !packets.isNull()) {
      if (!packets.isArray()) {
        throw new PeerJson.Bad(field + ".packets: expected a list");
      }
      StringBuilder b = new StringBuilder();
      for (JsonNode p : packets) {
        String name = p.path("name").asText("");
        if (!name.equals("data") && !name.equals("event")) {
          continue;
        }
        JsonNode v = p.get("value");
        if (b.length() > 0) {
          b.append('\n');
        }
        b.append(name).append(": ").append(v == null || v.isNull() ? "" : v.asText());
      }
      return b.toString();
    }
    if (resp.has("text")) {
      return resp.get("text").isNull() ? "" : resp.get("text").asText();
    }
    if (resp.has("raw_bytes")) {
      return "";
    }
    throw new PeerJson.Bad(field + ": neither an SSE message (packets), a text nor a binary response");
  }

  /** A perf_counter_ns reading: a whole number above 0 (its origin is arbitrary, not the epoch). */
  private static long perfNs(JsonNode v, String field) throws PeerJson.Bad {
    if (v == null || v.isNull()) {
      throw new PeerJson.Bad(field + " is missing");
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() <= 0) {
      throw new PeerJson.Bad(field + ": expected a perf_counter reading in ns, got "
          + PeerJson.quote(v.isTextual() ? v.asText() : v.toString()));
    }
    return v.asLong();
  }
}
