package dev.tokentime.formats.peers;

import static dev.tokentime.formats.peers.PeerCasesTest.assertClose;
import static dev.tokentime.formats.peers.PeerCasesTest.metrics;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.testing.TestDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Peer figures beyond the first cases (src/test/resources/real-logs/peers-extra, provenance
 * there): genai-perf's non-generative runs (embeddings, rankings) and AIPerf's scalar
 * inter-chunk latency of its September-2025 export, each reproduced from the peer's own test.
 */
class PeerFiguresTest {
  static final Path ROOT = Path.of("src/test/resources/real-logs/peers-extra");
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path tmp;

  /**
   * A vLLM result without start_times (2024 and most of 2025) gives each request a relative clock
   * of its own: no span across requests holds, so AIPerf's and genai-perf's durations and
   * throughputs have no reading (they were the longest request's), and GuideLLM's request latency
   * is tokentime's E2E, not 0.
   */
  @Test
  void aResultWithoutStartTimesHasNoSpanAcrossRequests() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path f = tmp.resolve("in").resolve("c2").resolve("vllm-2qps-20241109.json");
      Files.createDirectories(f.getParent());
      Files.writeString(f, """
          {"date": "20241109-150547", "backend": "vllm", "model_id": "m", "num_prompts": 3, "request_rate": 2.0,
           "duration": 4.0, "completed": 3, "total_input_tokens": 30, "total_output_tokens": 9,
           "request_throughput": 0.75, "output_throughput": 2.25,
           "input_lens": [10, 10, 10], "output_lens": [3, 3, 3], "ttfts": [0.5, 0.25, 1.0],
           "itls": [[0.1, 0.1], [0.2, 0.2], [0.5, 0.5]], "generated_texts": ["a", "b", "c"], "errors": ["", "", ""],
           "mean_ttft_ms": 583.3333333333334}
          """);
      t.ingest(f);
      assertEquals(0L, t.count("SELECT * FROM rejects"));
      assertEquals(0L, t.count("SELECT count(*) FROM aiperf_metrics WHERE metric IN ('benchmark_duration',"
          + " 'request_throughput', 'output_token_throughput')"));
      assertEquals(0L, t.count("SELECT count(*) FROM genai_perf_metrics WHERE metric IN ('request_throughput',"
          + " 'output_token_throughput')"));
      // E2E: TTFT + the gaps = 0.7, 0.65 and 2.0 s; TTFT as the file says
      assertClose(1.1166666666666667, ((Number) t.value("SELECT value FROM guidellm_metrics WHERE metric ="
          + " 'request_latency' AND stat = 'mean'")).doubleValue(), "GuideLLM's request latency");
      assertClose(583.3333333333334, ((Number) t.value("SELECT value FROM guidellm_metrics WHERE metric ="
          + " 'time_to_first_token_ms' AND stat = 'mean'")).doubleValue(), "GuideLLM's TTFT");
      // the tool's own throughput still compares
      assertClose(2.25, ((Number) t.value("SELECT value FROM vllm_bench_metrics WHERE metric = 'output_throughput'"))
          .doubleValue(), "vLLM's throughput");
      // beside a request on a wall clock (a client's canonical row in the same run), still no span:
      // AIPerf's goodput had a duration of the wall-clock request alone (review)
      Files.writeString(f.resolveSibling("client.jsonl"), "{\"request_id\":\"m-1\",\"clock\":\"wall\","
          + "\"arrival_ns\":1767225600000000000,\"first_token_ns\":1767225600030000000,"
          + "\"finished_ns\":1767225604300000000,\"output_tokens\":5,\"status\":\"ok\"}\n");
      t.ingest(f.resolveSibling("client.jsonl"));
      assertEquals(List.of(Arrays.asList(4L, null, null)), t.rows("SELECT request_count, benchmark_duration_s, goodput"
          + " FROM aiperf_goodput(1000, NULL, NULL)"));
      assertEquals(0L, t.count("SELECT count(*) FROM aiperf_metrics WHERE metric = 'benchmark_duration'"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"embeddings", "rankings", "huggingface-rankings"})
  void genaiPerfNonGenerativeRunsReportLatencyThroughputAndGoodput(String name) throws Exception {
    Path dir = ROOT.resolve("genai-perf-base-parser");
    JsonNode exp = JSON.readTree(dir.resolve("expected.json").toFile()).get("asserted_each");
    try (TestDb t = new TestDb(tmp)) {
      Path f = tmp.resolve("in").resolve(name).resolve("profile_export.json");
      Files.createDirectories(f.getParent());
      Files.copy(dir.resolve(name).resolve("profile_export.json"), f);
      t.ingest(f);
      assertEquals(0L, t.count("SELECT * FROM rejects"));
      Map<String, Map<String, Double>> got = metrics(t, "genai_perf_metrics", name);
      Map<String, Double> lat = got.get("request_latency");
      assertNotNull(lat, name + ": no request_latency; got " + got);
      // genai-perf's test asserts ns; the view gives ms
      exp.get("request_latency_ns").fields().forEachRemaining(
          e -> assertClose(e.getValue().asDouble(), lat.get(e.getKey()) * 1e6, name + " latency " + e.getKey()));
      assertClose(exp.get("request_throughput_avg").asDouble(), got.get("request_throughput").get("avg"), name + " rps");
      // only the token figures are absent
      assertNull(got.get("time_to_first_token"), name + ": no TTFT");
      assertNull(got.get("output_sequence_length"), name + ": no OSL");
      assertNull(got.get("output_token_throughput"), name + ": no token throughput");
      Object goodput = t.value("SELECT goodput FROM genai_perf_goodput(NULL, NULL, 2.5e-6) WHERE run = '" + name + "'");
      assertClose(exp.get("request_goodput_avg").asDouble(), ((Number) goodput).doubleValue(), name + " goodput");
    }
  }

