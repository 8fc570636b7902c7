package dev.tokentime.report;

import dev.tokentime.analysis.SloReport;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tech.tablesaw.api.Row;

/**
 * The report as Markdown for pasting into an issue: the same findings and tables as the HTML
 * report, and, when asked, links to the charts as SVG files beside it. Text from the logs is
 * escaped so that it cannot become markup: HTML special characters as entities, Markdown's own
 * as backslash escapes, and pipes so that a cell stays one cell.
 */
public final class MarkdownReport {
  private final ReportData d;
  private final String chartsDir;
  private final StringBuilder sb = new StringBuilder(32_768);
  private final List<ChartSpec> charts = new ArrayList<>();

  /** The Markdown text and the charts it links (to be written under chartsDir). */
  public record Result(String markdown, List<ChartSpec> charts) {}

  private MarkdownReport(ReportData d, String chartsDir) {
    this.d = d;
    this.chartsDir = chartsDir;
  }

  /** chartsDir: the folder (relative to the Markdown file) the SVG charts go to, or null for none. */
  public static Result render(ReportData d, String chartsDir) {
    MarkdownReport m = new MarkdownReport(d, chartsDir);
    m.page();
    return new Result(m.sb.toString(), List.copyOf(m.charts));
  }

  private void page() {
    sb.append("# ").append(esc(d.title())).append("\n\n");
    for (String c : d.context()) {
      sb.append("- ").append(esc(c)).append('\n');
    }
    sb.append("\n## Findings\n\n");
    for (String f : d.findings()) {
      sb.append("- ").append(esc(f)).append('\n');
    }
    if (d.compare() != null) {
      sb.append("\n## Comparison\n\n");
      chart(CompareFindings.chart(d.compare()));
      table(CompareFindings.table(d.compare()));
    }
    SloReport s = d.slo();
    if (s != null) {
      sb.append("\n## SLO verdict: ").append(s.allMet() ? "met at every level checked" : "**missed**").append("\n\n");
      table(ReportTables.slo(s));
      s.levels().forEach(l -> l.diagnoses().forEach(x -> sb.append("- ").append(esc(x)).append('\n')));
      if (s.recommendation() != null) {
        sb.append("- Recommendation: ").append(esc(s.recommendation())).append(".\n");
      }
      ReportTables.goodput(d).forEach(x -> sb.append("- ").append(esc(x)).append('\n'));
    }
    sb.append("\n## Summary\n\n");
    table(ReportTables.runs(d));
    table(ReportTables.latency(d));
    table(ReportTables.levels(d));
    sb.append("## Where TTFT goes\n\n");
    if (d.breakdown().rowCount() > 0) { // an engine-only database has no TTFT to draw
      chart(ReportCharts.ttft(d));
    }
    table(ReportTables.breakdown(d));
    sb.append("## Inter-token latency and stalls\n\n");
    if (d.histogram().rowCount() > 0) {
      chart(ReportCharts.itlCdf(d));
      ReportCharts.itlHistograms(d).forEach(this::chart);
    }
    table(ReportTables.stallSummary(d));
    table(ReportTables.stalls(d, 5));
    sb.append("## Latency and throughput vs level\n\n");
    ReportCharts.levels(d).forEach(this::chart);
    if (d.knee().rowCount() > 0) {
      table(ReportTables.knee(d));
    }
    if (chartsDir != null) {
      sb.append("## Over time\n\n");
      List<String> runs = d.overTimeRuns();
      for (String run : runs) {
        ReportCharts.timelines(d, run).forEach(this::chart);
        ReportCharts.engine(d, run).forEach(this::chart);
      }
    }
    sb.append("## Slow and failed requests\n\n");
    table(ReportTables.outliers(d, 5));
    table(ReportTables.failures(d));
    sb.append("## Sources and definitions\n\n");
    sb.append("Rejected input lines: **").append(d.summary().rejectedLines()).append("** (")
        .append(d.summary().sources()).append(" source files).\n\n");
    table(ReportTables.basis(d));
    TableView defs = ReportTables.definitions(d);
    sb.append("**").append(esc(defs.title())).append("** — ").append(esc(defs.note())).append("\n\n");
    for (List<String> r : defs.rows()) {
      sb.append("- **").append(esc(r.get(0))).append("** (`").append(r.get(1)).append("`): ").append(esc(r.get(2))).append('\n');
    }
    sb.append('\n');
  }

  private void chart(ChartSpec c) {
    if (chartsDir == null) {
      return;
    }
    charts.add(c);
    sb.append("![").append(esc(c.title())).append("](").append(chartsDir).append('/').append(c.id()).append(".svg)\n\n");
  }

  private void table(TableView t) {
    sb.append("**").append(esc(t.title())).append("**");
    if (!t.note().isEmpty()) {
      sb.append(" — ").append(esc(t.note()));
    }
    sb.append("\n\n");
    if (t.isEmpty()) {
      sb.append("_No rows._\n\n");
      return;
    }
    sb.append('|');
    t.headers().forEach(h -> sb.append(' ').append(esc(h)).append(" |"));
    sb.append("\n|");
    t.numeric().forEach(n -> sb.append(n ? " ---: |" : " --- |"));
    sb.append('\n');
    for (List<String> row : t.rows()) {
      sb.append('|');
      row.forEach(cell -> sb.append(' ').append(esc(cell)).append(" |"));
      sb.append('\n');
    }
    sb.append('\n');
  }

  /**
   * Text from the logs as inert Markdown: HTML entities for {@code < > &}, backslash escapes for
   * the characters Markdown (GitHub's included) gives a meaning to, and no line breaks, so a value
   * stays inside its table cell or list item.
   */
  static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '\r', '\n' -> out.append(' ');
        case '\\', '`', '*', '_', '[', ']', '|', '#', '!', '~' -> out.append('\\').append(c);
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
