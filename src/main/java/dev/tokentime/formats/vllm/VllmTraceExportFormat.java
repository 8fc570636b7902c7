package dev.tokentime.formats.vllm;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tokentime.formats.json.JsonUnits;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * vLLM's {@code llm_request} spans as trace stores hand them out in their own JSON, mapped
 * through the same code as vllm-otlp-json ({@link VllmOtlpJsonFormat.SpanReader#toRequest}: the
 * same attributes give the same request rows):
 *
 * <ul>
 *   <li>{@code vllm-jaeger-json}: Jaeger's export / query API ({@code {"data": [{"traceID", "spans":
 *       [{"operationName", "startTime" µs, "duration" µs, "tags": [{"key", "type", "value"}],
 *       "processID"}], "processes": {…}}]}});
 *   <li>{@code vllm-zipkin-json}: Zipkin v2 ({@code [{"traceId", "name", "timestamp" µs,
 *       "duration" µs, "localEndpoint": {"serviceName"}, "tags": {"k": "v"}}]}).
 * </ul>
 *
 * Both carry microseconds: a wall clock of 1 µs. A span is in error when its {@code
 * otel.status_code} tag is ERROR or its {@code error} tag is set. Each span is a unit (a record,
 * an other unit for spans of other names, or a reject); a document on one line is a line.
 */
public final class VllmTraceExportFormat extends NamedFormat {
  /** Which store's JSON. */
  public enum Store { JAEGER, ZIPKIN }

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private final Store store;

  public VllmTraceExportFormat(Store store) {
    super(store == Store.JAEGER ? "vllm-jaeger-json" : "vllm-zipkin-json", "requests",
        store == Store.JAEGER
            ? "vLLM llm_request spans from Jaeger's JSON export / query API ({\"data\":[{\"traceID\",\"spans\":[…]}]})"
            : "vLLM llm_request spans from Zipkin's v2 JSON ([{\"traceId\",\"name\",\"timestamp\",\"tags\":{…}}])");
    this.store = store;
  }

  public static List<InputFormat> all() {
    return List.of(new VllmTraceExportFormat(Store.JAEGER), new VllmTraceExportFormat(Store.ZIPKIN));
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text();
    String start = text.stripLeading();
    boolean ours = text.contains("\"llm_request\"") || text.contains("\"gen_ai.latency.");
    if (!ours) {
      return 0;
    }
    if (store == Store.JAEGER) {
      return start.startsWith("{") && text.contains("\"traceID\"") && text.contains("\"operationName\"") ? 90 : 0;
    }
    return start.startsWith("[") && text.contains("\"traceId\"") && text.contains("\"timestamp\"")
        && !text.contains("\"resourceSpans\"") ? 90 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    Reader reader = new Reader(ctx, sink);
    return JsonUnits.read(in, sink, reader, reader.counter);
  }

  /** Reads one trace (Jaeger) or one span (Zipkin) tree at a time. */
  private final class Reader implements JsonUnits.DocumentReader {
    final JsonUnits.UnitCounter counter = new JsonUnits.UnitCounter();
    private final RecordSink sink;
    private final VllmOtlpJsonFormat.SpanReader spans;
    private final RequestRecord rec = new RequestRecord();
    private final List<RequestRecord> lineRows = new ArrayList<>();
    private boolean sinkRejected;

    Reader(ParseContext ctx, RecordSink sink) {
      this.sink = sink;
      this.spans = new VllmOtlpJsonFormat.SpanReader(ctx, sink, id(), 1_000);
    }

    @Override
    public boolean sinkRejected() {
      return sinkRejected;
    }

    @Override
    public boolean read(JsonParser p, long line) throws IOException, JsonUnits.BadUnit {
      lineRows.clear();
      sinkRejected = false;
      if (store == Store.JAEGER) {
        if (p.currentToken() != JsonToken.START_OBJECT) {
          throw new JsonUnits.BadUnit("not a Jaeger export (a JSON object with data: [traces])");
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String f = p.currentName();
          p.nextToken();
          if (f.equals("data") && p.currentToken() == JsonToken.START_ARRAY) {
            while (p.nextToken() == JsonToken.START_OBJECT) {
              jaegerTrace(JsonUnits.TREE.readTree(p), line, p);
            }
          } else {
            p.skipChildren();
          }
        }
      } else {
        if (p.currentToken() != JsonToken.START_ARRAY) {
          throw new JsonUnits.BadUnit("not a Zipkin v2 list of spans (a JSON array)");
        }
        while (p.nextToken() == JsonToken.START_OBJECT) {
          JsonNode s = JsonUnits.TREE.readTree(p);
          ObjectNode otlp;
          try {
            otlp = zipkinSpan(s);
          } catch (JsonUnits.BadUnit e) {
            badSpan(e, line, p);
            continue;
          }
          unit(s.path("name").asText(), otlp, s.path("localEndpoint").path("serviceName").asText(null), line, p);
        }
      }
      if (line > 0) {
        for (RequestRecord r : lineRows) {
          sinkRejected |= sink.request(r, null, 0, 0) < 0;
        }
        return !lineRows.isEmpty();
      }
      return false;
    }

