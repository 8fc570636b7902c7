package dev.tokentime.formats.trtllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * trtllm-bench's per-request records ({@code --request_json}: a JSON array of
 * {@code RequestRecord.model_dump()} with the output text and token count added). Its timestamps
 * are the benchmark's own {@code time.perf_counter_ns()} (a monotonic client clock, ns), taken in
 * its async loop; its computed figures (TTFT, end-to-end latency, inter-token latency, generation
 * time, all ns) are kept as the durations it reported. Counted in records (array elements).
 */
public final class BenchRequestsFormat extends NamedFormat {
  /** Fields with a canonical column, or text: not copied to extras. */
  private static final Set<String> MAPPED = Set.of("id", "num_input_tokens", "start_timestamp",
      "first_token_timestamp", "end_timestamp", "output_tokens", "num_output_tokens", "output",
      "output_text", "tokens", "time_to_first_token", "end_to_end_latency", "intertoken_latency",
      "generation_time", "error_tokens");

  public BenchRequestsFormat() {
    super("trtllm-bench-requests",
        "requests",
        "trtllm-bench --request_json: per-request times on the benchmark's perf_counter clock");
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text().stripLeading();
    if (!text.startsWith("[") && !text.startsWith("{")) {
      return 0;
    }
    return text.contains("\"start_timestamp\"") && text.contains("\"end_timestamp\"")
        && (text.contains("\"decode_iteration\"") || text.contains("\"num_input_tokens\"")) ? 92 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    RequestRecord req = new RequestRecord();
    int clockId = sink.clock(new ClockSpec("client", "trtllm-bench time.perf_counter_ns (monotonic) ("
        + ctx.sourceName() + ")", 1, null, false));
    long[] index = {0};
    return new JsonRecordReader("expected a request record").read(in, sink,
        (node, lineNo, raw, off, len) -> {
          long i = index[0]++;
          try {
            fill(node, req, ctx, clockId, lineNo, i);
          } catch (PeerJson.Bad e) {
            sink.reject(lineNo, "[" + i + "]: " + e.getMessage(), raw, off, len);
            return;
          }
          if (sink.request(req, raw, off, len) >= 0) {
            sink.record();
          }
        });
  }

  private static void fill(JsonNode n, RequestRecord req, ParseContext ctx, int clockId, long lineNo,
      long index) throws PeerJson.Bad {
    req.reset();
    req.lineNo = lineNo;
    req.run = ctx.defaultRun();
    req.clockId = clockId;
    req.engine = "trtllm-bench";
    Long id = Fields.integer(n, "id", "");
    req.requestId = id == null || id < 0 ? "#" + index : Long.toString(id);
    req.arrivalNs = positive(n, "start_timestamp");
    req.firstTokenNs = positive(n, "first_token_timestamp");
    req.lastTokenNs = positive(n, "end_timestamp");
    req.finishedNs = req.lastTokenNs;
    if (req.arrivalNs == NONE || req.lastTokenNs == NONE) {
      throw new PeerJson.Bad("start_timestamp and end_timestamp are required");
    }
    if (req.firstTokenNs != NONE && (req.firstTokenNs < req.arrivalNs || req.lastTokenNs < req.firstTokenNs)
        || req.lastTokenNs < req.arrivalNs) {
      throw new PeerJson.Bad("timestamps decrease: start_timestamp <= first_token_timestamp <="
          + " end_timestamp does not hold");
    }
    Long in = Fields.integer(n, "num_input_tokens", "");
    if (in != null && in >= 0) { // -1: not set
      req.promptTokens = Fields.count(n, "num_input_tokens", "");
    }
    req.outputTokens = Fields.count(n, n.has("output_tokens") ? "output_tokens" : "num_output_tokens", "");
    Long errors = Fields.integer(n, "error_tokens", "");
    req.status = errors != null && errors > 0 ? "error" : "ok";
    if (errors != null && errors > 0) {
      req.error = "error_tokens " + errors;
    }
    req.ttftMs = ms(n, "time_to_first_token");
    req.e2eMs = ms(n, "end_to_end_latency");
    req.tpotMs = ms(n, "intertoken_latency");
    req.decodeMs = ms(n, "generation_time");
    if (ctx.keepText() && n.hasNonNull("output")) {
      req.extras.put("output", n.get("output").asText());
    }
    Iterator<Map.Entry<String, JsonNode>> it = n.fields();
    while (it.hasNext()) {
      var e = it.next();
      if (!MAPPED.contains(e.getKey()) && e.getValue().isValueNode() && !e.getValue().isNull()) {
        req.extras.put(e.getKey(), e.getValue().asText());
      }
    }
  }

  /** A perf_counter_ns reading; -1 (or 0) is trtllm-bench's "not set". */
  private static long positive(JsonNode n, String field) throws PeerJson.Bad {
    Long v = Fields.integer(n, field, "");
    return v == null || v <= 0 ? NONE : v;
  }

  private static Double ms(JsonNode n, String field) throws PeerJson.Bad {
    java.math.BigDecimal d = Fields.decimal(n, field, "");
    return d == null ? null : d.doubleValue() / 1e6;
  }
}
