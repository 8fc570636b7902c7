package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.report.HostileLog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * tokentime report through the packaged jar, and the reports opened in headless Chromium with the
 * network disabled: every chart must have drawn on a canvas of non-zero size, with no console
 * error, no failed or blocked request, and a screenshot taken. The Chromium tests are skipped
 * (not passed) only where no Chromium is installed; .ci/run installs Debian's.
 */
class ReportIT {
  static final Path WORK = Path.of("target", "report-it");
  static Path samplesDb;

  @BeforeAll
  static void ingestTheSamples() throws Exception {
    Files.createDirectories(WORK);
    samplesDb = WORK.resolve("samples.duckdb");
    Files.deleteIfExists(samplesDb);
    Cli.Result r = Cli.run("ingest", "--db", samplesDb.toString(), "sample-logs/");
    assertEquals(0, r.code(), r.err());
    // the samples' report, once: the layout check's broken copy is made from it too
    samplesReport = WORK.resolve("samples");
    Cli.Result rep = Cli.run("report", "--db", samplesDb.toString(), "-o", samplesReport.toString());
    assertEquals(0, rep.code(), rep.err());
    assertEquals(samplesReport.resolve("report.html").toString(), rep.out().strip());
  }

  static Path samplesReport;

  static Path chromium() {
    Optional<Path> c = Chromium.find();
    assumeTrue(c.isPresent(), "no Chromium found (apt-get install chromium; .ci/run does): browser check skipped");
    return c.get();
  }

  @Test
  void samplesReportRendersOfflineInChromium() throws Exception {
    Path html = samplesReport.resolve("report.html");
    String page = Files.readString(html, StandardCharsets.UTF_8);
    assertTrue(page.length() < 1_500_000, "report size " + page.length());

    Path chromium = chromium();
    JsonNode check = layoutCheck(chromium, html);
    assertTrue(check.get("charts").asInt() >= 20, check.toString());
    // one screenshot, at the wide width: the narrow width's layout is checked above from its DOM
    for (int width : List.of(WIDTHS.get(0))) {
      Path png = WORK.resolve("samples-report-" + width + ".png");
      Files.deleteIfExists(png);
      Chromium.Run shot = Chromium.screenshot(chromium, html, png, width, 2400, WORK);
      assertEquals(0, shot.code(), shot.stderr());
      assertEquals(List.of(), shot.consoleAndNetworkErrors());
      byte[] bytes = Files.readAllBytes(png);
      assertTrue(bytes.length > 50_000, "screenshot of " + bytes.length + " bytes");
      assertEquals("\u0089PNG", new String(bytes, 0, 4, StandardCharsets.ISO_8859_1));
      assertEquals(width, readInt(bytes, 16), "screenshot width");
    }
  }

  /** The widths of a wide screen and of a narrow window, where the reports are checked for layout. */
  static final List<Integer> WIDTHS = List.of(1400, 900);

  /**
   * The page's render and layout checks at both widths, from one opening at each: the render check
   * ({@link #renderCheck}), then no two texts of a chart overlap (axis names, tick labels, legend,
   * labels of marks, as the chart drew them) and no table is cut (each fits its frame, or scrolls
   * in it with its first column fixed, and nothing reaches past the page). Returns the self-check
   * at the first width.
   */
  static JsonNode layoutCheck(Path chromium, Path html) throws Exception {
    JsonNode first = null;
    for (int width : WIDTHS) {
      Chromium.Run run = Chromium.dumpDom(chromium, html, WORK, width);
      JsonNode check = renderCheck(run);
      first = first == null ? check : first;
      JsonNode layout = check.get("layout");
      assertEquals(width, layout.get("width").asInt(), layout.toString());
      assertEquals("[]", layout.get("overlaps").toString(), html.getFileName() + " at " + width + " px: overlapping texts");
      assertEquals("[]", layout.get("cut").toString(), html.getFileName() + " at " + width + " px: cut tables");
    }
    return first;
  }

