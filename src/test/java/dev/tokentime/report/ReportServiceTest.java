package dev.tokentime.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.analysis.SloSpec;
import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Row;

/** The data a report gathers from the views of the bundled samples, and the findings drawn from it. */
class ReportServiceTest {
  @TempDir
  static Path tmp;

  static TestDb db;
  static ReportData data;

  @BeforeAll
  static void ingestTheSamples() throws Exception {
    db = new TestDb(tmp);
    db.ingest(IngestOptions.of(List.of("sample-logs")));
    data = new ReportService().gather(db.db, new ReportService.Request(Set.of(), null, "", "samples.duckdb"));
  }

  @AfterAll
  static void close() {
    db.close();
  }

  @Test
  void tablesComeFromTheViews() throws Exception {
    assertEquals(db.count("SELECT count(*) FROM run_summary"), data.runs().rowCount());
    assertEquals(db.count("SELECT count(*) FROM level_summary"), data.levels().rowCount());
    assertEquals(db.count("SELECT count(*) FROM ttft_breakdown"), data.breakdown().rowCount());
    assertEquals(db.count("SELECT count(*) FROM figure_basis"), data.basis().rowCount());
    assertEquals(db.count("SELECT count(*) FROM request_failures"), data.failures().rowCount());
    Row c4 = data.latency().where(data.latency().stringColumn("run").isEqualTo("c4")).row(0);
    assertEquals((Double) db.value("SELECT p95 FROM metric_stats WHERE run = 'c4' AND metric = 'ttft_ms'"),
        c4.getDouble("ttft_p95_ms"), 1e-9);
    assertNull(data.slo());
    assertNull(data.attainment());
  }

  @Test
  void chartsGetBucketsNotRawPoints() throws Exception {
    long gaps = db.count("SELECT count(*) FROM token_gaps");
    for (String run : data.histogram().stringColumn("run").unique()) {
      int buckets = data.histogram().where(data.histogram().stringColumn("run").isEqualTo(run)).rowCount();
      assertTrue(buckets <= ReportQueries.HISTOGRAM_BUCKETS + 1, run + ": " + buckets + " buckets");
    }
    assertTrue(data.histogram().rowCount() < gaps, "fewer buckets than gaps");
    // the timelines come from the bucketed views: about a hundred buckets per series
    assertTrue(data.timeline().rowCount() > 0);
    for (String run : data.clocks().stringColumn("run").unique()) {
      if (db.count("SELECT count(*) FROM requests WHERE run = '" + run
          + "' AND coalesce(finished_ns, last_token_ns) IS NOT NULL") == 0) {
        continue; // no request of the run ends (trtllm-log: received and started only): none is in flight over time
      }
      var t = data.timeline().where(data.timeline().stringColumn("run").isEqualTo(run)
          .and(data.timeline().stringColumn("series").isEqualTo("in flight")));
      assertTrue(t.rowCount() > 0 && t.rowCount() <= 130, run + ": " + t.rowCount());
    }
    assertTrue(data.stalls().rowCount() <= ReportQueries.STALLS_PER_RUN * data.runs().rowCount());
  }

  @Test
  void timeAxisStartsAtTheRunsFirstArrival() {
    Row c1 = data.clocks().where(data.clocks().stringColumn("run").isEqualTo("c1")).row(0);
    var t = data.timeline().where(data.timeline().stringColumn("run").isEqualTo("c1"));
    assertEquals(0.1, t.doubleColumn("width_s").max(), 1e-9, "concurrency_timeline's width for c1");
    double first = t.doubleColumn("x_s").min();
    assertEquals(0.05, first, 1e-9, "the middle of the first 100 ms bucket");
    assertNull(ReportCharts.seconds(data, "c1", c1.getLong("clock_id") + 1000, 0L), "another clock has no place on the axis");
  }

