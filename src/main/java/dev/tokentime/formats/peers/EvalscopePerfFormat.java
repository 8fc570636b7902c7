package dev.tokentime.formats.peers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.EvalscopeNames;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.formats.json.ToolMetricNames;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * ModelScope EvalScope's {@code evalscope perf} result files, written per run into
 * {@code outputs/<timestamp>/<model>/} (since 0.16 one {@code parallel_<p>_number_<n>/} folder per
 * level): {@code benchmark_summary.json}, one flat object of run figures keyed by display name,
 * and {@code benchmark_percentile.json}, an array of one row per percentile. Both become
 * reported_metrics of the folder's run under one name per figure whichever EvalScope wrote them:
 * up to 1.6 the keys are long and every time is in seconds ({@code "Average time to first token
 * (s)"}, {@code "TTFT (s)"}), since 1.7 short and TTFT, TPOT and ITL in ms ({@code "Avg TTFT (ms)"},
 * {@code "TTFT (ms)"}); the unit stored is the one the key names. Its per-request
 * {@code benchmark_data.db} is SQLite, a reject saying so.
 */
public final class EvalscopePerfFormat extends NamedFormat {

  static final String DB_NOT_READ = "EvalScope's per-request SQLite database (benchmark_data.db): tokentime does"
      + " not read SQLite; the run's figures are in benchmark_summary.json and benchmark_percentile.json";

  public EvalscopePerfFormat() {
    super("evalscope-perf",
        "runs, reported_metrics",
        "EvalScope perf benchmark_summary.json / benchmark_percentile.json: the tool's own run statistics");
  }

  @Override
  public int sniff(Sample sample) {
    String name = sample.fileName() == null ? "" : sample.fileName().toLowerCase(Locale.ROOT);
    String text = sample.text();
    if (text.startsWith("SQLite format 3")) {
      return name.startsWith("benchmark_data") ? 80 : 0;
    }
    text = text.stripLeading();
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    if (text.startsWith("{")) {
      // the duration key each generation opens its summary with, beside its request counts
      boolean old = text.contains("\"Time taken for tests (s)\"")
          && (text.contains("\"Number of concurrency\"") || text.contains("\"Succeed requests\""));
      boolean now = text.contains("\"Test Duration (s)\"")
          && (text.contains("\"Success Requests\"") || text.contains("\"Req Throughput (req/s)\""));
      return old || now ? 90 : 0;
    }
    if (text.startsWith("[")) {
      boolean rows = text.contains("\"Percentiles\"")
          && (text.contains("\"Latency (s)\"") || text.contains("\"TTFT (s)\"") || text.contains("\"TTFT (ms)\""));
      return rows ? 90 : 0;
    }
    return 0;
  }

  @Override
  public long parse(InputStream raw, ParseContext ctx, RecordSink sink) throws IOException {
    java.io.BufferedInputStream in = new java.io.BufferedInputStream(raw, 1 << 12);
    in.mark(16);
    byte[] head = in.readNBytes(15);
    in.reset();
    if (new String(head, java.nio.charset.StandardCharsets.ISO_8859_1).equals("SQLite format 3")) {
      sink.reject(1, DB_NOT_READ, null, 0, 0);
      return 1;
    }
    String run = ctx.defaultRun();
    try (JsonParser p = PeerJson.JSON.createParser(in)) {
      JsonToken t = PeerJson.firstToken(p, sink);
      if (t == JsonToken.NOT_AVAILABLE) {
        return 1;
      }
      if (t == JsonToken.START_ARRAY) {
        long n = PeerJson.elements(p, sink, false, (row, index, line) -> {
          if (percentileRow(row, run, sink) == 0) {
            sink.otherLine(); // a row of no number (every value NaN: no request to take it from)
          } else {
            sink.record();
          }
        });
        return n + (p.currentToken() == JsonToken.END_ARRAY
            ? PeerJson.trailing(p, sink, "array", "benchmark_percentile.json holds one") : 0);
      }
      if (t == JsonToken.START_OBJECT) {
        JsonNode doc = PeerJson.whole(p, sink);
        if (doc == null) {
          return 1;
        }
        return 1 + summary(doc, run, sink) + PeerJson.trailing(p, sink, "summary object", "benchmark_summary.json holds one");
      }
      sink.reject(1, "not an EvalScope perf result: expected a JSON object (benchmark_summary.json)"
          + " or array (benchmark_percentile.json)", null, 0, 0);
      return 1;
    }
  }

  /**
   * One percentile row: {@code "Percentiles"} ("10%"; since 1.8 "max", since 1.10 "min") is the
   * statistic of every other column. A row without it, or naming no percentile, is refused.
   */
  private static int percentileRow(JsonNode row, String run, RecordSink sink) throws PeerJson.Bad {
    if (!row.isObject()) {
      throw new PeerJson.Bad("expected an object (one percentile's row)");
    }
    JsonNode label = row.get("Percentiles");
    if (label == null || !label.isTextual()) {
      throw new PeerJson.Bad("no \"Percentiles\" label in the row");
    }
    String stat = EvalscopeNames.stat(label.asText());
    if (stat == null) {
      throw new PeerJson.Bad("\"Percentiles\": expected a percentage, min or max, got " + PeerJson.quote(label.asText()));
    }
    java.util.List<Object[]> figures = new java.util.ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = row.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getKey().equals("Percentiles")) {
        continue;
      }
      JsonNode v = e.getValue();
      if (v == null || !v.isNumber() || !Double.isFinite(v.asDouble())) {
        continue; // NaN: EvalScope's value where no request gave one
      }
      EvalscopeNames.Figure f = EvalscopeNames.PERCENTILE.get(e.getKey());
      String[] other = f == null ? ToolMetricNames.split(e.getKey()) : null;
      String unit = f != null ? f.unit() : other[1];
      String bad = Checked.figureProblem(e.getKey() + " " + stat, v.asDouble(), unit);
      if (bad != null) {
        throw new PeerJson.Bad(bad + "; the row not kept");
      }
      figures.add(new Object[] {f != null ? f.metric() : other[0], v.asDouble(), unit});
    }
    // no level: the run's is in benchmark_summary.json, another file
    for (Object[] f : figures) {
      sink.reportedMetric(run, null, (String) f[0], stat, (Double) f[1], (String) f[2]);
    }
    return figures.size();
  }

  /**
   * The summary's figures. EvalScope writes -1 for a figure it has no sample of (every average of
   * a run whose requests all failed; the multi-turn and speculative figures of a run without them;
   * the request rate of a run not paced by one): not kept. The run's level is its request rate when
   * one paced it, else its concurrency (the {@code --parallel} every run has, 1 by default). A
   * figure out of its range (a negative duration, a TTFT of 1e300 ms), or a level no run has (2.5
   * clients), is a reject naming it; the others are kept. Returns the number of such rejects.
   */
  private static int summary(JsonNode doc, String run, RecordSink sink) {
    Double rate = PeerJson.positive(first(doc, "Request rate (req/s)", "Request Rate (req/s)"));
    Double conc = PeerJson.positive(first(doc, "Number of concurrency", "Concurrency"));
    if (rate != null && Checked.levelProblem("request_rate", rate) != null) {
      rate = null;
    }
    if (conc != null && Checked.levelProblem("concurrency", conc) != null) {
      conc = null;
    }
    Double level = null;
    if (rate != null && sink.runLevel(run, "request_rate", rate, null, "EvalScope benchmark_summary.json") == null) {
      level = rate;
    } else if (rate == null && conc != null
        && sink.runLevel(run, "concurrency", conc, null, "EvalScope benchmark_summary.json") == null) {
      level = conc;
    }
    int n = 0;
    int rejects = 0;
    for (Iterator<Map.Entry<String, JsonNode>> it = doc.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      if (!v.isNumber() || Double.isNaN(v.asDouble()) || v.asDouble() == -1) {
        continue; // text ("Result DB path") is the run's metadata; NaN, as in a percentile row, no sample
      }
      EvalscopeNames.Figure f = EvalscopeNames.SUMMARY.get(e.getKey());
      String[] other = f == null ? ToolMetricNames.split(e.getKey()) : null;
      String metric = f != null ? f.metric() : other[0];
      String unit = f != null ? f.unit() : other[1];
      double d = v.asDouble();
      String bad = Checked.figureProblem(e.getKey(), d, unit);
      if (bad == null && metric.equals("concurrency") && f != null) {
        bad = prefixed(e.getKey(), Checked.levelProblem("concurrency", d));
      } else if (bad == null && metric.equals("request_rate") && f != null && d > 0) {
        bad = prefixed(e.getKey(), Checked.levelProblem("request_rate", d)); // 0 paced nothing: no level
      }
      if (bad != null) {
        rejects++;
        sink.reject(1, bad + "; not kept", null, 0, 0);
        continue;
      }
      sink.reportedMetric(run, level, metric, f != null ? f.stat() : "value", d, unit);
      n++;
    }
    if (n == 0) {
      sink.reject(1, "no EvalScope figure (a number under a key like \"Test Duration (s)\") in the object", null, 0, 0);
    } else {
      sink.record();
    }
    return rejects;
  }

  private static String prefixed(String key, String problem) {
    return problem == null ? null : key + ": " + problem;
  }

  private static JsonNode first(JsonNode doc, String a, String b) {
    return doc.has(a) ? doc.get(a) : doc.get(b);
  }
}
