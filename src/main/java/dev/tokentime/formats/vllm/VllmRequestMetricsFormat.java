package dev.tokentime.formats.vllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.JsonText;
import dev.tokentime.formats.json.JsonUnits;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.LineReader;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * vllm-request-metrics: per-request figures vLLM hands back, captured one per line: a response
 * (or its final SSE chunk, {@code data: {...}}) carrying the {@code metrics} object of
 * {@code --enable-per-request-metrics}, a {@code vllm_request_metrics} object, or a printed
 * {@code RequestOutput(...)} whose {@code metrics=} is V0's {@code RequestMetrics} (wall-clock
 * epoch seconds) or V1's {@code RequestStateStats} (wall arrival, monotonic engine times, of
 * which only differences are used). vllm.md §1 and §5.
 */
public final class VllmRequestMetricsFormat extends NamedFormat {
  private static final Pattern REPR = Pattern.compile("RequestOutput\\(request_id=");
  private static final Pattern METRICS = Pattern.compile("metrics=(RequestMetrics|RequestStateStats)\\(([^()]*)\\)");
  private static final Pattern FINISH = Pattern.compile("finish_reason=([A-Za-z_]+)");
  private static final Pattern TOKEN_IDS = Pattern.compile("(?<![a-z_])token_ids=\\[([^\\]]*)\\]");
  private static final Pattern PROMPT_IDS = Pattern.compile("prompt_token_ids=\\[([^\\]]*)\\]");
  private static final Pattern METRIC_KEYS = Pattern.compile(
      "\"(?:time_to_first_token_ms|queue_time_ms|mean_itl_ms|generation_time_ms)\"|\"vllm_request_metrics\"");

  public VllmRequestMetricsFormat() {
    super("vllm-request-metrics",
        "requests",
        "vLLM per-request metrics captured as lines: responses with a metrics object, or printed RequestOutput(...metrics=...)");
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text();
    if (REPR.matcher(text).find() && METRICS.matcher(text).find()) {
      return 85;
    }
    var lines = sample.firstLines(5);
    if (lines.isEmpty()) {
      return 0;
    }
    String first = lines.get(0).startsWith("data: ") ? lines.get(0).substring(6) : lines.get(0);
    if (first.startsWith("{") && METRIC_KEYS.matcher(text).find()) {
      return 85;
    }
    return 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    int wall = sink.clock(new ClockSpec("wall", "vllm-request-metrics " + ctx.sourceName(), 1_000, null, false));
    RequestRecord rec = new RequestRecord();
    return new LineReader(in).forEach(new LineReader.Handler() {
      @Override
      public void line(long lineNo, byte[] buf, int off, int len) {
        String line;
        try {
          line = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(buf, off, len)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
          sink.reject(lineNo, "invalid UTF-8: the line is damaged", buf, off, len);
          return;
        }
        String s = line.strip();
        if (s.startsWith("data: ")) {
          s = s.substring(6).strip();
        }
        try {
          int rows;
          if (s.startsWith("{")) {
            rows = json(s, lineNo, rec, ctx, wall) ? store(rec, sink) : 0;
          } else if (REPR.matcher(s).find()) {
            rows = reprs(s, lineNo, rec, ctx, wall, sink);
          } else {
            sink.otherLine(); // blank, [DONE], a log line around the printout
            return;
          }
          if (rows > 0) {
            sink.record();
          } else if (rows == 0) {
            sink.otherLine();
          }
        } catch (Bad e) {
          sink.reject(lineNo, e.getMessage(), buf, off, len);
        } catch (JsonParseException e) {
          sink.reject(lineNo, "not valid JSON: " + JsonText.firstLine(e.getOriginalMessage()), buf, off, len);
        } catch (IOException e) {
          sink.reject(lineNo, "truncated or invalid JSON: " + JsonText.firstLine(e.getMessage()), buf, off, len);
        }
      }

      @Override
      public void tooLong(long lineNo, long length, byte[] head, int headLen) {
        sink.reject(lineNo, "line of " + length + " bytes is longer than the limit; skipped", head, 0, headLen);
      }
    });
  }

  /** 1 when stored, -1 when the sink rejected it itself (and counted it). */
  private static int store(RequestRecord rec, RecordSink sink) {
    return sink.request(rec, null, 0, 0) >= 0 ? 1 : -1;
  }

  static final class Bad extends Exception {
    Bad(String reason) {
      super(reason, null, false, false);
    }
  }

