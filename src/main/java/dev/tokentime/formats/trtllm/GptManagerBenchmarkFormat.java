package dev.tokentime.formats.trtllm;

import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import dev.tokentime.ingest.TextLines;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The summary TensorRT-LLM's C++ serving benchmark prints ({@code benchmarks/cpp/gptManagerBenchmark},
 * its Recorder's report): {@code [BENCHMARK] name(unit) value} lines. {@code avg_}, {@code max_},
 * {@code min_}, {@code pNN_} name a statistic of the rest ({@code p99_sequence_latency(ms)} is
 * metric sequence_latency, stat p99, ms); the others are figures of the run (stat value). The
 * command line printed before it ({@code gptManagerBenchmark … --request_rate 10}) gives the run's
 * level. Lines count; each figure's line is a record, any other line an other line.
 */
public final class GptManagerBenchmarkFormat extends NamedFormat {
  private static final Pattern FIGURE = Pattern.compile(
      "^\\[BENCHMARK\\] ([a-z][a-z0-9_]*)(?:\\(([^)]*)\\))? (-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|-?nan|-?inf)$");
  private static final Pattern STAT = Pattern.compile("^(avg|max|min|p\\d+)_(.+)$");
  /** Lines only this report prints (benchmarks/python/benchmark.py's one line starts "[BENCHMARK] model_name"). */
  private static final Pattern SNIFF = Pattern.compile(
      "(?m)^\\s*\\[BENCHMARK\\] (?:num_samples \\d+|seq_throughput\\(seq/sec\\) |total_latency\\(ms\\) "
      + "|token_throughput\\(token/sec\\) |avg_sequence_latency\\(ms\\) )");
  /** The benchmark's load on its command line; -1 (its default for the rate) is all requests at once. */
  private static final Pattern LOAD = Pattern.compile("--(request_rate|concurrency)[ =]([0-9]+(?:\\.[0-9]+)?)(?=\\s|$)");

  public GptManagerBenchmarkFormat() {
    super("trtllm-gptmanager-benchmark",
        "runs, reported_metrics",
        "TensorRT-LLM benchmarks/cpp/gptManagerBenchmark's printed summary ([BENCHMARK] name(unit) value)");
  }

  @Override
  public boolean runPerFile() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    Matcher m = SNIFF.matcher(sample.text());
    int n = 0;
    while (n < 2 && m.find()) {
      n++;
    }
    return n >= 2 ? 88 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    Report r = new Report(ctx, sink);
    return TextLines.read(in, sink, "a benchmark summary", (lineNo, text) -> r.line(text.strip()));
  }

  /** One file's reports: a run each, the k-th {@code <run>#k}. */
  private static final class Report {
    private final ParseContext ctx;
    private final RecordSink sink;
    private int runs;
    private String run;
    private Double level;
    private String pendingKind;
    private Double pendingLevel;
    private final List<String[]> seen = new ArrayList<>(); // {metric, stat, value} of the run

    Report(ParseContext ctx, RecordSink sink) {
      this.ctx = ctx;
      this.sink = sink;
    }

    /** Accounts for one line; a reject's reason, or null. */
    String line(String line) {
      if (!line.startsWith("[BENCHMARK]")) {
        if (line.contains("gptManagerBenchmark")) {
          Matcher load = LOAD.matcher(line);
          while (load.find()) {
            double v = Double.parseDouble(load.group(2));
            if (v > 0 && (pendingKind == null || load.group(1).equals("concurrency"))) {
              pendingKind = load.group(1).equals("concurrency") ? "concurrency" : "request_rate";
              pendingLevel = v;
            }
          }
        }
        sink.otherLine();
        return null;
      }
      Matcher m = FIGURE.matcher(line);
      if (!m.matches()) {
        if (line.startsWith("[BENCHMARK] model_name ")) {
          return "benchmarks/python/benchmark.py's static-batch line (many figures on one line): not read";
        }
        return "not a '[BENCHMARK] name(unit) value' line (a cut line?)";
      }
      String name = m.group(1);
      String unit = m.group(2) == null ? (name.startsWith("num_") ? "count" : "") : m.group(2);
      double v;
      try {
        v = Double.parseDouble(m.group(3));
      } catch (NumberFormatException e) {
        v = Double.NaN; // "nan", "inf": printf's for a figure of no sample
      }
      Matcher s = STAT.matcher(name);
      String metric = s.matches() ? s.group(2) : name;
      String stat = s.matches() ? s.group(1) : "value";
      // the report opens with num_samples, and prints it again before its figures: the next run
      // starts where it comes after other figures
      if (run == null || name.equals("num_samples")
          && seen.stream().anyMatch(f -> !f[0].startsWith("num_"))) {
        nextRun();
      }
      String value = Double.toString(v);
      if (seen.stream().anyMatch(f -> f[0].equals(metric) && f[1].equals(stat) && f[2].equals(value))) {
        sink.otherLine(); // num_samples printed twice: one figure
        return null;
      }
      String bad = Checked.figureProblem(name, v, unit);
      if (bad != null) {
        return bad + "; not kept";
      }
      seen.add(new String[] {metric, stat, value});
      sink.reportedMetric(run, level, metric, stat, v, unit);
      sink.record();
      return null;
    }

    private void nextRun() {
      runs++;
      run = runs == 1 ? ctx.defaultRun() : ctx.defaultRun() + "#" + runs;
      seen.clear();
      level = null;
      if (pendingKind != null) {
        String conflict = sink.runLevel(run, pendingKind, pendingLevel, null,
            "gptManagerBenchmark command line (--" + (pendingKind.equals("concurrency") ? "concurrency" : "request_rate") + ")");
        level = conflict == null ? pendingLevel : null;
      }
      pendingKind = null;
      pendingLevel = null;
    }
  }
}
