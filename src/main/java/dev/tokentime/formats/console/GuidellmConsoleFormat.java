package dev.tokentime.formats.console;

import dev.tokentime.formats.spec.WrapperLayer;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.TextLines;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The tables GuideLLM (0.4 and later) prints when a benchmark run ends: a title line ({@code ℹ
 * Request Latency Statistics (Completed Requests)}), a rule of {@code =}, up to three header rows
 * whose group cells span the columns after them ({@code | TTFT || ITL ||}: an empty cell is the
 * group's next column), a rule of {@code -}, a row per benchmark ({@code | synchronous | 40.0 |
 * …}) and a closing rule. The k-th row of a table is the k-th benchmark of the run (run#k, as
 * guidellm-json names them). The table prints the strategy's type only: a synchronous row is at
 * concurrency 1, and the k-th concurrent (constant, poisson) row at the k-th of the streams
 * (rates) the resolved profile printed before the tables ({@code streams=[4]}, {@code rate=[1.0,
 * 5.0]}), when the list is on one line; otherwise the row has no level. The figures are stored under the names,
 * statistics and units of benchmarks.json ({@code time_to_first_token_ms} {@code median}, ms);
 * tables with no counterpart there (Run Summary Info, the per-modality text/image tables) are
 * other lines.
 */
public final class GuidellmConsoleFormat extends PrintedReportFormat {
  private static final Pattern TITLE = Pattern.compile(
      "^(?:ℹ\\s*)?((?:Run Summary Info|Text Metrics Statistics|Image Metrics Statistics|Video Metrics Statistics"
      + "|Audio Metrics Statistics|Tool Call Metrics Statistics|Request Token Statistics|Request Latency Statistics|Server Throughput Statistics)"
      + "(?: \\((?:Completed|All) Requests\\))?)$");
  private static final Pattern RULE = Pattern.compile("^\\|=+(?:\\|=+)*\\|$");
  private static final Pattern SEPARATOR = Pattern.compile("^\\|-+(?:\\|-+)*\\|$");
  private static final Pattern NUMBER = Pattern.compile("^-?[0-9]+(?:\\.[0-9]+)?$");
  private static final Pattern SNIFF = Pattern.compile(
      "(?m)^[ \\t]*(?:ℹ[ \\t]*)?(?:Request Latency Statistics|Server Throughput Statistics|Request Token Statistics)"
      + "[^\\n]*\\R[ \\t]*\\|=+\\|[=|]*\\R[ \\t]*\\| Benchmark +\\|");

  public GuidellmConsoleFormat() {
    super("guidellm-console",
        "reported_metrics",
        "GuideLLM's printed tables (0.4 and later): a run per benchmark row",
        SNIFF, 60);
  }

