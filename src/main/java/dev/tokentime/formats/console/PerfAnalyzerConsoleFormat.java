package dev.tokentime.formats.console;

import dev.tokentime.formats.spec.WrapperLayer;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import dev.tokentime.ingest.TextLines;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Triton's perf_analyzer prints: a block per load level ({@code Request concurrency: 4} or
 * {@code Request Rate: 10 inference requests per seconds}, then {@code Client:} with
 * {@code Request count}, {@code Throughput: X infer/sec}, {@code Avg latency: X usec (standard
 * deviation Y usec)}, {@code pNN latency}, {@code Avg HTTP|gRPC time: X usec (parts)}, and
 * {@code Server:} with its counts and {@code Avg request latency: X usec (overhead … + queue … +
 * compute input … + compute infer … + compute output …)}), and the closing table
 * ({@code Concurrency: 4, throughput: 83 infer/sec, latency 48064 usec}). Each level is a run
 * whose figures become reported_metrics in perf_analyzer's own units (usec, infer/sec), under the
 * names its -f CSV gives them (perf-analyzer-csv), so one metric has one unit whichever output it
 * came from. Whole inferences only: perf_analyzer prints no token timing.
 */
public final class PerfAnalyzerConsoleFormat implements InputFormat {
  private static final String NUM = "([0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)";
  private static final Pattern LEVEL = Pattern.compile(
      "^Request (concurrency|Rate): " + NUM + "(?: inference requests per seconds)?$");
  /** The closing table's row: a level's throughput and its stabilising latency (avg or pNN). */
  private static final Pattern SUMMARY = Pattern.compile(
      "^(Concurrency|Request Rate): " + NUM + ", throughput: " + NUM + " infer/sec, latency " + NUM + " usec$");
  private static final Pattern SUMMARY_TITLE = Pattern.compile(
      "^Inferences/Second vs\\. Client (?:Average|p([0-9]{1,2})) Batch Latency$");
  private static final Pattern COUNT = Pattern.compile(
      "^(Request count|Inference count|Execution count|Successful request count|Sequence count): ([0-9]+)$");
  private static final Pattern THROUGHPUT = Pattern.compile("^Throughput: " + NUM + " infer/sec$");
  private static final Pattern AVG_LATENCY = Pattern.compile(
      "^Avg latency: " + NUM + " usec \\(standard deviation " + NUM + " usec\\)$");
  private static final Pattern PERCENTILE = Pattern.compile("^p([0-9]{1,2}) latency: " + NUM + " usec$");
  /** Avg HTTP time, Avg gRPC time, the server's Avg request latency: a total and its parts. */
  private static final Pattern PARTS = Pattern.compile(
      "^Avg (HTTP time|gRPC time|request latency): " + NUM + " usec \\((.*)\\)$");
  private static final Pattern PART = Pattern.compile("^([A-Za-z/() ]+?) " + NUM + " usec$");
  /** perf_analyzer's own share of the client's time (24.x). */
  private static final Pattern OVERHEAD = Pattern.compile("^Avg client overhead: " + NUM + "%$");
  private static final Pattern LEVEL_LABEL = Pattern.compile("^Request (?:concurrency|Rate): .*");
  /** The start of a figure's line: such a line that does not read whole is cut. */
  private static final Pattern FIGURE_LABEL = Pattern.compile(
      "^(?:Request count|Inference count|Execution count|Successful request count|Sequence count|Throughput"
      + "|Avg latency|Avg client overhead|p[0-9]{1,2} latency|Avg HTTP time|Avg gRPC time|Avg request latency)\\b.*");
  private static final Pattern SNIFF = Pattern.compile(
      "(?m)^[ \\t]*(?:Request (?:concurrency: [0-9]+|Rate: [0-9.]+ inference requests per seconds)[ \\t]*\\R(?:.*\\R){0,12}?[ \\t]*Client:[ \\t]*\\R"
      + "(?:.*\\R){0,3}?[ \\t]*Request count: [0-9]+"
      + "|Inferences/Second vs\\. Client (?:Average|p[0-9]+) Batch Latency[ \\t]*\\R[ \\t]*(?:Concurrency|Request Rate): "
      + "[0-9.]+, throughput: [0-9.eE+-]+ infer/sec, latency [0-9]+ usec)");

  @Override
  public String id() {
    return "perf-analyzer-console";
  }

  @Override
  public String description() {
    return "Triton perf_analyzer's printed blocks per concurrency / request rate and its closing table";
  }

  @Override
  public String fills() {
    return "reported_metrics";
  }

  @Override
  public boolean runPerFile() {
    return true;
  }

