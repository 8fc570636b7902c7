package dev.tokentime.formats.peers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.Checked;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ray-project/llmperf's two result files: {@code *_individual_responses.json}, a JSON array of
 * per-request figures (durations in seconds, no timestamps), and {@code *_summary.json}, one flat
 * object of run statistics ({@code results_<metric>_quantiles_pNN}, {@code _mean}, {@code _stddev},
 * ...) that becomes reported_metrics. Both are read as a stream. Counted in records: one per array
 * element, or one for the summary object.
 */
public final class LlmperfFormat extends NamedFormat {
  private static final Pattern QUANTILE = Pattern.compile("^results_(.+)_quantiles_(p\\d+(?:\\.\\d+)?)$");
  private static final Pattern STAT = Pattern.compile("^results_(.+)_(mean|min|max|stddev)$");

  public LlmperfFormat() {
    super("llmperf-json",
        "runs, requests, reported_metrics",
        "LLMPerf individual_responses.json (per request) and summary.json (run statistics)");
  }

  /**
   * The LLMPerf leaderboard's layout (ray-project/llmperf-leaderboard): each provider's records in
   * {@code raw_data/individual/X.json} and its statistics in {@code raw_data/summary/X.json}, of one
   * name. Both are the run {@code raw_data/X}, so its figures compare with its requests and each
   * provider is a run of its own (named by the folder alone, every provider's records were one run).
   */
  @Override
  public String runOf(java.nio.file.Path file) {
    java.nio.file.Path dir = file.getParent();
    if (dir == null || dir.getFileName() == null) {
      return null;
    }
    String folder = dir.getFileName().toString();
    if (!folder.equalsIgnoreCase("individual") && !folder.equalsIgnoreCase("summary")) {
      return null;
    }
    java.nio.file.Path up = dir.getParent();
    String stem = file.getFileName().toString().replaceFirst("(?i)(?:\\.json)?(?:\\.gz|\\.zst)?$", "");
    return (up == null || up.getFileName() == null ? "" : up.getFileName() + "/") + stem;
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text().stripLeading();
    if (text.startsWith("[")) {
      // an array of response objects, never a line that starts with a bracket (Fluent Bit's
      // "[0] tag: [[…], {"log"=>"ttft_s"…}]" around a printed summary holds the quoted names too)
      return text.substring(1).stripLeading().startsWith("{") && text.contains("\"ttft_s\"")
          && text.contains("\"end_to_end_latency_s\"") ? 90 : 0;
    }
    if (text.startsWith("{")) {
      return text.contains("\"results_ttft_s_") || text.contains("\"results_end_to_end_latency_s_")
          || responseObjects(text) ? 90 : 0;
    }
    return 0;
  }

  /**
   * Whether the text starts with a per-request response object, not a summary: the array's
   * elements pasted without their brackets ("{…},\n{…}") or one a line. Its first object holds
   * ttft_s or end_to_end_latency_s as its own key (objects of the file are flat).
   */
  static boolean responseObjects(String text) {
    int close = text.indexOf('}');
    String first = close < 0 ? text : text.substring(0, close);
    return first.contains("\"ttft_s\"") || first.contains("\"end_to_end_latency_s\"");
  }

  private static final Pattern OBJECTS_WITH_COMMAS = Pattern.compile("\\}\\s*,\\s*\\{");