  /** Per table, a column's group and name (as the header prints them) → metric and unit. */
  private static final Map<String, Map<String, String[]>> COLUMNS = Map.of(
      "Request Latency Statistics", Map.of(
          "Request Latency/Sec", new String[] {"request_latency", "s"},
          "TTFT/ms", new String[] {"time_to_first_token_ms", "ms"},
          "TTFOT/ms", new String[] {"time_to_first_output_token_ms", "ms"},
          "ITL/ms", new String[] {"inter_token_latency_ms", "ms"},
          "TPOT/ms", new String[] {"time_per_output_token_ms", "ms"}),
      "Request Token Statistics", Map.of(
          "Input Tok/Per Req", new String[] {"prompt_token_count", "tokens"},
          "Output Tok/Per Req", new String[] {"output_token_count", "tokens"},
          "Total Tok/Per Req", new String[] {"total_token_count", "tokens"},
          "Stream Iter/Per Req", new String[] {"request_streaming_iterations_count", "count"},
          "Output Tok/Per Stream Iter", new String[] {"output_tokens_per_iteration", "tokens"}),
      "Server Throughput Statistics", Map.of(
          "Requests/Per Sec", new String[] {"requests_per_second", "requests/s"},
          "Requests/Concurrency", new String[] {"request_concurrency", "requests"},
          "Input Tokens/Per Sec", new String[] {"prompt_tokens_per_second", "tokens/s"},
          "Output Tokens/Per Sec", new String[] {"output_tokens_per_second", "tokens/s"},
          "Total Tokens/Per Sec", new String[] {"tokens_per_second", "tokens/s"}));
  private static final Pattern STREAMS = Pattern.compile("(?:\\bstreams=|'streams': )\\[([0-9., ]+)\\]");
  private static final Pattern RATES = Pattern.compile("(?:\\brate=|'rate': )\\[([0-9., ]+)\\]");
  /** What GuideLLM prints where a statistic has no value (None, NaN). */
  private static final java.util.Set<String> NO_VALUE = java.util.Set.of("", "--", "nan", "inf", "-inf");
  private static final Map<String, String> STATS = Map.of("Mdn", "median", "p95", "p95", "Mean", "mean");

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    WrapperLayer wrappers = new WrapperLayer();
    Table t = new Table();
    return TextLines.read(in, sink, "GuideLLM's printed tables", (lineNo, text) -> {
      String line = BenchConsoleFormat.consoleLine(wrappers, text).strip();
      var streams = STREAMS.matcher(line);
      if (streams.find()) {
        t.streams = numbers(streams.group(1));
      }
      var rates = RATES.matcher(line);
      if (rates.find()) {
        t.rates = numbers(rates.group(1));
      }
      var title = TITLE.matcher(line);
      if (title.matches()) {
        t.start(title.group(1));
        sink.otherLine();
        return null;
      }
      if (t.kind == null) {
        sink.otherLine();
        return null;
      }
      if (RULE.matcher(line).matches()) {
        // opens the header, or closes the rows (the text table opens its output half after it)
        t.headers.clear();
        t.inRows = false;
        sink.otherLine();
        return null;
      }
      if (SEPARATOR.matcher(line).matches()) {
        t.inRows = !t.headers.isEmpty();
        t.row = 0;
        sink.otherLine();
        return null;
      }
      if (!line.startsWith("|")) {
        t.kind = null; // the table has ended (a blank line, the next step's output)
        sink.otherLine();
        return null;
      }
      List<String> cells = cells(line);
      if (!t.inRows) {
        if (cells == null) {
          return "a cut line: GuideLLM's table header '" + line + "' does not end with its bar";
        }
        t.headers.add(cells);
        sink.otherLine();
        return null;
      }
      return t.row(line, cells, ctx, sink);
    });
  }

  /**
   * The cells of a row between its outer bars; an empty cell (nothing between two bars) stands
   * for the spanning cell before it. Null when the row does not end with a bar (a cut line).
   */
  static List<String> cells(String line) {
    if (line.length() < 2 || !line.endsWith("|")) {
      return null;
    }
    String[] parts = line.substring(1, line.length() - 1).split("\\|", -1);
    List<String> out = new ArrayList<>(parts.length);
    for (String p : parts) {
      out.add(p.isEmpty() ? null : p.strip());
    }
    return out;
  }

  /** A printed list of levels ({@code 1.0, 5.0}); an entry that is no number is null. */
  static List<Double> numbers(String list) {
    List<Double> out = new ArrayList<>();
    for (String x : list.split(",")) {
      try {
        out.add(Double.parseDouble(x.strip()));
      } catch (NumberFormatException e) {
        out.add(null);
      }
    }
    return out;
  }

  /** One table's state: its kind (the title without its status), header rows and row count. */
  private static final class Table {
    String kind;
    final List<List<String>> headers = new ArrayList<>();
    boolean inRows;
    int row;
    /** The profile's streams and rates, as printed before the tables (null: not printed). */
    List<Double> streams;
    List<Double> rates;
    /** The rows of the table so far per strategy type, to pick each one's level from the lists. */
    final Map<String, Integer> ofType = new java.util.HashMap<>();

    void start(String title) {
      int paren = title.indexOf(" (");
      kind = paren < 0 ? title : title.substring(0, paren);
      ofType.clear();
      headers.clear();
      inRows = false;
      row = 0;
    }

    /** The header row's label of column c: the spanning cell's text for an empty cell. */
    private static String label(List<String> header, int c) {
      for (int i = Math.min(c, header.size() - 1); i >= 0; i--) {
        if (header.get(i) != null) {
          return header.get(i);
        }
      }
      return "";
    }

    String row(String line, List<String> cells, ParseContext ctx, RecordSink sink) {
      int width = headers.get(headers.size() - 1).size();
      if (cells == null || cells.size() != width || cells.contains(null)) {
        return "a cut line: GuideLLM's table row '" + line + "' does not have its header's " + width + " cells";
      }
      row++;
      String run = row == 1 ? ctx.defaultRun() : ctx.defaultRun() + "#" + row;
      String strategy = cells.get(0);
      int k = ofType.merge(strategy, 1, Integer::sum) - 1;
      List<Double> levels = switch (strategy) {
        case "concurrent" -> streams;
        case "constant", "poisson" -> rates;
        default -> null;
      };
      Double level = strategy.equals("synchronous") ? Double.valueOf(1.0)
          : levels != null && k < levels.size() ? levels.get(k) : null;
      String kindOfLevel = strategy.equals("constant") || strategy.equals("poisson") ? "request_rate" : "concurrency";
      if (level != null && Checked.levelProblem(kindOfLevel, level) != null) {
        level = null; // a printed list tokentime cannot take as the row's level
      }
      Map<String, String[]> names = COLUMNS.get(kind);
      List<Object[]> figures = new ArrayList<>();
      for (int c = 1; c < width && names != null && headers.size() >= 3; c++) {
        String[] name = names.get(label(headers.get(0), c) + "/" + label(headers.get(1), c));
        String stat = STATS.get(label(headers.get(headers.size() - 1), c));
        if (name == null || stat == null || NO_VALUE.contains(cells.get(c))) {
          continue; // GuideLLM prints "--" for a statistic it has no value of
        }
        if (!NUMBER.matcher(cells.get(c)).matches()) {
          return "a cut line: GuideLLM's " + name[0] + " " + stat + " '" + cells.get(c) + "' is no number";
        }
        double v = Double.parseDouble(cells.get(c));
        String bad = Checked.figureProblem(name[0], v, name[1]);
        if (bad != null) {
          return bad;
        }
        figures.add(new Object[] {name[0], stat, v, name[1]});
      }
      if (figures.isEmpty()) {
        sink.otherLine(); // a table tokentime keeps nothing of
        return null;
      }
      String conflict = sink.runLevel(run, level == null ? null : kindOfLevel, level, null,
          "GuideLLM strategy " + strategy);
      if (conflict != null) {
        return conflict;
      }
      for (Object[] f : figures) {
        sink.reportedMetric(run, level, (String) f[0], (String) f[1], (Double) f[2], (String) f[3]);
      }
      sink.record();
      return null;
    }
  }
}
