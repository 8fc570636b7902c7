package dev.tokentime.cli;

import dev.tokentime.analysis.SloReport;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.TableData;
import dev.tokentime.output.TableRenderer;
import dev.tokentime.output.Terminal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Prints what check found: one row per level and term, the diagnoses and the verdict. */
final class SloReportText {
  private SloReportText() {}

  static String render(SloReport r, OutputFormat f) {
    return "SLO: " + r.slo() + "\n" + table(r, f) + after(r);
  }

  /** CSV is the table alone on standard output; what is said around it goes to standard error. */
  static void print(SloReport r, OutputFormat f, java.io.PrintWriter out, java.io.PrintWriter err) {
    if (f != OutputFormat.CSV) {
      out.print(dev.tokentime.output.Terminal.printableLines(render(r, f)));
      return;
    }
    err.print("SLO: " + r.slo() + "\n");
    out.print(dev.tokentime.output.Terminal.printableLines(table(r, f)));
    err.print(after(r));
  }

  static String table(SloReport r, OutputFormat f) {
    StringBuilder sb = new StringBuilder();
    List<String> cols = new ArrayList<>(List.of("level", "verdict"));
    SloReport.Level first = r.levels().get(0);
    first.terms().forEach(t -> cols.add(t.term()));
    cols.add("attainment");
    List<Object[]> rows = new ArrayList<>();
    for (SloReport.Level l : r.levels()) {
      List<Object> row = new ArrayList<>(List.of(l.label(), l.met() ? "met" : "MISSED"));
      for (SloReport.TermResult t : l.terms()) {
        row.add(t.value() == null ? "n/a" : String.format(Locale.ROOT, "%.1f %s", t.value(), t.met() ? "ok" : "MISSED"));
      }
      row.add(l.attainment() == null ? "" : dev.tokentime.output.Values.percent(l.attainment()));
      rows.add(row.toArray());
    }
    List<Boolean> numeric = cols.stream().map(c -> false).toList();
    TableData t = new TableData(cols, numeric, rows, false);
    sb.append(f == OutputFormat.MARKDOWN ? TableRenderer.markdown(t) : f == OutputFormat.CSV
        ? TableRenderer.render(t, OutputFormat.CSV, Integer.MAX_VALUE) : TableRenderer.text(t, Terminal.width()));
    return sb.toString();
  }

  static String after(SloReport r) {
    StringBuilder sb = new StringBuilder();
    for (SloReport.Level l : r.levels()) {
      for (String d : l.diagnoses()) {
        sb.append("- ").append(d).append('\n');
      }
    }
    if (r.recommendation() != null) {
      sb.append("recommendation: ").append(r.recommendation()).append('\n');
    }
    sb.append(r.allMet() ? "verdict: every level checked meets the SLO\n" : "verdict: the SLO is missed\n");
    return sb.toString();
  }
}
