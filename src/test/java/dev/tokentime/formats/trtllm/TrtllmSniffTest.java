package dev.tokentime.formats.trtllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Sniffing with every format registered: each TensorRT-LLM format claims its own files (the real
 * samples are checked in TrtllmRealSamplesTest), not the others', and none claims a canonical,
 * peer or generic JSON file.
 */
class TrtllmSniffTest {
  final FormatRegistry registry = FormatRegistry.standard();

  String sniff(String name, byte[] bytes) {
    InputFormat f = registry.sniff(new Sample(name, bytes, Math.min(bytes.length, 64 << 10)));
    return f == null ? null : f.id();
  }

  String sniff(String name, String text) {
    return sniff(name, text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * A format sure of a file's first lines keeps it, whatever another finds later: a trtllm-serve
   * start-up of many lines (its C++ runtime's, score 55) then uvicorn's access lines (vLLM's rule,
   * also 55, on lines past the first 40). The rest of a file is looked at only when no format was
   * sure of its first lines; never in a program's source.
   */
  @Test
  void onlyWhenNoFormatIsSureOfTheFirstLinesAreTheOthersLookedAt() {
    StringBuilder trt = new StringBuilder();
    for (int i = 1; i <= 45; i++) {
      trt.append("[TensorRT-LLM][INFO] Loaded engine size: ").append(i).append(" MiB\n");
    }
    String access = "INFO:     127.0.0.1:51234 - \"POST /v1/completions HTTP/1.1\" 200 OK\n";
    assertEquals("trtllm-log", sniff("server.log", trt + access.repeat(5)));
    StringBuilder pip = new StringBuilder();
    for (int i = 1; i <= 45; i++) {
      pip.append("Requirement already satisfied: package").append(i).append(" in /usr/lib/python3/dist-packages\n");
    }
    String vllm = "INFO 06-27 02:06:27 [api_server.py:1790] vLLM API server version 0.16.0\n";
    assertEquals("vllm-log", sniff("docker.log", pip + vllm));
    assertNull(sniff("make_samples.py", pip + "print('INFO 06-27 02:06:27 [x.py:1] Received request cmpl-1: x')\n"));
  }

  @Test
  void eachFormatClaimsItsOwnShapes() {
    Map<String, String> cases = new LinkedHashMap<>();
    cases.put(PerfMetricsFormatTest.record(0, 1.0) + "\n", "trtllm-perf-metrics");
    cases.put("[" + PerfMetricsFormatTest.record(0, 1.0) + "]", "trtllm-perf-metrics");
    cases.put("{\"request_id\":3,\"request_perf_metrics\":{\"timing_metrics\":{\"arrival_time\":1.5}}}\n", "trtllm-perf-metrics");
    cases.put("{\"arrival_time_ns\":[1000],\"first_token_time_ns\":[2000]}\n", "trtllm-perf-metrics");
    cases.put(IterStatsFormatTest.executor(1, 1, 0, "01-02-2025 03:04:05") + "\n", "trtllm-iter-stats");
    cases.put("[TensorRT-LLM][INFO] " + IterStatsFormatTest.executor(1, 1, 0, "01-02-2025 03:04:05") + "\n", "trtllm-iter-stats");
    cases.put("{'iter': 3, 'iterLatencyMS': 1.5, 'numActiveRequests': 2}\n", "trtllm-iter-stats");
    cases.put("[04/28/2025-09:56:45] [TRT-LLM] [I] iter = 3, global_rank = 0, rank = 0, elapsed_time = 0.01s,"
        + " states = {'num_ctx_requests': 0}\n", "trtllm-iter-stats");
    cases.put("[\n  {\"id\": 1, \"timestamps\": [{ \"name\": \"REQUEST_START\", \"ns\": 5 }] }\n]", "triton-trace");
    cases.put(BenchFormatsTest.REPORT_JSON, "trtllm-bench-report");
    cases.put("[" + BenchFormatsTest.REQUEST + "]", "trtllm-bench-requests");
    for (var e : cases.entrySet()) {
      assertEquals(e.getValue(), sniff("x.json", e.getKey()), e.getKey());
    }
    // an executor rank's traceback alone (ai-dynamo/dynamo#4299, a Dynamo TRT-LLM worker, 2025-11):
    // "cannot tell the format" before
    assertEquals("trtllm-log", sniff("worker.log", "[11/17/2025-14:46:33] [TRT-LLM] [RANK 0] [E] Traceback (most recent"
        + " call last):\n  File \"/opt/dynamo/venv/lib/python3.12/site-packages/tensorrt_llm/executor/worker.py\", line 852,"
        + " in worker_main\n"));
    String startup = "[04/28/2025-09:56:40] [TRT-LLM] [I] Loading weights\n".repeat(400);
    assertEquals("trtllm-iter-stats", sniff("server.log", startup + "[04/28/2025-09:56:45] [TRT-LLM] [I] iter = 3,"
        + " global_rank = 0, rank = 0, elapsed_time = 0.01s, states = {'num_ctx_requests': 0}\n"),
        "iteration lines after 400 lines of start-up log");
  }

  @Test
  void noTrtllmFormatClaimsCanonicalPeerOrGenericFiles() throws IOException {
    assertEquals("tokentime-jsonl", sniff("c1.jsonl", Files.readAllBytes(Path.of("sample-logs/canonical/c1.jsonl"))));
    assertEquals("tokentime-jsonl", sniff("steps.jsonl",
        "{\"table\":\"steps\",\"iter\":1,\"ts_ns\":0,\"gen_requests\":1,\"ctx_requests\":0}\n"));
    assertEquals("tokentime-csv", sniff("requests.csv", "request_id,run,arrival_ns,first_token_ns\nr1,c1,1,2\n"));
    Map<String, String> peers = Map.of(
        "sample-logs/peers/genai-perf/profile_export.json", "genai-perf-export",
        "sample-logs/peers/genai-perf/profile_export_genai_perf.json", "genai-perf-summary",
        "sample-logs/peers/aiperf/profile_export.jsonl", "aiperf-jsonl",
        "sample-logs/peers/vllm-bench/vllm-bench-result.json", "vllm-bench-json",
        "sample-logs/peers/sglang/sglang-bench.jsonl", "sglang-bench-jsonl",
        "sample-logs/peers/llmperf/groq_70b_individual_responses.json", "llmperf-json");
    for (var e : peers.entrySet()) {
      Path p = Path.of(e.getKey());
      assertEquals(e.getValue(), sniff(p.getFileName().toString(), Files.readAllBytes(p)), e.getKey());
    }
    assertNull(sniff("config.json", "{\"model\":\"llama\",\"max_tokens\":10}"));
    assertNull(sniff("data.json", "[{\"a\":1},{\"b\":2}]"));
    assertNull(sniff("ids.json", "{\"request_id\":1,\"arrival_time\":2.0}\n"), "no timing_metrics: not claimed");
    assertNull(sniff("app.log", "[01/18/2025-01:01:13] [TRT-LLM] [I] Preparing to run throughput benchmark...\n"));
  }

  @Test
  void theTrtllmSamplesAreClaimedByTheirFormats() throws IOException {
    Map<String, String> want = new LinkedHashMap<>();
    try (Stream<Path> s = Files.walk(Path.of("sample-logs/trtllm"))) {
      for (Path p : s.filter(Files::isRegularFile).filter(p -> !p.toString().contains("/expected/")).sorted().toList()) {
        String id = sniff(p.getFileName().toString(), Files.readAllBytes(p));
        want.put(p.toString(), id);
        assertEquals(true, id != null && (id.startsWith("trtllm-") || id.equals("triton-trace")), p + ": " + id);
      }
    }
    assertEquals(true, want.size() >= 5, want.toString());
  }
}
