package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import dev.tokentime.testing.TestDb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * llm-d-benchmark's reports: schema 0.1, real ones from llm-d's guides, and 0.2, the schema's own
 * example (peers-extra/llmd-report, PROVENANCE.md there): "cannot tell the format" before; now the
 * run's level and every statistic with the report's units, and its request counts.
 */
class LlmdReportFormatTest {
  static final Path DIR = Path.of("src/test/resources/real-logs/peers-extra/llmd-report");
  final LlmdReportFormat format = new LlmdReportFormat();

  CollectingSink read(String file) throws IOException {
    byte[] b = Files.readAllBytes(DIR.resolve(file));
    assertEquals("llmd-benchmark-report", FormatRegistry.standard().sniff(new Sample(file, b, b.length)).id(), file);
    return Parsing.parse(format, b, "r");
  }

  @Test
  void aReportConvertedFromVllmBenchServe() throws IOException {
    CollectingSink s = read("vllmbench-pd-c1.yaml");
    assertEquals(List.of(), s.rejects);
    assertTrue(s.reported.contains("r 1.0 time_to_first_token mean 786.2135391915217 ms"), s.reported.toString());
    assertTrue(s.reported.contains("r 1.0 time_to_first_token p99.9 868.320517178625 ms"), s.reported.toString());
    assertTrue(s.reported.contains("r 1.0 inter_token_latency std 0.8951002299547278 ms/token"), s.reported.toString());
    assertTrue(s.reported.contains("r 1.0 requests_total value 32.0 requests"), s.reported.toString());
    assertTrue(s.reported.contains("r 1.0 duration value 507.5000007180497 s"), s.reported.toString());
  }

  @Test
  void anInferencePerfStagesRateIsTheLevel() throws IOException {
    CollectingSink s = read("inferenceperf-rate45.yaml");
    assertTrue(s.reported.contains("r 45.0 time_to_first_token p50 1.1084336100611836 s"), s.reported.toString());
    assertTrue(s.reported.contains("r 45.0 requests_failures value 0.0 requests"), s.reported.toString());
  }

  /** Two rates in the converter's args and no word of which this report is: no level guessed. */
  @Test
  void aListOfRatesGivesNoLevel() throws IOException {
    CollectingSink s = read("guidellm-rate5.yaml");
    assertTrue(s.reported.contains("r null requests_total value 149.0 requests"), s.reported.toString());
    assertTrue(s.reported.contains("r null request_latency mean 0.12442724816751159 ms"), "kept as labelled");
  }

