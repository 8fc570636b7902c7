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
import java.util.List;
import java.util.regex.Pattern;

/**
 * Hugging Face inference-benchmarker's results file ({@code results/<tokenizer>_<time>.json},
 * one line of JSON written by its {@code BenchmarkReportWriter}): the run's {@code config} and a
 * {@code results} entry per benchmark it ran — {@code warmup} (one VU), {@code throughput}
 * ({@code ConstantVUs} at {@code max_vus}), {@code constant@R req/s} ({@code ConstantArrivalRate}).
 * Each benchmark but the warm-up is a run ({@code <name>}, then {@code <name>#k}) at its
 * concurrency ({@code config.max_vus}) or request rate ({@code config.rate}); its figures become
 * reported_metrics under the file's names: {@code time_to_first_token_ms},
 * {@code inter_token_latency_ms}, {@code e2e_latency_ms} with stats p50 … p99 and avg (ms), and
 * {@code token_throughput_secs}, {@code request_rate}, the request and token counts and
 * {@code duration_ms}, stat value. The file counts its benchmarks, not its line.
 */
public final class InferenceBenchmarkerFormat extends NamedFormat {
  private static final Pattern SNIFF_RESULTS = Pattern.compile("\"results\"\\s*:\\s*\\[");
  private static final List<String> LATENCIES = List.of("time_to_first_token_ms", "inter_token_latency_ms", "e2e_latency_ms");
  private static final List<String> STATS = List.of("p50", "p60", "p70", "p80", "p90", "p95", "p99", "avg");
  private static final Pattern FLAT = Pattern.compile("^(time_to_first_token_ms|inter_token_latency_ms|e2e_latency_ms)_(avg|p[0-9]{1,2})$");

  public InferenceBenchmarkerFormat() {
    super("inference-benchmarker-json",
        "runs, reported_metrics",
        "Hugging Face inference-benchmarker's results JSON: a run per benchmark (throughput at max VUs, constant"
        + " request rates) with its TTFT, ITL and E2E latency percentiles, throughput and request counts");
  }

  /** The scalar figures: JSON key and unit. */
  private static final String[][] SCALARS = {
    {"token_throughput_secs", "tokens/s"},
    {"request_rate", "requests/s"},
    {"total_requests", "requests"},
    {"successful_requests", "requests"},
    {"failed_requests", "requests"},
    {"total_tokens", "tokens"},
    {"total_tokens_sent", "tokens"},
    {"duration_ms", "ms"},
  };

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
    // its writer's own keys: a benchmark's executor and its throughput in tokens per second
    return SNIFF_RESULTS.matcher(text).find() && text.contains("\"executor_type\"")
        && text.contains("\"token_throughput_secs\"") && text.contains("\"max_vus\"") ? 92 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    PeerJson.OneDocument one = PeerJson.one(in, sink, "results object", "a results file holds one");
    if (one.broken()) {
      return 1;
    }
    JsonNode doc = one.doc();
    JsonNode results = doc == null ? null : doc.get("results");
    if (results == null || !results.isArray()) {
      sink.reject(1, "expected a JSON object with a \"results\" array (inference-benchmarker's results file)", null, 0, 0);
      return one.extra() + 1;
    }
    if (results.isEmpty()) {
      sink.reject(1, "\"results\" is empty: the run wrote no benchmark", null, 0, 0);
      return one.extra() + 1;
    }
    RunNames runs = new RunNames(ctx.defaultRun());
    for (int i = 0; i < results.size(); i++) {
      benchmark(i, results.get(i), runs, sink);
    }
    return one.extra() + results.size();
  }

  private void benchmark(int i, JsonNode b, RunNames runs, RecordSink sink) {
    String id = b.path("id").asText("");
    String where = "results[" + i + "]" + (id.isEmpty() ? "" : " (" + id + ")");
    if (!b.isObject()) {
      sink.reject(1, where + ": not a JSON object", null, 0, 0);
      return;
    }
    if (id.equals("warmup")) {
      sink.otherLine(); // the one-VU prewarm before the measured benchmarks: not a run
      return;
    }
    List<Object[]> figures = new ArrayList<>();
    String bad = null;
    for (String metric : LATENCIES) {
      JsonNode stats = b.get(metric);
      if (stats == null) {
        continue;
      }
      if (!stats.isObject()) {
        bad = where + ": " + metric + " is no object of statistics";
        break;
      }
      for (String stat : STATS) {
        if (stats.has(stat)) {
          bad = figure(figures, where, metric, stat, stats.get(stat), "ms");
          if (bad != null) {
            break;
          }
        }
      }
      if (bad != null) {
        break;
      }
    }
    // its first writer (2024) wrote each statistic as a key of its own: time_to_first_token_ms_p90
    for (java.util.Iterator<String> it = b.fieldNames(); bad == null && it.hasNext(); ) {
      java.util.regex.Matcher m = FLAT.matcher(it.next());
      if (m.matches()) {
        bad = figure(figures, where, m.group(1), m.group(2), b.get(m.group()), "ms");
      }
    }
    for (int k = 0; bad == null && k < SCALARS.length; k++) {
      if (b.has(SCALARS[k][0])) {
        bad = figure(figures, where, SCALARS[k][0], "value", b.get(SCALARS[k][0]), SCALARS[k][1]);
      }
    }
    if (bad == null && figures.isEmpty()) {
      bad = where + ": no figure (time_to_first_token_ms, token_throughput_secs, …)";
    }
    if (bad == null && b.path("successful_requests").asDouble(0) + b.path("failed_requests").asDouble(0)
        > b.path("total_requests").asDouble(Double.MAX_VALUE)) {
      bad = where + ": successful_requests + failed_requests exceed total_requests";
    }
    if (bad != null) {
      sink.reject(1, bad + "; the benchmark's figures are not kept", null, 0, 0);
      return;
    }
    String run = runs.next();
    JsonNode config = b.path("config");
    String kind = null;
    Double level = null;
    JsonNode rate = config.get("rate");
    if (b.path("executor_type").asText("").equals("ConstantArrivalRate") && rate != null && rate.isNumber()) {
      kind = "request_rate";
      level = rate.asDouble();
    } else if (b.path("executor_type").asText("").equals("ConstantVUs") && config.path("max_vus").isNumber()) {
      kind = "concurrency";
      level = config.get("max_vus").asDouble();
    }
    if (kind != null && Checked.levelProblem(kind, level) != null) {
      kind = null;
      level = null; // a level no run can have: the figures are kept without one
    }
    String conflict = sink.runLevel(run, kind, level, null, "inference-benchmarker " + (id.isEmpty() ? "benchmark" : id));
    if (conflict != null) {
      sink.reject(1, where + ": " + conflict, null, 0, 0);
      return;
    }
    for (Object[] f : figures) {
      sink.reportedMetric(run, level, (String) f[0], (String) f[1], (Double) f[2], (String) f[3]);
    }
    sink.record();
  }

  /** Adds a checked figure, or returns why it cannot be one. serde_json writes a NaN as null. */
  private static String figure(List<Object[]> figures, String where, String metric, String stat, JsonNode v, String unit) {
    String name = metric + (stat.equals("value") ? "" : "." + stat);
    if (v == null || v.isNull()) {
      return where + ": " + name + " is null (the tool's NaN: no request gave it)";
    }
    if (!v.isNumber()) {
      return where + ": " + name + ": " + v + " is no number";
    }
    String bad = Checked.figureProblem(name, v.asDouble(), unit);
    if (bad != null) {
      return where + ": " + bad;
    }
    figures.add(new Object[] {metric, stat, v.asDouble(), unit});
    return null;
  }
}
