package dev.tokentime.cli;

import dev.tokentime.analysis.CompareReport;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.TableData;
import dev.tokentime.output.TableRenderer;
import dev.tokentime.output.Terminal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Prints what compare found: the sides, one row per figure, and how the intervals were made. */
final class CompareReportText {
  private CompareReportText() {}

  /** {@code window} is the analysis window described, empty when there is none. */
  static String render(CompareReport r, OutputFormat f, String window) {
    List<Object[]> rows = new ArrayList<>();
    for (CompareReport.Row x : r.rows()) {
      rows.add(new Object[] {x.metric(), x.stat(), x.a(), x.b(), x.change(),
          x.changePct() == null ? null : String.format(Locale.ROOT, "%+.1f %%", x.changePct()),
          x.ciLow() == null ? "" : String.format(Locale.ROOT, "[%.3f, %.3f]", x.ciLow(), x.ciHigh()),
          x.verdict()});
    }
    TableData t = new TableData(List.of("metric", "stat", "A", "B", "B - A", "change", "95 % interval of B - A", "verdict"),
        List.of(false, false, true, true, true, true, false, false), rows, false);
    return before(r, window) + (f == OutputFormat.MARKDOWN ? TableRenderer.markdown(t) : f == OutputFormat.CSV
        ? TableRenderer.render(t, OutputFormat.CSV, Integer.MAX_VALUE) : TableRenderer.text(t, Terminal.width()))
        + after(r);
  }

  /** CSV is the table alone on standard output; what is said around it goes to standard error. */
  static void print(CompareReport r, OutputFormat f, String window, java.io.PrintWriter out, java.io.PrintWriter err) {
    String all = render(r, f, window);
    if (f != OutputFormat.CSV) {
      out.print(dev.tokentime.output.Terminal.printableLines(all));
      return;
    }
    String before = before(r, window);
    String after = after(r);
    err.print(before);
    out.print(dev.tokentime.output.Terminal.printableLines(all.substring(before.length(), all.length() - after.length())));
    err.print(after);
  }

  private static String before(CompareReport r, String window) {
    StringBuilder sb = new StringBuilder();
    sb.append("A = ").append(r.a()).append(" (").append(String.join(", ", r.runsA())).append("), B = ")
        .append(r.b()).append(" (").append(String.join(", ", r.runsB())).append(")\n");
    if (!window.isEmpty()) {
      sb.append("analysis window: ").append(window).append('\n');
    }
    return sb.toString();
  }

  private static String after(CompareReport r) {
    return "intervals: " + r.resamples() + " bootstrap resamples of the requests (chunk gaps for itl_ms), fixed seed;"
        + " percentiles smoothed, each interval placed around its B - A (docs/metrics.md)\n";
  }
}
