package dev.tokentime.formats.peers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * llm-d-benchmark's benchmark report, schemas 0.1 and 0.2 (and 0.2's point releases): the harness's one summary of a run, converted
 * from the load generator it drove (vllm bench serve, GuideLLM, inference-perf, …), saved as
 * {@code benchmark_report,_<result file>.yaml} (or JSON) beside the tool's own result. Read: its
 * {@code metrics.latency} statistics ({@code time_to_first_token}, {@code time_per_output_token},
 * {@code inter_token_latency}, {@code request_latency}, {@code normalized_time_per_output_token},
 * each with its {@code units} and {@code mean}, {@code stddev}, {@code min}, {@code max},
 * {@code mode}, {@code p0p1} … {@code p99p9}), {@code metrics.requests} ({@code total},
 * {@code failures}, {@code incomplete}, the input and output lengths), {@code metrics.throughput}
 * and {@code metrics.time.duration}; the run's level from {@code scenario.load}: its
 * {@code args.max_concurrency}, else a finite {@code args.request_rate} or a single
 * {@code args.rate}, else the rate of its one {@code stages} entry (inference-perf).
 *
 * <p>Figures keep the report's names and units (ms, s, ms/token, s/token); percentiles are
 * written p0.1 and p99.9, as the tools print them. The converter's unit labels are not checked
 * against the source: a GuideLLM-converted report of January 2026 labels request_latency "ms"
 * over values in seconds (docs/formats.md says so).
 *
 * <p>Schema 0.2 holds the same statistics under {@code results.request_performance.aggregate}
 * (its throughputs statistics with units too), the run's duration in ISO 8601 under
 * {@code run.time.duration}, and the level in {@code scenario.load.standardized}: its
 * {@code concurrency}, else its {@code rate_qps}. PyYAML writes an unbounded concurrency or rate
 * as {@code .inf}: read as infinity (PeerJson.yamlSpecialFloats), which is no level; a figure
 * that is not finite is a reject naming it. Its time series and observability are not read.
 */
public final class LlmdReportFormat extends NamedFormat {
  /** YAML: the schema's version line and its latency statistics with units (PyYAML sorts keys). */
  private static final Pattern YAML_VERSION = Pattern.compile("(?m)^\\s*version:\\s*['\"]?0\\.(?:1|2(?:\\.[0-9]+)?)['\"]?\\s*$");
  private static final Pattern YAML_LATENCY = Pattern.compile(
      "(?m)^\\s+latency:\\s*\\n(?:\\s+\\S.*\\n){0,40}?\\s+(?:inter_token_latency|request_latency|time_to_first_token"
          + "|time_per_output_token|normalized_time_per_output_token):\\s*$");
  private static final Pattern JSON_VERSION = Pattern.compile("\"version\":\\s*\"0\\.(?:1|2(?:\\.[0-9]+)?)\"");
  private static final ObjectMapper YAML_TREE = new ObjectMapper(PeerJson.YAML);
  /** A point release of schema 0.2 (0.2.1): a superset of 0.2. */
  private static final Pattern POINT_RELEASE_02 = Pattern.compile("0\\.2\\.[0-9]+");
  /** Its first key (0.2 sorted: results; comment lines before it, as the schema's example has). */
  private static final Pattern YAML_TOP = Pattern.compile("(?m)^(?:\\s*#.*\\n)*\\s*(?:metadata|metrics|results|run|scenario|version):");
  /** A statistic's units as the schema names them (the version line, written last, may lie past the sample). */
  private static final Pattern YAML_UNITS = Pattern.compile("(?m)^\\s+units:\\s*(?:ms|s|ms/token|s/token|count)\\s*$");

  public LlmdReportFormat() {
    super("llmd-benchmark-report",
        "runs, reported_metrics",
        "llm-d-benchmark's benchmark report (schema 0.1 or 0.2 and its point releases, YAML or JSON): a run's latency statistics, requests and"
        + " throughput as the harness converted them from its load generator");
  }

