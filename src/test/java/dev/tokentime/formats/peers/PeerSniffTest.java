package dev.tokentime.formats.peers;

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
import org.junit.jupiter.api.Test;

/**
 * Sniffing with every format registered: each peer format claims its own files, and not the
 * other peers' files, the canonical formats' files or a generic JSON file.
 */
class PeerSniffTest {
  final FormatRegistry registry = FormatRegistry.standard();
  static final Path REAL = Path.of("src/test/resources/real-logs/peers");

  String sniff(String name, byte[] bytes) {
    InputFormat f = registry.sniff(new Sample(name, bytes, Math.min(bytes.length, 64 << 10)));
    return f == null ? null : f.id();
  }

  String sniff(String name, String text) {
    return sniff(name, text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void eachFormatClaimsItsOwnFiles() throws IOException {
    Map<String, String> files = new LinkedHashMap<>();
    files.put("genai-perf/llm-parser-openai-chat/profile_export.json", "genai-perf-export");
    files.put("genai-perf/session-metrics-head/profile_export.json", "genai-perf-export");
    files.put("llmperf/leaderboard-groq-70b/individual_responses.json", "llmperf-json");
    files.put("llmperf/leaderboard-groq-70b/summary.json", "llmperf-json");
    for (var e : files.entrySet()) {
      Path p = REAL.resolve(e.getKey());
      assertEquals(e.getValue(), sniff(p.getFileName().toString(), Files.readAllBytes(p)), e.getKey());
    }
    Path run1 = Path.of("src/test/resources/real-logs/peers-extra/aiperf-run1");
    assertEquals("aiperf-summary", sniff("profile_export_aiperf.json", Files.readAllBytes(run1.resolve("profile_export_aiperf.json"))));
    assertEquals("aiperf-summary", sniff("profile_export_aiperf.csv", Files.readAllBytes(run1.resolve("profile_export_aiperf.csv"))));
    assertEquals("aiperf-summary", sniff("x.csv", Files.readAllBytes(run1.resolve("profile_export_aiperf.csv"))),
        "by its column order, whatever its name");
    assertEquals("aiperf-jsonl", sniff("profile_export.jsonl", AiperfJsonlFormatTest.NEW_OK + "\n"));
    assertEquals("aiperf-jsonl", sniff("records.jsonl", AiperfJsonlFormatTest.OLD_CANCELLED + "\n"));
    assertEquals("vllm-bench-json", sniff("vllm-8.0qps-Llama.json", VllmBenchFormatTest.DETAILED));
    assertEquals("sglang-bench-jsonl", sniff("sglang.jsonl", SglangBenchFormatTest.LINE + "\n"));
    // the GKE latency profile generator's result (Google's benchmark_serving.py): "metrics", no vLLM key
    assertEquals("gke-lpg-json", sniff(GkeLpgFormatTest.IHC.getFileName().toString(), Files.readAllBytes(GkeLpgFormatTest.IHC)));
    assertEquals("genai-perf-summary", sniff("profile_export_genai_perf.csv",
        "Metric,avg,min,max,p99,p95,p90,p75,p50,p25,p10,p5,p1\r\nTime To First Token (ms),1,1,1,1,1,1,1,1,1,1,1,1\r\n"));
    assertEquals("genai-perf-summary", sniff("profile_export_genai_perf.json",
        "{\"request_throughput\":{\"unit\":\"requests/sec\",\"avg\":0.15}}"));
  }

  @Test
  void noPeerFormatClaimsCanonicalOrGenericFiles() throws IOException {
    Path c1 = Path.of("sample-logs/canonical/c1.jsonl");
    assertEquals("tokentime-jsonl", sniff("c1.jsonl", Files.readAllBytes(c1)));
    assertEquals("tokentime-csv", sniff("requests.csv",
        "request_id,run,arrival_ns,first_token_ns\nr1,c1,1,2\n"));
    assertNull(sniff("expected.json", Files.readAllBytes(REAL.resolve("genai-perf/llm-parser-openai-chat/expected.json"))));
    assertNull(sniff("config.json", "{\"model\":\"llama\",\"max_tokens\":10}"));
    assertNull(sniff("data.json", "[{\"a\":1},{\"b\":2}]"));
    assertNull(sniff("metrics.csv", "Metric,Value\nfoo,1\n"));
  }
}
