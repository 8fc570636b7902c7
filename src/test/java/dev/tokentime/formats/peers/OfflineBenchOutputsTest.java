package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.RecordingSink;
import dev.tokentime.testing.TestDb;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The offline benchmarks' outputs as published (real-logs/tools and real-logs/console,
 * PROVENANCE.md there): vLLM's vllm bench throughput / latency --output-json and their printed
 * lines, TensorRT-LLM's gptManagerBenchmark summary: each is recognised as its own and read with units.
 */
class OfflineBenchOutputsTest {
  static final Path TOOLS = Path.of("src/test/resources/real-logs/tools");
  static final Path CONSOLE = Path.of("src/test/resources/real-logs/console");

  @TempDir
  Path tmp;

  private static List<List<Object>> figures(TestDb t) throws Exception {
    return t.rows("SELECT metric, stat, value, unit FROM reported_metrics ORDER BY metric, stat");
  }

  /**
   * Only an object whose own keys are an offline result's is one: GuideLLM's report holds
   * elapsed_time, requests_per_second and tokens_per_second deep in its benchmarks (the head of a
   * real 0.5 report, danielkorat/guidellm-bench, shortened).
   */
  @Test
  void aReportHoldingTheSameKeysDeeperIsNotOne() {
    String head = "{\"metadata\": {\"version\": 1, \"guidellm_version\": \"0.5.0.dev0\"}, \"benchmarks\": [{"
        + "\"metrics\": {\"requests_per_second\": {\"mean\": 0.4}, \"output_tokens_per_second\": {\"mean\": 80.1},"
        + " \"tokens_per_second\": {\"mean\": 90.2}}, \"elapsed_time\": 62.5}]}";
    byte[] b = head.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, new VllmOfflineBenchFormat().sniff(new Sample("benchmarks.json", b, b.length)));
    assertEquals("guidellm-json", FormatRegistry.standard().sniff(new Sample("benchmarks.json", b, b.length)).id());
  }

  @Test
  void vllmThroughputJsonIsItsFiguresWithUnits() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(TOOLS.resolve("vllm-offline-dstack-2024-11/nvidia-throughput_test_ip128_op2048_np8.json").toString())));
      assertEquals(List.of("vllm-bench-offline-json"), t.rows("SELECT format FROM sources").stream().map(r -> r.get(0)).toList());
      assertEquals(List.of(
          List.of("duration", "value", 75.0559648920007, "s"),
          List.of("num_requests", "value", 8.0, "count"),
          List.of("requests_per_second", "value", 0.10658713150262387, "requests/s"),
          List.of("tokens_per_second", "value", 231.93359814970955, "tokens/s"),
          List.of("total_num_tokens", "value", 17408.0, "tokens")), figures(t));
    }
  }

  @Test
  void vllmLatencyJsonIsItsPercentilesInSeconds() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(TOOLS.resolve("vllm-offline-dstack-2024-11/nvidia-latency_test_ip2048_op2048_np4.json").toString())));
      assertEquals(List.of(
          List.of("latency", "avg", 73.0387226099997, "s"),
          List.of("latency", "count", 2.0, "count"),
          List.of("latency", "p10", 73.03731769079977, "s"),
          List.of("latency", "p25", 73.03784453549974, "s"),
          List.of("latency", "p50", 73.0387226099997, "s"),
          List.of("latency", "p75", 73.03960068449965, "s"),
          List.of("latency", "p90", 73.04012752919962, "s"),
          List.of("latency", "p99", 73.0404436360196, "s")), figures(t));
    }
  }

  /** AMD's copy adds its settings, "input" and "ouput" (as written there): the requests' lengths. */
  @Test
  void amdsThroughputJsonKeepsItsLengthsInTokens() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(TOOLS.resolve("vllm-offline-dstack-2024-11/"
          + "Meta-Llama-3.1-405B-Instruct-FP8-KV_throughput_req16_in32784_out2048_.json").toString())));
      assertEquals(List.of(List.of("input_len", 32784.0, "tokens"), List.of("output_len", 2048.0, "tokens"),
          List.of("tokens_per_second", 1063.7764273649823, "tokens/s")),
          t.rows("SELECT metric, value, unit FROM reported_metrics WHERE metric IN ('input_len', 'output_len', 'tokens_per_second') ORDER BY metric"));
    }
  }

  /** Named as a serving result, a latency file is one reject naming its format: its per-iteration latencies are no requests. */
  @Test
  void aLatencyFileReadAsAServingResultSaysWhatItIs() throws Exception {
    byte[] b = Files.readAllBytes(TOOLS.resolve("vllm-offline-dstack-2024-11/nvidia-latency_test_ip2048_op2048_np4.json"));
    RecordingSink s = new RecordingSink();
    new VllmBenchFormat().parse(new ByteArrayInputStream(b), ToolOutputsTest.ctx("x.json"), s);
    assertEquals(List.of(), s.c.reported);
    assertEquals(1, s.c.rejects.size());
    assertEquals(true, s.c.rejects.get(0).reason().contains("vllm bench latency --output-json result")
        && s.c.rejects.get(0).reason().contains("--from vllm-bench-offline-json"), s.c.rejects.toString());
  }

  @Test
  void vllmThroughputLinesBeforeAndAfterPr8914() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("a"))) {
      t.ingest(IngestOptions.of(List.of(CONSOLE.resolve("vllm-bench-throughput-console-after-pr8914.txt").toString())));
      assertEquals(List.of(
          List.of("output_tokens_per_second", "value", 11426.69, "tokens/s"),
          List.of("requests_per_second", "value", 89.27, "requests/s"),
          List.of("tokens_per_second", "value", 22853.37, "tokens/s")), figures(t));
      assertEquals(List.of("vllm-bench-offline-console"), t.rows("SELECT format FROM sources").stream().map(r -> r.get(0)).toList());
    }
    try (TestDb t = new TestDb(tmp.resolve("b"))) {
      t.ingest(IngestOptions.of(List.of(CONSOLE.resolve("vllm-bench-throughput-console-before-pr8914.txt").toString())));
      assertEquals(List.of(
          List.of("requests_per_second", "value", 81.74, "requests/s"),
          List.of("tokens_per_second", "value", 20926.37, "tokens/s")), figures(t));
    }
  }

  /**
   * benchmark_latency.py's lines at the end of an engine log pasted with its V0 stats lines: the
   * log stays vllm-log, the latency lines are the benchmark's figures (the 99% line is glued to a
   * second copy of the paste: no figure).
   */
  @Test
  void latencyLinesInAnEngineLogAreTheBenchmarksFigures() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      IngestResult r = t.ingest(IngestOptions.of(List.of(
          CONSOLE.resolve("vllm-benchmark-latency-v0-stats-glued-to-tqdm-davidshare.log").toString())));
      assertEquals(0, r.files().stream().mapToLong(IngestResult.FileResult::rejected).sum(), r.files().toString());
      assertEquals(List.of(List.of("vllm-log", 18L, 15L)), t.rows("SELECT format, lines, records FROM sources"));
      assertEquals(List.of(
          List.of("latency", "avg", 6.522189523799898, "s"),
          List.of("latency", "p10", 6.517169274200024, "s"),
          List.of("latency", "p25", 6.51796872199975, "s"),
          List.of("latency", "p50", 6.518479874999684, "s"),
          List.of("latency", "p75", 6.528756830999555, "s"),
          List.of("latency", "p90", 6.528966261599999, "s")), figures(t));
    }
  }

  @Test
  void gptManagerBenchmarkSummaryIsItsFiguresAtItsRequestRate() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(TOOLS.resolve("trtllm-gptmanagerbenchmark-0.11-rate10/summary.txt").toString())));
      assertEquals(List.of(List.of("request_rate", 10.0)), t.rows("SELECT level_kind, level FROM runs"));
      List<List<Object>> f = t.rows("SELECT metric, stat, value, unit, level FROM reported_metrics ORDER BY metric, stat");
      assertEquals(11, f.size());
      assertEquals(List.of(
          List.of("num_error_samples", "value", 0.0, "count", 10.0),
          List.of("num_samples", "value", 500.0, "count", 10.0),
          List.of("seq_throughput", "value", 9.55, "seq/sec", 10.0),
          List.of("sequence_latency", "avg", 2755.07, "ms", 10.0),
          List.of("sequence_latency", "max", 3198.22, "ms", 10.0),
          List.of("sequence_latency", "min", 2353.59, "ms", 10.0),
          List.of("sequence_latency", "p50", 2747.11, "ms", 10.0),
          List.of("sequence_latency", "p90", 2942.41, "ms", 10.0),
          List.of("sequence_latency", "p99", 3108.04, "ms", 10.0),
          List.of("token_throughput", "value", 2870.8, "token/sec", 10.0),
          List.of("total_latency", "value", 52372.21, "ms", 10.0)), f);
    }
  }

  /** A streaming run's blocks, as gptManagerBenchmark.cpp prints them: TTFT and ITL statistics in ms. */
  @Test
  void gptManagerBenchmarksStreamingBlocksAreTtftAndItl() throws Exception {
    String text = "[BENCHMARK] num_samples 20\n[BENCHMARK] num_error_samples 0\n\n[BENCHMARK] num_samples 20\n"
        + "[BENCHMARK] total_latency(ms) 1000.00\n[BENCHMARK] avg_time_to_first_token(ms) 12.50\n"
        + "[BENCHMARK] p99_inter_token_latency(ms) 8.25\n[BENCHMARK] avg_acceptance_rate(tokens/decoding steps) 1.00\n";
    byte[] b = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    InputFormat f = FormatRegistry.standard().sniff(new Sample("bench.log", b, b.length));
    assertEquals("trtllm-gptmanager-benchmark", f.id());
    RecordingSink s = new RecordingSink();
    f.parse(new ByteArrayInputStream(b), ToolOutputsTest.ctx("bench.log"), s);
    assertEquals(List.of("tools null num_samples value 20.0 count", "tools null num_error_samples value 0.0 count",
        "tools null total_latency value 1000.0 ms", "tools null time_to_first_token avg 12.5 ms",
        "tools null inter_token_latency p99 8.25 ms", "tools null acceptance_rate avg 1.0 tokens/decoding steps"),
        s.c.reported);
  }

  /** benchmarks/python/benchmark.py's static-batch line is no gptManagerBenchmark summary: claimed by no format. */
  @Test
  void theStaticBenchmarkPyLineIsNotClaimed() throws Exception {
    byte[] b = Files.readAllBytes(TOOLS.resolve("trtllm-benchmark-py-static-line-i1410/benchmark.txt"));
    assertNull(FormatRegistry.standard().sniff(new Sample("benchmark.txt", b, b.length)));
    RecordingSink s = new RecordingSink();
    new dev.tokentime.formats.trtllm.GptManagerBenchmarkFormat().parse(new ByteArrayInputStream(b), ToolOutputsTest.ctx("benchmark.txt"), s);
    assertEquals(List.of(), s.c.reported);
    assertEquals(true, s.c.rejects.get(0).reason().contains("benchmark.py's static-batch line"), s.c.rejects.toString());
  }
}