  /** A response or metrics object; false when it carries no per-request metrics. */
  static boolean json(String s, long lineNo, RequestRecord r, ParseContext ctx, int wall)
      throws IOException, Bad {
    JsonNode n = JsonUnits.TREE.readTree(s);
    if (n == null || !n.isObject()) {
      throw new Bad("not a JSON object");
    }
    JsonNode metrics = n.get("metrics");
    JsonNode rich = n.get("vllm_request_metrics");
    if ((metrics == null || !metrics.isObject()) && (rich == null || !rich.isObject())) {
      return false;
    }
    r.reset();
    r.lineNo = lineNo;
    r.run = ctx.defaultRun();
    r.engine = "vllm";
    r.clockId = wall;
    JsonNode id = n.has("id") ? n.get("id") : n.get("request_id");
    if (id == null || id.asText().isEmpty()) {
      throw new Bad("a metrics line needs the response's id (or request_id)");
    }
    r.requestId = id.asText();
    if (metrics != null && metrics.isObject()) {
      // docs/features/per_request_metrics.md: TTFT there is measured from scheduling, so it is
      // the prefill time of docs/metrics.md, not our TTFT (which starts at arrival)
      r.prefillMs = number(metrics, "time_to_first_token_ms", 1);
      r.queueMs = number(metrics, "queue_time_ms", 1);
      r.tpotMs = number(metrics, "mean_itl_ms", 1);
      extra(r, metrics, "time_to_first_content_token_ms");
      extra(r, metrics, "generation_time_ms");
      extra(r, metrics, "tokens_per_second");
    }
    if (rich != null && rich.isObject()) {
      Double q = number(rich, "queue_time_seconds", 1000);
      r.queueMs = q != null ? q : r.queueMs;
      Double p = number(rich, "prefill_time_seconds", 1000);
      r.prefillMs = p != null ? p : r.prefillMs;
      r.decodeMs = number(rich, "decode_time_seconds", 1000);
      r.ttftMs = number(rich, "time_to_first_token_seconds", 1000);
      r.e2eMs = number(rich, "e2e_latency_seconds", 1000);
      r.arrivalNs = epochNs(rich, "arrival_time_unix_seconds");
      r.finishedNs = epochNs(rich, "finished_time_unix_seconds");
      extra(r, rich, "num_preemptions");
      extra(r, rich, "inference_time_seconds");
    }
    JsonNode usage = n.path("usage");
    r.promptTokens = count(usage, "prompt_tokens");
    r.outputTokens = count(usage, "completion_tokens");
    r.cachedTokens = count(usage.path("prompt_tokens_details"), "cached_tokens");
    JsonNode choice = n.path("choices").path(0);
    if (choice.hasNonNull("finish_reason")) {
      r.finishReason = choice.get("finish_reason").asText();
    }
    r.status = "abort".equals(r.finishReason) ? "cancelled" : "ok";
    if (ctx.keepText()) {
      JsonNode msg = choice.path("message").path("content");
      if (msg.isTextual()) {
        r.extras.put("output", msg.asText());
      } else if (choice.path("text").isTextual()) {
        r.extras.put("output", choice.get("text").asText());
      }
    }
    if (n.hasNonNull("model")) {
      r.extras.put("model", n.get("model").asText());
    }
    return true;
  }

  /** Every RequestOutput(...) printed on the line; returns rows stored (-1: the sink rejected all). */
  static int reprs(String s, long lineNo, RequestRecord r, ParseContext ctx, int wall, RecordSink sink)
      throws Bad {
    Matcher at = REPR.matcher(s);
    int stored = 0;
    int refused = 0;
    int found = 0;
    while (at.find()) {
      found++;
      int next = s.indexOf("RequestOutput(request_id=", at.end());
      String one = s.substring(at.start(), next < 0 ? s.length() : next);
      repr(one, lineNo, r, ctx, wall);
      if (sink.request(r, null, 0, 0) >= 0) {
        stored++;
      } else {
        refused++;
      }
    }
    if (found == 0) {
      return 0;
    }
    return stored > 0 ? stored : refused > 0 ? -1 : 0;
  }