  /**
   * The layout check catches what it is there to catch: axis names over tick labels, a table cut
   * at the edge. Slow (a check of the check; CI's budget is 15 minutes): -Pslow runs it.
   */
  @Test
  @Tag("slow")
  void overlappingTextsAndCutTablesFailTheCheck() throws Exception {
    Path out = Files.createDirectories(WORK.resolve("layout"));
    String page = Files.readString(samplesReport.resolve("report.html"), StandardCharsets.UTF_8);
    assertTrue(page.contains("\"nameLocation\":\"end\",\"nameGap\":14"), "y-axis names above their axes");
    // the y-axis names back beside the axes, close to the tick labels; and tables that do not scroll
    String broken = page.replace("\"nameLocation\":\"end\",\"nameGap\":14", "\"nameLocation\":\"middle\",\"nameGap\":12")
        .replace("</style>", ".table-wrap { overflow: visible !important; } body { max-width: 700px; }\n</style>");
    Path html = out.resolve("broken-layout.html");
    Files.writeString(html, broken, StandardCharsets.UTF_8);
    Chromium.Run run = Chromium.dumpDom(chromium(), html, WORK, 900);
    assertEquals(0, run.code(), run.stderr());
    assertTrue(run.stdout().contains("data-tt-check=\"failed\""), checkOf(run.stdout()));
    JsonNode layout = new ObjectMapper().readTree(checkOf(run.stdout())).get("layout");
    assertTrue(layout.get("overlaps").size() > 0, layout.toString());
    assertTrue(layout.get("overlaps").toString().contains("overlaps"), layout.toString());
    assertTrue(layout.get("cut").toString().contains("cut at the edge"), layout.toString());
  }

  /** The check must catch what it is there to catch: a fetch and a script error fail it (slow: -Pslow). */
  @Test
  @Tag("slow")
  void aPageThatFetchesOrThrowsFailsTheCheck() throws Exception {
    Path out = WORK.resolve("control");
    Cli.Result r = Cli.run("report", "--db", samplesDb.toString(), "--run", "c1", "-o", out.resolve("report.html").toString());
    assertEquals(0, r.code(), r.err());
    String page = Files.readString(out.resolve("report.html"), StandardCharsets.UTF_8);
    int body = page.indexOf("<body>") + "<body>".length();
    Path broken = out.resolve("broken.html");
    Files.writeString(broken, page.substring(0, body) + "<img src=\"http://tokentime.invalid/x.png\">"
        + "<script>undefinedFunction()</script>" + page.substring(body), StandardCharsets.UTF_8);
    Chromium.Run run = Chromium.dumpDom(chromium(), broken, WORK);
    assertEquals(0, run.code(), run.stderr());
    assertTrue(run.stdout().contains("data-tt-check=\"failed\""), "the page's own check failed it");
    String check = checkOf(run.stdout());
    assertTrue(check.contains("undefinedFunction") && check.contains("blocked request to http://tokentime.invalid/x.png"), check);
    String log = String.join("\n", run.consoleAndNetworkErrors());
    assertTrue(log.contains("undefinedFunction"), log);
    assertTrue(log.contains("tokentime.invalid"), log);
  }

