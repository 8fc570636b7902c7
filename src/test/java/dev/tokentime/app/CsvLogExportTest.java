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

  /** Azure Container Apps' console table: the line under Log_s, the replica under ContainerGroupName_s. */
  @Test
  void azureContainerAppsConsoleLogsAreTheirLines() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      var r = t.ingest(CONSTRUCTED.resolve("azure-containerapps-log_s-500.csv")).files().get(0);
      assertEquals(List.of("vllm-log", 0L), List.of(r.format(), r.rejected()));
      assertEquals(List.of(List.of("error", 500, "pod/vllm--r1-abc / APIServer pid=41", "2026-06-27T02:23:02.300Z")),
          t.rows("SELECT status, http_status, instance, strftime(make_timestamp(finished_ns // 1000), '%Y-%m-%dT%H:%M:%S.%gZ')"
              + " FROM requests"));
    }
  }

  /** A time column that names its zone is read in it, in the ISO form or the Azure portal's US one. */
  @Test
  void aTimeColumnNamedUtcIsUtc() {
    assertEquals("2026-06-27T02:23:02.100Z", CsvLogExport.rfc3339("2026-06-27 02:23:02.100", "TimeGenerated [UTC]"));
    assertEquals("2026-06-27T02:23:02.100Z", CsvLogExport.rfc3339("6/27/2026, 2:23:02.100 AM", "TimeGenerated [UTC]"));
    assertEquals("2026-06-27T12:05:00Z", CsvLogExport.rfc3339("6/27/2026, 12:05:00 PM", "TimeGenerated [UTC]"));
    assertEquals("2026-06-27T00:05:00Z", CsvLogExport.rfc3339("6/27/2026, 12:05:00 AM", "TimeGenerated [UTC]"));
    assertNull(CsvLogExport.rfc3339("13/27/2026, 2:23:02 AM", "TimeGenerated [UTC]"));
    assertNull(CsvLogExport.rfc3339("05/06/2026, 2:23:02.100 pm", "TimeGenerated [UTC]"), "a day-first locale's: day and month unknown");
    assertNull(CsvLogExport.rfc3339("2026-06-27 02:23:02.100", "Date"), "no zone named: not a time the line may take");
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

  static final String STATS = "(APIServer pid=1) INFO 05-12 07:54:39 [loggers.py:271] Engine 000: Avg prompt throughput:"
      + " 0.0 tokens/s, Avg generation throughput: 60.0 tokens/s, Running: 8 reqs, Waiting: 0 reqs, GPU KV cache usage:"
      + " 53.1%, Prefix cache hit rate: 0.0%";

  /** "ms,"STATS"" with the stats line's time moved by {@code s} seconds. */
  static String row(long ms, int s) {
    return ms + ",\"" + STATS.replace("07:54:39", String.format("07:54:%02d", 39 + s)) + "\"";
  }

  /**
   * The lines read are the file's lines: blank lines are lines, a record spread over more lines
   * than its message (a newline in another column) is padded; a stray quote leaves the rows it
   * swallowed as they stand (bounded: no record of more than 256 lines or 1 MiB), and the rows
   * after them read. (The first version dropped blank lines, renumbering every line after them,
   * and held the rest of the file in one quoted field: out of memory on a large file.)
   */
  @Test
  void theLinesReadAreTheFilesLines() throws Exception {
    long t0 = 1778572479000L;
    StringBuilder f = new StringBuilder("timestamp,message,@logStream\n\n");
    f.append(row(t0, 0)).append(",\"a\nb\"\n"); // lines 3-4: a newline in the stream's column
    f.append("\n").append(row(t0 + 10_000, 10)).append(",s\n"); // blank line 5; line 6
    f.append(t0 + 20_000).append(",\"stray quote never closed,s\n"); // line 7
    for (int i = 0; i < 300; i++) {
      f.append("junk line ").append(i).append('\n'); // lines 8-307
    }
    f.append(row(t0 + 30_000, 30)).append(",s\n"); // line 308
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      var r = t.ingest(t.write("x/export.csv", f.toString())).files().get(0);
      assertEquals(308L, r.lines());
      assertEquals(List.of(3L, 6L, 308L), t.rows("SELECT line_no FROM engine_stats ORDER BY line_no").stream()
          .map(row -> ((Number) row.get(0)).longValue()).toList());
      assertEquals(r.lines(), r.records() + r.otherLines() + r.rejected());
    }
  }

  /** Readings of one growing download, the later one compressed: the later replaces the earlier. */
  @Test
  void aDownloadThatGrewIsOneSource() throws Exception {
    long t0 = 1778572479000L;
    StringBuilder rows = new StringBuilder("timestamp,message\n");
    for (int i = 0; i < 20; i++) { // past the 4 KiB head a grown reading is known by
      rows.append(row(t0 + i * 1000L, i)).append('\n');
    }
    String a = rows.toString();
    String b = a + row(t0 + 20_000, 20) + "\n";
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      t.ingest(t.write("g/export.csv", a));
      java.io.ByteArrayOutputStream gz = new java.io.ByteArrayOutputStream();
      try (java.util.zip.GZIPOutputStream g = new java.util.zip.GZIPOutputStream(gz)) {
        g.write(b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      t.ingest(t.writeBytes("g/export-later.csv.gz", gz.toByteArray()));
      assertEquals(21L, t.value("SELECT count(*) FROM engine_stats"), "the first reading replaced, not counted twice");
    }
  }

  @Test
  void onlyALogExportsHeaderIsOne() {
    assertNull(CsvLogExport.header("request_id,arrival_ns,first_token_ns,status,timestamp,message"),
        "a tokentime CSV with columns of its own");
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