  @Test
  void sglangBatchLinesAreDrawnOnTheRequestsAxis() throws Exception {
    // sample-logs/sglang-server: requests with meta_info times on a 1 µs clock, the scheduler's
    // batch lines on the log's 1 s clock; the Finish lines relate the two (offset 0)
    String run = "sglang-server";
    var clocks = data.clocks().where(data.clocks().stringColumn("run").isEqualTo(run));
    assertEquals(2, clocks.rowCount(), clocks.print());
    Row axis = clocks.row(0);
    assertTrue(axis.getBoolean("axis"));
    assertEquals("first arrival", axis.getString("origin"));
    assertEquals(1775656810250000000L, axis.getLong("origin_ns"), "request a1's request_received_ts");
    long logClock = clocks.row(1).getLong("clock_id");
    assertEquals(logClock, db.count("SELECT DISTINCT clock_id FROM steps s JOIN sources USING (source_id) WHERE run = '" + run + "'"));
    assertEquals(1775656810250000000L, clocks.row(1).getLong("origin_ns"), "the same instant on the log's clock");

    var t = data.timeline().where(data.timeline().stringColumn("run").isEqualTo(run));
    var batch = t.where(t.stringColumn("series").isEqualTo("batch size (steps, decode sampled 1 in 4)"));
    assertTrue(batch.rowCount() > 0, t.stringColumn("series").unique().print());
    double area = 0;
    for (Row r : batch) {
      area += r.getDouble("y") * r.getDouble("width_s");
    }
    // batch-seconds as the view integrates them over the steps' clock
    double viewArea = (Double) db.value("SELECT sum(batch_mean * width_s) FROM batch_size_timeline WHERE run = '"
        + run + "' AND method = 'steps' AND clock_id = " + logClock);
    assertEquals(viewArea, area, 1e-9);
    assertEquals(40.0, area, 1e-9);
    // the first step (14:00:07) is 3.25 s before the first arrival: the middle of its 0.5 s bucket is -3 s
    assertEquals(-3.0, batch.doubleColumn("x_s").min(), 1e-9);
    var waiting = t.where(t.stringColumn("series").startsWith("waiting (").and(t.stringColumn("series").endsWith(", decode sampled 1 in 4)")));
    assertTrue(waiting.rowCount() > 0, t.stringColumn("series").unique().print());
    var inFlight = t.where(t.stringColumn("series").isEqualTo("in flight"));
    double requestSeconds = 0;
    for (Row r : inFlight) {
      requestSeconds += r.getDouble("y") * r.getDouble("width_s");
    }
    assertEquals(0.8125 + 3.9 + 4.7 + 5.25, requestSeconds, 1e-9, "a1, b1, b2, b3 from received to finished");

    List<ChartSpec> charts = ReportCharts.timelines(data, run);
    assertEquals(List.of("load-" + run, "batch-" + run), charts.stream().map(ChartSpec::id).toList());
    assertTrue(charts.get(1).series().stream().anyMatch(sr -> sr.name().equals("batch size (steps, decode sampled 1 in 4)")));
    assertEquals("time since the run's first arrival", charts.get(1).x().label());
    String html = HtmlReport.render(data);
    assertTrue(html.contains("id=\"chart-batch-" + run + "\""), "the HTML draws the batch chart");
    assertTrue(html.contains("decode sampled 1 in 4"), "with the sampling caveat");
    assertTrue(MarkdownReport.render(data, "charts").charts().stream().anyMatch(c -> c.id().equals("batch-" + run)),
        "Markdown with --charts svg draws it too");
  }

  @Test
  void definitionsAreTheViewsOwnDocumentation() {
    for (Row r : data.definitions()) {
      assertFalse(r.getString("definition").isBlank(), r.getString("figure") + " has no definition");
    }
    String ttft = data.definitions().where(data.definitions().stringColumn("figure").isEqualTo("TTFT")).row(0).getString("definition");
    assertTrue(ttft.contains("Time to first token"), ttft);
  }

  @Test
  void findingsSayWhereTtftWentWhichLevelAndWhatFailed() {
    String all = String.join("\n", data.findings());
    assertTrue(all.contains("queueing dominates in c4 (95 % of 726 ms)"), all);
    assertTrue(all.contains("prefill dominates in c1"), all);
    assertTrue(all.contains("the knee of the sweep is at concurrency 2: going on to 4 gains 3 % throughput per doubling"
        + " while P95 E2E grows 35 % per doubling"), all);
    // above each run's P99 and 2 x its median gap (stall_summary): 7 of the 12 gaps above the P99 alone
    // (the samples added since bring no stall: checked after the merge)
    assertTrue(all.contains("Where stalls came from (7 gaps"), all);
    // 233 + sample-logs/sglang-server (6: b3 and c1 failed) + sample-logs/traces (7: j3 and t2
    // failed) + sample-logs/vllm-failures (4 failed of 6) + wrapped (39: one request per sample) + trtllm-log (3 ok)
    // + peers/inference-perf (6: one HTTP 500)
    assertTrue(all.contains("16 of 300 measured requests failed"), all);
    assertTrue(all.contains("vllm's itl_ms from vllm-log token rows (254, 1 s clock)"), all);
    assertTrue(all.contains("Every input line was used"), all);
  }

  @Test
  void sloGivesAVerdictAndMarksTheCharts() throws Exception {
    ReportData d = new ReportService().gather(db.db, new ReportService.Request(Set.of("c1", "c2", "c4"),
        SloSpec.parse("ttft_p95<=500ms,itl_p95<=80ms"), "", "samples.duckdb"));
    assertNotNull(d.slo());
    assertEquals(3, d.runs().rowCount());
    assertEquals(3, d.attainment().rowCount());
    String all = String.join("\n", d.findings());
    assertTrue(all.contains("met at concurrency 1, concurrency 2 and missed at concurrency 4"), all);
    assertTrue(all.contains("concurrency 2 is the highest level that meets the SLO"), all);
    // DistServe's goodput from report_goodput, with its note: 2 is a level that was run
    assertEquals(1, d.goodput().rowCount(), d.goodput().print());
    assertEquals("2, a level run (the next, 4, misses)", d.goodput().row(0).getString("goodput_note"));
    String line = "DistServe goodput of the concurrency sweep (the highest level at which 90 % of requests meet "
        + "the per-request targets): 2, a level run (the next, 4, misses).";
    assertEquals(List.of(line), ReportTables.goodput(d));
    assertTrue(HtmlReport.render(d).contains(line), "the HTML report prints the note");
    assertTrue(MarkdownReport.render(d, null).markdown().contains("- " + line), "the Markdown report prints it");
    ChartSpec latency = ReportCharts.levels(d).get(0);
    assertTrue(latency.marks().stream().anyMatch(m -> m.label().equals("SLO ttft p95 <= 500 ms") && m.at() == 500), latency.marks().toString());
    assertTrue(latency.marks().stream().anyMatch(m -> m.label().equals("knee")), latency.marks().toString());
  }

