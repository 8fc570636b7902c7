package dev.tokentime.formats.peers;

import dev.tokentime.formats.json.ToolMetricNames;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import dev.tokentime.ingest.TextLines;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * genai-perf {@code analyze}'s {@code analyze_export_genai_perf.csv}: the summary of a sweep,
 * written by Python's csv module (CRLF). First a table with a row per configuration it ran:
 * {@code Config Name,Concurrency|Request Rate,ISL,Num Prompts|Num Dataset Entries}, then the
 * figures genai-perf's {@code Analyze.PERF_METRICS_HEADER} names ({@code p99 Time To First Token
 * (ms)}, …, {@code Avg. Output Token Throughput (tokens/sec)}, {@code Request Throughput
 * (requests/sec)}); a blank row; then a table of the GPU's figures per configuration ({@code Config
 * Name,GPU,p99 GPU Power Usage (W),…}). Each configuration's row is a run at its level, its
 * figures reported_metrics under the names of profile_export_genai_perf.json (the display name in
 * snake case, the statistic from its prefix: {@code p99}, {@code Avg.} or none → {@code avg}), its
 * ISL the p99 input sequence length genai-perf took it from.
 */
public final class GenaiPerfAnalyzeCsvFormat extends NamedFormat {
  private static final Pattern SNIFF = Pattern.compile(
      "\\A\\uFEFF?Config Name,(?:Concurrency|Request Rate),ISL,Num (?:Prompts|Dataset Entries),[^\\r\\n]*\\((?:ms|tokens|tokens/sec|requests/sec)\\)");
  private static final Pattern PERF_HEADER = Pattern.compile(
      "Config Name,(Concurrency|Request Rate),ISL,(Num Prompts|Num Dataset Entries),.+");
  private static final Pattern GPU_HEADER = Pattern.compile("Config Name,GPU,.+");
  private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?");
  /** "p99 Time To First Token (ms)", "Avg. Output Token Throughput (tokens/sec)", "Request Throughput (requests/sec)". */
  private static final Pattern FIGURE = Pattern.compile("(?:(p[0-9]{1,2}|Avg\\.|Min|Max|Std)\\s+)?(.+\\(.+\\))");

  public GenaiPerfAnalyzeCsvFormat() {
    super("genai-perf-analyze-csv",
        "reported_metrics",
        "genai-perf analyze's analyze_export_genai_perf.csv: a run per configuration of the sweep, its p99 latencies and throughputs");
  }

  @Override
  public boolean runPerFile() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    String head = new String(sample.bytes(), 0, Math.min(sample.length(), 1024), StandardCharsets.UTF_8);
    return SNIFF.matcher(head).lookingAt() ? 95 : 0;
  }

  /** A figure column's metric, statistic and unit, or null for a column that is none. */
  static String[] column(String name) {
    Matcher m = FIGURE.matcher(name.strip());
    if (!m.matches()) {
      return null;
    }
    String[] tagged = ToolMetricNames.tagged(m.group(2));
    String stat = m.group(1) == null || m.group(1).equals("Avg.") ? "avg" : m.group(1).toLowerCase(Locale.ROOT);
    return new String[] {tagged[0], stat, tagged[1]};
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    List<String> header = new ArrayList<>();
    String[] table = {null};
    int[] runs = {0};
    return TextLines.read(in, sink, "a genai-perf analyze CSV", (lineNo, raw) -> {
      String text = raw.strip();
      if (lineNo == 1 && text.startsWith("\uFEFF")) {
        text = text.substring(1);
      }
      if (text.isEmpty()) {
        sink.otherLine();
        return null;
      }
      List<String> cells = cells(text);
      if (cells == null) {
        return "not a CSV row (a quote left open)";
      }
      if (PERF_HEADER.matcher(text).matches() || GPU_HEADER.matcher(text).matches()) {
        header.clear();
        header.addAll(cells);
        table[0] = header.get(1).equals("GPU") ? "gpu" : "perf";
        for (int i = 4; table[0].equals("perf") && i < header.size(); i++) {
          if (column(header.get(i)) == null) {
            return "a genai-perf analyze header whose column " + (i + 1) + " ('" + header.get(i) + "') names no figure";
          }
        }
        sink.otherLine();
        return null;
      }
      if (table[0] == null) {
        return "a genai-perf analyze row before its header (Config Name,Concurrency,ISL,…)";
      }
      if (cells.size() != header.size()) {
        return "a cut row: " + cells.size() + " of the header's " + header.size() + " cells";
      }
      if (table[0].equals("gpu")) {
        // the GPU's power, energy, utilisation and memory: no figure of the serving run
        sink.otherLine();
        return null;
      }
      for (int i = 1; i < cells.size(); i++) {
        if (!NUMBER.matcher(cells.get(i)).matches()) {
          return header.get(i) + ": '" + cells.get(i) + "' is no number";
        }
      }
      String kind = header.get(1).equals("Concurrency") ? "concurrency" : "request_rate";
      double level = Double.parseDouble(cells.get(1));
      String levelBad = Checked.levelProblem(kind, level);
      if (levelBad != null) {
        return header.get(1) + " " + cells.get(1) + ": " + levelBad;
      }
      double isl = Double.parseDouble(cells.get(2));
      String bad = Checked.figureProblem("ISL", isl, "tokens");
      for (int i = 4; bad == null && i < cells.size(); i++) {
        String[] c = column(header.get(i));
        bad = Checked.figureProblem(header.get(i), Double.parseDouble(cells.get(i)), c[2]);
      }
      if (bad != null) {
        return bad;
      }
      runs[0]++;
      String run = runs[0] == 1 ? ctx.defaultRun() : ctx.defaultRun() + "#" + runs[0];
      String conflict = sink.runLevel(run, kind, level, null,
          "genai-perf analyze " + cells.get(0) + " (" + header.get(3) + " " + cells.get(3) + ")");
      if (conflict != null) {
        return conflict;
      }
      sink.reportedMetric(run, level, "input_sequence_length", "p99", isl, "tokens");
      for (int i = 4; i < cells.size(); i++) {
        String[] c = column(header.get(i));
        sink.reportedMetric(run, level, c[0], c[1], Double.parseDouble(cells.get(i)), c[2]);
      }
      sink.record();
      return null;
    });
  }

  /** A row's cells as Python's csv writer quotes them (a cell with a comma or quote in quotes). */
  /** The line's cells (Commons CSV), or null when it is not one CSV record. */
  static List<String> cells(String line) {
    return CsvCells.of(line);
  }
}
