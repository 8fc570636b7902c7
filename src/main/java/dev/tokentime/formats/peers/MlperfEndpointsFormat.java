package dev.tokentime.formats.peers;

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
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code result_summary.json} of MLCommons' endpoints harness ({@code inference-endpoint},
 * mlcommons/endpoints, 2026: the MLPerf Inference rounds' LLM benchmarks run against an HTTP
 * endpoint instead of LoadGen). One object: the sample counts, {@code duration_ns}, {@code qps},
 * {@code tps}, and per series ({@code ttft}, {@code tpot}, {@code latency} in ns,
 * {@code output_sequence_lengths} / {@code input_sequence_lengths} in tokens) min, max, median,
 * avg, std_dev, {@code percentiles} keyed by percentage ({@code "99.9"}) and the MLPerf
 * early-stopping estimates; {@code run_config.load_pattern} gives the level (poisson:
 * {@code target_qps}; concurrency: {@code target_concurrency}; max_throughput, the Offline
 * scenario: none). Its figures become reported_metrics of the file's run under the names
 * mlperf-summary gives LoadGen's same figures (the harness computes them as LoadGen does, its
 * {@code qps} and {@code tps} over LoadGen's window when {@code use_legacy_loadgen_qps_metrics}):
 * {@code latency} → {@code e2el}, {@code qps} → {@code request_throughput}, {@code tps} →
 * {@code output_throughput}, {@code avg} → {@code mean}, {@code std_dev} → {@code std},
 * percentile {@code "99.0"} → {@code p99}, its early-stopping estimate → {@code
 * p99_early_stopping}; the histograms are not kept. One object, one record.
 */
public final class MlperfEndpointsFormat extends NamedFormat {
  /** A series' key → {metric, unit}. */
  private static final Map<String, String[]> SERIES = Map.of(
      "ttft", new String[] {"ttft", "ns"}, "tpot", new String[] {"tpot", "ns"}, "latency", new String[] {"e2el", "ns"},
      "output_sequence_lengths", new String[] {"output_sequence_lengths", "tokens"},
      "input_sequence_lengths", new String[] {"input_sequence_lengths", "tokens"});
  /** A series' statistic → its stat name. */
  private static final Map<String, String> STAT_NAMES = Map.of(
      "min", "min", "max", "max", "median", "median", "avg", "mean", "std_dev", "std");
  private static final Map<String, String[]> SCALARS = Map.of(
      "n_samples_issued", new String[] {"n_samples_issued", "requests"},
      "n_samples_completed", new String[] {"n_samples_completed", "requests"},
      "n_samples_failed", new String[] {"n_samples_failed", "requests"},
      "duration_ns", new String[] {"duration", "ns"},
      "legacy_loadgen_window_duration_ns", new String[] {"legacy_loadgen_window_duration", "ns"},
      "qps", new String[] {"request_throughput", "samples/s"},
      "tps", new String[] {"output_throughput", "tokens/s"});
  private static final String[] STATS = {"min", "max", "median", "avg", "std_dev"};
  private static final Pattern PERCENT = Pattern.compile("\\d{1,2}(?:\\.\\d+)?|100(?:\\.0+)?");

  public MlperfEndpointsFormat() {
    super("mlperf-endpoints-json",
        "reported_metrics",
        "MLCommons endpoints harness (MLPerf Inference over an HTTP endpoint) result_summary.json");
  }

  @Override
  public boolean runPerFile() {
    return true;
  }

