package dev.tokentime.formats.console;

import dev.tokentime.formats.spec.WrapperLayer;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.TextLines;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The report MLCommons' endpoints harness prints and saves as {@code report.txt} beside its
 * {@code performance/result_summary.json}: {@code ----- Summary -----}, the run config's
 * {@code load_pattern: type=poisson, target_qps=170.0, …} (the level), the sample counts,
 * {@code Duration: … seconds}, {@code QPS}, {@code TPS}, then per series ({@code TTFT:},
 * {@code TPOT:}, {@code Latency:}, {@code Output sequence lengths:}) Min / Max / Median / Avg. /
 * Std Dev., its histogram (other lines), {@code Percentiles:} and the early-stopping estimates;
 * {@code N/A} (no value) is no figure, and {@code --summary-only}'s report ends at {@code End of
 * Summary}.
 * The figures are stored as mlperf-endpoints-json stores the JSON's (its names, ns and tokens:
 * the printed ms and seconds converted exactly), to the printed two decimals.
 */
public final class MlperfEndpointsConsoleFormat extends PrintedReportFormat {
  private static final Pattern START = Pattern.compile("^-+ Summary -+$");
  private static final Pattern END = Pattern.compile("^-+ End of (?:Report|Summary) -+$");
  private static final Pattern PATTERN = Pattern.compile("^load_pattern: type=([a-z_]+)(?:, target_qps=([^,]+))?"
      + "(?:, target_concurrency=([^,]+))?(?:,.*)?$");
  private static final Pattern SERIES = Pattern.compile("^(TTFT|TPOT|Latency|Output sequence lengths|Input sequence lengths):$");
  private static final Pattern STAT = Pattern.compile("^(Min|Max|Median|Avg\\.|Std Dev\\.): (\\S+) (ms|tokens)$");
  private static final Pattern PERCENT = Pattern.compile("^(\\d{1,3}(?:\\.\\d+)?): (\\S+)(?: (ms|tokens))?$");
  private static final Pattern SCALAR = Pattern.compile(
      "^(Total samples issued|Total samples completed|Total samples failed|Duration|QPS|TPS): (\\S+)(?: (seconds))?$");
  private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(?:\\.[0-9]+)?");
  private static final Pattern SNIFF = Pattern.compile(
      "(?m)^-+ Summary -+[ \\t]*\\R(?:Version: [^\\n]*\\R)?(?:[^\\n]*\\R){0,12}?Total samples issued: [0-9]+");
  private static final Map<String, String> SERIES_NAMES = Map.of("TTFT", "ttft", "TPOT", "tpot", "Latency", "e2el",
      "Output sequence lengths", "output_sequence_lengths", "Input sequence lengths", "input_sequence_lengths");
  private static final Map<String, String> STAT_NAMES = Map.of("Min", "min", "Max", "max", "Median", "median",
      "Avg.", "mean", "Std Dev.", "std");
  /** The printed scalar → {metric, unit, factor to that unit}. */
  private static final Map<String, String[]> SCALARS = Map.of(
      "Total samples issued", new String[] {"n_samples_issued", "requests", "1"},
      "Total samples completed", new String[] {"n_samples_completed", "requests", "1"},
      "Total samples failed", new String[] {"n_samples_failed", "requests", "1"},
      "Duration", new String[] {"duration", "ns", "1000000000"},
      "QPS", new String[] {"request_throughput", "samples/s", "1"},
      "TPS", new String[] {"output_throughput", "tokens/s", "1"});

  public MlperfEndpointsConsoleFormat() {
    super("mlperf-endpoints-console",
        "reported_metrics",
        "MLCommons endpoints harness's printed report (report.txt)",
        SNIFF, 60);
  }

