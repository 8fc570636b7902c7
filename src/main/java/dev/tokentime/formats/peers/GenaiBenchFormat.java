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
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * sgl-project/genai-bench's experiment folder: one JSON file per run (a traffic scenario at one
 * concurrency or batch size, {@code D100_100_text-to-text_num_concurrency_4_time_16s.json}) holding
 * {@code aggregated_metrics} (the tool's statistics of the run: {@code stats.<metric>.{min, max,
 * mean, stddev, sum, p25 … p99}} and run figures) and {@code individual_request_metrics} (one
 * object per request: durations and token counts, no timestamps), and since September 2025
 * {@code _time_unit}, the unit of every latency in the file ("s" or "ms"; seconds before it existed).
 * The unit is written after the records, so the records are held until it is read. Counted in
 * records: one for the run's figures and one per request. The folder's {@code experiment_metadata.json} (the
 * command and settings, no measurement) is claimed only to say so.
 */
public final class GenaiBenchFormat extends NamedFormat {
  /** Request fields genai-bench converts with {@code _time_unit} (its TimeUnitConverter.LATENCY_FIELDS). */
  private static final Set<String> LATENCY = Set.of("ttft", "tpot", "e2e_latency", "output_latency");

  static final String METADATA_NOT_READ = "genai-bench's experiment_metadata.json: the experiment's command and"
      + " settings, no measurement; each run's figures and requests are in its own file beside it"
      + " (<scenario>_<task>_num_concurrency_<n>_time_<t>s.json)";

  public GenaiBenchFormat() {
    super("genai-bench-json",
        "runs, requests, reported_metrics",
        "genai-bench run files (<scenario>_<task>_num_concurrency_<n>_time_<t>s.json): the run's aggregated_metrics and its individual_request_metrics");
  }

