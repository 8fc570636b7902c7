package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server log downloaded from a log platform as CSV is read as the lines it holds: each line out
 * of its quoted column, at the export's time (finer than vLLM's whole seconds, with its year),
 * with its stream or host as the instance. Read as text, a quoted stats line ended in a quote (a
 * truncated reject) and the access lines' doubled quotes matched nothing: the 500s were lost.
 */
class CsvLogExportTest {
  @TempDir
  Path tmp;

  static final Path CONSTRUCTED = Path.of("src/test/resources/constructed/csv-exports");

  /** The real download (a SageMaker endpoint starting, vLLM 0.10.1.1): its time and zone. */
  @Test
  void cloudWatchsConsoleDownloadIsReadAtItsOwnTime() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      var r = t.ingest(Path.of("src/test/resources/real-logs/wrapped/cloudwatch-console-csv-sagemaker-startup-sm111.csv"))
          .files().get(0);
      assertEquals("vllm-log", r.format());
      assertEquals(List.of(9L, 2L, 7L, 0L), List.of(r.lines(), r.records(), r.otherLines(), r.rejected()));
      assertEquals(List.of(List.of("version", "0.10.1.1", "2025-08-25T17:46:29.824Z"),
          List.of("config", "}", "2025-08-25T17:46:34.557Z")),
          t.rows("SELECT kind, CASE kind WHEN 'version' THEN detail ELSE right(detail, 1) END,"
              + " strftime(make_timestamp(ts_ns // 1000), '%Y-%m-%dT%H:%M:%S.%gZ') FROM engine_events ORDER BY ts_ns"));
      // vLLM's own clock, seven hours behind the export's UTC (the endpoint's local time)
      assertEquals(List.of("-07:00"), t.rows("SELECT tz FROM clocks WHERE tz IS NOT NULL").stream()
          .map(row -> row.get(0)).toList());
    }
  }

  @Test
  void accessLinesInQuotesAreTheRequestsTheyAnswer() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      var r = t.ingest(CONSTRUCTED.resolve("cloudwatch-console-requests-500s.csv")).files().get(0);
      assertEquals(0, r.rejected());
      assertEquals(List.of(List.of("error", 500, 12L), List.of("other", 200, 1L)),
          t.rows("SELECT CASE WHEN status = 'error' THEN 'error' ELSE 'other' END AS s, http_status, count(*)"
              + " FROM requests GROUP BY ALL ORDER BY s"));
    }
  }

  /** Columns after the message (Logs Insights' stream and group), Datadog's host before it. */
  @Test
  void statsLinesAreReadWhateverColumnsStandBesideThem() throws Exception {
    for (String[] c : new String[][] {{"logs-insights-stats-two-columns-after.csv", "pod/AllTraffic/i-0f1e2d3c4b5a69788 / Engine 000"},
        {"datadog-stats.csv", "pod/i-0f1e2d3c4b5a69788 / Engine 000"}}) {
      try (TestDb t = new TestDb(tmp.resolve(c[0]))) {
        var r = t.ingest(CONSTRUCTED.resolve(c[0])).files().get(0);
        assertEquals(List.of(7L, 0L), List.of(r.records(), r.rejected()), c[0]);
        assertEquals(List.of(List.of(c[1], "2026-05-12T07:54:39.312Z", 8, 0.531)),
            t.rows("SELECT instance, strftime(make_timestamp(ts_ns // 1000), '%Y-%m-%dT%H:%M:%S.%gZ'), running,"
                + " kv_usage FROM engine_stats ORDER BY ts_ns LIMIT 1"), c[0]);
      }
    }
  }

  /**
   * A download cut inside a quoted field: the records before it are read and the cut one is a
   * reject naming its line (the whole file was refused with Commons CSV's words before), counted
   * alike by --explain.
   */
  @Test
  void aDownloadCutInsideAQuotedFieldKeepsWhatCameBefore() throws Exception {
    String text = java.nio.file.Files.readString(CONSTRUCTED.resolve("cloudwatch-console-requests-500s.csv"));
    int third = text.indexOf(",\"(APIServer", text.indexOf(",\"(APIServer", text.indexOf(",\"(APIServer") + 1) + 1);
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      Path cut = t.write("cut/export.csv", text.substring(0, third + 40));
      var r = t.ingest(cut).files().get(0);
      assertEquals(List.of(8L, 5L, 2L, 1L), List.of(r.lines(), r.records(), r.otherLines(), r.rejected()));
      assertEquals(List.of(List.of(8L, "the CSV export ends inside a quoted field: its record from line 8 is cut;"
          + " the lines before it were read")), t.rows("SELECT line_no, reason FROM rejects"));
      var e = new ExplainService(dev.tokentime.ingest.FormatRegistry.standard())
          .explain(IngestOptions.of(List.of(cut.toString()))).get(0);
      assertEquals(List.of(8L, 5L, 2L, 1L), List.of(e.stats().lines, e.records(), e.stats().other, e.stats().rejected));
    }
  }

  @Test
  void onlyALogExportsHeaderIsOne() {
    assertNotNull(CsvLogExport.header("timestamp,message"));
    assertNotNull(CsvLogExport.header("@timestamp,@message,@logStream,@log"));
    assertEquals(2, CsvLogExport.header("@timestamp,@message,@logStream,@log").who());
    assertNull(CsvLogExport.header("request_id,arrival_ns,first_token_ns"), "a tokentime CSV");
    assertNull(CsvLogExport.header("Metric,avg,min,max,p99"), "a tool's summary");
    assertNull(CsvLogExport.header("message"), "no time");
    assertNull(CsvLogExport.header("INFO 05-12 07:54:39 [loggers.py:271] Engine 000: Avg prompt throughput: 0.0 tokens/s"));
    assertEquals("2025-08-25T17:46:29.824Z", CsvLogExport.rfc3339("1756143989824", "timestamp"));
    assertEquals("2025-08-25T17:46:29.824Z", CsvLogExport.rfc3339("2025-08-25 17:46:29.824", "@timestamp"));
    assertNull(CsvLogExport.rfc3339("2025-08-25 17:46:29.824", "Date"), "a local time of no zone is not guessed");
  }
}
