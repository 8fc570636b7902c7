package dev.tokentime.formats.vllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.TestDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AIPerf's scrapes of the server's metrics (server_metrics_export.jsonl) beside its request
 * records: a real AIPerf 0.12 run's five records (real-logs/tools/aiperf-0.12-mlx-probe-c1) and
 * a scrape file written by hand in AIPerf's documented shape, with times inside that run, so every
 * figure below can be checked by reading the file (src/test/resources/aiperf-server-metrics).
 */
class AiperfServerMetricsFormatTest {
  static final Path RECORDS = Path.of("src/test/resources/real-logs/tools/aiperf-0.12-mlx-probe-c1/profile_export.jsonl");
  static final Path SAMPLE = Path.of("src/test/resources/aiperf-server-metrics");
  static final String MODEL = "mlx-community/Qwen3-0.6B-4bit";

  @TempDir
  Path tmp;

  /** An AIPerf artifacts folder: the records, the scrapes and the metric schemas. */
  private Path runFolder() throws Exception {
    Path run = Files.createDirectories(tmp.resolve("artifacts/qwen3-chat-concurrency1"));
    Files.copy(RECORDS, run.resolve("profile_export.jsonl"));
    Files.copy(SAMPLE.resolve("server_metrics_export.jsonl"), run.resolve("server_metrics_export.jsonl"));
    Files.copy(SAMPLE.resolve("server_metrics_metadata.json"), run.resolve("server_metrics_metadata.json"));
    return run;
  }