  @Test
  void requestIdsWithScriptsShowAsText() throws Exception {
    Path dir = WORK.resolve("hostile");
    Files.createDirectories(dir);
    Path log = dir.resolve("evil.jsonl");
    Files.writeString(log, HostileLog.jsonl(), StandardCharsets.UTF_8);
    Path db = dir.resolve("evil.duckdb");
    Files.deleteIfExists(db);
    assertEquals(0, Cli.run("ingest", "--db", db.toString(), log.toString()).code());
    Cli.Result r = Cli.run("report", "--db", db.toString(), "-o", dir.toString());
    assertEquals(0, r.code(), r.err());
    Path html = dir.resolve("report.html");
    Cli.Result md = Cli.run("report", "--db", db.toString(), "--format", "markdown", "-o", "-");
    assertEquals(0, md.code(), md.err());
    assertFalse(md.out().contains("<script") || md.out().contains("<img"), md.out());
    assertTrue(md.out().contains("&lt;script&gt;document.title='PWNED'&lt;/script&gt;-3"), md.out());

    // hover the slowest request's point: the tooltip (HTML) must hold its id as text
    String page = Files.readString(html, StandardCharsets.UTF_8);
    int end = page.lastIndexOf("</body>");
    Path hovered = dir.resolve("hovered.html");
    Files.writeString(hovered, page.substring(0, end) + "<script>" + HOVER + "</script>" + page.substring(end),
        StandardCharsets.UTF_8);
    Chromium.Run run = Chromium.dumpDom(chromium(), hovered, WORK);
    String dom = run.stdout();
    assertTrue(dom.contains("data-tt-check=\"ok\""), checkOf(dom));
    Matcher tip = Pattern.compile("<pre id=\"tt-tip\">([^<]*)</pre>").matcher(dom);
    assertTrue(tip.find(), "no tooltip written");
    // the tooltip's HTML, serialised once more as the text of <pre>: &lt; in its HTML reads &amp;lt; here
    assertTrue(tip.group(1).contains("&amp;lt;script&amp;gt;document.title='PWNED'&amp;lt;/script&amp;gt;-"), tip.group(1));
    assertTrue(tip.group(1).contains("E2E ≥ P99 (by arrival): &lt;b&gt;"), "a value in the hover: " + tip.group(1));
    assertTrue(dom.contains("<title>tokentime report</title>"), "no script from the log ran");
    assertFalse(dom.contains("PWNED</title>"));
    assertEquals(5, count(dom, "<script"), "only the report's own four scripts and the test's hover");
    assertFalse(dom.contains("<img src=\"x\""), "an id became an image");
    // the ids, shown as text (a serialised text node escapes < and >)
    assertTrue(dom.contains("&lt;script&gt;document.title='PWNED'&lt;/script&gt;-3"), "the request id as text");
    assertTrue(dom.contains("&lt;img src=x onerror=\"document.title='PWNED'\"&gt;"), "the failed request's id as text");
    assertEquals(List.of(), run.consoleAndNetworkErrors());
  }

  /**
   * The seed's case study (§3.3) as a report: concurrency 16 meets TTFT P95 <= 1 s, 32 misses it
   * by queueing; the chart data stays small (buckets, not tokens); Markdown with SVG charts; the
   * compare report of the two levels renders too.
   */
  @Test
  void caseStudyReportWithSloMarkdownAndCompare() throws Exception {
    Path dir = WORK.resolve("case");
    Files.createDirectories(dir);
    Path db = CaseStudySweep.db();
    long tokens = Long.parseLong(Cli.run("query", "--db", db.toString(), "--format", "csv",
        "SELECT count(*) AS n FROM tokens").out().split("\n")[1].strip());
    assertTrue(tokens > 50_000, "tokens " + tokens);

    Cli.Result r = Cli.run("report", "--db", db.toString(), "--slo", "ttft_p95<=1s,itl_p95<=80ms", "-o",
        dir.resolve("slo.html").toString());
    assertEquals(0, r.code(), r.err());
    String html = Files.readString(dir.resolve("slo.html"), StandardCharsets.UTF_8);
    assertTrue(html.contains("SLO missed"), "verdict");
    assertTrue(html.contains("concurrency 16 is the highest level that meets the SLO"), "recommendation");
    assertTrue(html.contains("queueing dominates in c32"), "where TTFT went");
    int data = html.substring(html.indexOf("id=\"tt-charts\">"), html.indexOf("</script>", html.indexOf("id=\"tt-charts\">"))).length();
    assertTrue(data < 150_000, "chart data of " + data + " characters for " + tokens + " tokens");

    Cli.Result m = Cli.run("report", "--db", db.toString(), "--slo", "ttft_p95<=1s", "--format", "markdown",
        "--charts", "svg", "-o", dir.resolve("notes").toString());
    assertEquals(0, m.code(), m.err());
    String md = Files.readString(dir.resolve("notes/report.md"), StandardCharsets.UTF_8);
    assertTrue(md.contains("## SLO verdict: **missed**"), md);
    try (Stream<Path> svgs = Files.list(dir.resolve("notes/report-charts"))) {
      List<Path> files = svgs.toList();
      assertTrue(files.size() >= 6, files.toString());
      for (Path f : files) {
        assertTrue(md.contains("(report-charts/" + f.getFileName() + ")"), f + " linked");
      }
    }

    Cli.Result c = Cli.run("report", "--db", db.toString(), "--compare", "c16", "c32", "-o", dir.toString());
    assertEquals(0, c.code(), c.err());
    Path compare = dir.resolve("compare-c16-vs-c32.html");
    String ch = Files.readString(compare, StandardCharsets.UTF_8);
    assertTrue(ch.contains("tokentime report: c32 compared with c16"), "title");
    assertTrue(ch.contains("TTFT p50: 103 ms → 7.41 s (+7096.7 %), worse"), "a change beyond noise, in words");

    Path chromium = chromium();
    layoutCheck(chromium, dir.resolve("slo.html"));
    layoutCheck(chromium, compare);
  }