  /**
   * A report of some runs pools only those into the sweep's levels, knee and DistServe goodput:
   * the samples' concurrency sweep also holds the peer tools' runs at 5, 8 and 16, which a report of
   * c1, c2 and c4 must not draw in; the selection is the session's only while the report reads.
   */
  @Test
  void sweepSectionsPoolOnlyTheRunsAskedFor() throws Exception {
    // every run: the tools' runs at 5, 8 and 16 join the sweep
    assertEquals(List.of(1.0, 2.0, 4.0, 5.0, 8.0, 16.0), data.knee().doubleColumn("level").asList());
    ReportData d = new ReportService().gather(db.db, new ReportService.Request(Set.of("c1", "c2", "c4"),
        SloSpec.parse("e2e_p95<=2s"), "", "samples.duckdb"));
    assertEquals(List.of(1.0, 2.0, 4.0), d.knee().doubleColumn("level").asList());
    assertEquals(List.of("c1", "c2", "c4"), d.levels().stringColumn("run_names").asList());
    assertEquals(List.of(10L, 10L, 10L), d.levels().longColumn("requests").asList());
    // all three attain: the goodput is the highest selected level, not a tool's 16
    assertEquals(4.0, d.goodput().row(0).getDouble("goodput"), 1e-12, d.goodput().print());
    // one repeat of a level asked for alone is that run's figures, not a median with other runs
    ReportData c2 = new ReportService().gather(db.db, new ReportService.Request(Set.of("c2"), null, "", "samples.duckdb"));
    assertEquals(1, c2.levels().rowCount());
    assertEquals((Double) db.value("SELECT p95 FROM metric_stats WHERE run = 'c2' AND metric = 'e2e_ms'"),
        c2.levels().row(0).getDouble("e2e_p95_ms"), 1e-9);
    assertNull(db.value("SELECT getvariable('tt_runs')"), "the selection ends with the report");
  }

  /**
   * Runs named c1, c4, c16, c64 without a level sort naturally in every table and chart (as text
   * they sort c1, c16, c4, c64), and TTFT from 100 ms to 40 s gets a logarithmic axis.
   */
  @Test
  void runsSortNaturallyAndWideTtftGetsALogAxis(@TempDir Path dir) throws Exception {
    try (TestDb t = new TestDb(dir)) {
      List<Path> files = new java.util.ArrayList<>();
      long[] ttftMs = {100, 400, 9_000, 40_000};
      String[] runs = {"c1", "c4", "c16", "c64"};
      for (int k = runs.length - 1; k >= 0; k--) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 3; i++) {
          long a = i * 1_000_000_000L;
          long first = a + ttftMs[k] * 1_000_000L;
          sb.append("{\"request_id\":\"").append(runs[k]).append('-').append(i).append("\",\"arrival_ns\":").append(a)
              .append(",\"tokens_ns\":[").append(first).append(',').append(first + 20_000_000L).append(',')
              .append(first + 45_000_000L).append("]}\n");
        }
        files.add(t.write(runs[k] + "/requests.jsonl", sb.toString()));
      }
      t.ingest(files.toArray(new Path[0]));
      ReportData d = new ReportService().gather(t.db, new ReportService.Request(Set.of(), null, "", "runs.duckdb"));
      List<String> natural = List.of("c1", "c4", "c16", "c64");
      assertEquals(natural, d.runs().stringColumn("run").asList());
      assertEquals(natural, d.latency().stringColumn("run").asList());
      assertEquals(natural, d.histogram().stringColumn("run").asList().stream().distinct().toList());
      assertEquals(natural, d.stallSummary().stringColumn("run").asList());
      assertEquals(natural, ReportCharts.itlCdf(d).series().stream().map(ChartSpec.Series::name).toList());
      ChartSpec ttft = ReportCharts.ttft(d);
      assertEquals("c1 P50", ttft.x().categories().get(0));
      assertEquals("c64 P99", ttft.x().categories().get(15));
      assertTrue(ttft.y().log(), "TTFT from 100 ms to 40 s: " + ttft.y());
      assertTrue(ttft.note().contains("Logarithmic axis"), ttft.note());
    }
  }

  @Test
  void logAxisPastThirtyTimes() {
    assertFalse(ReportCharts.spans(List.of(1.0, 30.0)));
    assertTrue(ReportCharts.spans(List.of(1.0, 30.5)));
    assertFalse(ReportCharts.spans(List.of(0.0, 2.0, 50.0)), "zeros are not on a log axis: 2 to 50 is 25x");
  }
}