  @Test
  void theScrapesAreTheEnginesGaugesOnTheRecordsClock() throws Exception {
    Path run = runFolder();
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      IngestResult r = t.ingest(IngestOptions.of(List.of(run.toString())));
      IngestResult.FileResult scrapes = r.files().stream()
          .filter(f -> f.format().equals("aiperf-server-metrics")).findFirst().orElseThrow();
      // eight scrapes: seven with vLLM's series, one of Dynamo's frontend only (an other line)
      assertEquals(List.of(8L, 7L, 1L, 0L),
          List.of(scrapes.lines(), scrapes.records(), scrapes.otherLines(), scrapes.rejected()));
      assertEquals(List.of(), r.failedChecks());
      // the schemas hold no times: left out beside the run's files, and said why
      assertEquals(1, r.skipped().size());
      assertTrue(r.skipped().get(0).path().endsWith("server_metrics_metadata.json"));
      assertTrue(r.skipped().get(0).reason().startsWith(IngestResult.Skipped.LEFT_OUT), r.skipped().toString());

      String local = "localhost:8000 / engine 0 / " + MODEL;
      String decode = "10.0.0.2:8001 / engine 0 / " + MODEL;
      assertEquals(List.of(
          List.of(local, 1789877457400000000L, 0, 0, 0.0),
          List.of(local, 1789877457600000000L, 1, 0, 0.0125),
          List.of(local, 1789877461400000000L, 1, 0, 0.0375),
          List.of(local, 1789877461500000000L, 0, 0, 0.0),
          List.of(decode, 1789877461600000000L, 0, 2, 0.5), // a second endpoint, its map named "buckets"
          List.of(local, 1789877461600000000L, 1, 0, 0.0125),
          List.of(local, 1789877476000000000L, 0, 0, 0.0)),
          t.rows("SELECT instance, ts_ns, running, waiting, kv_usage FROM engine_stats ORDER BY ts_ns, instance"));
      // one clock: AIPerf's, named by the artifacts folder, shared with the request records
      assertEquals(1L, t.count("SELECT count(DISTINCT clock_id) FROM (SELECT clock_id FROM engine_stats"
          + " UNION ALL SELECT clock_id FROM requests)"));
      // the E2E histogram's buckets as deltas between scrapes: the first request (3.94 s) between
      // 461.4 s and 461.5 s, the other four by the last scrape
      assertEquals(List.of(List.of(1789877461400000000L, 1789877461500000000L, 1.0),
              List.of(1789877461600000000L, 1789877476000000000L, 4.0)),
          t.rows("SELECT t0_ns, t1_ns, count FROM metric_histograms WHERE metric = 'vllm:e2e_request_latency_seconds'"
              + " AND le = 5.0 AND count > 0 ORDER BY t1_ns"));
      // the run's time axis is the records' first arrival, and the engine's queue is drawn on it
      assertEquals(1789877457529026000L, t.value("SELECT origin_ns FROM report_clocks WHERE axis"));
      assertTrue(t.count("SELECT count(*) FROM report_timeline WHERE series = 'waiting (engine_stats)'") > 0);
    }
  }

  @Test
  void aScrapeIsOneUnitAndABadOneIsRejectedWhole() throws Exception {
    String good = Files.readAllLines(SAMPLE.resolve("server_metrics_export.jsonl")).get(1);
    String nan = good.replace("\"value\":0.0125", "\"value\":NaN");
    String seconds = good.replace("1789877457600000000", "1789877457");
    String cut = good.substring(0, good.length() / 2);
    String listHistogram = "{\"endpoint_url\":\"http://h:8000/metrics\",\"timestamp_ns\":1789877470000000000,"
        + "\"metrics\":{\"vllm:num_requests_waiting\":[{\"value\":3.0}],"
        + "\"vllm:e2e_request_latency_seconds\":[{\"histogram\":[0,1,2,2],\"sum\":4.1,\"count\":2}]}}";
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      Path f = t.write("run/server_metrics_export.jsonl", String.join("\n", good, nan, seconds, listHistogram, cut) + "\n");
      IngestResult.FileResult r = t.ingestSample(IngestOptions.of(List.of(f.toString())), "aiperf-server-metrics",
          5, 2, 0, 3);
      List<List<Object>> rejects = t.rows("SELECT line_no, reason FROM rejects ORDER BY line_no");
      assertEquals(2L, rejects.get(0).get(0));
      assertTrue(((String) rejects.get(0).get(1)).contains("vllm:kv_cache_usage_perc"), rejects.toString());
      assertEquals(3L, rejects.get(1).get(0));
      assertTrue(((String) rejects.get(1).get(1)).contains("timestamp_ns"), rejects.toString());
      assertEquals(5L, rejects.get(2).get(0));
      assertTrue(((String) rejects.get(2).get(1)).startsWith("truncated"), rejects.toString());
      // nothing of a rejected scrape is kept; a histogram as a bare list of counts (its bounds are
      // in the schema file) is not read, the gauges beside it are
      assertEquals(List.of(List.of(1789877457600000000L, 1, 0), java.util.Arrays.asList(1789877470000000000L, null, 3)),
          t.rows("SELECT ts_ns, running, waiting FROM engine_stats ORDER BY ts_ns"));
      assertEquals(0L, t.count("SELECT count(*) FROM metric_histograms"));
      assertEquals(r.lines(), r.records() + r.otherLines() + r.rejected());
    }
  }

  /**
   * A scrape rejected for a value late in it keeps nothing of its earlier samples (its gauges'
   * row and its buckets were kept, and the next interval's deltas were taken from them); a blank
   * first line does not make the file a document (it was one reject for nine lines); a line of two
   * scrapes is a reject, not the first of them.
   */
  @Test
  void aRejectedScrapeKeepsNothing() throws Exception {
    List<String> lines = Files.readAllLines(SAMPLE.resolve("server_metrics_export.jsonl"));
    String bad = lines.get(2).replace("\"value\":0.0375", "\"value\":7.5"); // KV usage 7.5: no share
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      Path f = t.write("run/server_metrics_export.jsonl", "\n" + String.join("\n", lines.get(0), lines.get(1), bad,
          lines.get(3), lines.get(1) + " " + lines.get(1)) + "\n");
      t.ingestSample(IngestOptions.of(List.of(f.toString())), "aiperf-server-metrics", 6, 3, 1, 2);
      assertEquals(List.of(4L, 6L), t.rows("SELECT line_no FROM rejects ORDER BY line_no").stream()
          .map(r -> r.get(0)).toList());
      assertEquals(List.of(List.of(2L, 0), List.of(3L, 1), List.of(5L, 0)),
          t.rows("SELECT line_no, running FROM engine_stats ORDER BY ts_ns"));
      // the first request's E2E between 457.6 s and 461.5 s: the rejected scrape's buckets took no part
      assertEquals(List.of(List.of(1789877457600000000L, 1789877461500000000L, 1.0)),
          t.rows("SELECT t0_ns, t1_ns, count FROM metric_histograms WHERE le = 5.0 AND count > 0"));
    }
  }

  @Test
  void theSchemasAloneAreRejectedAsWhatTheyAre() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      IngestResult r = t.ingest(SAMPLE.resolve("server_metrics_metadata.json"));
      assertEquals("aiperf-server-metrics", r.files().get(0).format());
      assertEquals(1L, r.files().get(0).rejected());
      assertTrue(((String) t.value("SELECT reason FROM rejects")).contains("no scrape times"));
    }
  }

  @Test
  void sniffedByItsFirstLineOrItsName() throws Exception {
    FormatRegistry formats = FormatRegistry.standard();
    byte[] line = Files.readAllBytes(SAMPLE.resolve("server_metrics_export.jsonl"));
    assertEquals("aiperf-server-metrics",
        formats.sniff(new Sample("custom_server_metrics.jsonl", line, line.length)).id());
    byte[] schemas = Files.readAllBytes(SAMPLE.resolve("server_metrics_metadata.json"));
    assertEquals("aiperf-server-metrics",
        formats.sniff(new Sample("server_metrics_metadata.json", schemas, schemas.length)).id());
    // the same JSON under another name is no AIPerf file
    var other = formats.sniff(new Sample("config.json", schemas, schemas.length));
    assertTrue(other == null || !other.id().equals("aiperf-server-metrics"));
    byte[] records = Files.readAllBytes(RECORDS);
    assertEquals("aiperf-jsonl", formats.sniff(new Sample("profile_export.jsonl", records, records.length)).id());
    byte[] text = "vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 1.0\n".getBytes(StandardCharsets.UTF_8);
    assertEquals("vllm-prometheus", formats.sniff(new Sample("metrics", text, text.length)).id());
  }
}