  static void repr(String s, long lineNo, RequestRecord r, ParseContext ctx, int wall) throws Bad {
    r.reset();
    r.lineNo = lineNo;
    r.run = ctx.defaultRun();
    r.engine = "vllm";
    r.clockId = wall;
    int idStart = "RequestOutput(request_id=".length();
    int comma = s.indexOf(',', idStart);
    r.requestId = (comma < 0 ? s.substring(idStart) : s.substring(idStart, comma)).strip();
    Matcher m = METRICS.matcher(s);
    if (!m.find()) {
      throw new Bad("RequestOutput " + r.requestId + " without metrics=RequestMetrics(...) or RequestStateStats(...)");
    }
    Map<String, Double> v = keyValues(m.group(2));
    if (m.group(1).equals("RequestMetrics")) {
      // V0: every time is wall-clock epoch seconds
      r.arrivalNs = epochNs(v.get("arrival_time"));
      r.scheduledNs = epochNs(v.get("first_scheduled_time"));
      r.firstTokenNs = epochNs(v.get("first_token_time"));
      r.finishedNs = epochNs(v.get("finished_time"));
      if (v.get("time_in_queue") != null) {
        // arrival to first scheduled: pre-queue and queue together
        r.extras.put("time_in_queue_ms", Double.toString(v.get("time_in_queue") * 1000));
      }
      if (v.get("last_token_time") != null) {
        r.extras.put("last_token_time", Double.toString(v.get("last_token_time")));
      }
      for (String k : new String[] {"scheduler_time", "model_forward_time", "model_execute_time"}) {
        if (v.get(k) != null) {
          r.extras.put(k, Double.toString(v.get(k)));
        }
      }
    } else {
      // V1: arrival is wall clock; the engine's times are monotonic: only their differences
      r.arrivalNs = epochNs(v.get("arrival_time"));
      if (v.get("first_token_latency") != null) {
        r.ttftMs = v.get("first_token_latency") * 1000;
      }
      r.queueMs = diffMs(v.get("queued_ts"), v.get("scheduled_ts"));
      r.prefillMs = diffMs(v.get("scheduled_ts"), v.get("first_token_ts"));
      r.decodeMs = diffMs(v.get("first_token_ts"), v.get("last_token_ts"));
      if (v.get("num_generation_tokens") != null) {
        r.outputTokens = (int) Math.round(v.get("num_generation_tokens"));
      }
    }
    Matcher f = FINISH.matcher(s);
    if (f.find() && !f.group(1).equals("None")) {
      r.finishReason = f.group(1);
    }
    Matcher t = TOKEN_IDS.matcher(s.substring(Math.max(0, s.indexOf("outputs="))));
    if (r.outputTokens == null && s.contains("outputs=") && t.find()) {
      r.outputTokens = VllmRequestTracker.tokenCount("[" + t.group(1) + "]");
    }
    Matcher p = PROMPT_IDS.matcher(s);
    if (p.find()) {
      r.promptTokens = VllmRequestTracker.tokenCount("[" + p.group(1) + "]");
    }
    r.status = "abort".equals(r.finishReason) ? "cancelled" : "ok";
    long[] chain = {r.arrivalNs, r.scheduledNs, r.firstTokenNs, r.finishedNs};
    long prev = NONE;
    for (long c : chain) {
      if (c != NONE && prev != NONE && c < prev) {
        throw new Bad("RequestOutput " + r.requestId + ": its metrics' timestamps decrease");
      }
      prev = c == NONE ? prev : c;
    }
  }

  private static Map<String, Double> keyValues(String s) throws Bad {
    Map<String, Double> out = new LinkedHashMap<>();
    for (String part : s.split(",")) {
      int eq = part.indexOf('=');
      if (eq < 0) {
        continue;
      }
      String k = part.substring(0, eq).strip();
      String val = part.substring(eq + 1).strip();
      if (val.equals("None") || val.equals("True") || val.equals("False")) {
        continue;
      }
      try {
        out.put(k, Double.parseDouble(val));
      } catch (NumberFormatException e) {
        throw new Bad("metrics field " + k + ": not a number: " + val);
      }
    }
    return out;
  }

  private static Double diffMs(Double from, Double to) {
    if (from == null || to == null || from <= 0 || to <= 0 || to < from) {
      return null;
    }
    return (to - from) * 1000;
  }

  private static long epochNs(Double seconds) {
    if (seconds == null || seconds <= 0) {
      return NONE;
    }
    return Math.round(seconds * 1e6) * 1000; // float epoch seconds carry about 1 µs
  }

  private static long epochNs(JsonNode n, String field) throws Bad {
    Double v = number(n, field, 1);
    return epochNs(v);
  }

  private static Double number(JsonNode n, String field, double scale) throws Bad {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isNumber()) {
      throw new Bad(field + ": expected a number, got " + v);
    }
    return v.asDouble() * scale;
  }

  private static Integer count(JsonNode n, String field) throws Bad {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.canConvertToInt() || v.asInt() < 0) {
      throw new Bad(field + ": expected a token count, got " + v);
    }
    return v.asInt();
  }

  private static void extra(RequestRecord r, JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v != null && !v.isNull()) {
      r.extras.put(field, v.asText());
    }
  }
}
