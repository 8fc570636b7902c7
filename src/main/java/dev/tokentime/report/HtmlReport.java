package dev.tokentime.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tokentime.analysis.SloReport;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tech.tablesaw.api.Row;

/**
 * The report as one self-contained HTML page: styles, ECharts and the page's own script inlined,
 * chart data as JSON in the page, nothing loaded from anywhere. Every string from the logs (run
 * names, request ids, error text) goes through {@link Html#esc} or, inside the chart data,
 * {@link Html#scriptJson}; the page never evaluates any of it.
 */
public final class HtmlReport {
  private final ReportData d;
  private final StringBuilder body = new StringBuilder();
  private final ArrayNode charts = EChartsOption.JSON.createArrayNode();
  private final List<String[]> toc = new ArrayList<>();

  private HtmlReport(ReportData d) {
    this.d = d;
  }

  public static String render(ReportData d) {
    return new HtmlReport(d).page();
  }

  private String page() {
    findings();
    compare();
    slo();
    summary();
    ttft();
    itl();
    levels();
    overTime();
    requests();
    basisAndDefinitions();

    StringBuilder sb = new StringBuilder(1_200_000);
    sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        // nothing may be fetched: no network, no CDN (the page is complete without them)
        .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; ")
        .append("script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n")
        .append("<meta name=\"generator\" content=\"tokentime\">\n")
        .append("<title>").append(Html.esc(d.title())).append("</title>\n")
        .append("<style>\n").append(Assets.read("report/report.css")).append("</style>\n")
        .append("<script>\n").append(Assets.read("report/errors.js")).append("</script>\n")
        .append("</head>\n<body>\n<header>\n<h1>").append(Html.esc(d.title())).append("</h1>\n<ul class=\"context\">\n");
    for (String c : d.context()) {
      sb.append("<li>").append(Html.esc(c)).append("</li>\n");
    }
    sb.append("</ul>\n</header>\n<nav aria-label=\"sections\">");
    for (String[] t : toc) {
      sb.append("<a href=\"#").append(t[0]).append("\">").append(Html.esc(t[1])).append("</a>");
    }
    sb.append("</nav>\n<main>\n").append(body).append("</main>\n<footer>Written by tokentime from the views of the "
        + "database; definitions in docs/metrics.md. Charts drawn by Apache ECharts ")
        .append(Assets.ECHARTS_VERSION).append(" (Apache License 2.0), inlined.</footer>\n")
        .append("<pre id=\"tt-check\"></pre>\n")
        .append("<script type=\"application/json\" id=\"tt-charts\">")
        .append(Html.scriptJson(charts.toString())).append("</script>\n")
        .append("<script>\n").append(inline(Assets.echarts())).append("\n</script>\n")
        .append("<script>\n").append(Assets.read("report/report.js")).append("</script>\n")
        .append("</body>\n</html>\n");
    return sb.toString();
  }

  /** A script inlined in the page must not contain its own end tag. */
  private static String inline(String js) {
    return js.replace("</script", "<\\/script");
  }

  // --- sections ---

  private void section(String id, String title) {
    toc.add(new String[] {id, title});
    body.append("<section id=\"").append(id).append("\">\n<h2>").append(Html.esc(title)).append("</h2>\n");
  }

  private void end() {
    body.append("</section>\n");
  }

  private void findings() {
    section("findings", "Findings");
    body.append("<ul class=\"findings\">\n");
    for (String f : d.findings()) {
      body.append("<li>").append(Html.esc(f)).append("</li>\n");
    }
    body.append("</ul>\n");
    end();
  }

  private void compare() {
    if (d.compare() == null) {
      return;
    }
    section("compare", "Comparison");
    chart(CompareFindings.chart(d.compare()), false);
    table(CompareFindings.table(d.compare()));
    end();
  }

  private void slo() {
    SloReport s = d.slo();
    if (s == null) {
      return;
    }
    section("slo", "SLO verdict");
    body.append("<p><span class=\"verdict").append(s.allMet() ? "" : " missed").append("\">")
        .append(s.allMet() ? "SLO met at every level checked" : "SLO missed").append("</span></p>\n");
    table(ReportTables.slo(s));
    List<String> lines = new ArrayList<>();
    s.levels().forEach(l -> lines.addAll(l.diagnoses()));
    if (s.recommendation() != null) {
      lines.add("Recommendation: " + s.recommendation() + ".");
    }
    lines.addAll(ReportTables.goodput(d));
    list(lines);
    if (d.attainment() != null) {
      table(TableView.of("attainment", "Attainment and request goodput per run", "Requests meeting every "
          + "per-request target; request goodput = attaining requests per second of the window (slo_attainment).",
          d.attainment(), List.of(TableView.text("run", "run"), TableView.num("requests", "requests"),
              TableView.num("attaining", "attaining"),
              // check's rounding (one decimal; never "0 %" for a share above 0)
              TableView.of("attainment", true, r -> r.isMissing("attainment") ? ""
                  : dev.tokentime.output.Values.percent(((Number) r.getObject("attainment")).doubleValue())),
              TableView.num("request goodput (1/s)", "goodput_per_s"))));
    }
    end();
  }

  private void summary() {
    section("summary", "Summary");
    table(ReportTables.runs(d));
    table(ReportTables.latency(d));
    table(ReportTables.levels(d));
    end();
  }