  @Override
  public boolean runPerFile() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text().stripLeading();
    if (text.startsWith("{")) {
      return (text.contains("\"metrics\"") || text.contains("\"request_performance\"")) && text.contains("\"latency\"") && text.contains("\"units\"")
          && text.contains("\"scenario\"") && JSON_VERSION.matcher(text).find() ? 85 : 0;
    }
    if (!YAML_TOP.matcher(text).lookingAt() || !YAML_LATENCY.matcher(text).find()) {
      return 0;
    }
    // PyYAML sorts the keys: version comes last, past a long scenario's first 64 KB
    return YAML_VERSION.matcher(text).find() ? 85 : YAML_UNITS.matcher(text).find() ? 75 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    BufferedInputStream b = new BufferedInputStream(in);
    b.mark(1);
    int first = b.read();
    b.reset();
    boolean json = first == '{';
    JsonNode report;
    try (JsonParser p = json ? PeerJson.JSON.createParser(b) : PeerJson.yamlSpecialFloats(PeerJson.YAML.createParser(b))) {
      report = (json ? PeerJson.TREE : YAML_TREE).readTree(p);
      if (json && p.nextToken() != null) {
        sink.reject(Math.max(1, PeerJson.line(p)), "text after the report's object (a report holds one)", null, 0, 0);
        return 2;
      }
    } catch (IOException e) {
      sink.reject(1, PeerJson.reason(e).replace("JSON", json ? "JSON" : "YAML") + "; the report was not read", null, 0, 0);
      return 1;
    }
    String version = report == null ? "" : report.path("version").asText("");
    // 0.2's point releases are additive (0.2.1 adds optional multi-modal payload statistics, which
    // inference-perf writes in its per-stage partial reports): read as 0.2, the additions not read
    boolean v02 = version.equals("0.2") || POINT_RELEASE_02.matcher(version).matches();
    if (!version.isEmpty() && !version.equals("0.1") && !v02) {
      sink.reject(1, "llm-d benchmark report schema " + version + ": only 0.1 and 0.2 (0.2.x) are read", null, 0, 0);
      return 1;
    }
    JsonNode metrics = report == null ? null
        : v02 ? report.path("results").path("request_performance").path("aggregate") : report.path("metrics");
    if (metrics == null || !metrics.path("latency").isObject()) {
      sink.reject(1, "not an llm-d benchmark report: no " + (v02 ? "results.request_performance.aggregate" : "metrics")
          + ".latency", null, 0, 0);
      return 1;
    }
    Figures f = new Figures(sink);
    String run = ctx.defaultRun();
    JsonNode load = report.path("scenario").path("load");
    JsonNode standard = load.path("standardized");
    Double concurrency = PeerJson.positive(v02 ? standard.get("concurrency") : load.path("args").get("max_concurrency"));
    Double rate = concurrency != null ? null : v02 ? PeerJson.positive(standard.get("rate_qps")) : firstRate(load);
    String kind = concurrency != null ? "concurrency" : rate != null ? "request_rate" : null;
    Double level = concurrency != null ? concurrency : rate;
    if (kind != null && Checked.levelProblem(kind, level) != null) {
      kind = null;
      level = null; // a level no run can have (2.5 clients): the figures are kept without one
    }
    String conflict = sink.runLevel(run, kind, level, null, "llm-d benchmark report");
    if (conflict != null) {
      sink.reject(1, conflict, null, 0, 0);
      return 1;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = metrics.path("latency").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> m = it.next();
      f.stats(run, level, m.getKey(), m.getValue());
    }
    JsonNode requests = metrics.path("requests");
    double total = requests.path("total").asDouble(0);
    double failed = requests.path("failures").asDouble(0) + requests.path("incomplete").asDouble(0);
    if (requests.path("total").isNumber() && failed > total) {
      f.rejects++;
      sink.reject(1, "metrics.requests: failures and incomplete (" + failed + ") exceed total (" + total
          + "): the counts are not kept", null, 0, 0);
    } else {
      for (String count : new String[] {"total", "failures", "incomplete"}) {
        f.figure(run, level, "requests_" + count, "value", requests.get(count), "requests");
      }
    }
    for (String length : new String[] {"input_length", "output_length"}) {
      f.stats(run, level, length, requests.path(length));
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = metrics.path("throughput").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> m = it.next();
      if (m.getValue().isObject()) {
        f.stats(run, level, m.getKey(), m.getValue()); // 0.2: statistics with their units
      } else {
        f.figure(run, level, m.getKey(), "value", m.getValue(),
            m.getKey().startsWith("requests") ? "requests/s" : "tokens/s");
      }
    }
    if (v02) {
      f.isoDuration(run, level, report.path("run").path("time").get("duration"));
    } else {
      f.figure(run, level, "duration", "value", metrics.path("time").get("duration"), "s");
    }
    sink.record();
    return 1 + f.rejects;
  }

  /** The request rate the load ran at, when the report names one: args' request_rate or rate, or its one stage's. */
  private static Double firstRate(JsonNode load) {
    JsonNode args = load.path("args");
    for (String key : new String[] {"request_rate", "rate"}) {
      JsonNode v = args.get(key);
      if (v != null && v.isArray() && v.size() == 1) {
        v = v.get(0);
      }
      Double r = PeerJson.positive(v);
      if (r != null) {
        return r;
      }
    }
    JsonNode stages = load.path("stages");
    return stages.isArray() && stages.size() == 1 ? PeerJson.positive(stages.get(0).get("rate")) : null;
  }

  /**
   * The report's figures into reported_metrics, each range-checked (Checked.figureProblem: every
   * figure of the schema is a latency, a count, a throughput or a duration): one out of range, or
   * no number, is a reject naming it, never stored.
   */
  private static final class Figures {
    final RecordSink sink;
    int rejects;

    Figures(RecordSink sink) {
      this.sink = sink;
    }

    /** A statistics object: every value but its units, under the tools' stat names. */
    void stats(String run, Double level, String metric, JsonNode s) {
      if (!s.isObject()) {
        return;
      }
      String unit = s.path("units").isTextual() ? s.path("units").asText() : null;
      for (Iterator<Map.Entry<String, JsonNode>> it = s.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getKey().equals("units")) {
          figure(run, level, metric, stat(e.getKey()), e.getValue(), unit);
        }
      }
    }

    /** Days, hours, minutes and seconds of an ISO 8601 duration (a time part with none is no duration). */
    private static final Pattern ISO_DURATION =
        Pattern.compile("P(?:(\\d+)D)?(?:T(?=\\d)(?:(\\d+)H)?(?:(\\d+)M)?(?:(\\d+(?:\\.\\d+)?)S)?)?");

    /** 0.2's run.time.duration, an ISO 8601 duration ("PT49.97206788184121S"), in seconds. */
    void isoDuration(String run, Double level, JsonNode v) {
      if (v == null || v.isNull()) {
        return;
      }
      // pydantic writes a timedelta's seconds with all their digits: more than java.time's nine
      java.util.regex.Matcher m = ISO_DURATION.matcher(v.asText());
      if (!v.isTextual() || !m.matches() || m.group(1) == null && m.group(2) == null && m.group(3) == null
          && m.group(4) == null) {
        rejects++;
        sink.reject(1, "run.time.duration: not an ISO 8601 duration: " + v + "; not kept", null, 0, 0);
        return;
      }
      double s = 0;
      double[] unit = {86_400, 3_600, 60, 1};
      for (int i = 0; i < 4; i++) {
        if (m.group(i + 1) != null) {
          s += Double.parseDouble(m.group(i + 1)) * unit[i];
        }
      }
      figure(run, level, "duration", "value", com.fasterxml.jackson.databind.node.DoubleNode.valueOf(s), "s");
    }

    void figure(String run, Double level, String metric, String stat, JsonNode v, String unit) {
      if (v == null || v.isNull()) {
        return; // not measured (the converter writes null for NaN)
      }
      String name = metric + (stat.equals("value") ? "" : " " + stat);
      String problem = v.isNumber() ? Checked.figureProblem(name, v.asDouble(), unit)
          : name + ": expected a number, got " + v.toString();
      if (problem != null) {
        rejects++;
        sink.reject(1, problem + "; not kept", null, 0, 0);
        return;
      }
      sink.reportedMetric(run, level, metric, stat, v.asDouble(), unit);
    }
  }

  /** p0p1 is p0.1, p99p9 p99.9, stddev std (vllm bench serve's names); the others as written. */
  static String stat(String key) {
    if (key.equals("stddev")) {
      return "std";
    }
    return key.matches("p\\d+p\\d+") ? key.replaceFirst("(p\\d+)p(\\d+)", "$1.$2") : key;
  }
}
