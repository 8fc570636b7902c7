package dev.tokentime.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.TestDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Row;

/**
 * A server log of scheduler batch lines without request lines (SGLang started without
 * --log-requests, the common case) is reported: no request table has rows, and the run's engine
 * is drawn over time. Before, report refused it with "no run to report (nothing ingested?)"
 * while summary showed the run.
 */
class EngineOnlyReportTest {
  @TempDir
  Path tmp;

  @Test
  void batchLinesAloneAreDrawnOverTime() throws Exception {
    List<String> batchOnly = Files.readAllLines(Path.of("sample-logs/sglang-server/server.log"), StandardCharsets.UTF_8)
        .stream().filter(l -> l.contains("Prefill batch") || l.contains("Decode batch")).toList();
    assertTrue(batchOnly.size() >= 10, "batch lines: " + batchOnly.size());
    Path log = Files.write(Files.createDirectories(tmp.resolve("engine-only")).resolve("server.log"), batchOnly);
    try (TestDb db = new TestDb(tmp.resolve("db"))) {
      db.ingest(IngestOptions.of(List.of(log.toString())));
      assertEquals(0, db.count("SELECT count(*) FROM requests"));
      ReportData d = new ReportService().gather(db.db, new ReportService.Request(Set.of(), null, "", "x.duckdb"));
      assertEquals(0, d.runs().rowCount());
      assertEquals(List.of("engine-only"), d.overTimeRuns());
      assertTrue(d.context().stream().anyMatch(c -> c.startsWith("0 runs of requests and 1 of engine data only")),
          d.context().toString());
      // the same steps as in the whole sample: 40 batch-seconds on the log's clock; without the
      // server_args line the sampling is SGLang's default decode_log_interval, 40
      var batch = d.timeline().where(d.timeline().stringColumn("series")
          .isEqualTo("batch size (steps, decode sampled 1 in 40)"));
      double area = 0;
      for (Row r : batch) {
        area += r.getDouble("y") * r.getDouble("width_s");
      }
      assertEquals(40.0, area, 1e-9);
      assertFalse(ReportCharts.engine(d, "engine-only").isEmpty(), "the engine's stats are drawn");
      String html = HtmlReport.render(d);
      assertTrue(html.contains("<h3>engine-only</h3>"), "the run has its own heading over time");
      assertFalse(html.contains("TTFT by run and percentile"), "no empty TTFT chart");
    }
  }
}
