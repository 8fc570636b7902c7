package dev.tokentime.formats.console;

import dev.tokentime.formats.spec.WrapperLayer;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.TextLines;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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
public final class PerfAnalyzerConsoleFormat extends PrintedReportFormat {
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
  /** An ensemble's sub-models, each with its own server figures: not the ensemble run's. */
  private static final Pattern COMPOSING = Pattern.compile("^Composing models:$");
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

  public PerfAnalyzerConsoleFormat() {
    super("perf-analyzer-console",
        "reported_metrics",
        "Triton perf_analyzer's printed blocks per concurrency / request rate and its closing table",
        SNIFF, 70);
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
        String lp = Checked.levelProblem(pendingKind, pendingLevel);
        if (lp != null) {
          inBlock = false;
          pendingKind = null;
          return "perf_analyzer's level " + m.group(2) + ": " + lp;
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
        String lp = Checked.levelProblem(kind, lv);
        if (lp != null) {
          return "perf_analyzer's level " + m.group(2) + ": " + lp;
        }
        if (runOfLevel.containsKey(kind + " " + lv)) {
          return null; // its block's figures again, rounded as the block printed them
        }
        List<Figure> figs = new ArrayList<>();
        String bad = check(figs, "throughput", "value", m.group(3), "infer/sec");
        bad = bad != null ? bad : check(figs, "latency", summaryStat, m.group(4), "usec");
        bad = bad != null ? bad : start(kind, lv, "perf_analyzer closing table");
        return store(bad, figs);
      }
      if (!inBlock) {
        return null;
      }
      if (COMPOSING.matcher(line).matches()) {
        inBlock = false; // the sub-models' figures until the next level's block
        return null;
      }
      List<Figure> figs = new ArrayList<>();
      String bad = figures(line, figs);
      if (bad == null || !bad.isEmpty()) {
        return bad;
      }
      if (pendingKind != null) {
        bad = start(pendingKind, pendingLevel, "perf_analyzer block");
        pendingKind = null;
        if (bad != null) {
          inBlock = false;
          return bad;
        }
      }
      return store(null, figs);
    }

    /** A figure line's figures, each checked, into {@code figs}: "", a reject's reason, or null for another line. */
    private String figures(String line, List<Figure> figs) {
      Matcher m = COUNT.matcher(line);
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
        return ok(check(figs, metric, "value", m.group(2), unit));
      }
      m = THROUGHPUT.matcher(line);
      if (m.matches()) {
        return ok(check(figs, "throughput", "value", m.group(1), "infer/sec"));
      }
      m = AVG_LATENCY.matcher(line);
      if (m.matches()) {
        String bad = check(figs, "latency", "avg", m.group(1), "usec");
        return ok(bad != null ? bad : check(figs, "latency", "std", m.group(2), "usec"));
      }
      m = PERCENTILE.matcher(line);
      if (m.matches()) {
        return ok(check(figs, "latency", "p" + m.group(1), m.group(2), "usec"));
      }
      m = OVERHEAD.matcher(line);
      if (m.matches()) {
        return ok(check(figs, "client_overhead", "avg", m.group(1), "%"));
      }
      m = PARTS.matcher(line);
      if (m.matches()) {
        boolean server = m.group(1).equals("request latency");
        String bad = check(figs, server ? "server_request_latency" : snake(m.group(1)), "avg", m.group(2), "usec");
        for (String part : m.group(3).split(" \\+ ")) {
          Matcher p = PART.matcher(part.strip());
          if (bad == null && !p.matches()) {
            bad = "perf_analyzer's " + m.group(1) + " part '" + part.strip() + "' is no '<name> N usec'";
          }
          if (bad == null) {
            bad = check(figs, (server ? "server_" : "") + snake(p.group(1)), "avg", p.group(2), "usec");
          }
        }
        return ok(bad);
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

    private static String ok(String bad) {
      return bad != null ? bad : "";
    }

    /** A line's figures once all of them read: a line rejected stores none. */
    private String store(String bad, List<Figure> figs) {
      if (bad != null) {
        return bad;
      }
      for (Figure f : figs) {
        sink.reportedMetric(run, level, f.metric(), f.stat(), f.value(), f.unit());
      }
      sink.record();
      return "";
    }

    private static String check(List<Figure> figs, String metric, String stat, String number, String unit) {
      double v = Double.parseDouble(number);
      String bad = Checked.figureProblem(metric + (stat.equals("value") ? "" : " " + stat), v, unit);
      if (bad == null) {
        figs.add(new Figure(metric, stat, v, unit));
      }
      return bad;
    }
  }

  private record Figure(String metric, String stat, double value, String unit) {}
}
