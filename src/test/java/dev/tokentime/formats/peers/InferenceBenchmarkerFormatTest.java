package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import dev.tokentime.testing.TestDb;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hugging Face inference-benchmarker's results file (constructed/inference-benchmarker, README.md
 * there: the writer's shape, no real file found): "format not recognised" before; now a run per
 * benchmark after the warm-up, at its concurrency (max VUs) or request rate, with the tool's
 * percentiles in ms, throughput and request counts.
 */
class InferenceBenchmarkerFormatTest {
  static final Path FILE = Path.of("src/test/resources/constructed/inference-benchmarker/"
      + "deepseek-ai_DeepSeek-R1-Distill-Llama-8B_2025-06-13-14-06-05.json");
  final InferenceBenchmarkerFormat format = new InferenceBenchmarkerFormat();

  @Test
  void aSweepsBenchmarksAreRunsAtTheirLevels() throws IOException {
    byte[] b = Files.readAllBytes(FILE);
    assertEquals("inference-benchmarker-json",
        FormatRegistry.standard().sniff(new Sample(FILE.getFileName().toString(), b, b.length)).id());
    CollectingSink s = Parsing.parse(format, b, "r");
    assertEquals(List.of(), s.rejects);
    assertEquals(2, s.records, "throughput and constant@22.21req/s");
    assertEquals(1, s.other, "the warm-up");
    assertEquals("concurrency", s.levels.get("r")[0]);
    assertEquals(128.0, s.levels.get("r")[1]);
    assertEquals("request_rate", s.levels.get("r#2")[0]);
    assertEquals(22.208281, s.levels.get("r#2")[1]);
    assertTrue(s.reported.contains("r 128.0 time_to_first_token_ms p99 412.07 ms"), s.reported.toString());
    assertTrue(s.reported.contains("r 128.0 inter_token_latency_ms avg 9.534 ms"), s.reported.toString());
    assertTrue(s.reported.contains("r 128.0 token_throughput_secs value 12914.523 tokens/s"), s.reported.toString());
    assertTrue(s.reported.contains("r#2 22.208281 e2e_latency_ms p50 9050.42 ms"), s.reported.toString());
    assertTrue(s.reported.contains("r#2 22.208281 failed_requests value 4.0 requests"), s.reported.toString());
    assertTrue(s.reported.contains("r#2 22.208281 request_rate value 19.597561 requests/s"), s.reported.toString());
    assertTrue(s.reported.stream().noneMatch(r -> r.contains("41.516")), "the warm-up's figures are not kept");
  }

