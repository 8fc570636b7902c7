package dev.tokentime.formats.console;

import dev.tokentime.formats.json.EvalscopeNames;
import dev.tokentime.formats.json.ToolMetricNames;
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

/**
 * The tables {@code evalscope perf} prints at the end of a run: {@code Benchmarking summary:}
 * (two columns, a figure a row: tabulate's grid up to 1.6, box drawing with section rows since
 * 1.7) and {@code Percentile results:} (a row per percentile up to 1.6, a row per metric since
 * 1.7). Figures are stored as evalscope-perf stores the same run's JSON ({@link EvalscopeNames}).
 * A second summary in the file (a sweep prints one per level) is the next run, {@code <run>#k}.
 * Every other line (logging, progress bars, the args dump) is an other line.
 */
public final class EvalscopeConsoleFormat extends NamedFormat {
  private static final String SUMMARY_TITLE = "Benchmarking summary:";
  private static final String PERCENTILE_TITLE = "Percentile results:";

  public EvalscopeConsoleFormat() {
    super("evalscope-console",
        "runs, reported_metrics",
        "EvalScope perf's printed Benchmarking summary and Percentile results tables");
  }

  /** A tool's printed report: kept whole in a document too (results.md). */
  @Override
  public boolean printedReport() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text();
    int at = text.indexOf(SUMMARY_TITLE);
    if (at < 0) {
      return 0;
    }
    String after = text.substring(at, Math.min(text.length(), at + 4000));
    // a table row of EvalScope's own first figure, in either generation's drawing
    boolean row = after.matches("(?s).*[|│]\\s*(?:Time taken for tests \\(s\\)|Test Duration \\(s\\))\\s*[|│].*");
    return row ? 85 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    Reader r = new Reader(ctx.defaultRun(), sink);
    long n = TextLines.read(in, sink, "a console line", r::line);
    r.flush();
    return n;
  }

  private static final class Reader {
    final String base;
    final RecordSink sink;
    int runs;
    String run;
    Double level;
    /** The table being read: null, SUMMARY_TITLE or PERCENTILE_TITLE. */
    String table;
    /** The percentile table's header cells; null before its header row. */
    List<String> header;
    /**
     * The summary's figures, kept until its table ends: its level (the concurrency row, the rate
     * row) comes after its first figure, and every figure of the run carries it.
     */
    final List<Object[]> pending = new ArrayList<>();
    Double concurrency;
    Double rate;

    Reader(String base, RecordSink sink) {
      this.base = base;
      this.sink = sink;
    }

    String line(long lineNo, String text) {
      String line = text.strip();
      if (line.endsWith(SUMMARY_TITLE) || line.endsWith(PERCENTILE_TITLE)) {
        flush();
        boolean summary = line.endsWith(SUMMARY_TITLE);
        if (summary) {
          runs++;
          run = runs == 1 ? base : base + "#" + runs;
          level = null;
        } else if (run == null) {
          runs++;
          run = base;
        }
        table = summary ? SUMMARY_TITLE : PERCENTILE_TITLE;
        header = null;
        sink.otherLine();
        return null;
      }
      if (table == null) {
        sink.otherLine();
        return null;
      }
      char c = line.isEmpty() ? ' ' : line.charAt(0);
      if (c == '+' || c == '┌' || c == '├' || c == '└' || c == '╒' || c == '╞' || c == '╘') {
        sink.otherLine(); // a rule
        return null;
      }
      if (c != '|' && c != '│') {
        flush();
        table = null; // the table ended (a log line, a blank line)
        sink.otherLine();
        return null;
      }
      if (line.length() < 2 || !(line.endsWith("|") || line.endsWith("│"))) {
        return "a cut table row: no closing bar";
      }
      List<String> cells = cells(line);
      return table.equals(SUMMARY_TITLE) ? summaryRow(cells) : percentileRow(cells);
    }

    /** The summary's level, as evalscope-perf takes it: its rate when one paced it, else its concurrency. */
    void flush() {
      if (rate != null && rate > 0
          && sink.runLevel(run, "request_rate", rate, null, "EvalScope console summary") == null) {
        level = rate;
      } else if ((rate == null || rate <= 0) && concurrency != null && concurrency > 0
          && sink.runLevel(run, "concurrency", concurrency, null, "EvalScope console summary") == null) {
        level = concurrency;
      }
      rate = null;
      concurrency = null;
      for (Object[] f : pending) {
        sink.reportedMetric(run, level, (String) f[0], (String) f[1], (Double) f[2], (String) f[3]);
      }
      pending.clear();
    }

    String summaryRow(List<String> cells) {
      if (cells.size() != 2) {
        return "expected a figure's label and value, got " + cells.size() + " cells";
      }
      String label = cells.get(0);
      String value = cells.get(1);
      if (value.isEmpty() || label.equals("Key") || label.equals("Metric") || label.startsWith("──")) {
        sink.otherLine(); // the header, a section's title
        return null;
      }
      String[] split = EvalscopeNames.CONSOLE_SPLIT.get(label);
      if (split != null) {
        String[] parts = value.split("/");
        if (parts.length != split.length) {
          return label + ": expected " + split.length + " numbers separated by /, got \"" + value + "\"";
        }
        List<Object[]> figures = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) {
          Double d = number(parts[i]);
          if (d == null) {
            return label + ": expected a number, got \"" + parts[i].strip() + "\"";
          }
          String bad = Checked.figureProblem(split[i], d, "requests");
          if (bad != null) {
            return bad + "; the row not kept";
          }
          figures.add(new Object[] {split[i], "value", d, "requests"});
        }
        pending.addAll(figures);
        sink.record();
        return null;
      }
      Double d = number(value);
      if (d == null) {
        if (value.equals("-") || value.equalsIgnoreCase("N/A") || value.equalsIgnoreCase("nan")) {
          sink.otherLine();
          return null;
        }
        return label + ": expected a number, got \"" + value + "\"";
      }
      if (d == -1) {
        sink.otherLine(); // EvalScope's placeholder for a figure without a sample
        return null;
      }
      EvalscopeNames.Figure f = EvalscopeNames.CONSOLE_SUMMARY.getOrDefault(label, EvalscopeNames.SUMMARY.get(label));
      String[] other = f == null ? ToolMetricNames.split(label) : null;
      String unit = f != null ? f.unit() : other[1];
      String bad = Checked.figureProblem(label, d, unit);
      if (bad != null) {
        return bad + "; not kept"; // a hand-edited or corrupt table: no figure of a run
      }
      boolean isConcurrency = label.equals("Number of concurrency") || label.equals("Concurrency");
      boolean isRate = label.startsWith("Request rate") || label.startsWith("Request Rate");
      // a rate of 0 paced nothing (no level); a concurrency is always the run's level
      String levelBad = isConcurrency ? Checked.levelProblem("concurrency", d)
          : isRate && d > 0 ? Checked.levelProblem("request_rate", d) : null;
      if (levelBad != null) {
        return label + ": " + levelBad + "; not kept";
      }
      if (isConcurrency) {
        concurrency = d;
      } else if (isRate) {
        rate = d;
      }
      pending.add(new Object[] {f != null ? f.metric() : other[0], f != null ? f.stat() : "value", d, unit});
      sink.record();
      return null;
    }

    /**
     * Up to 1.6 the header is {@code Percentiles | TTFT (s) | …} and a row a percentile; since 1.7
     * {@code Metric | 1% | 5% | …} and a row a metric.
     */
    String percentileRow(List<String> cells) {
      if (header == null) {
        header = cells;
        sink.otherLine();
        return null;
      }
      if (cells.size() != header.size()) {
        return "row has " + cells.size() + " cells but the header has " + header.size();
      }
      boolean byPercentile = header.get(0).equals("Percentiles");
      List<Object[]> figures = new ArrayList<>();
      for (int i = 1; i < cells.size(); i++) {
        String stat = EvalscopeNames.stat(byPercentile ? cells.get(0) : header.get(i));
        String column = byPercentile ? header.get(i) : cells.get(0);
        if (stat == null) {
          return "not a percentile: \"" + (byPercentile ? cells.get(0) : header.get(i)) + "\"";
        }
        Double d = number(cells.get(i));
        if (d == null) {
          if (cells.get(i).equalsIgnoreCase("nan") || cells.get(i).equals("-") || cells.get(i).isEmpty()) {
            continue;
          }
          return column + " " + stat + ": expected a number, got \"" + cells.get(i) + "\"";
        }
        EvalscopeNames.Figure f = EvalscopeNames.PERCENTILE.get(column);
        String[] other = f == null ? ToolMetricNames.split(column) : null;
        String unit = f != null ? f.unit() : other[1];
        String bad = Checked.figureProblem(column + " " + stat, d, unit);
        if (bad != null) {
          return bad + "; the row not kept";
        }
        figures.add(new Object[] {f != null ? f.metric() : other[0], stat, d, unit});
      }
      // the run's level, from its summary printed above (null when there was none)
      for (Object[] f : figures) {
        sink.reportedMetric(run, level, (String) f[0], (String) f[1], (Double) f[2], (String) f[3]);
      }
      if (figures.isEmpty()) {
        sink.otherLine();
      } else {
        sink.record();
      }
      return null;
    }
  }

  /** The cells between a row's bars, stripped. */
  static List<String> cells(String line) {
    String inner = line.substring(1);
    if (inner.endsWith("|") || inner.endsWith("│")) {
      inner = inner.substring(0, inner.length() - 1);
    }
    List<String> out = new ArrayList<>();
    for (String c : inner.split("[|│]", -1)) {
      out.add(c.strip());
    }
    return out;
  }

  /** A decimal number as the tables print it (Java's "5f" or "0x1p3" is none), else null. */
  static Double number(String s) {
    return BenchConsoleFormat.number(s);
  }
}