    private void jaegerTrace(JsonNode trace, long line, JsonParser p) throws JsonUnits.BadUnit {
      JsonNode processes = trace.path("processes");
      for (JsonNode s : trace.path("spans")) {
        JsonNode process = processes.path(s.path("processID").asText(""));
        String service = process.path("serviceName").asText(null);
        ObjectNode otlp;
        try {
          otlp = jaegerSpan(s, trace);
        } catch (JsonUnits.BadUnit e) {
          badSpan(e, line, p);
          continue;
        }
        unit(s.path("operationName").asText(), otlp, service, line, p);
      }
    }

    /** A span whose times do not read: the whole line in the line form, else a reject of its own. */
    private void badSpan(JsonUnits.BadUnit e, long line, JsonParser p) throws JsonUnits.BadUnit {
      if (line > 0) {
        throw e;
      }
      counter.units++;
      sink.reject(p.currentLocation().getLineNr(), e.getMessage(), null, 0, 0);
    }

    /** One span: its rows in the line form (all or nothing), a unit of its own in the document form. */
    private void unit(String name, ObjectNode otlp, String instance, long line, JsonParser p)
        throws JsonUnits.BadUnit {
      boolean ours = VllmOtlpJsonFormat.SPAN_NAME.equals(name);
      if (line > 0) {
        if (ours) {
          RequestRecord r = new RequestRecord();
          spans.toRequest(otlp, instance, line, r);
          lineRows.add(r);
        }
        return;
      }
      counter.units++;
      if (!ours) {
        sink.otherLine();
        return;
      }
      long at = p.currentLocation().getLineNr();
      try {
        rec.reset();
        spans.toRequest(otlp, instance, at, rec);
      } catch (JsonUnits.BadUnit e) {
        sink.reject(at, e.getMessage(), null, 0, 0);
        return;
      }
      if (sink.request(rec, null, 0, 0) >= 0) {
        sink.record();
      }
    }
  }

  /** A Jaeger span as the OTLP span toRequest reads: name, ns times, attributes, status, traceId. */
  static ObjectNode jaegerSpan(JsonNode s, JsonNode trace) throws JsonUnits.BadUnit {
    ObjectNode o = NODES.objectNode();
    o.put("name", s.path("operationName").asText());
    times(o, s.get("startTime"), s.get("duration"));
    ArrayNode attrs = o.putArray("attributes");
    boolean error = false;
    for (JsonNode t : s.path("tags")) {
      String key = t.path("key").asText();
      JsonNode v = t.get("value");
      attrs.add(attribute(key, v));
      error |= isError(key, v);
    }
    o.putObject("status").put("code", error ? 2 : 0);
    o.put("traceId", s.path("traceID").asText(trace.path("traceID").asText("")));
    return o;
  }

  /** A Zipkin v2 span likewise (its tag values are all strings). */
  static ObjectNode zipkinSpan(JsonNode s) throws JsonUnits.BadUnit {
    ObjectNode o = NODES.objectNode();
    o.put("name", s.path("name").asText());
    times(o, s.get("timestamp"), s.get("duration"));
    ArrayNode attrs = o.putArray("attributes");
    boolean error = false;
    for (var it = s.path("tags").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      attrs.add(attribute(e.getKey(), e.getValue()));
      error |= isError(e.getKey(), e.getValue());
    }
    o.putObject("status").put("code", error ? 2 : 0);
    o.put("traceId", s.path("traceId").asText(""));
    return o;
  }

  private static ObjectNode attribute(String key, JsonNode value) {
    ObjectNode a = NODES.objectNode();
    a.put("key", key);
    a.putObject("value").set("value", value == null ? NODES.nullNode() : value);
    return a;
  }

  private static boolean isError(String key, JsonNode v) {
    if (v == null) {
      return false;
    }
    return key.equals("otel.status_code") && v.asText().equalsIgnoreCase("ERROR")
        || key.equals("error") && (v.asBoolean(false) || v.asText().equalsIgnoreCase("true"));
  }

  /** Start and duration in µs (integers) as OTLP's start/end ns. */
  private static void times(ObjectNode o, JsonNode startUs, JsonNode durationUs) throws JsonUnits.BadUnit {
    if (startUs == null || startUs.isNull()) {
      return;
    }
    long start = micros(startUs, "start time");
    o.put("startTimeUnixNano", nanos(start, "start time"));
    if (durationUs != null && !durationUs.isNull()) {
      long d = micros(durationUs, "duration");
      if (d < 0) {
        throw new JsonUnits.BadUnit("span duration is negative: " + d + " µs");
      }
      o.put("endTimeUnixNano", nanos(start + d, "end time"));
    }
  }

  /** µs as ns, the line a reject when it leaves INT64 (an overflow ended the whole file before). */
  private static long nanos(long us, String what) throws JsonUnits.BadUnit {
    if (us < 0 || us > Long.MAX_VALUE / 1_000L) { // start + duration wrapped too: negative
      throw new JsonUnits.BadUnit("span " + what + " out of range: " + us + " µs does not fit a 64-bit count of ns");
    }
    return us * 1_000L;
  }

  private static long micros(JsonNode v, String what) throws JsonUnits.BadUnit {
    try {
      if (v.isIntegralNumber()) {
        return v.asLong();
      }
      return Long.parseLong(v.asText());
    } catch (NumberFormatException e) {
      throw new JsonUnits.BadUnit("span " + what + ": expected integer microseconds, got " + v);
    }
  }
}