  /** An experiment folder holds a run file per scenario and concurrency: each is a run of its own. */
  @Override
  public boolean runPerFile() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text().stripLeading();
    if (!text.startsWith("{")) {
      return 0;
    }
    if (text.contains("\"aggregated_metrics\"")
        && (text.contains("\"mean_output_throughput_tokens_per_s\"") || text.contains("\"error_codes_frequency\""))) {
      return 90;
    }
    boolean metadata = text.contains("\"benchmark_version\"") && text.contains("\"traffic_scenario\"")
        && text.contains("\"api_backend\"");
    return metadata ? 90 : 0;
  }

  @Override
  public String leaveOut(String fileName, Set<String> folder) {
    // ingested alone it is read, and rejected as what it is
    return folder.size() > 1 && fileName.toLowerCase(Locale.ROOT).startsWith("experiment_metadata")
        ? METADATA_NOT_READ : null;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    try (JsonParser p = PeerJson.JSON.createParser(in)) {
      JsonToken t = PeerJson.firstToken(p, sink);
      if (t == JsonToken.NOT_AVAILABLE) {
        return 1;
      }
      if (t != JsonToken.START_OBJECT) {
        sink.reject(1, "not a genai-bench run file: expected a JSON object", null, 0, 0);
        return 1;
      }
      Doc d = read(p);
      if (d.aggregated == null && d.metadata) {
        sink.reject(1, METADATA_NOT_READ, null, 0, 0);
        return 1 + (d.cut == null ? PeerJson.trailing(p, sink, "object", "experiment_metadata.json holds one") : 0);
      }
      if (d.cut != null && d.unit == null && (d.aggregated == null || d.aggregated.has("run_duration"))) {
        // a layout with run_duration may be in ms (since September 2025), which is said only after the records
        sink.reject(d.cutLine, d.cut + "; genai-bench writes the unit of its times (_time_unit) after the"
            + " records, so none of the run's figures or requests can be read", null, 0, 0);
        return 1;
      }
      String unit = "s"; // absent: the layout before _time_unit, or a cut file of before run_duration
      if (d.unit != null && !d.unit.isNull()) {
        if (!d.unit.isTextual() || !(d.unit.asText().equals("s") || d.unit.asText().equals("ms"))) {
          // every latency of the file is in this unit: none can be read without it
          sink.reject(d.unitLine, "_time_unit: expected \"s\" or \"ms\", got " + shown(d.unit)
              + "; no latency of the file can be read", null, 0, 0);
          return 1 + (d.cut == null ? PeerJson.trailing(p, sink, "run object", "a genai-bench run file holds one") : 0);
        }
        unit = d.unit.asText();
      }
      String run = ctx.defaultRun();
      aggregated(d.aggregated, d.aggregatedLine, run, unit, sink);
      long n = 1;
      RequestRecord req = new RequestRecord();
      double toMs = unit.equals("ms") ? 1 : 1e3;
      for (int i = 0; i < d.records.size(); i++) {
        n++;
        long line = d.recordLines.get(i);
        try {
          request(req, d.records.get(i), i, line, run, toMs, ctx);
          if (sink.request(req, null, 0, 0) >= 0) {
            sink.record();
          }
        } catch (PeerJson.Bad | NumberFormatException x) {
          sink.reject(line, "individual_request_metrics[" + i + "]: " + x.getMessage(), null, 0, 0);
        }
      }
      if (d.recordsNotArray) {
        n++;
        sink.reject(d.recordsLine, "individual_request_metrics: expected an array of request objects", null, 0, 0);
      }
      if (d.cut != null) {
        // a cut file of the layout before run_duration and _time_unit: seconds, what came before is kept
        sink.reject(d.cutLine, d.cut + " (after " + d.records.size() + " request records); nothing after this point could be read",
            null, 0, 0);
        return n + 1;
      }
      return n + PeerJson.trailing(p, sink, "run object", "a genai-bench run file holds one");
    }
  }

  /** What a run file holds, read field by field; {@code cut} the reason where the JSON broke. */
  private static final class Doc {
    JsonNode aggregated;
    long aggregatedLine = 1;
    final List<JsonNode> records = new ArrayList<>();
    final List<Long> recordLines = new ArrayList<>();
    boolean recordsNotArray;
    long recordsLine = 1;
    JsonNode unit;
    long unitLine = 1;
    boolean metadata;
    String cut;
    long cutLine = 1;
  }

  private static Doc read(JsonParser p) {
    Doc d = new Doc();
    long line = 1;
    try {
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        t = p.nextToken();
        line = PeerJson.line(p);
        if (t == null) {
          break;
        }
        switch (name) {
          case "aggregated_metrics" -> {
            d.aggregatedLine = line;
            d.aggregated = PeerJson.TREE.readTree(p);
          }
          case "individual_request_metrics" -> {
            d.recordsLine = line;
            if (t == JsonToken.START_ARRAY) {
              while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                if (t == null) {
                  throw new com.fasterxml.jackson.core.io.JsonEOFException(p, null, "end of input in the array");
                }
                line = PeerJson.line(p);
                JsonNode r = PeerJson.TREE.readTree(p);
                d.records.add(r);
                d.recordLines.add(line);
              }
            } else {
              d.recordsNotArray = t != JsonToken.VALUE_NULL;
              p.skipChildren();
            }
          }
          case "_time_unit" -> {
            d.unitLine = line;
            d.unit = PeerJson.TREE.readTree(p);
          }
          default -> {
            d.metadata |= name.equals("traffic_scenario");
            p.skipChildren();
          }
        }
      }
      if (t != JsonToken.END_OBJECT) {
        throw new com.fasterxml.jackson.core.io.JsonEOFException(p, null, "end of input in the object");
      }
    } catch (IOException e) {
      d.cut = PeerJson.reason(e);
      d.cutLine = Math.max(line, PeerJson.line(p));
    }
    return d;
  }

  /**
   * The run's own figures: its level (num_concurrency, when the run iterated over it) and every
   * number of {@code stats} and of the object itself as reported_metrics. Gathered before any is
   * kept: a missing object, a figure out of range or a level no run has is one reject that keeps
   * none. Returns the run's level, or null.
   */
  private static Double aggregated(JsonNode a, long line, String run, String timeUnit, RecordSink sink) {
    if (a == null || !a.isObject()) {
      sink.reject(line, "aggregated_metrics: expected an object (the run's statistics)", null, 0, 0);
      return null;
    }
    List<Object[]> figures = new ArrayList<>();
    String bad = null;
    for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext() && bad == null; ) {
      Map.Entry<String, JsonNode> e = it.next();
      String key = e.getKey();
      JsonNode v = e.getValue();
      if (key.equals("stats") && v.isObject()) {
        for (Iterator<Map.Entry<String, JsonNode>> m = v.fields(); m.hasNext() && bad == null; ) {
          Map.Entry<String, JsonNode> metric = m.next();
          String unit = LATENCY.contains(metric.getKey()) ? timeUnit : unitOf(metric.getKey());
          for (Iterator<Map.Entry<String, JsonNode>> s = metric.getValue().fields(); s.hasNext() && bad == null; ) {
            Map.Entry<String, JsonNode> stat = s.next();
            if (stat.getValue().isNumber()) {
              // a sum of latencies may pass 30 days where no one request does: checked as a count
              String checkUnit = stat.getKey().equals("sum") ? "" : unit;
              bad = Checked.figureProblem("stats." + metric.getKey() + "." + stat.getKey(), stat.getValue().asDouble(), checkUnit);
              if (bad == null && stat.getKey().equals("sum") && stat.getValue().asDouble() < 0) {
                bad = "stats." + metric.getKey() + ".sum out of range: " + stat.getValue().asDouble();
              }
              figures.add(new Object[] {metric.getKey(), stat.getKey(), stat.getValue().asDouble(), unit});
            } // null: no request gave the metric (audio_throughput of a text run)
          }
        }
      } else if (key.equals("error_codes_frequency") && v.isObject()) {
        for (Iterator<Map.Entry<String, JsonNode>> c = v.fields(); c.hasNext() && bad == null; ) {
          Map.Entry<String, JsonNode> code = c.next();
          bad = Checked.countProblem("error_codes_frequency." + code.getKey(), code.getValue().isNumber() ? code.getValue().numberValue() : null);
          if (bad == null && !code.getValue().isNumber()) {
            bad = "error_codes_frequency." + code.getKey() + ": expected a count, got " + shown(code.getValue());
          }
          figures.add(new Object[] {"error_count", code.getKey(), code.getValue().asDouble(), "requests"});
        }
      } else if (v.isNumber() && !key.equals("num_concurrency") && !key.equals("batch_size")) {
        String unit = LATENCY.contains(key) ? timeUnit : unitOf(key);
        bad = Checked.figureProblem(key, v.asDouble(), unit);
        figures.add(new Object[] {key, "value", v.asDouble(), unit});
      }
    }
    boolean byBatch = a.path("iteration_type").asText("num_concurrency").equals("batch_size");
    JsonNode conc = a.get("num_concurrency");
    Double level = null;
    if (bad == null && !byBatch && conc != null && conc.isNumber()) {
      bad = Checked.levelProblem("concurrency", conc.asDouble());
      if (bad == null) {
        level = conc.asDouble();
        bad = sink.runLevel(run, "concurrency", level, null, "genai-bench aggregated_metrics.num_concurrency");
      } else {
        bad = "num_concurrency: " + bad;
      }
    }
    if (bad == null && byBatch && a.path("batch_size").isNumber()) {
      // an embeddings or rerank run iterates over the batch size, no level tokentime has
      bad = Checked.countProblem("batch_size", a.get("batch_size").numberValue());
      figures.add(new Object[] {"batch_size", "value", a.get("batch_size").asDouble(), "count"});
    }
    if (bad != null) {
      sink.reject(line, "aggregated_metrics: " + bad + "; none of the run's figures kept", null, 0, 0);
      return null;
    }
    for (Object[] f : figures) {
      sink.reportedMetric(run, level, (String) f[0], (String) f[1], (Double) f[2], (String) f[3]);
    }
    sink.record();
    return level;
  }

  /** The unit of a figure genai-bench does not convert with _time_unit, by its name. */
  static String unitOf(String metric) {
    if (metric.equals("run_duration")) {
      return "s"; // end - start of the run's monotonic clock, never converted
    }
    if (metric.endsWith("_tokens_per_s") || metric.endsWith("throughput") || metric.equals("output_inference_speed")) {
      return metric.equals("audio_throughput") ? "bytes/s" : "tokens/s";
    }
    if (metric.equals("requests_per_second")) {
      return "requests/s";
    }
    if (metric.equals("requests_per_minute")) {
      return "requests/min";
    }
    if (metric.equals("mean_total_chars_per_hour")) {
      return "chars/hour";
    }
    if (metric.equals("error_rate")) {
      return "ratio";
    }
    if (metric.endsWith("_requests")) {
      return "requests";
    }
    return metric.contains("tokens") ? "tokens" : "count";
  }

  private static void request(RequestRecord req, JsonNode r, int index, long line, String run, double toMs, ParseContext ctx)
      throws PeerJson.Bad {
    if (!r.isObject()) {
      throw new PeerJson.Bad("expected an object");
    }
    req.reset();
    req.lineNo = line;
    req.run = run;
    req.requestId = Integer.toString(index);
    req.engine = "genai-bench";
    JsonNode code = r.get("error_code");
    boolean failed = code != null && !code.isNull();
    req.status = failed ? "error" : "ok";
    if (failed) {
      if (!code.isNumber()) {
        throw new PeerJson.Bad("error_code: expected a number, got " + shown(code));
      }
      int c = code.asInt();
      if (c >= 100 && c <= 599) {
        req.httpStatus = c;
      }
      String msg = r.path("error_message").isTextual() ? r.get("error_message").asText() : "";
      req.error = "error_code " + code.asText() + (msg.isEmpty() ? "" : ": " + msg);
    }
    req.ttftMs = duration(r, "ttft", toMs);
    req.e2eMs = duration(r, "e2e_latency", toMs);
    req.tpotMs = duration(r, "tpot", toMs); // (e2e - ttft) / (output tokens - 1) since 2025; 2024 files divided by the output tokens
    Double decode = duration(r, "output_latency", toMs);
    if (decode != null) {
      req.extras.put("output_latency_ms", Double.toString(decode));
    }
    req.promptTokens = tokens(r, "num_input_tokens");
    req.outputTokens = tokens(r, "num_output_tokens");
    Integer reasoning = tokens(r, "num_reasoning_tokens");
    if (reasoning != null) {
      req.extras.put("reasoning_tokens", Integer.toString(reasoning));
    }
    for (String f : List.of("output_inference_speed", "input_throughput", "output_throughput", "audio_throughput")) {
      JsonNode v = r.get(f);
      if (v != null && v.isNumber()) {
        req.extras.put(f, v.asText());
      }
    }
    if (ctx.keepText() && failed && r.path("error_message").isTextual()) {
      req.extras.put("error_message", r.get("error_message").asText());
    }
  }

  /** A latency in the file's unit, as ms; null where genai-bench left it out (an error, a filtered TPOT). */
  private static Double duration(JsonNode r, String field, double toMs) throws PeerJson.Bad {
    JsonNode v = r.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isNumber()) {
      throw new PeerJson.Bad(field + ": expected a number, got " + shown(v));
    }
    double d = v.asDouble();
    if (!Double.isFinite(d)) {
      throw new PeerJson.Bad(field + ": not a finite number");
    }
    if (d < 0) {
      throw new PeerJson.Bad(field + ": negative duration " + v.asText());
    }
    return d * toMs;
  }

  private static Integer tokens(JsonNode r, String field) throws PeerJson.Bad {
    JsonNode v = r.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    double d = v.isNumber() ? v.asDouble() : -1;
    if (d < 0 || d != Math.rint(d) || d > Integer.MAX_VALUE) {
      throw new PeerJson.Bad(field + ": expected a token count, got " + shown(v));
    }
    return (int) d;
  }

  /** A value as a reason shows it: text quoted once, anything else as JSON. */
  private static String shown(JsonNode v) {
    return PeerJson.quote(v.isTextual() ? v.asText() : v.toString());
  }
}
