package dev.tokentime.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.testing.TestDb;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTML, Markdown and SVG of a log whose run name, request ids and error text are markup: all of
 * it appears as text, none as markup (the browser check of the same is ReportIT).
 */
class RenderTest {
  @TempDir
  static Path tmp;

  static TestDb db;
  static ReportData data;

  @BeforeAll
  static void ingest() throws Exception {
    db = new TestDb(tmp);
    db.ingest(db.write("evil/evil.jsonl", HostileLog.jsonl()));
    data = new ReportService().gather(db.db, new ReportService.Request(Set.of(), null, "", "evil.duckdb"));
  }

  @AfterAll
  static void close() {
    db.close();
  }

  @Test
  void htmlShowsLogContentAsText() {
    String html = HtmlReport.render(data);
    // only the report's own four scripts: error capture, chart data, ECharts, drawing
    assertEquals(4, count(html, "<script"), "script elements");
    assertFalse(html.contains("<script>document.title"), "a request id became a script");
    assertFalse(html.contains("<img src=x"), "a request id became an image");
    assertTrue(html.contains("&lt;script&gt;document.title=&#39;PWNED&#39;&lt;/script&gt;-3"), "the id as text");
    assertTrue(html.contains(Html.esc(HostileLog.ERROR)), "the error text as text");
    assertTrue(html.contains(Html.esc(HostileLog.FAILED_ID)), "the failed request's id as text");
    // inside the chart data the run name is JSON with < and > escaped, so it cannot end the script
    String json = between(html, "<script type=\"application/json\" id=\"tt-charts\">", "</script>");
    assertFalse(json.contains("<") || json.contains(">"), "raw angle brackets in the chart data");
    assertTrue(json.contains("evil\\u003c/script\\u003e"), "the run name, escaped in JSON");
  }

  @Test
  void chartDataParsesBackToTheLogText() throws Exception {
    String html = HtmlReport.render(data);
    JsonNode charts = new ObjectMapper().readTree(between(html, "id=\"tt-charts\">", "</script>"));
    assertTrue(charts.toString().contains(HostileLog.RUN.replace("\"", "\\\"")) || charts.toString().contains("evil</script>"));
    boolean idInHover = false;
    for (JsonNode c : charts) {
      for (JsonNode s : c.get("option").get("series")) {
        for (JsonNode p : s.get("data")) {
          idInHover |= p.isObject() && p.get("tt").asText().contains(HostileLog.ID);
        }
      }
    }
    assertTrue(idInHover, "slow requests carry their id to the hover, which report.js escapes");
  }

  @Test
  void htmlIsSelfContained() {
    String html = HtmlReport.render(data);
    assertFalse(Pattern.compile("(src|href)\\s*=\\s*[\"']?(https?:)?//", Pattern.CASE_INSENSITIVE).matcher(html).find(),
        "nothing loaded from the network");
    assertTrue(html.contains("default-src 'none'"), "the page forbids every fetch");
    assertTrue(html.contains("Licensed to the Apache Software Foundation"), "ECharts inlined, with its licence header");
  }

  @Test
  void markdownShowsLogContentAsText() {
    String md = MarkdownReport.render(data, "report-charts").markdown();
    assertFalse(md.contains("<script") || md.contains("<img"), "markup from the log in the Markdown");
    assertTrue(md.contains("&lt;script&gt;document.title='PWNED'&lt;/script&gt;-3"), md);
    assertTrue(md.contains("\\| \\*boom\\* \\[x\\](javascript:alert(1))"), "Markdown's own characters escaped");
    // the failures table: the error text holds a pipe, escaped, so its row has as many cells as the header
    List<String> lines = md.lines().toList();
    int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("| run | status |")).findFirst().orElseThrow());
    String row = lines.get(header + 2);
    assertTrue(row.contains("boom"), row);
    assertEquals(cells(lines.get(header)), cells(row), row);
    assertTrue(md.contains("](report-charts/ttft-split.svg)"), "charts linked beside it");
  }

  @Test
  void svgChartsAreWellFormedAndEscaped() throws Exception {
    List<ChartSpec> charts = MarkdownReport.render(data, "c").charts();
    assertTrue(charts.size() >= 4, "charts: " + charts.size());
    for (ChartSpec c : charts) {
      String svg = SvgChart.render(c);
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      var doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
      assertEquals("svg", doc.getDocumentElement().getLocalName());
      assertEquals(0, doc.getElementsByTagName("script").getLength(), c.id());
      assertFalse(svg.contains("<script"), c.id());
    }
  }

  @Test
  void markdownOfTheSamplesHasTheSameTablesAsHtml() {
    String md = MarkdownReport.render(data, null).markdown();
    String html = HtmlReport.render(data);
    for (String title : List.of("Runs", "Latency per run", "Per level (the methodology&#39;s table)", "TTFT breakdown per run and percentile",
        "ITL stalls: what they coincide with", "Slowest requests", "Failed requests", "What each figure rests on")) {
      assertTrue(html.contains(">" + title + "</h3>"), title);
      assertTrue(md.contains("**" + title.replace("&#39;", "'") + "**"), title);
    }
  }

  /** Cells of a Markdown table row: pipes not escaped with a backslash. */
  static int cells(String row) {
    return row.split("(?<!\\\\)\\|", -1).length;
  }

  static int count(String s, String what) {
    int n = 0;
    Matcher m = Pattern.compile(Pattern.quote(what)).matcher(s);
    while (m.find()) {
      n++;
    }
    return n;
  }

  static String between(String s, String a, String b) {
    int i = s.indexOf(a) + a.length();
    return s.substring(i, s.indexOf(b, i));
  }
}