  private void ttft() {
    section("ttft", "Where TTFT goes");
    if (d.breakdown().rowCount() > 0) { // an engine-only database has no TTFT to draw
      chart(ReportCharts.ttft(d), false);
    }
    table(ReportTables.breakdown(d));
    end();
  }

  private void itl() {
    section("itl", "Inter-token latency and stalls");
    if (d.histogram().rowCount() == 0) {
      body.append("<p class=\"empty\">No run has token timestamps: no ITL.</p>\n");
    } else {
      chart(ReportCharts.itlCdf(d), false);
      body.append("<div class=\"grid\">\n");
      for (ChartSpec c : ReportCharts.itlHistograms(d)) {
        chart(c, true);
      }
      body.append("</div>\n");
    }
    table(ReportTables.stallSummary(d));
    table(ReportTables.stalls(d, 5));
    end();
  }

  private void levels() {
    section("levels", "Latency and throughput vs level");
    List<ChartSpec> cs = ReportCharts.levels(d);
    if (cs.isEmpty()) {
      body.append("<p class=\"empty\">No sweep of two or more levels.</p>\n");
    }
    cs.forEach(c -> chart(c, false));
    if (d.knee().rowCount() > 0) {
      table(ReportTables.knee(d));
    }
    end();
  }

  private void overTime() {
    section("time", "Over time");
    List<String> runs = d.overTimeRuns();
    List<String> without = new ArrayList<>();
    for (String run : runs) {
      List<ChartSpec> cs = new ArrayList<>(ReportCharts.timelines(d, run));
      cs.addAll(ReportCharts.engine(d, run));
      if (cs.isEmpty()) {
        without.add(run);
        continue;
      }
      body.append("<h3>").append(Html.esc(run)).append("</h3>\n");
      cs.forEach(c -> chart(c, false));
    }
    if (!without.isEmpty()) {
      body.append("<p class=\"note\">No timeline for ").append(Html.esc(String.join(", ", without)))
          .append(": their requests are not on one clock with arrival times (each request on its own client clock, "
              + "or no timestamps), and no engine steps or stats were ingested for them.</p>\n");
    }
    end();
  }

  private void requests() {
    section("requests", "Slow and failed requests");
    table(ReportTables.outliers(d, 5));
    TableView f = ReportTables.failures(d);
    if (f.isEmpty()) {
      body.append("<p>No measured request failed.</p>\n");
    } else {
      table(f);
    }
    end();
  }

  private void basisAndDefinitions() {
    section("basis", "Sources and definitions");
    body.append("<p>Rejected input lines: <b>").append(d.summary().rejectedLines()).append("</b> (")
        .append(d.summary().sources()).append(" source files).</p>\n");
    table(ReportTables.basis(d));
    TableView defs = ReportTables.definitions(d);
    body.append("<h3>").append(Html.esc(defs.title())).append("</h3>\n<p class=\"note\">").append(Html.esc(defs.note()))
        .append("</p>\n<dl class=\"definitions\">\n");
    for (List<String> r : defs.rows()) {
      body.append("<dt>").append(Html.esc(r.get(0))).append(" <code>").append(Html.esc(r.get(1))).append("</code></dt><dd>")
          .append(Html.esc(r.get(2))).append("</dd>\n");
    }
    body.append("</dl>\n");
    end();
  }

  // --- pieces ---

  private void list(List<String> lines) {
    if (lines.isEmpty()) {
      return;
    }
    body.append("<ul>\n");
    lines.forEach(l -> body.append("<li>").append(Html.esc(l)).append("</li>\n"));
    body.append("</ul>\n");
  }

  private void table(TableView t) {
    body.append("<h3 id=\"table-").append(t.id()).append("\">").append(Html.esc(t.title())).append("</h3>\n");
    if (!t.note().isEmpty()) {
      body.append("<p class=\"note\">").append(Html.esc(t.note())).append("</p>\n");
    }
    if (t.isEmpty()) {
      body.append("<p class=\"empty\">No rows.</p>\n");
      return;
    }
    body.append("<div class=\"table-wrap\"><table>\n<thead><tr>");
    for (int i = 0; i < t.headers().size(); i++) {
      body.append("<th").append(t.numeric().get(i) ? " class=\"num\"" : "").append(" scope=\"col\">")
          .append(Html.esc(t.headers().get(i))).append("</th>");
    }
    body.append("</tr></thead>\n<tbody>\n");
    for (List<String> row : t.rows()) {
      body.append("<tr>");
      for (int i = 0; i < row.size(); i++) {
        String cell = row.get(i);
        String cls = t.numeric().get(i) ? " class=\"num\"" : cell.length() > 60 ? " class=\"long\"" : "";
        body.append("<td").append(cls).append(">").append(Html.esc(cell)).append("</td>");
      }
      body.append("</tr>\n");
    }
    body.append("</tbody></table></div>\n");
  }

  private void chart(ChartSpec c, boolean small) {
    String dom = "chart-" + c.id();
    body.append("<figure class=\"chart\"><figcaption><b>").append(Html.esc(c.title())).append("</b>")
        .append(Html.esc(c.note())).append("</figcaption>\n<div class=\"plot\" id=\"").append(Html.esc(dom))
        .append("\" role=\"img\" aria-label=\"").append(Html.esc(c.title())).append("\"></div></figure>\n");
    ObjectNode n = charts.addObject();
    n.put("dom", dom);
    n.set("option", EChartsOption.of(c));
    n.putObject("units").put("x", c.x().title());
  }
}
