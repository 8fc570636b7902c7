package dev.tokentime.formats.console;

import dev.tokentime.formats.spec.WrapperLayer;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.TextLines;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What vLLM's offline benchmarks print: {@code vllm bench throughput} / benchmark_throughput.py's
 * line {@code Throughput: 89.27 requests/s, 22853.37 total tokens/s, 11426.69 output tokens/s}
 * (before vllm#8914 {@code Throughput: 81.74 requests/s, 20926.37 tokens/s}) with the
 * {@code Total num prompt tokens:} / {@code Total num output tokens:} lines after it, and
 * {@code vllm bench latency} / benchmark_latency.py's {@code Avg latency: X seconds} and
 * {@code NN% percentile latency: X seconds}. Figures under the names of their --output-json
 * (vllm-bench-offline-json); each line starting a result (the throughput line, Avg latency) starts
 * a run. Printed into a server's or an engine's log, the lines are read there (embeddedReader).
 */
public final class VllmOfflineConsoleFormat extends PrintedReportFormat {
  private static final String NUM = "(-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)";
  private static final Pattern THROUGHPUT = Pattern.compile(
      "^Throughput: " + NUM + " requests/s, " + NUM + " (total )?tokens/s(?:, " + NUM + " output tokens/s)?$");
  private static final Pattern TOTALS = Pattern.compile("^Total num (prompt|output) tokens:\\s+([0-9]+)$");
  private static final Pattern AVG = Pattern.compile("^Avg latency: " + NUM + " seconds$");
  private static final Pattern PERCENTILE = Pattern.compile("^([0-9]{1,2})% percentile latency: " + NUM + " seconds$");
  private static final Pattern SNIFF = Pattern.compile(
      "(?m)^[ \\t]*(?:Throughput: [0-9.]+ requests/s, [0-9.]+ (?:total )?tokens/s"
      + "|Avg latency: [0-9.eE+-]+ seconds[ \\t]*\\R[ \\t]*10% percentile latency: )");

  public VllmOfflineConsoleFormat() {
    super("vllm-bench-offline-console",
        "reported_metrics",
        "vllm bench throughput / latency (benchmark_throughput.py, benchmark_latency.py) printed figures",
        SNIFF, 60);
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    Reader r = new Reader(ctx, sink);
    WrapperLayer wrappers = new WrapperLayer();
    return TextLines.read(in, sink, "a benchmark's printout", (lineNo, text) -> {
      String reason = r.figure(consoleLine(wrappers, text));
      if (reason == null) {
        sink.otherLine();
      }
      return reason == null || reason.isEmpty() ? null : reason;
    });
  }

  @Override
  public EmbeddedReader embeddedReader(ParseContext ctx, RecordSink sink) {
    Reader r = new Reader(ctx, sink);
    WrapperLayer wrappers = new WrapperLayer();
    return new EmbeddedReader() {
      @Override
      public boolean offer(long lineNo, String text) {
        String reason = r.figure(consoleLine(wrappers, text));
        if (reason == null) {
          return false; // the host's line
        }
        if (!reason.isEmpty()) {
          byte[] b = text.getBytes(StandardCharsets.UTF_8);
          sink.reject(lineNo, reason, b, 0, b.length);
        }
        return true;
      }

      @Override
      public void end() {}
    };
  }

  /** A line without its collector's wrappers, a progress bar's last frame (tqdm's bar ends where a print follows it), stripped. */
  private static String consoleLine(WrapperLayer wrappers, String decoded) {
    return BenchConsoleFormat.consoleLine(wrappers, decoded).strip();
  }

  /** One file's (or log's) results: a run each, the k-th {@code <run>#k}. */
  private static final class Reader {
    private final ParseContext ctx;
    private final RecordSink sink;
    private int runs;
    private String run;
    /** The run open is a throughput's (its totals follow), a latency's (its percentiles), or none. */
    private String kind;

    Reader(ParseContext ctx, RecordSink sink) {
      this.ctx = ctx;
      this.sink = sink;
    }

    /** Reads a figure's line and accounts for it: "" when done, a reject's reason, or null for no line of these. */
    String figure(String line) {
      Matcher m = THROUGHPUT.matcher(line);
      if (m.matches()) {
        start("throughput");
        String bad = put("requests_per_second", "value", m.group(1), "requests/s");
        bad = bad != null ? bad : put("tokens_per_second", "value", m.group(2), "tokens/s");
        bad = bad != null || m.group(4) == null ? bad : put("output_tokens_per_second", "value", m.group(4), "tokens/s");
        return done(bad);
      }
      m = TOTALS.matcher(line);
      if (m.matches() && "throughput".equals(kind)) {
        return done(put("total_num_" + m.group(1) + "_tokens", "value", m.group(2), "tokens"));
      }
      m = AVG.matcher(line);
      if (m.matches()) {
        start("latency");
        return done(put("latency", "avg", m.group(1), "s"));
      }
      m = PERCENTILE.matcher(line);
      if (m.matches() && "latency".equals(kind)) {
        return done(put("latency", "p" + m.group(1), m.group(2), "s"));
      }
      return null;
    }

    private void start(String what) {
      runs++;
      run = runs == 1 ? ctx.defaultRun() : ctx.defaultRun() + "#" + runs;
      kind = what;
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
      sink.reportedMetric(run, null, metric, stat, v, unit);
      return null;
    }
  }
}