  /** The blocks come after whatever the run printed before (settings, warnings, a shell prompt). */
  @Override
  public boolean readsFromAnywhere() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    // the tool's own block header and section, or its closing table under its own title
    return SNIFF.matcher(WrapperLayer.peelLines(sample)).find() ? 70 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    Reader r = new Reader(ctx, sink);
    WrapperLayer wrappers = new WrapperLayer();
    return TextLines.read(in, sink, "perf_analyzer's printout", (lineNo, text) -> {
      String reason = r.line(BenchConsoleFormat.consoleLine(wrappers, text).strip());
      if (reason == null) {
        sink.otherLine();
      }
      return reason == null || reason.isEmpty() ? null : reason;
    });
  }

  /** The name a figure of the server's breakdown has in perf_analyzer's CSV ("compute input" → server_compute_input). */
  static String snake(String words) {
    return words.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_|_$", "");
  }

  /** One file's levels: a run each, the k-th {@code <run>#k}. */
  private static final class Reader {
    private final ParseContext ctx;
    private final RecordSink sink;
    private final Map<String, String> runOfLevel = new HashMap<>();
    private int runs;
    private String run;
    private Double level;
    private boolean inBlock;
    /** The level of the block open, whose run starts at its first figure; null once started. */
    private String pendingKind;
    private Double pendingLevel;
    /** The closing table's latency: "avg", or the percentile perf_analyzer stabilised on. */
    private String summaryStat;

    Reader(ParseContext ctx, RecordSink sink) {
      this.ctx = ctx;
      this.sink = sink;
    }

    /** "" when the line was a figure (counted), a reject's reason, or null for another line. */
    String line(String line) {
      Matcher m = LEVEL.matcher(line);
      if (m.matches()) {
        // the run starts at the block's first figure: a level that printed none (killed while
        // stabilising) is no run
        pendingKind = m.group(1).equals("concurrency") ? "concurrency" : "request_rate";
        pendingLevel = Double.parseDouble(m.group(2));
        if (!Double.isFinite(pendingLevel)) {
          inBlock = false;
          return "perf_analyzer's level " + m.group(2) + " is no finite number";
        }
        inBlock = true;
        summaryStat = null;
        return null;
      }
      if (LEVEL_LABEL.matcher(line).matches()) {
        inBlock = false;
        return "a cut line: perf_analyzer's level '" + line + "' does not read whole (Request concurrency: N, "
            + "Request Rate: R inference requests per seconds)";
      }
      m = SUMMARY_TITLE.matcher(line);
      if (m.matches()) {
        inBlock = false;
        summaryStat = m.group(1) == null ? "avg" : "p" + m.group(1);
        return null;
      }
      m = SUMMARY.matcher(line);
      if (m.matches() && summaryStat != null) {
        String kind = m.group(1).equals("Concurrency") ? "concurrency" : "request_rate";
        double lv = Double.parseDouble(m.group(2));
        if (!Double.isFinite(lv)) {
          return "perf_analyzer's level " + m.group(2) + " is no finite number";
        }
        if (runOfLevel.containsKey(kind + " " + lv)) {
          return null; // its block's figures again, rounded as the block printed them
        }
        String bad = start(kind, lv, "perf_analyzer closing table");
        bad = bad != null ? bad : put("throughput", "value", m.group(3), "infer/sec");
        bad = bad != null ? bad : put("latency", summaryStat, m.group(4), "usec");
        return done(bad);
      }
      if (!inBlock) {
        return null;
      }
      if (pendingKind != null && FIGURE_LABEL.matcher(line).matches()) {
        String bad = start(pendingKind, pendingLevel, "perf_analyzer block");
        pendingKind = null;
        if (bad != null) {
          inBlock = false;
          return bad;
        }
      }
      m = COUNT.matcher(line);
      if (m.matches()) {
        String what = m.group(1);
        String metric = switch (what) {
          case "Request count" -> "request_count";
          case "Sequence count" -> "sequence_count";
          case "Inference count" -> "server_inference_count";
          case "Execution count" -> "server_execution_count";
          default -> "server_success_count";
        };
        String unit = what.equals("Sequence count") ? "sequences" : what.equals("Inference count") ? "inferences"
            : what.equals("Execution count") ? "executions" : "requests";
        return done(put(metric, "value", m.group(2), unit));
      }
      m = THROUGHPUT.matcher(line);
      if (m.matches()) {
        return done(put("throughput", "value", m.group(1), "infer/sec"));
      }
      m = AVG_LATENCY.matcher(line);
      if (m.matches()) {
        String bad = put("latency", "avg", m.group(1), "usec");
        return done(bad != null ? bad : put("latency", "std", m.group(2), "usec"));
      }
      m = PERCENTILE.matcher(line);
      if (m.matches()) {
        return done(put("latency", "p" + m.group(1), m.group(2), "usec"));
      }
      m = OVERHEAD.matcher(line);
      if (m.matches()) {
        return done(put("client_overhead", "avg", m.group(1), "%"));
      }
      m = PARTS.matcher(line);
      if (m.matches()) {
        boolean server = m.group(1).equals("request latency");
        String bad = put(server ? "server_request_latency" : snake(m.group(1)), "avg", m.group(2), "usec");
        for (String part : m.group(3).split(" \\+ ")) {
          Matcher p = PART.matcher(part.strip());
          if (bad == null && !p.matches()) {
            bad = "perf_analyzer's " + m.group(1) + " part '" + part.strip() + "' is no '<name> N usec'";
          }
          if (bad == null) {
            bad = put((server ? "server_" : "") + snake(p.group(1)), "avg", p.group(2), "usec");
          }
        }
        return done(bad);
      }
      if (FIGURE_LABEL.matcher(line).matches()) {
        return "a cut line: perf_analyzer's figure '" + line + "' does not read whole (its number and usec or infer/sec)";
      }
      return null; // Client:, Server:, a verbose Pass line, a figure of a newer version not read
    }

    private String start(String kind, double lv, String how) {
      runs++;
      run = runs == 1 ? ctx.defaultRun() : ctx.defaultRun() + "#" + runs;
      level = lv;
      runOfLevel.put(kind + " " + lv, run);
      return sink.runLevel(run, kind, lv, null, how);
    }

    private String done(String bad) {
      if (bad != null) {
        return bad;
      }
      sink.record();
      return "";
    }

    private String put(String metric, String stat, String number, String unit) {
      double v = Double.parseDouble(number);
      String bad = Checked.figureProblem(metric + (stat.equals("value") ? "" : " " + stat), v, unit);
      if (bad != null) {
        return bad;
      }
      sink.reportedMetric(run, level, metric, stat, v, unit);
      return null;
    }
  }
}