  /**
   * A submission keeps each scenario's summary as {@code <benchmark>/<Scenario>/performance/
   * result_summary.json}: its run is {@code <benchmark>/<Scenario>}, not "performance" (the
   * scenarios of a benchmark would fall into one run).
   */
  @Override
  public String runOf(java.nio.file.Path file) {
    java.nio.file.Path dir = file.getParent();
    if (dir == null || dir.getFileName() == null || !dir.getFileName().toString().equals("performance")) {
      return null;
    }
    java.nio.file.Path scenario = dir.getParent();
    if (scenario == null || scenario.getFileName() == null) {
      return null;
    }
    java.nio.file.Path bench = scenario.getParent();
    return (bench == null || bench.getFileName() == null ? "" : bench.getFileName() + "/") + scenario.getFileName();
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text().stripLeading();
    return text.startsWith("{") && text.contains("\"n_samples_issued\"") && text.contains("\"n_samples_completed\"")
        && (text.contains("\"latency\"") || text.contains("\"ttft\"")) ? 90 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    PeerJson.OneDocument one = PeerJson.one(in, sink, "result summary", "the harness writes one object");
    if (one.broken()) {
      return 1;
    }
    JsonNode doc = one.doc();
    long extra = one.extra();
    if (doc == null || !doc.isObject() || !doc.has("n_samples_issued")) {
      sink.reject(1, "expected the endpoints harness's result summary object (n_samples_issued, ttft, latency, …)",
          null, 0, 0);
      return extra + 1;
    }
    List<String> problems = new ArrayList<>();
    List<Object[]> figures = new ArrayList<>(); // {metric, stat, value, unit}
    for (Iterator<Map.Entry<String, JsonNode>> it = doc.fields(); it.hasNext(); ) {
      var e = it.next();
      String key = e.getKey();
      JsonNode v = e.getValue();
      String[] scalar = SCALARS.get(key);
      if (scalar != null) {
        if (!v.isNull()) { // duration and the legacy window are null when not measured
          number(key, v, scalar[0], "value", scalar[1], figures, problems);
        }
      } else if (SERIES.containsKey(key)) {
        series(key, v, SERIES.get(key)[0], SERIES.get(key)[1], figures, problems);
      }
    }
    String run = ctx.defaultRun();
    String[] level = level(doc.path("run_config").path("load_pattern"), problems);
    Double lv = level == null ? null : Double.valueOf(level[1]);
    String state = doc.path("state").asText("");
    String conflict = sink.runLevel(run, level == null ? null : level[0], lv, null,
        "endpoints harness load pattern " + doc.path("run_config").path("load_pattern").path("type").asText("(none)")
        + (state.isEmpty() || state.equals("complete") ? "" : ", run state " + state));
    if (conflict != null) {
      sink.reject(1, conflict, null, 0, 0);
      return extra + 1;
    }
    for (Object[] f : figures) {
      sink.reportedMetric(run, lv, (String) f[0], (String) f[1], (Double) f[2], (String) f[3]);
    }
    if (!problems.isEmpty()) {
      sink.reject(1, String.join("; ", problems), null, 0, 0);
    } else {
      sink.record();
    }
    return extra + 1;
  }

  /** {kind, level} of run_config.load_pattern, or null (max_throughput, or not stated). */
  private static String[] level(JsonNode pattern, List<String> problems) {
    String type = pattern.path("type").asText("");
    String kind;
    JsonNode v;
    switch (type) {
      case "poisson" -> {
        kind = "request_rate";
        v = pattern.path("target_qps");
      }
      case "concurrency" -> {
        kind = "concurrency";
        v = pattern.path("target_concurrency");
      }
      default -> {
        return null;
      }
    }
    if (!v.isNumber()) {
      return null;
    }
    String bad = Checked.levelProblem(kind, v.asDouble());
    if (bad != null) {
      problems.add("run_config.load_pattern (" + type + "): " + bad + "; the run has no level");
      return null;
    }
    return new String[] {kind, Double.toString(v.asDouble())};
  }

  /** A series' statistics: {} when it has no data (no streaming: no ttft, tpot). */
  private static void series(String key, JsonNode v, String metric, String unit, List<Object[]> figures,
      List<String> problems) {
    if (!v.isObject()) {
      if (!v.isNull()) {
        problems.add(key + ": expected an object, got " + v.getNodeType().toString().toLowerCase());
      }
      return;
    }
    for (String stat : STATS) {
      if (v.has(stat) && !v.get(stat).isNull()) {
        number(key + "." + stat, v.get(stat), metric, STAT_NAMES.get(stat), unit, figures, problems);
      }
    }
    percentiles(key, metric, "percentiles", "", v.path("percentiles"), unit, figures, problems);
    percentiles(key, metric, "early_stopping_percentiles", "_early_stopping", v.path("early_stopping_percentiles"), unit,
        figures, problems);
  }

  private static void percentiles(String key, String metric, String field, String suffix, JsonNode ps, String unit,
      List<Object[]> figures, List<String> problems) {
    if (ps.isMissingNode() || ps.isNull()) {
      return;
    }
    if (!ps.isObject()) {
      problems.add(key + "." + field + ": expected an object, got " + ps.getNodeType().toString().toLowerCase());
      return;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = ps.fields(); it.hasNext(); ) {
      var q = it.next();
      if (!PERCENT.matcher(q.getKey()).matches()) {
        problems.add(key + "." + field + ": \"" + q.getKey() + "\" is no percentage");
        continue;
      }
      if (q.getValue().isNull()) {
        continue; // an early-stopping estimate with too few samples (N/A)
      }
      String stat = "p" + new java.math.BigDecimal(q.getKey()).stripTrailingZeros().toPlainString() + suffix;
      number(key + "." + field + "." + q.getKey(), q.getValue(), metric, stat, unit, figures, problems);
    }
  }

  private static void number(String field, JsonNode v, String metric, String stat, String unit,
      List<Object[]> figures, List<String> problems) {
    if (!v.isNumber()) {
      problems.add(field + ": expected a number, got " + (v.isTextual() ? "\"" + v.asText() + "\"" : v.toString()));
      return;
    }
    String bad = unit.equals("requests") ? Checked.countFigureProblem(field, v.asDouble())
        : Checked.figureProblem(field, v.asDouble(), unit);
    if (bad != null) {
      problems.add(bad + "; not kept");
      return;
    }
    figures.add(new Object[] {metric, stat, v.asDouble(), unit});
  }
}