  @Test
  void analyzeWritesAReportAfterItsSummary() throws Exception {
    Path dir = WORK.resolve("analyze");
    Cli.Result r = Cli.run("analyze", "sample-logs/canonical", "-o", dir.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("run c4"), r.out());
    assertTrue(Files.size(dir.resolve("report.html")) > 100_000);
    Cli.Result md = Cli.run("analyze", "sample-logs/canonical", "-o", dir.resolve("summary.md").toString());
    assertEquals(0, md.code(), md.err());
    assertTrue(Files.readString(dir.resolve("summary.md")).startsWith("# tokentime report"));
    Cli.Result bad = Cli.run("report", "--db", samplesDb.toString(), "--charts", "svg");
    assertEquals(2, bad.code(), "svg charts need Markdown: " + bad.err());
    Cli.Result none = Cli.run("report", "--db", samplesDb.toString(), "--run", "nope");
    assertEquals(2, none.code(), none.err());
    assertTrue(none.err().contains("no run named nope (runs: "), none.err());
  }

  /** Shows the tooltip of the first slow-request point of the load chart and copies its HTML into #tt-tip. */
  static final String HOVER = "window.addEventListener('load', function () { setTimeout(function () {"
      + " var el = document.querySelector('[id^=\"chart-load-\"]'); var c = echarts.getInstanceByDom(el);"
      + " var idx = c.getOption().series.findIndex(function (s) { return s.type === 'scatter' && /E2E/.test(s.name); });"
      + " c.dispatchAction({type: 'showTip', seriesIndex: idx, dataIndex: 0});"
      + " setTimeout(function () { var out = document.createElement('pre'); out.id = 'tt-tip';"
      + " out.textContent = Array.prototype.map.call(el.querySelectorAll('div'), function (d) { return d.innerHTML; })"
      + ".filter(function (h) { return h.indexOf('request') >= 0; }).pop() || '';"
      + " document.body.appendChild(out); }, 500); }, 300); });";

  /** The self-check of a page Chromium opened offline, failing on any error, failed request or empty chart. */
  static JsonNode renderCheck(Chromium.Run run) throws Exception {
    assertEquals(0, run.code(), run.stderr());
    String dom = run.stdout();
    JsonNode check = new ObjectMapper().readTree(checkOf(dom));
    assertEquals(List.of(), List.of(check.get("errors").toString()).stream().filter(s -> !s.equals("[]")).toList(),
        "errors in the page");
    assertEquals("[]", check.get("failed").toString(), "charts that did not render");
    assertEquals("[]", check.get("resources").toString(), "requests made");
    assertEquals(check.get("charts").asInt(), check.get("rendered").asInt());
    assertTrue(dom.contains("data-tt-check=\"ok\""), check.toString());
    assertEquals(List.of(), run.consoleAndNetworkErrors(), "console messages or network errors");
    return check;
  }

  static String checkOf(String dom) {
    Matcher m = Pattern.compile("<pre id=\"tt-check\">([^<]*)</pre>").matcher(dom);
    assertTrue(m.find(), "no self-check in the page: did its script run?");
    return m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
  }

  static int count(String s, String what) {
    int n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }

  private static int readInt(byte[] b, int at) {
    return ((b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
  }
}
