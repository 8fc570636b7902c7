package dev.tokentime.formats.peers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The result JSON of Google's fork of {@code benchmark_serving.py}, the "latency profile
 * generator" (GoogleCloudPlatform/ai-on-gke {@code benchmarks/benchmark/tools/profile-generator},
 * since 2025 AI-Hypercomputer/inference-benchmark), written with {@code --save-json-results}: one
 * object per file ({@code benchmark-vllm-1.0qps-20241101-171502-<model>.json}) holding
 * {@code metrics} (the run's figures, flat: {@code avg_latency}, {@code p99_TTFT_ms}, …, the
 * error counts and the server's Prometheus figures under {@code server_metrics}),
 * {@code dimensions}, {@code config} and {@code summary_stats} (the same figures again). No
 * per-request data: every figure becomes {@code reported_metrics}, the run at its request rate.
 *
 * <p>The unit of a figure depends on the version that wrote it (docs/formats.md): suffixed
 * {@code _ms} since April 2025; before, request latency and per-output-token latency are ms
 * except in the first layout (September 2024, only {@code avg_} figures), where every time is in
 * seconds; per-token latency, TTFT and ITL are seconds.
 *
 * <p>Counted in records: one for the result object, one more per figure rejected.
 */
public final class GkeLpgFormat extends NamedFormat {
  /** {avg,median,sd,min,max,pNN}_{metric}, as get_stats_for_set names its figures. */
  private static final Pattern STAT = Pattern.compile("^(avg|median|sd|min|max|p\\d+)_(.+)$");

  public GkeLpgFormat() {
    super("gke-lpg-json",
        "runs, reported_metrics",
        "ai-on-gke / inference-benchmark latency profile generator (Google's benchmark_serving.py) result JSON (--save-json-results)");
  }

  /** aiohttp's exceptions the tool counts failed requests under (init_errors_map). */
  private static final Set<String> ERRORS = Set.of("ClientConnectorError", "TimeoutError", "ContentTypeError",
      "ClientOSError", "ServerDisconnectedError", "unknown_error");

  static final String NOT_OURS = "not a latency profile generator result: expected an object whose \"metrics\""
      + " object holds benchmark_time, total_output_token, …";

  /** The tool writes a file per request rate (and per model): each is a run of its own. */
  @Override
  public boolean runPerFile() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text().stripLeading();
    // total_output_token (singular) is the fork's own name in every version; vLLM's result says
    // total_output_tokens, at the top level, with no "metrics" object
    return text.startsWith("{") && text.contains("\"metrics\"") && text.contains("\"total_output_token\"")
        && text.contains("\"benchmark_time\"") ? 90 : 0;
  }

  /** One number of {@code metrics}, where it stands. */
  private record Entry(String key, JsonNode value, long line) {}

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    try (JsonParser p = PeerJson.JSON.createParser(in)) {
      JsonToken t = PeerJson.firstToken(p, sink);
      if (t == JsonToken.NOT_AVAILABLE) {
        return 1;
      }
      if (t == null) {
        return 0;
      }
      if (t != JsonToken.START_OBJECT) {
        sink.reject(PeerJson.line(p), NOT_OURS + "; got " + PeerJson.describe(p), null, 0, 0);
        return 1;
      }
      List<Entry> metrics = null;
      long metricsLine = 1;
      String cut = null;
      long line = 1;
      try {
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          t = p.nextToken();
          line = PeerJson.line(p);
          if (name.equals("metrics") && t == JsonToken.START_OBJECT && metrics == null) {
            metricsLine = line;
            metrics = metrics(p);
          } else if (t != null) {
            p.skipChildren(); // dimensions, config, summary_stats (the same figures again)
          }
        }
        if (t != JsonToken.END_OBJECT) {
          throw new com.fasterxml.jackson.core.io.JsonEOFException(p, null, "end of input in the object");
        }
      } catch (IOException e) {
        cut = PeerJson.reason(e);
        line = Math.max(line, PeerJson.line(p));
      }
      if (metrics == null) {
        // cut inside metrics: the unit of a figure depends on keys that may come after the cut
        sink.reject(cut != null ? line : metricsLine, cut != null
            ? cut + "; the result's metrics were not read whole, none of its figures kept"
            : NOT_OURS, null, 0, 0);
        return 1;
      }
      long units = emit(metrics, ctx.defaultRun(), sink);
      if (cut != null) {
        sink.reject(line, cut + " (after the metrics, which are kept); nothing after this point could be read", null, 0, 0);
        return units + 1;
      }
      return units + PeerJson.trailing(p, sink, "result object", "the profile generator writes one result per file");
    }
  }

  /** The fields of {@code metrics}, each with its line; the parser stands at its START_OBJECT. */
  private static List<Entry> metrics(JsonParser p) throws IOException {
    List<Entry> out = new ArrayList<>();
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      if (p.nextToken() == null) {
        break;
      }
      long line = PeerJson.line(p);
      out.add(new Entry(key, PeerJson.TREE.readTree(p), line));
    }
    if (t != JsonToken.END_OBJECT) {
      throw new com.fasterxml.jackson.core.io.JsonEOFException(p, null, "end of input in the metrics object");
    }
    return out;
  }

  /** A figure to keep: metric and statistic as the tool names them, the value, its unit. */
  private record Figure(String metric, String stat, double value, String unit, String field, long line) {}

  private static long emit(List<Entry> entries, String run, RecordSink sink) {
    Set<String> keys = new HashSet<>();
    for (Entry e : entries) {
      keys.add(e.key());
    }
    boolean recognised = keys.contains("benchmark_time") && keys.contains("total_output_token");
    if (!recognised) {
      sink.reject(entries.isEmpty() ? 1 : entries.get(0).line(), NOT_OURS, null, 0, 0);
      return 1;
    }
    // the first layout (September 2024) has only averages, all in seconds; its successors keep
    // per-token latency in seconds and give request and per-output-token latency in ms
    boolean seconds = keys.contains("avg_latency") && !keys.contains("median_latency");
    // "throughput" was requests a second for four days (September 2024), then output tokens a
    // second beside a new throughput_rps
    String throughput = keys.contains("throughput_rps") ? "tokens/s" : "requests/s";
    long units = 1;
    List<Figure> figures = new ArrayList<>();
    Double level = null;
    String kind = null;
    long levelLine = entries.get(0).line();
    Set<String> seen = new HashSet<>();
    for (Entry e : entries) {
      String key = e.key();
      JsonNode v = e.value();
      if (!seen.add(key)) {
        // Python's json keeps the last of a repeated key, the tool never writes one: a damaged file
        units++;
        sink.reject(e.line(), "metrics." + key + ": repeated in the object (the first is kept); not kept", null, 0, 0);
        continue;
      }
      if (key.equals("server_metrics")) {
        units += server(v, e.line(), figures, sink);
        continue;
      }
      if (!v.isNumber()) {
        units++;
        sink.reject(e.line(), "metrics." + key + ": expected a number, got " + shown(v) + "; not kept", null, 0, 0);
        continue;
      }
      double x = v.asDouble();
      if (Double.isNaN(x)) {
        continue; // numpy's statistic of no value (a layout of before October 2024 with no success)
      }
      if (key.equals("request_rate")) {
        if (x == Double.POSITIVE_INFINITY) {
          continue; // the default "inf": every request sent at once, a setting and no rate
        }
        String bad = Checked.levelProblem("request_rate", x);
        if (bad != null) {
          sink.reject(e.line(), "metrics.request_rate: " + bad + " (got " + x + "); the run has no level, none of its figures kept", null, 0, 0);
          return units;
        }
        level = x;
        kind = "request_rate";
        levelLine = e.line();
      }
      Matcher m = STAT.matcher(key);
      if (m.matches()) {
        String metric = m.group(2);
        String unit;
        if (metric.endsWith("_ms")) {
          metric = metric.substring(0, metric.length() - 3);
          unit = "ms";
        } else {
          unit = statUnit(metric, seconds);
        }
        figures.add(new Figure(metric, m.group(1), x, unit, key, e.line()));
      } else {
        figures.add(new Figure(key, "value", x, unitOf(key, throughput), key, e.line()));
      }
    }
    String conflict = sink.runLevel(run, kind, level, null, "gke-lpg metrics.request_rate");
    if (conflict != null) {
      sink.reject(levelLine, conflict, null, 0, 0);
      return units;
    }
    // with no sample get_stats_for_set writes 0 for each of its statistics (no success, a run
    // without streaming chunks): placeholders, not figures
    Map<String, Boolean> allZero = new HashMap<>();
    for (Figure f : figures) {
      if (!f.stat().equals("value") && !f.field().startsWith("server_metrics.")) {
        allZero.merge(f.metric(), f.value() == 0, Boolean::logicalAnd);
      }
    }
    for (Figure f : figures) {
      if (!f.stat().equals("value") && !f.field().startsWith("server_metrics.")
          && allZero.getOrDefault(f.metric(), false)) {
        continue;
      }
      String bad = "tokens".equals(f.unit()) && f.stat().equals("value") || "requests".equals(f.unit())
          ? Checked.countFigureProblem(f.field(), f.value())
          : Checked.figureProblem(f.field(), f.value(), f.unit());
      if (bad == null && f.value() < 0 && f.unit() == null) {
        bad = f.field() + " out of range: " + f.value() + " (no figure of the tool is negative)";
      }
      if (bad != null) {
        units++;
        sink.reject(f.line(), bad + "; not kept", null, 0, 0);
      } else {
        sink.reportedMetric(run, level, f.metric(), f.stat(), f.value(), f.unit());
      }
    }
    sink.record();
    return units;
  }

  /**
   * {@code server_metrics}: per Prometheus metric of the server, the statistics the tool queried
   * over the run (Mean, Median, Sd, Min, Max, P90, P95, P99; a counter's Sum, Rate, Increase),
   * numbers, or numeric strings in the layout of September 2024. Returns the rejects it made.
   */
  private static long server(JsonNode v, long line, List<Figure> figures, RecordSink sink) {
    if (!v.isObject()) {
      sink.reject(line, "metrics.server_metrics: expected an object, got " + shown(v) + "; not kept", null, 0, 0);
      return 1;
    }
    long rejects = 0;
    for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> metric = it.next();
      String field = "server_metrics." + metric.getKey();
      if (!metric.getValue().isObject()) {
        rejects++;
        sink.reject(line, "metrics." + field + ": expected an object of statistics, got " + shown(metric.getValue()) + "; not kept", null, 0, 0);
        continue;
      }
      for (Iterator<Map.Entry<String, JsonNode>> s = metric.getValue().fields(); s.hasNext(); ) {
        Map.Entry<String, JsonNode> stat = s.next();
        JsonNode x = stat.getValue();
        Double d = x.isNumber() ? Double.valueOf(x.asDouble()) : x.isTextual() ? number(x.asText()) : null;
        if (d == null) {
          rejects++;
          sink.reject(line, "metrics." + field + "." + stat.getKey() + ": expected a number, got " + shown(x) + "; not kept", null, 0, 0);
        } else if (!d.isNaN()) { // Prometheus' NaN: no sample of the metric in the window
          figures.add(new Figure(metric.getKey(), stat.getKey(), d, serverUnit(metric.getKey()), field + "." + stat.getKey(), line));
        }
      }
    }
    return rejects;
  }

  private static Double number(String s) {
    try {
      return Double.valueOf(s.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The unit of a server metric where its Prometheus name says it; else none is guessed. */
  private static String serverUnit(String metric) {
    return metric.endsWith("_seconds") ? "s" : null;
  }

  /** The unit of a statistic of get_stats_for_set without the _ms suffix of 2025. */
  private static String statUnit(String metric, boolean seconds) {
    return switch (metric) {
      case "latency", "per_output_token_latency" -> seconds ? "s" : "ms";
      case "per_token_latency", "TTFT", "ITL", "TPOT" -> "s";
      case "input_len", "output_len" -> "tokens";
      default -> null;
    };
  }

  private static String unitOf(String key, String throughput) {
    if (key.equals("benchmark_time")) {
      return "s";
    }
    if (key.equals("throughput")) {
      return throughput;
    }
    if (key.equals("request_rate") || key.equals("throughput_rps") || key.equals("queries_per_second")) {
      return "requests/s";
    }
    if (key.endsWith("tokens_per_min")) {
      return "tokens/min";
    }
    if (key.endsWith("tokens_per_sec")) {
      return "tokens/s";
    }
    if (key.equals("total_output_token") || key.equals("total_input_tokens") || key.equals("total_tokens")) {
      return "tokens";
    }
    if (key.startsWith("num_prompts") || ERRORS.contains(key)) {
      return "requests";
    }
    return null;
  }

  private static String shown(JsonNode v) {
    return PeerJson.quote(v.isTextual() ? v.asText() : v.toString());
  }
}