  /**
   * A submission's {@code <benchmark>/<Scenario>/report.txt} is the run of the
   * {@code performance/result_summary.json} below it: {@code <benchmark>/<Scenario>}.
   */
  @Override
  public String runOf(java.nio.file.Path file) {
    java.nio.file.Path dir = file.getParent();
    if (dir == null || dir.getFileName() == null || !java.nio.file.Files.isDirectory(dir.resolve("performance"))) {
      return null;
    }
    java.nio.file.Path bench = dir.getParent();
    return (bench == null || bench.getFileName() == null ? "" : bench.getFileName() + "/") + dir.getFileName();
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    WrapperLayer wrappers = new WrapperLayer();
    int[] runs = {0};
    String[] run = {null};
    Double[] level = {null};
    String[] series = {null};
    String[] section = {null}; // stats, percentiles, early_stopping, histogram
    return TextLines.read(in, sink, "the endpoints harness's report", (lineNo, text) -> {
      String line = BenchConsoleFormat.consoleLine(wrappers, text).strip();
      if (START.matcher(line).matches()) {
        runs[0]++;
        run[0] = runs[0] == 1 ? ctx.defaultRun() : ctx.defaultRun() + "#" + runs[0];
        level[0] = null;
        series[0] = null;
        section[0] = null;
        sink.otherLine();
        return null;
      }
      if (run[0] == null) {
        sink.otherLine();
        return null;
      }
      if (END.matcher(line).matches()) {
        run[0] = null;
        sink.otherLine();
        return null;
      }
      Matcher m = PATTERN.matcher(line);
      if (m.matches()) {
        String kind = m.group(1).equals("poisson") ? "request_rate" : m.group(1).equals("concurrency") ? "concurrency" : null;
        String v = kind == null ? null : kind.equals("request_rate") ? m.group(2) : m.group(3);
        if (v != null && NUMBER.matcher(v.strip()).matches()) {
          double lv = Double.parseDouble(v.strip());
          String bad = Checked.levelProblem(kind, lv);
          if (bad != null) {
            return "the report's load pattern: " + bad;
          }
          level[0] = lv;
        }
        String conflict = sink.runLevel(run[0], level[0] == null ? null : kind, level[0], null,
            "endpoints harness load pattern " + m.group(1));
        if (conflict != null) {
          return conflict;
        }
        sink.otherLine();
        return null;
      }
      Matcher sc = SCALAR.matcher(line);
      if (sc.matches() && sc.group(2).equals("N/A")) {
        sink.otherLine(); // a figure the harness had no value of (no duration, no tokenizer)
        return null;
      }
      if (sc.matches()) {
        String[] name = SCALARS.get(sc.group(1));
        return figure(sink, run[0], level[0], name[0], "value", sc.group(2), name[1], new BigDecimal(name[2]), line);
      }
      Matcher se = SERIES.matcher(line);
      if (se.matches()) {
        series[0] = SERIES_NAMES.get(se.group(1));
        section[0] = "stats";
        sink.otherLine();
        return null;
      }
      if (series[0] != null) {
        if (line.equals("Histogram:")) {
          section[0] = "histogram";
        } else if (line.equals("Percentiles:")) {
          section[0] = "percentiles";
        } else if (line.startsWith("Early-stopping percentile estimates")) {
          section[0] = "early_stopping";
        } else if (!line.isEmpty() && !section[0].equals("histogram")) {
          String unit = series[0].endsWith("lengths") ? "tokens" : "ns";
          Matcher st = STAT.matcher(line);
          if (section[0].equals("stats") && st.matches() && st.group(2).equals("N/A")) {
            sink.otherLine(); // a statistic the harness had no value of (NaN, None)
            return null;
          }
          if (section[0].equals("stats") && st.matches()) {
            return printed(sink, run[0], level[0], series[0], STAT_NAMES.get(st.group(1)), st.group(2), st.group(3), unit, line);
          }
          Matcher p = PERCENT.matcher(line);
          if (!section[0].equals("stats") && p.matches()) {
            if (p.group(2).equals("N/A")) {
              sink.otherLine(); // an estimate with too few samples
              return null;
            }
            String stat = "p" + new BigDecimal(p.group(1)).stripTrailingZeros().toPlainString()
                + (section[0].equals("early_stopping") ? "_early_stopping" : "");
            return printed(sink, run[0], level[0], series[0], stat, p.group(2), p.group(3), unit, line);
          }
          return "a cut line: the report's " + series[0] + " line '" + line + "' does not read whole";
        }
        sink.otherLine();
        return null;
      }
      sink.otherLine(); // the run config's other settings, the accuracy section, the rules
      return null;
    });
  }

  /** A series figure as printed: ms to ns exactly, tokens as they are. */
  private static String printed(RecordSink sink, String run, Double level, String metric, String stat, String value,
      String printedUnit, String unit, String line) {
    if (printedUnit == null || !(printedUnit.equals("ms") ? unit.equals("ns") : printedUnit.equals(unit))) {
      return "a cut line: the report's " + metric + " line '" + line + "' does not read whole (its unit)";
    }
    return figure(sink, run, level, metric, stat, value, unit,
        printedUnit.equals("ms") ? BigDecimal.valueOf(1_000_000) : BigDecimal.ONE, line);
  }

  private static String figure(RecordSink sink, String run, Double level, String metric, String stat, String value,
      String unit, BigDecimal factor, String line) {
    if (!NUMBER.matcher(value).matches()) {
      return "a cut line: the report's '" + line + "' has no number";
    }
    double v = new BigDecimal(value).multiply(factor).doubleValue();
    String bad = unit.equals("requests") ? Checked.countFigureProblem(metric, v) : Checked.figureProblem(metric, v, unit);
    if (bad != null) {
      return bad;
    }
    sink.reportedMetric(run, level, metric, stat, v, unit);
    sink.record();
    return null;
  }
}