  /** A negative, a null (serde's NaN) and a count above the total: the benchmark is a reject naming the figure. */
  @Test
  void badFiguresRejectTheirBenchmark() throws IOException {
    String body = Files.readString(FILE);
    String bad = body.replace("\"p99\":412.07", "\"p99\":-412.07")
        .replace("\"token_throughput_secs\":12890.16", "\"token_throughput_secs\":null");
    CollectingSink s = Parsing.parse(format, bad.getBytes(StandardCharsets.UTF_8), "r");
    assertEquals(List.of(
            "results[1] (throughput): time_to_first_token_ms.p99 out of range: -412.07 (a latency, count or throughput"
                + " is not negative); the benchmark's figures are not kept",
            "results[2] (constant@22.21req/s): token_throughput_secs is null (the tool's NaN: no request gave it);"
                + " the benchmark's figures are not kept"),
        s.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertEquals(0, s.records);
    CollectingSink over = Parsing.parse(format, body.replace("\"failed_requests\":4", "\"failed_requests\":40")
        .getBytes(StandardCharsets.UTF_8), "r");
    assertEquals(List.of("results[2] (constant@22.21req/s): successful_requests + failed_requests exceed total_requests;"
        + " the benchmark's figures are not kept"), over.rejects.stream().map(CollectingSink.Rej::reason).toList());
  }

  /**
   * The tool's first writer (huggingface/inference-benchmarker 774343e, 2024) wrote each statistic as a key of
   * its own, whole ms: the same names and stats (this file's throughput benchmark rewritten so).
   */
  @Test
  void theFirstWritersFlatKeys() throws IOException {
    String flat = "{\"config\":{\"max_vus\":128},\"results\":[{\"id\":\"throughput\",\"executor_type\":\"ConstantVUs\","
        + "\"config\":{\"max_vus\":128,\"duration_secs\":60,\"rate\":null},\"total_requests\":1180,\"total_tokens\":823436,"
        + "\"token_throughput_secs\":12914.523,\"duration_ms\":63760,\"time_to_first_token_ms_avg\":118,"
        + "\"time_to_first_token_ms_p90\":171,\"time_to_first_token_ms_p95\":233,\"inter_token_latency_ms_avg\":9,"
        + "\"inter_token_latency_ms_p90\":9,\"inter_token_latency_ms_p95\":10,\"failed_requests\":0,\"successful_requests\":1180,"
        + "\"request_rate\":18.506901,\"total_tokens_sent\":0,\"e2e_latency_ms_avg\":6735,\"e2e_latency_ms_p90\":8011,"
        + "\"e2e_latency_ms_p95\":8120}],\"start_time\":\"2024-10-01T10:00:00+00:00\",\"end_time\":\"2024-10-01T10:01:04+00:00\"}";
    byte[] b = flat.getBytes(StandardCharsets.UTF_8);
    assertEquals("inference-benchmarker-json", FormatRegistry.standard().sniff(new Sample("r.json", b, b.length)).id());
    CollectingSink s = Parsing.parse(format, b, "r");
    assertEquals(List.of(), s.rejects);
    assertTrue(s.reported.contains("r 128.0 time_to_first_token_ms p95 233.0 ms"), s.reported.toString());
    assertTrue(s.reported.contains("r 128.0 e2e_latency_ms avg 6735.0 ms"), s.reported.toString());
  }

  /** A file cut short (a killed writer) is one reject, where the JSON broke; no crash. */
  @Test
  void aCutFile() throws IOException {
    String body = Files.readString(FILE);
    CollectingSink s = Parsing.parse(format, body.substring(0, body.length() / 2).getBytes(StandardCharsets.UTF_8), "r");
    assertEquals(1, s.rejects.size());
    assertEquals(0, s.records);
  }

  /** A GuideLLM-like or generic JSON with "results" is not claimed. */
  @Test
  void otherResultsFilesAreNotClaimed() {
    String other = "{\"results\": [{\"id\": \"x\", \"latency\": 1}], \"config\": {}}";
    byte[] b = other.getBytes(StandardCharsets.UTF_8);
    var f = FormatRegistry.standard().sniff(new Sample("results.json", b, b.length));
    assertTrue(f == null || !f.id().equals("inference-benchmarker-json"), String.valueOf(f == null ? null : f.id()));
  }

  @TempDir
  Path tmp;

  /** Into a database: two runs, and peer_comparison's rows of the tool's TTFT p99 and throughput. */
  @Test
  void intoADatabase() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path dir = tmp.resolve("results");
      Files.createDirectories(dir);
      Files.copy(FILE, dir.resolve(FILE.getFileName()));
      var r = t.ingest(IngestOptions.of(List.of(dir.toString())));
      assertEquals(List.of(List.of("inference-benchmarker-json", 3L, 2L, 1L, 0L)), r.files().stream()
          .map(f -> List.<Object>of(f.format(), f.lines(), f.records(), f.otherLines(), f.rejected())).toList(),
          "units: its three benchmarks, the warm-up an other unit");
      assertEquals(List.of(List.of("concurrency", 128.0), List.of("request_rate", 22.208281)),
          t.rows("SELECT level_kind, level FROM runs ORDER BY level_kind"));
      assertEquals(List.of(List.of("concurrency", 412.07), List.of("request_rate", 9310.661)), t.rows(
          "SELECT u.level_kind, p.reported_value FROM peer_comparison p JOIN runs u USING (run)"
              + " WHERE p.convention = 'inference-benchmarker' AND p.metric = 'ttft_ms' AND p.stat = 'p99'"
              + " ORDER BY 1"));
      // the summary's counts of these runs without request rows are the tool's (before: "0 ok, 0 failed")
      assertEquals(List.of(List.of(128.0, 1180L, 0L), List.of(22.208281, 1308L, 4L)), t.rows(
          "SELECT u.level, c.tool_ok_requests, c.tool_failed_requests FROM tool_run_counts c JOIN runs u USING (run)"
              + " ORDER BY u.level DESC"));
    }
  }
}
