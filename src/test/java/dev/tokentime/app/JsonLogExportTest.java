package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tokentime.testing.TestDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server log downloaded from a log platform as one JSON document (aws logs filter-log-events,
 * Logs Insights' get-query-results, gcloud logging read) is read as the lines it holds, as its
 * CSV download is: at the export's time, with its stream or pod as the instance, each event at
 * the line its object starts on. Read as it is, each was "cannot tell the format".
 */
class JsonLogExportTest {
  @TempDir
  Path tmp;

  static final Path JSON = Path.of("src/test/resources/constructed/json-exports");

  /** The same 13 requests (12 of them HTTP 500s) as the CSV download of the same lines, indented or on one line. */
  @Test
  void cloudWatchsEventsAreTheRequestsTheyAnswer() throws Exception {
    for (String f : List.of("filter-log-events-requests-500s.json", "filter-log-events-one-line.json")) {
      try (TestDb t = new TestDb(tmp.resolve(f))) {
        var r = t.ingest(JSON.resolve(f)).files().get(0);
        assertEquals(List.of("vllm-log", 17L, 0L), List.of(r.format(), r.records(), r.rejected()), f);
        assertEquals(List.of(List.of("error", 500, 12L), List.of("other", 200, 1L)),
            t.rows("SELECT CASE WHEN status = 'error' THEN 'error' ELSE 'other' END AS s, http_status, count(*)"
                + " FROM requests GROUP BY ALL ORDER BY s"), f);
        var e = new ExplainService(dev.tokentime.ingest.FormatRegistry.standard())
            .explain(IngestOptions.of(List.of(JSON.resolve(f).toString()))).get(0);
        assertEquals(List.of(r.lines(), r.records(), r.otherLines(), r.rejected()),
            List.of(e.stats().lines, e.records(), e.stats().other, e.stats().rejected), "--explain counts alike: " + f);
      }
    }
    // indented, a request is at the line its event starts on (the '{' three lines above its message)
    try (TestDb t = new TestDb(tmp.resolve("lines"))) {
      Path f = JSON.resolve("filter-log-events-requests-500s.json");
      var r = t.ingest(f).files().get(0);
      assertEquals(Files.readAllLines(f).size(), r.lines());
      List<String> lines = Files.readAllLines(f);
      long received = 0;
      for (int i = 0; i < lines.size() && received == 0; i++) {
        received = lines.get(i).contains("Received request chatcmpl-a269fdcb7c6ce890") ? i + 1 : 0;
      }
      assertEquals("{", lines.get((int) received - 4).strip());
      assertEquals(List.of(List.of(received - 3, "2026-02-13T11:33:33.111Z")),
          t.rows("SELECT line_no, strftime(make_timestamp(arrival_ns // 1000), '%Y-%m-%dT%H:%M:%S.%gZ')"
              + " FROM requests WHERE request_id = 'chatcmpl-a269fdcb7c6ce890'"));
    }
  }

  /** Logs Insights' rows of fields and gcloud's entries: stats lines at the export's time, per stream or pod. */
  @Test
  void insightsRowsAndGcloudEntriesReadAsTheirLines() throws Exception {
    for (String[] c : new String[][] {{"get-query-results-stats.json", "pod/AllTraffic/i-0f1e2d3c4b5a69788 / Engine 000"},
        {"gcloud-logging-read-stats.json", "pod/vllm-qwen-7d9c5b6f4-2xkpl / Engine 000"}}) {
      try (TestDb t = new TestDb(tmp.resolve(c[0]))) {
        var r = t.ingest(JSON.resolve(c[0])).files().get(0);
        assertEquals(List.of(7L, 0L), List.of(r.records(), r.rejected()), c[0]);
        assertEquals(r.lines(), r.records() + r.otherLines());
        assertEquals(List.of(List.of(c[1], "2026-05-12T07:54:39.312Z", 8, 0.531)),
            t.rows("SELECT instance, strftime(make_timestamp(ts_ns // 1000), '%Y-%m-%dT%H:%M:%S.%gZ'), running,"
                + " kv_usage FROM engine_stats ORDER BY ts_ns LIMIT 1"), c[0]);
      }
    }
  }

  /**
   * Grafana Explore's "Download logs" as JSON (its logRowsToReadableJson: an array of {"line",
   * "timestamp" in epoch ns, "date", "fields": the row's fields and the stream's labels}): each
   * line at its time, its pod the instance. Before, the pods of a query were one instance: two
   * replicas' "Engine 000" stats shared one lane.
   */
  @Test
  void grafanasJsonDownloadNamesEachLinesPod() throws Exception {
    String stats = "INFO 05-12 07:54:39 [loggers.py:271] Engine 000: Avg prompt throughput: 0.0 tokens/s,"
        + " Avg generation throughput: 60.0 tokens/s, Running: 8 reqs, Waiting: 0 reqs, GPU KV cache usage: 53.1%,"
        + " Prefix cache hit rate: 0.0%";
    String doc = "[{\"line\":\"" + stats + "\",\"timestamp\":\"1778572479312201059\",\"date\":\"2026-05-12T07:54:39.312Z\","
        + "\"fields\":{\"container\":\"vllm\",\"namespace\":\"inference\",\"pod\":\"vllm-0\"}},"
        + "{\"line\":\"" + stats + "\",\"timestamp\":\"1778572479412201059\",\"date\":\"2026-05-12T07:54:39.412Z\","
        + "\"fields\":{\"container\":\"vllm\",\"namespace\":\"inference\",\"pod\":\"vllm-1\"}}]";
    try (TestDb t = new TestDb(tmp.resolve("grafana"))) {
      Path f = t.write("Explore-logs-2026-05-12 07_55_00.json", doc);
      var r = t.ingest(f).files().get(0);
      assertEquals(List.of(2L, 0L), List.of(r.records(), r.rejected()));
      assertEquals(List.of(List.of("pod/vllm-0 / Engine 000", 1778572479312201059L),
          List.of("pod/vllm-1 / Engine 000", 1778572479412201059L)),
          t.rows("SELECT instance, ts_ns FROM engine_stats ORDER BY ts_ns"));
    }
  }

  /**
   * A JSON:API page of log entries, each's fields under "attributes": Datadog's logs search
   * (POST /api/v2/logs/events/search: {"data": [{"id", "type": "log", "attributes": {"service",
   * "status", "timestamp", "host", "message", "tags", "attributes"}}], "links", "meta"}) and Fly.io's
   * logs API ({"data": [{…, "attributes": {"timestamp", "message", "level", "instance", "region",
   * "meta"}}], "meta": {"next_token"}}). Each entry is its line at its time, its host or machine the
   * instance. Before, neither was a document of events: "cannot tell the format".
   */
  @Test
  void jsonApiPagesOfLogEntriesReadAsTheirLines() throws Exception {
    String stats = "INFO 05-12 07:54:39 [loggers.py:271] Engine 000: Avg prompt throughput: 0.0 tokens/s,"
        + " Avg generation throughput: 60.0 tokens/s, Running: 8 reqs, Waiting: 0 reqs, GPU KV cache usage: 53.1%,"
        + " Prefix cache hit rate: 0.0%";
    String datadog = "{\"data\":[{\"id\":\"AQAAAZ1\",\"type\":\"log\",\"attributes\":{\"service\":\"vllm\",\"status\":\"info\","
        + "\"timestamp\":\"2026-05-12T07:54:39.312Z\",\"host\":\"gpu-node-1\",\"message\":\"" + stats + "\","
        + "\"tags\":[\"env:prod\"],\"attributes\":{\"k\":1}}},{\"id\":\"AQAAAZ2\",\"type\":\"log\",\"attributes\":{"
        + "\"service\":\"vllm\",\"status\":\"info\",\"timestamp\":\"2026-05-12T07:54:39.412Z\",\"host\":\"gpu-node-2\","
        + "\"message\":\"" + stats + "\",\"tags\":[]}}],\"links\":{\"next\":\"x\"},\"meta\":{\"page\":{\"after\":\"CUR1\"}}}";
    String fly = "{\"data\":[{\"id\":\"01J\",\"type\":\"log\",\"attributes\":{\"timestamp\":\"2026-05-12T07:54:39.312Z\","
        + "\"message\":\"" + stats + "\",\"level\":\"info\",\"instance\":\"148ed726c12358\",\"region\":\"ord\","
        + "\"meta\":{}}}],\"meta\":{\"next_token\":\"\"}}";
    try (TestDb t = new TestDb(tmp.resolve("jsonapi"))) {
      var r = t.ingest(t.write("datadog-logs-search.json", datadog)).files().get(0);
      assertEquals(List.of(2L, 0L), List.of(r.records(), r.rejected()));
      var f = t.ingest(t.write("fly-logs.json", fly)).files().get(0);
      assertEquals(List.of(1L, 0L), List.of(f.records(), f.rejected()));
      assertEquals(List.of(List.of("pod/148ed726c12358 / Engine 000", 1778572479312000000L),
          List.of("pod/gpu-node-1 / Engine 000", 1778572479312000000L),
          List.of("pod/gpu-node-2 / Engine 000", 1778572479412000000L)),
          t.rows("SELECT instance, ts_ns FROM engine_stats ORDER BY ts_ns, instance"));
    }
  }

  /**
   * A real Cloud Run export (gcloud logging read): each entry names its container instance under
   * labels.instanceId, which is the line's instance (replicas of a revision stay apart); vLLM's
   * CLI refusing an argument is the server's crash (it never started).
   */
  @Test
  void aCloudRunInstanceIsTheLinesInstanceAndACliRefusalACrash() throws Exception {
    Path f = Path.of("src/test/resources/real-logs/exports/cloudrun-gcloud-logging-read-cli-error-gemma4tips.json");
    try (TestDb t = new TestDb(tmp.resolve("cloudrun"))) {
      var r = t.ingest(f).files().get(0);
      assertEquals(List.of("vllm-log", 1L, 0L), List.of(r.format(), r.records(), r.rejected()));
      assertEquals(r.lines(), r.records() + r.otherLines());
      List<List<Object>> crash = t.rows("SELECT kind, instance, detail FROM engine_events");
      assertEquals(1, crash.size(), crash.toString());
      assertEquals("crash", crash.get(0).get(0));
      assertEquals("pod/002f8ffd4705cdcb9744f7927e76904ea38e95e7b530133d369d94b89bde22e5a84e80627d46cd10ee2fa64f986269617654e0198de9b588b4974fa6d284a4ea158187401dae200558ae3c29c5d01bd2db774271cbaa601d81",
          crash.get(0).get(1));
      assertEquals("vllm serve: error: argument --limit-mm-per-prompt: Value {image:0,audio:0,video:0} cannot be converted"
          + " to <function loads at 0x7f882f29d3a0>.", crash.get(0).get(2));
    }
  }

  /**
   * A download cut inside an event: the events before it are read and the cut is a reject naming
   * where its event began, counted alike by --explain; a document that stops being JSON likewise.
   */
  @Test
  void aDocumentCutShortKeepsItsEventsBefore() throws Exception {
    String text = Files.readString(JSON.resolve("gcloud-logging-read-stats.json"), StandardCharsets.UTF_8);
    int fourth = text.indexOf("\"insertId\": \"5d1a7c3e9b2f4003\"");
    long eventLine = text.substring(0, fourth).lines().count() - 1; // the line of its '{'
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      Path cut = t.write("cut/gcloud.json", text.substring(0, fourth + 200));
      var r = t.ingest(cut).files().get(0);
      // three events before it: two stats lines and an access line of a 200 (no record)
      assertEquals(List.of(2L, 1L), List.of(r.records(), r.rejected()));
      assertEquals(List.of("the JSON export ends inside its event from line " + eventLine
          + ", which is cut; the lines before it were read"), t.rows("SELECT reason FROM rejects").stream()
          .map(row -> (String) row.get(0)).toList());
      var e = new ExplainService(dev.tokentime.ingest.FormatRegistry.standard())
          .explain(IngestOptions.of(List.of(cut.toString()))).get(0);
      assertEquals(List.of(r.lines(), r.records(), r.rejected()), List.of(e.stats().lines, e.records(), e.stats().rejected));

      Path broken = t.write("broken/gcloud.json", text.substring(0, fourth) + "<html>502 Bad Gateway</html>\n");
      var b = t.ingest(broken).files().get(0);
      assertEquals(List.of(2L, 1L), List.of(b.records(), b.rejected()));
      String reason = (String) t.rows("SELECT reason FROM rejects WHERE source_id = (SELECT max(source_id) FROM sources)")
          .get(0).get(0);
      assertEquals(true, reason.startsWith("the JSON export stops being JSON at line " + (eventLine + 1) + " (Unexpected character ('<'"), reason);
    }
  }

  /**
   * The lines read are the document's lines, whatever the events hold (found by review): a
   * message's newlines take its event's lines and fold beyond them (a request on line 5 was read
   * as line 14); an empty first page (a pagination's) is a page; blank lines after the document
   * are lines; an event's arrays are skipped, not built.
   */
  @Test
  void theLinesReadAreTheDocumentsLines() throws Exception {
    String stats = "(APIServer pid=1) INFO 05-12 07:54:39 [loggers.py:271] Engine 000: Avg prompt throughput: 0.0 tokens/s,"
        + " Avg generation throughput: 60.0 tokens/s, Running: 8 reqs, Waiting: 0 reqs, GPU KV cache usage: 53.1%,"
        + " Prefix cache hit rate: 0.0%";
    String received = "(APIServer pid=1) INFO 05-12 07:54:40 [logger.py:49] Received request chatcmpl-9: params:"
        + " SamplingParams(n=1, max_tokens=16), prompt_token_ids: [1, 2], lora_request: None.";
    String doc = "{\"events\": [], \"nextForwardToken\": \"f/1\"}\n" // lines 1
        + "{\"events\": [\n" // 2
        + "{\"timestamp\": 1778572479312, \"message\": \"a note\\n  of three\\n  lines\\n\","
        + " \"big\": [" + "1, ".repeat(100_000) + "1]},\n" // 3: three lines of text on one line of the file
        + "{\"timestamp\": 1778572479312,\n \"message\": \"" + stats + "\"},\n" // 4-5
        + "{\"timestamp\": 1778572480000, \"message\": \"" + received + "\"}\n" // 6
        + "]}\n\n\n"; // 7, and two blank lines: 9 in all
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      var r = t.ingest(t.write("x/export.json", doc)).files().get(0);
      assertEquals(List.of(9L, 2L, 0L), List.of(r.lines(), r.records(), r.rejected()));
      assertEquals(List.of(4L), t.rows("SELECT line_no FROM engine_stats").stream()
          .map(row -> ((Number) row.get(0)).longValue()).toList());
      assertEquals(List.of(List.of("chatcmpl-9", 6L)), t.rows("SELECT request_id, line_no FROM requests"));
    }
  }

  @Test
  void onlyALogPlatformsDocumentOfEventsIsOne() {
    assertEquals(true, export("\ufeff{\"events\": [{\"timestamp\": 1, \"message\": \"x\"}]}"));
    assertEquals(true, export("{\"searchedLogStreams\": [], \"events\": [{\"timestamp\": 1, \"message\": \"x\""),
        "a first event longer than the head: judged by the names it shows");
    assertEquals(true, export("{\"events\": [], \"nextForwardToken\": \"f/1\"}\n{\"events\": [{\"timestamp\": 1,"
        + " \"message\": \"x\"}]}"), "an empty first page");
    assertEquals(true, export("[{\"textPayload\": \"x\", \"timestamp\": \"2025-01-01T00:00:00Z\"}]"));
    assertEquals(true, export("{\"results\": [[{\"field\": \"@timestamp\", \"value\": \"2025-01-01 00:00:00.000\"},"
        + " {\"field\": \"@message\", \"value\": \"x\"}]]}"));
    assertEquals(true, export("[{\"jsonPayload\": {\"message\": \"x\", \"request_id\": \"r1\"},"
        + " \"timestamp\": \"2025-01-01T00:00:00Z\"}]"), "a structured entry's own request_id is its log's");
    assertEquals(false, export("{\"events\": [1, 2]}"), "events that are no log events");
    assertEquals(false, export("[{\"request_id\": \"a\", \"message\": \"x\", \"timestamp\": 1}]"), "a tool's requests");
    assertEquals(false, export("{\"date\": \"20250101\", \"ttfts\": [0.1]}"), "vllm bench serve's result");
    assertEquals(false, export("{\"traceEvents\": [{\"name\": \"x\", \"ts\": 1}]}"), "a Chrome trace");
    assertEquals(false, export("[{\"message\": \"x\"}]"), "no time");
    assertEquals(false, export("{\"message\": \"a shipper's JSON line\", \"timestamp\": 1}\n{\"message\": \"x\"}"),
        "JSON lines (each its own envelope) are no document of events");
    assertEquals(false, export("INFO 05-12 07:54:39 [loggers.py:271] Engine 000: Avg prompt throughput: 0.0 tokens/s"));
  }

  private static boolean export(String s) {
    return JsonLogExport.isExport(s.getBytes(StandardCharsets.UTF_8));
  }
}