  /**
   * PyYAML sorts the keys: a report may start with metadata, and its version line, written last,
   * may lie past what a sniff reads (a long scenario). A figure no run can have is a reject naming
   * it (the second review's cases, made up).
   */
  @Test
  void sortedKeysLongScenariosAndFiguresOutOfRange() throws IOException {
    String body = Files.readString(DIR.resolve("inferenceperf-rate45.yaml"));
    String metadataFirst = "metadata:\n  eid: x\n" + body;
    assertEquals("llmd-benchmark-report", FormatRegistry.standard().sniff(
        new Sample("r.yaml", metadataFirst.getBytes(), metadataFirst.length())).id());
    String noVersionInSample = body.replace("version: '0.1'", "");
    assertEquals("llmd-benchmark-report", FormatRegistry.standard().sniff(
        new Sample("r.yaml", noVersionInSample.getBytes(), noVersionInSample.length())).id());
    CollectingSink bad = Parsing.parse(format, body.replace("mean: 1.1568768169119075", "mean: -5.0")
        .replace("total: 5400", "total: 10").replace("failures: 0", "failures: 50").getBytes(), "r");
    assertEquals(List.of("time_to_first_token mean out of range: -5.0 (a latency, count or throughput is not negative); not kept",
        "metrics.requests: failures and incomplete (50.0) exceed total (10.0): the counts are not kept"),
        bad.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertTrue(bad.reported.stream().noneMatch(r -> r.contains("requests_total") || r.contains(" -5.0 ")), bad.reported.toString());
    CollectingSink v3 = Parsing.parse(format, body.replace("version: '0.1'", "version: '0.3'").getBytes(), "r");
    assertEquals(List.of("llm-d benchmark report schema 0.3: only 0.1 and 0.2 (0.2.x) are read"),
        v3.rejects.stream().map(CollectingSink.Rej::reason).toList());
  }

  static final String V02 = "br-v0.2-schema-example-inf-concurrency.yaml";

  /**
   * Schema 0.2 (llm-d-benchmark's own example of it, PROVENANCE.md): its aggregate under
   * results.request_performance, throughputs as statistics with units, the run's ISO 8601
   * duration, the level from scenario.load.standardized. Its "concurrency: .inf" (YAML's
   * infinity: no bound) is no level and no crash; its rate_qps is the level. Time series and
   * observability are not read.
   */
  @Test
  void aSchema02ReportWithAnInfiniteConcurrency() throws IOException {
    CollectingSink s = read(V02);
    assertEquals(List.of(), s.rejects);
    assertTrue(s.reported.contains("r 10.0 time_to_first_token mean 0.0368578234128654 s"), s.reported.toString());
    assertTrue(s.reported.contains("r 10.0 time_to_first_token p99.9 0.057014757215045425 s"), s.reported.toString());
    assertTrue(s.reported.contains("r 10.0 inter_token_latency mean 0.0368578234128654 s/token"), s.reported.toString());
    assertTrue(s.reported.contains("r 10.0 requests_total value 500.0 requests"), s.reported.toString());
    assertTrue(s.reported.contains("r 10.0 requests_failures value 0.0 requests"), s.reported.toString());
    assertTrue(s.reported.contains("r 10.0 output_length p50 2262.0 count"), s.reported.toString());
    assertTrue(s.reported.contains("r 10.0 output_token_rate mean 2262.448 tokens/s"), s.reported.toString());
    assertTrue(s.reported.contains("r 10.0 request_rate max 2328.0 queries/s"), s.reported.toString());
    assertTrue(s.reported.contains("r 10.0 duration value 49.97206788184121 s"), s.reported.toString());
    assertTrue(s.reported.stream().noneMatch(r -> r.contains("kv_cache_usage") || r.contains("request_size")),
        s.reported.toString());
  }

  /**
   * YAML's infinity where a figure or the rate should be: a figure is a reject naming it, never a
   * number stored; an infinite rate (vllm bench serve's default) gives no level.
   */
  @Test
  void infinitiesInASchema02ReportAreNoFigures() throws IOException {
    String body = Files.readString(DIR.resolve(V02));
    CollectingSink s = Parsing.parse(format, body.replace("rate_qps: 10", "rate_qps: .inf")
        .replace("          max: 0.0574655020609498\n", "          max: .inf\n")
        .replace("    duration: PT49.97206788184121S", "    duration: 49.97 seconds").getBytes(), "r");
    assertEquals(List.of("time_to_first_token max: Infinity is no finite number; not kept",
            "run.time.duration: not an ISO 8601 duration: \"49.97 seconds\"; not kept"),
        s.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertTrue(s.reported.contains("r null time_to_first_token mean 0.0368578234128654 s"), s.reported.toString());
    assertTrue(s.reported.stream().noneMatch(r -> r.contains("time_to_first_token max") || r.contains("duration")),
        s.reported.toString());
  }

  /**
   * inference-perf's own per-stage partial reports (real-logs/tools/inference-perf-br-0.2.1-
   * partials-pr705: schema 0.2.1, an additive point release of 0.2) were each one reject ("schema
   * 0.2.1: only 0.1 and 0.2 are read"). Read as 0.2: the same statistics as the stage's native
   * report beside them (stage_0_lifecycle_metrics.json: TTFT mean 0.12751322751322752 s), no
   * level (a partial carries no scenario).
   */
  @Test
  void inferencePerfsSchema021PartialReportsAreRead() throws IOException {
    Path dir = Path.of("src/test/resources/real-logs/tools/inference-perf-br-0.2.1-partials-pr705");
    byte[] b = Files.readAllBytes(dir.resolve("inference-perf.partial.stage_0.yaml"));
    assertTrue(new String(b).startsWith("version: 0.2.1\n"), "the file as written");
    assertEquals("llmd-benchmark-report",
        FormatRegistry.standard().sniff(new Sample("inference-perf.partial.stage_0.yaml", b, b.length)).id());
    CollectingSink s = Parsing.parse(format, b, "r");
    assertEquals(List.of(), s.rejects);
    assertEquals(1, s.records);
    assertTrue(s.reported.contains("r null time_to_first_token mean 0.12751322751322752 s"), s.reported.toString());
    assertTrue(s.reported.contains("r null time_to_first_token p99 0.17022222222222227 s"), s.reported.toString());
    assertTrue(s.reported.contains("r null requests_total value 4.0 requests"), s.reported.toString());
    assertTrue(s.reported.contains("r null requests_failures value 1.0 requests"), s.reported.toString());
    assertTrue(s.reported.contains("r null output_token_rate mean 11.818181818181817 tokens/s"), s.reported.toString());
    assertTrue(s.reported.contains("r null duration value 2.2 s"), s.reported.toString());
    CollectingSink one = Parsing.parse(format, Files.readAllBytes(dir.resolve("inference-perf.partial.stage_1.yaml")), "r");
    assertEquals(List.of(), one.rejects);
    assertTrue(one.reported.contains("r null requests_total value 2.0 requests"), one.reported.toString());
    // a later minor version of the family is no point release of 0.2
    CollectingSink v03 = Parsing.parse(format, new String(b).replace("version: 0.2.1", "version: 0.3.0").getBytes(), "r");
    assertEquals(List.of("llm-d benchmark report schema 0.3.0: only 0.1 and 0.2 (0.2.x) are read"),
        v03.rejects.stream().map(CollectingSink.Rej::reason).toList());
  }

  @TempDir
  Path tmp;

  /** The reports' request counts are the tool's counts of runs with no request rows: 149 ok of 149, 32 ok. */
  @Test
  void theReportsCountsAreTheToolsCounts() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(DIR.resolve("guidellm-rate5.yaml").toString(), DIR.resolve("vllmbench-pd-c1.yaml").toString())));
      assertEquals(List.of(List.of(149L, 0L), java.util.Arrays.asList(32L, null)),
          t.rows("SELECT tool_ok_requests, tool_failed_requests FROM tool_run_counts ORDER BY tool_ok_requests DESC"));
    }
  }
}