  @Test
  void aiperfScalarInterChunkLatencyAndTimeToSecondToken() throws Exception {
    Path dir = ROOT.resolve("aiperf-scalar-icl");
    JsonNode exp = JSON.readTree(dir.resolve("expected.json").toFile());
    try (TestDb t = new TestDb(tmp)) {
      Path f = tmp.resolve("in/icl/profile_export.jsonl");
      Files.createDirectories(f.getParent());
      Files.copy(dir.resolve("profile_export.jsonl"), f);
      t.ingest(f);
      assertEquals(0L, t.count("SELECT * FROM rejects"));
      Map<String, Map<String, Double>> got = metrics(t, "aiperf_metrics", "icl");
      List<Double> icl = new ArrayList<>();
      exp.get("asserted").get("inter_chunk_latency_per_record_ns").forEach(v -> icl.add(v.asDouble()));
      Map<String, Double> want = Numpy.stats(icl);
      for (String s : List.of("count", "avg", "min", "max", "std", "p50", "p90")) {
        double scale = s.equals("count") ? 1 : 1e6;
        assertClose(want.get(s), got.get("inter_chunk_latency").get(s) * scale, "ICL " + s);
      }
      List<Double> ttst = new ArrayList<>();
      exp.get("implied").get("time_to_second_token_per_record_ns").forEach(v -> ttst.add(v.asDouble()));
      Map<String, Double> wantTtst = Numpy.stats(ttst);
      for (String s : List.of("count", "avg", "min", "max", "std", "p50")) {
        double scale = s.equals("count") ? 1 : 1e6;
        assertClose(wantTtst.get(s), got.get("time_to_second_token").get(s) * scale, "TTST " + s);
      }
    }
  }

  /**
   * AIPerf 0.8's export writes a gap of 0.0 ms in a record's inter_chunk_latency list and pools
   * it (a real run of 87 requests: count 70,242 with min 0.0, avg 117.2074). tokentime dropped
   * every gap of a request with a gap that is not positive (the rule AIPerf applies to the
   * responses it times, where such a record gets no list): 58,955 gaps, avg 118.487. The gaps of
   * AIPerf's own list are the ones it counted.
   */
  @Test
  void aiperfPoolsTheZeroGapsOfItsOwnList() throws Exception {
    Path f = tmp.resolve("in/zero/profile_export.jsonl");
    Files.createDirectories(f.getParent());
    String rec = "{\"metadata\":{\"x_request_id\":\"%s\",\"request_start_ns\":%d,\"benchmark_phase\":\"profiling\"},"
        + "\"metrics\":{\"time_to_first_token\":{\"value\":100.0,\"unit\":\"ms\"},"
        + "\"request_latency\":{\"value\":%s,\"unit\":\"ms\"},\"output_sequence_length\":{\"value\":%d,\"unit\":\"tokens\"},"
        + "\"inter_chunk_latency\":{\"value\":%s,\"unit\":\"ms\"}},\"error\":null}\n";
    Files.writeString(f, String.format(rec, "a", 1_760_000_000_000_000_000L, "130.0", 4, "[10.0, 0.0, 20.0]")
        + String.format(rec, "b", 1_760_000_000_500_000_000L, "170.0", 3, "[30.0, 40.0]"));
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(f);
      assertEquals(0L, t.count("SELECT * FROM rejects"));
      Map<String, Double> icl = metrics(t, "aiperf_metrics", "zero").get("inter_chunk_latency");
      assertEquals(5.0, icl.get("count"));
      assertClose(20.0, icl.get("avg"), "ICL avg");
      assertClose(0.0, icl.get("min"), "ICL min");
      assertEquals(List.of("count"), t.rows("SELECT DISTINCT unit FROM aiperf_metrics WHERE stat = 'count'").get(0));
    }
  }
}