  @Override
  public long parse(InputStream raw, ParseContext ctx, RecordSink sink) throws IOException {
    // the head tells a summary object from response objects without their array's brackets
    java.io.BufferedInputStream in = new java.io.BufferedInputStream(raw, 1 << 16);
    in.mark(1 << 16);
    String text = new String(in.readNBytes(1 << 16), java.nio.charset.StandardCharsets.UTF_8);
    String head = text.stripLeading();
    in.reset();
    boolean objects = head.startsWith("{") && responseObjects(head);
    InputStream source = in;
    if (objects && OBJECTS_WITH_COMMAS.matcher(head).find()) {
      // "{…},\n{…}": an array's elements whose brackets a paste left out; read as the array
      source = new java.io.SequenceInputStream(java.util.Collections.enumeration(java.util.List.of(
          new java.io.ByteArrayInputStream(new byte[] {'['}), in, new java.io.ByteArrayInputStream(new byte[] {']'}))));
    }
    try (JsonParser p = PeerJson.JSON.createParser(source)) {
      JsonToken t = PeerJson.firstToken(p, sink);
      if (t == JsonToken.NOT_AVAILABLE) {
        return 1;
      }
      if (t == JsonToken.START_ARRAY) {
        long n = individual(p, ctx, sink, false);
        // after a break inside the array, its reject already says nothing after it was read
        return n + (p.currentToken() == JsonToken.END_ARRAY ? PeerJson.trailing(p, sink, "array", "an LLMPerf file holds one") : 0);
      }
      if (t == JsonToken.START_OBJECT && objects) {
        return individual(p, ctx, sink, true); // one response object after another, no commas
      }
      if (t == JsonToken.START_OBJECT) {
        JsonNode s = PeerJson.whole(p, sink);
        if (s == null) {
          return 1;
        }
        if (gathered(s)) {
          // summaries a script gathered into one object keyed by their concurrency
          // (philschmid/llmperf-bench: {"1": {…summary…}, "2": …}): a run each, as a file of
          // several runs names them; an entry that is no summary is a reject of its own, a
          // value that is no object (a "model" name beside them) is the file's metadata
          long n = 0;
          int runs = 0;
          for (Iterator<Map.Entry<String, JsonNode>> it = s.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isObject()) {
              continue;
            }
            String run = runs == 0 ? ctx.defaultRun() : ctx.defaultRun() + "#" + (runs + 1);
            int kept = summary(e.getValue(), run, "entry \"" + e.getKey() + "\": ", sink, key -> 1);
            if (kept >= 0) {
              runs++;
            }
            n += 1 + Math.max(kept, 0);
          }
          return n + PeerJson.trailing(p, sink, "object", "an LLMPerf file holds one");
        }
        // a summary is one object over many lines (indent=4): a figure's reject names its key's line
        java.util.function.ToLongFunction<String> lineOf = key -> {
          int at = text.indexOf("\"" + key + "\"");
          return at < 0 ? 1 : 1 + text.substring(0, at).chars().filter(c -> c == '\n').count();
        };
        int kept = summary(s, ctx.defaultRun(), "", sink, lineOf);
        return 1 + Math.max(kept, 0) + PeerJson.trailing(p, sink, "summary object", "an LLMPerf file holds one");
      }
      sink.reject(1, "not an LLMPerf result: expected a JSON array or object", null, 0, 0);
      return 1;
    }
  }

  /**
   * The responses: the elements of the array the parser is in, or with {@code rootObjects} the
   * objects at the top level, the parser on the first one's start.
   */
  private static long individual(JsonParser p, ParseContext ctx, RecordSink sink, boolean rootObjects)
      throws IOException {
    RequestRecord req = new RequestRecord();
    return PeerJson.elements(p, sink, rootObjects, (r, index, line) -> {
      response(req, r, index, line, ctx);
      if (sink.request(req, null, 0, 0) >= 0) {
        sink.record();
      }
    });
  }

  private static void response(RequestRecord req, JsonNode r, int index, long line, ParseContext ctx)
      throws PeerJson.Bad {
    if (!r.isObject()) {
      throw new PeerJson.Bad("expected an object");
    }
    req.reset();
    req.lineNo = line;
    req.run = ctx.defaultRun();
    req.requestId = Integer.toString(index);
    req.engine = "llmperf";
    JsonNode code = r.get("error_code");
    boolean failed = code != null && !code.isNull();
    req.status = failed ? "error" : "ok";
    if (failed) {
      int c = code.asInt(0);
      if (c >= 100 && c <= 599) {
        req.httpStatus = c;
      }
      String msg = r.path("error_msg").asText("");
      req.error = "error_code " + code.asText() + (msg.isEmpty() ? "" : ": " + msg);
    }
    req.ttftMs = seconds(r, "ttft_s");
    req.e2eMs = seconds(r, "end_to_end_latency_s");
    Double itl = seconds(r, "inter_token_latency_s");
    if (itl != null) {
      req.extras.put("inter_token_latency_ms", Double.toString(itl));
    }
    req.outputTokens = tokens(r, "number_output_tokens");
    req.promptTokens = tokens(r, "number_input_tokens");
    JsonNode tput = r.get("request_output_throughput_token_per_s");
    if (tput != null && tput.isNumber()) {
      req.extras.put("request_output_throughput_token_per_s", tput.asText());
    }
    // a fork's (Jounce-IO/llmperf, ray-project/llmperf PRs #71, #73, #79) request_time: when the
    // request was handed to the launcher, s since the test's start (time.monotonic()); not its
    // send time (it may wait for a free client), so no arrival on a clock
    Double handed = seconds(r, "request_time");
    if (handed != null) {
      req.extras.put("request_time_s", Double.toString(handed / 1e3));
    }
    if (ctx.keepText() && r.has("generated_text")) {
      req.extras.put("generated_text", r.get("generated_text").asText());
    }
  }

  /** A duration in seconds, as ms; errored rows of some providers carry zeros (kept). */
  private static Double seconds(JsonNode r, String field) throws PeerJson.Bad {
    JsonNode v = r.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isNumber()) {
      throw new PeerJson.Bad(field + ": expected a number of seconds, got " + PeerJson.quote(v.toString()));
    }
    if (!Double.isFinite(v.asDouble())) {
      throw new PeerJson.Bad(field + ": not a finite number");
    }
    if (v.asDouble() < 0) {
      throw new PeerJson.Bad(field + ": negative duration " + v.asText());
    }
    return v.asDouble() * 1e3;
  }

  private static Integer tokens(JsonNode r, String field) throws PeerJson.Bad {
    JsonNode v = r.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    double d = v.isNumber() ? v.asDouble() : v.isTextual() ? parse(v.asText(), field) : -1;
    if (d < 0 || d != Math.rint(d) || d > Integer.MAX_VALUE) {
      throw new PeerJson.Bad(field + ": expected a token count, got " + PeerJson.quote(v.toString()));
    }
    return (int) d;
  }

  private static double parse(String s, String field) throws PeerJson.Bad {
    try {
      return Double.parseDouble(s.strip());
    } catch (NumberFormatException e) {
      throw new PeerJson.Bad(field + ": expected a token count, got " + PeerJson.quote(s));
    }
  }

  /**
   * Whether an object gathers summaries rather than being one: no {@code results_…} figure of its
   * own, and at least one object value that has one.
   */
  private static boolean gathered(JsonNode s) {
    if (hasResults(s)) {
      return false;
    }
    for (JsonNode v : s) {
      if (v.isObject() && hasResults(v)) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasResults(JsonNode o) {
    for (Iterator<String> names = o.fieldNames(); names.hasNext(); ) {
      if (names.next().startsWith("results_")) {
        return true;
      }
    }
    return false;
  }

  /**
   * One summary.json object: its figures, the run's concurrency. Every figure is gathered before
   * any is kept: an object without an LLMPerf figure, or whose level conflicts, is one reject and
   * keeps nothing. -1 when the run was not kept, else the figures rejected (each a unit of its own).
   */
  private static int summary(JsonNode s, String run, String where, RecordSink sink,
      java.util.function.ToLongFunction<String> lineOf) {
    JsonNode conc = s.get("num_concurrent_requests");
    Double level = conc != null && conc.isNumber() && conc.asDouble() > 0 ? conc.asDouble() : null;
    List<Figure> figures = new java.util.ArrayList<>();
    boolean results = false;
    Iterator<Map.Entry<String, JsonNode>> it = s.fields();
    while (it.hasNext()) {
      var e = it.next();
      String key = e.getKey();
      JsonNode v = e.getValue();
      Double value = v.isNumber() ? Double.valueOf(v.asDouble()) : v.isTextual() ? number(v.asText()) : null;
      if (value == null) {
        continue;
      }
      Matcher q = QUANTILE.matcher(key);
      Matcher m = STAT.matcher(key);
      if (q.matches()) {
        figures.add(new Figure(key, q.group(1), q.group(2), value, unitOf(q.group(1))));
        results = true;
      } else if (m.matches() && !key.endsWith("_per_min")) { // num_completed_requests_per_min is a figure, not a min
        figures.add(new Figure(key, m.group(1), m.group(2), value, unitOf(m.group(1))));
        results = true;
      } else if (key.startsWith("results_")) {
        String metric = key.substring("results_".length());
        figures.add(new Figure(key, metric, "value", value, unitOf(metric)));
        results = true;
      } else if (key.startsWith("mean_") || key.startsWith("stddev_") || key.equals("num_concurrent_requests")) {
        figures.add(new Figure(key, key, "value", value, unitOf(key)));
      }
    }
    if (!results) {
      // an object that holds no LLMPerf figure (a "results_…" key) was stored as a record of nothing
      sink.reject(1, where + "no LLMPerf figure (results_…) in the object: not a summary.json", null, 0, 0);
      return -1;
    }
    String conflict = sink.runLevel(run, level == null ? null : "concurrency", level, null, "llmperf summary");
    if (conflict != null) {
      sink.reject(1, where + conflict, null, 0, 0);
      return -1;
    }
    int bad = 0;
    for (Figure f : figures) {
      // pandas' statistics of no value (every request errored) and the sample std of one are NaN,
      // which json.dump writes as is: no figure, a reject naming it, never stored nor dropped unsaid
      String field = f.metric() + (f.stat().equals("value") ? "" : " " + f.stat());
      String problem = COUNTS.contains(f.metric()) ? Checked.countFigureProblem(field, f.value())
          : Checked.figureProblem(field, f.value(), f.unit());
      if (problem != null) {
        bad++;
        sink.reject(lineOf.applyAsLong(f.key()), where + problem + "; not kept", null, 0, 0);
      } else {
        sink.reportedMetric(run, level, f.metric(), f.stat(), f.value(), f.unit());
      }
    }
    sink.record();
    return bad;
  }

  /** The summary's counts of requests: whole numbers. */
  private static final java.util.Set<String> COUNTS = java.util.Set.of("num_requests_started", "number_errors",
      "num_completed_requests");

  private record Figure(String key, String metric, String stat, double value, String unit) {}

  private static Double number(String s) {
    try {
      return Double.parseDouble(s.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static String unitOf(String metric) {
    if (metric.endsWith("_token_per_s")) {
      return "tokens/s";
    }
    if (metric.endsWith("_per_min")) {
      return "requests/min";
    }
    // a fork's (SaharaaQuestLab/llmperf) num_completed_requests_per_sec over its overall_test_time
    if (metric.endsWith("_per_sec")) {
      return metric.contains("token") ? "tokens/s" : "requests/s";
    }
    if (metric.equals("overall_test_time")) {
      return "s";
    }
    if (metric.endsWith("_s")) {
      return "s";
    }
    if (metric.contains("tokens")) {
      return "tokens";
    }
    if (metric.endsWith("rate")) {
      return "ratio";
    }
    // num_requests_started, number_errors, num_concurrent_requests …; a fork's other figure gets no guessed unit
    return metric.startsWith("num") ? "count" : null;
  }
}
