package dev.tokentime.formats.vllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.JsonUnits;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * vllm-otlp-json: OpenTelemetry spans exported as OTLP/JSON (a collector's file exporter writes
 * one ExportTraceServiceRequest per line; a saved export may be one document). Each
 * {@code llm_request} span becomes a request row: wall-clock arrival and end from the span (ns),
 * the durations vLLM measured itself from its {@code gen_ai.latency.*} attributes (seconds →
 * ms), token counts and finish reason (vllm.md §3). Grafana Tempo hands the same OTLP out as
 * {@code {"batches": [...]}} (older: {@code instrumentationLibrarySpans}) or {@code {"trace":
 * {"resourceSpans": [...]}}}; both read the same way. Jaeger's and Zipkin's JSON are
 * {@link VllmTraceExportFormat}, which maps their spans through {@link SpanReader#toRequest}.
 */
public final class VllmOtlpJsonFormat extends NamedFormat {
  static final String SPAN_NAME = "llm_request";

  public VllmOtlpJsonFormat() {
    super("vllm-otlp-json",
        "requests",
        "vLLM OpenTelemetry llm_request spans as OTLP/JSON (file exporter: one request per line, or one document; Tempo's batches / trace answers)");
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text();
    String start = text.stripLeading();
    if (!start.startsWith("{") || !(text.contains("\"resourceSpans\"") || text.contains("\"batches\""))) {
      return 0;
    }
    return text.contains("\"llm_request\"") || text.contains("\"gen_ai.latency.") ? 90 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    SpanReader reader = new SpanReader(ctx, sink);
    return JsonUnits.read(in, sink, reader, reader.counter);
  }

  /** Walks resourceSpans → scopeSpans → spans, holding one span tree at a time. */
  static final class SpanReader implements JsonUnits.DocumentReader {
    final JsonUnits.UnitCounter counter = new JsonUnits.UnitCounter();
    private final ParseContext ctx;
    private final RecordSink sink;
    private final RequestRecord rec = new RequestRecord();
    private final int clockId;
    private final List<JsonNode> lineSpans = new ArrayList<>();
    private boolean sinkRejected;

    SpanReader(ParseContext ctx, RecordSink sink) {
      // span times are int(arrival_time * 1e9) of the frontend's wall clock
      this(ctx, sink, "vllm-otlp-json", 1);
    }

    /** For trace stores that hand the spans out in their own JSON (Jaeger, Zipkin: µs). */
    SpanReader(ParseContext ctx, RecordSink sink, String format, long resolutionNs) {
      this.ctx = ctx;
      this.sink = sink;
      this.clockId = sink.clock(new ClockSpec("wall", format + " " + ctx.sourceName(), resolutionNs, null, false));
    }

    @Override
    public boolean sinkRejected() {
      return sinkRejected;
    }

    @Override
    public boolean read(JsonParser p, long line) throws IOException, JsonUnits.BadUnit {
      lineSpans.clear();
      sinkRejected = false;
      if (p.currentToken() != JsonToken.START_OBJECT) {
        throw new JsonUnits.BadUnit("not an OTLP ExportTraceServiceRequest (a JSON object with resourceSpans)");
      }
      boolean any = topLevel(p, line);
      if (line > 0) {
        // the line form: check every span of the line, then store them, so a line is all or nothing
        List<RequestRecord> ok = new ArrayList<>();
        for (JsonNode s : lineSpans) {
          RequestRecord r = new RequestRecord();
          toRequest(s.get("span"), s.get("instance").isNull() ? null : s.get("instance").asText(), line, r);
          ok.add(r);
        }
        sinkRejected = false;
        for (RequestRecord r : ok) {
          sinkRejected |= sink.request(r, null, 0, 0) < 0;
        }
        return !ok.isEmpty();
      }
      return any;
    }

    /**
     * The fields of an export: {@code resourceSpans} (OTLP), {@code batches} (Tempo's
     * {@code /api/traces/<id>}), or either inside {@code trace} (Tempo's v2 API).
     */
    private boolean topLevel(JsonParser p, long line) throws IOException, JsonUnits.BadUnit {
      boolean any = false;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String f = p.currentName();
        p.nextToken();
        if ((f.equals("resourceSpans") || f.equals("batches")) && p.currentToken() == JsonToken.START_ARRAY) {
          while (p.nextToken() == JsonToken.START_OBJECT) {
            any |= resourceSpans(p, line);
          }
        } else if (f.equals("trace") && p.currentToken() == JsonToken.START_OBJECT) {
          any |= topLevel(p, line);
        } else {
          p.skipChildren();
        }
      }
      return any;
    }

    private boolean resourceSpans(JsonParser p, long line) throws IOException, JsonUnits.BadUnit {
      String instance = null;
      boolean any = false;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String f = p.currentName();
        p.nextToken();
        if (f.equals("resource")) {
          JsonNode res = JsonUnits.TREE.readTree(p);
          Map<String, JsonNode> attrs = attributes(res.get("attributes"));
          JsonNode name = attrs.get("service.name");
          instance = name == null ? null : name.asText();
        } else if ((f.equals("scopeSpans") || f.equals("instrumentationLibrarySpans"))
            && p.currentToken() == JsonToken.START_ARRAY) {
          while (p.nextToken() == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String g = p.currentName();
              p.nextToken();
              if (g.equals("spans") && p.currentToken() == JsonToken.START_ARRAY) {
                while (p.nextToken() == JsonToken.START_OBJECT) {
                  JsonNode span = JsonUnits.TREE.readTree(p);
                  any |= span(span, instance, line, p);
                }
              } else {
                p.skipChildren();
              }
            }
          }
        } else {
          p.skipChildren();
        }
      }
      return any;
    }

    /** One span: in the document form it is a unit (a record, an other unit or a reject). */
    private boolean span(JsonNode span, String instance, long line, JsonParser p) throws JsonUnits.BadUnit {
      boolean ours = SPAN_NAME.equals(span.path("name").asText());
      if (line > 0) {
        if (ours) {
          var holder = JsonUnits.TREE.createObjectNode();
          holder.set("span", span);
          holder.put("instance", instance);
          lineSpans.add(holder);
          // validate now so the line is rejected before anything of it is stored
          toRequest(span, instance, line, new RequestRecord());
        }
        return ours;
      }
      counter.units++;
      if (!ours) {
        sink.otherLine();
        return false;
      }
      long at = p.currentLocation().getLineNr();
      try {
        rec.reset();
        toRequest(span, instance, at, rec);
      } catch (JsonUnits.BadUnit e) {
        sink.reject(at, e.getMessage(), null, 0, 0);
        return false;
      }
      if (sink.request(rec, null, 0, 0) >= 0) {
        sink.record(); // else the sink rejected it (a duplicate id) and counted it
      }
      return true;
    }

    void toRequest(JsonNode span, String instance, long line, RequestRecord r) throws JsonUnits.BadUnit {
      Map<String, JsonNode> a = attributes(span.get("attributes"));
      JsonNode id = a.get("gen_ai.request.id");
      if (id == null || id.asText().isEmpty()) {
        throw new JsonUnits.BadUnit("llm_request span without gen_ai.request.id");
      }
      r.lineNo = line;
      r.run = ctx.defaultRun();
      r.requestId = id.asText();
      r.engine = "vllm";
      r.instance = instance;
      r.clockId = clockId;
      r.arrivalNs = nanos(span, "startTimeUnixNano");
      r.finishedNs = nanos(span, "endTimeUnixNano");
      r.queueMs = ms(a, "gen_ai.latency.time_in_queue");
      r.ttftMs = ms(a, "gen_ai.latency.time_to_first_token");
      r.prefillMs = ms(a, "gen_ai.latency.time_in_model_prefill");
      r.decodeMs = ms(a, "gen_ai.latency.time_in_model_decode");
      r.e2eMs = ms(a, "gen_ai.latency.e2e");
      // vLLM measures TTFT and E2E on the frontend's wall clock from the same arrival the span
      // starts at (vllm.md §3), so first and last token are that arrival plus those durations
      if (r.arrivalNs != NONE && r.ttftMs != null) {
        r.firstTokenNs = r.arrivalNs + Math.round(r.ttftMs * 1e6);
      }
      if (r.arrivalNs != NONE && r.e2eMs != null) {
        long last = r.arrivalNs + Math.round(r.e2eMs * 1e6);
        if (r.finishedNs == NONE || last <= r.finishedNs) {
          r.lastTokenNs = last;
        }
      }
      if (r.firstTokenNs != NONE && r.lastTokenNs != NONE && r.lastTokenNs < r.firstTokenNs) {
        r.lastTokenNs = NONE;
      }
      if (r.arrivalNs != NONE && r.finishedNs != NONE && r.finishedNs < r.arrivalNs) {
        throw new JsonUnits.BadUnit("span " + r.requestId + " ends before it starts");
      }
      r.promptTokens = integer(a, "gen_ai.usage.prompt_tokens");
      r.outputTokens = integer(a, "gen_ai.usage.completion_tokens");
      JsonNode reasons = a.get("gen_ai.response.finish_reasons");
      if (reasons != null) {
        r.finishReason = firstReason(reasons.asText());
      }
      int statusCode = span.path("status").path("code").asInt(0);
      r.status = statusCode == 2 || "STATUS_CODE_ERROR".equals(span.path("status").path("code").asText())
          ? "error" : "abort".equals(r.finishReason) ? "cancelled" : "ok";
      for (String k : new String[] {"gen_ai.latency.time_in_model_inference",
          "gen_ai.latency.time_in_scheduler", "gen_ai.latency.time_in_model_forward",
          "gen_ai.latency.time_in_model_execute"}) {
        Double v = ms(a, k);
        if (v != null) {
          r.extras.put(k.substring("gen_ai.latency.".length()) + "_ms", trim(v));
        }
      }
      for (String k : new String[] {"gen_ai.response.model", "gen_ai.request.max_tokens",
          "gen_ai.request.temperature", "gen_ai.request.top_p", "gen_ai.request.n",
          "gen_ai.usage.num_sequences"}) {
        JsonNode v = a.get(k);
        if (v != null) {
          r.extras.put(k, v.asText());
        }
      }
      String trace = span.path("traceId").asText("");
      if (!trace.isEmpty()) {
        r.extras.put("trace_id", trace);
      }
    }

    private static String firstReason(String json) {
      String s = json.strip();
      try {
        JsonNode n = JsonUnits.TREE.readTree(s);
        if (n.isArray() && n.size() > 0) {
          return n.get(0).asText();
        }
        return n.isTextual() ? n.asText() : s;
      } catch (IOException e) {
        return s;
      }
    }

    private static long nanos(JsonNode span, String field) throws JsonUnits.BadUnit {
      JsonNode v = span.get(field);
      if (v == null || v.isNull()) {
        return NONE;
      }
      try {
        long ns = v.isNumber() ? v.asLong() : Long.parseLong(v.asText());
        return ns == 0 ? NONE : ns;
      } catch (NumberFormatException e) {
        throw new JsonUnits.BadUnit(field + ": expected integer nanoseconds, got " + v);
      }
    }

    private static Double ms(Map<String, JsonNode> a, String key) throws JsonUnits.BadUnit {
      JsonNode v = a.get(key);
      if (v == null) {
        return null;
      }
      double s;
      try {
        s = v.isNumber() ? v.asDouble() : Double.parseDouble(v.asText());
      } catch (NumberFormatException e) {
        throw new JsonUnits.BadUnit(key + ": expected seconds, got " + v);
      }
      if (Double.isNaN(s) || Double.isInfinite(s) || s < 0) {
        throw new JsonUnits.BadUnit(key + ": expected seconds, got " + v);
      }
      return s * 1000.0;
    }

    private static Integer integer(Map<String, JsonNode> a, String key) throws JsonUnits.BadUnit {
      JsonNode v = a.get(key);
      if (v == null) {
        return null;
      }
      try {
        long n = v.isNumber() ? v.asLong() : Long.parseLong(v.asText());
        if (n < 0 || n > Integer.MAX_VALUE) {
          throw new NumberFormatException();
        }
        return (int) n;
      } catch (NumberFormatException e) {
        throw new JsonUnits.BadUnit(key + ": expected a token count, got " + v);
      }
    }

    /** OTLP attributes ({@code [{key, value: {stringValue|intValue|doubleValue|…}}]}) by key. */
    static Map<String, JsonNode> attributes(JsonNode list) {
      Map<String, JsonNode> out = new LinkedHashMap<>();
      if (list == null || !list.isArray()) {
        return out;
      }
      for (JsonNode kv : list) {
        JsonNode value = kv.path("value");
        var it = value.fields();
        if (it.hasNext()) {
          out.put(kv.path("key").asText(), it.next().getValue());
        }
      }
      return out;
    }

    private static String trim(double v) {
      return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
  }
}
