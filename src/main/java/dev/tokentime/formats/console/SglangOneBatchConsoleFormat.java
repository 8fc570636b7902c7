package dev.tokentime.formats.console;

import dev.tokentime.formats.spec.WrapperLayer;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.TextLines;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What SGLang's {@code python -m sglang.bench_one_batch_server} prints per case: {@code batch
 * size: 16}, {@code input_len: 1024}, {@code output_len: 16}, {@code latency: 0.50 s}, the
 * throughputs in tok/s (token/s in 2024), {@code ttft: 0.11 s} (2025) or {@code last_ttft: 0.33 s},
 * {@code acc_length}, {@code cache hit rate}. Each case is a run at concurrency batch_size, its
 * figures under the names and units of its result line (sglang-bench-jsonl); the warm-up case
 * between {@code ======== Warmup Begin ========} and {@code Warmup End} is no run.
 */
public final class SglangOneBatchConsoleFormat extends PrintedReportFormat {
  private static final String NUM = "([0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)";
  private static final Pattern BATCH = Pattern.compile("^batch size: ([0-9]+)$");
  private static final Pattern FIGURE = Pattern.compile(
      "^(input_len|output_len|latency|ttft|last_ttft|last generation throughput|input throughput|output throughput"
      + "|\\(input \\+ output\\) throughput|acc_length|cache hit rate): " + NUM + "(?: (s|tok/s|token/s))?$");
  private static final Pattern LABEL = Pattern.compile(
      "^(?:batch size|input_len|output_len|latency|ttft|last_ttft|last generation throughput|input throughput"
      + "|output throughput|\\(input \\+ output\\) throughput|acc_length|cache hit rate):.*");
  private static final Pattern WARMUP = Pattern.compile("^=+ Warmup (Begin|End) +=+$");
  private static final Pattern SNIFF = Pattern.compile(
      "(?m)^[ \\t]*batch size: [0-9]+[ \\t]*\\R(?:[ \\t]*input_len: [0-9]+[ \\t]*\\R[ \\t]*output_len: [0-9]+[ \\t]*\\R)?"
      + "[ \\t]*latency: [0-9.]+ s[ \\t]*\\R[ \\t]*(?:ttft: |last_ttft: |input throughput: |output throughput: )");
  /** The printed label: the result line's key, its unit, the printed unit it must carry. */
  private static final Map<String, String[]> NAMES = Map.ofEntries(
      Map.entry("input_len", new String[] {"input_len", "tokens", null}),
      Map.entry("output_len", new String[] {"output_len", "tokens", null}),
      Map.entry("latency", new String[] {"latency", "s", "s"}),
      Map.entry("ttft", new String[] {"last_ttft", "s", "s"}), // the batch's last request's TTFT
      Map.entry("last_ttft", new String[] {"last_ttft", "s", "s"}),
      Map.entry("last generation throughput", new String[] {"last_gen_throughput", "tokens/s", "tok/s"}),
      Map.entry("input throughput", new String[] {"input_throughput", "tokens/s", "tok/s"}),
      Map.entry("output throughput", new String[] {"output_throughput", "tokens/s", "tok/s"}),
      Map.entry("(input + output) throughput", new String[] {"overall_throughput", "tokens/s", "tok/s"}),
      Map.entry("acc_length", new String[] {"acc_length", "tokens", null}),
      Map.entry("cache hit rate", new String[] {"cache_hit_rate", "ratio", null}));

  public SglangOneBatchConsoleFormat() {
    super("sglang-one-batch-console",
        "reported_metrics",
        "SGLang bench_one_batch_server printed figures: a run per batch size",
        SNIFF, 60);
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    WrapperLayer wrappers = new WrapperLayer();
    int[] runs = {0};
    String[] run = {null};
    Double[] level = {null};
    boolean[] warmup = {false};
    return TextLines.read(in, sink, "bench_one_batch_server's printout", (lineNo, text) -> {
      String line = BenchConsoleFormat.consoleLine(wrappers, text).strip();
      Matcher w = WARMUP.matcher(line);
      if (w.matches()) {
        warmup[0] = w.group(1).equals("Begin");
        sink.otherLine();
        return null;
      }
      if (warmup[0]) {
        sink.otherLine(); // the warm-up case (batch 16, 1024 in, 16 out) is no run
        return null;
      }
      Matcher b = BATCH.matcher(line);
      if (b.matches()) {
        double lv = Double.parseDouble(b.group(1));
        String levelBad = Checked.levelProblem("concurrency", lv);
        if (levelBad != null) {
          run[0] = null; // its figures are no run's
          return "bench_one_batch_server's batch size: " + levelBad;
        }
        runs[0]++;
        run[0] = runs[0] == 1 ? ctx.defaultRun() : ctx.defaultRun() + "#" + runs[0];
        level[0] = lv;
        String conflict = sink.runLevel(run[0], "concurrency", level[0], null, "bench_one_batch_server case");
        if (conflict != null) {
          run[0] = null;
          return conflict;
        }
        sink.reportedMetric(run[0], level[0], "batch_size", "value", level[0], "requests");
        sink.record();
        return null;
      }
      if (run[0] == null || !LABEL.matcher(line).matches()) {
        sink.otherLine();
        return null;
      }
      Matcher m = FIGURE.matcher(line);
      String[] name = m.matches() ? NAMES.get(m.group(1)) : null;
      boolean unitOk = name != null && (name[2] == null ? m.group(3) == null
          : m.group(3) != null && (m.group(3).equals(name[2]) || name[2].equals("tok/s") && m.group(3).equals("token/s")));
      if (!unitOk) {
        return "a cut line: bench_one_batch_server's figure '" + line + "' does not read whole (its number and unit)";
      }
      double v = Double.parseDouble(m.group(2));
      String bad = Checked.figureProblem(name[0], v, name[1]);
      if (bad != null) {
        return bad;
      }
      sink.reportedMetric(run[0], level[0], name[0], "value", v, name[1]);
      sink.record();
      return null;
    });
  }
}
