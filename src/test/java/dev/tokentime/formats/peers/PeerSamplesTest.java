package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled peer samples (sample-logs/peers/TOOL) produce, under each tool's definitions, the
 * numbers under sample-logs/peers/TOOL/expected/ (computed by a plain Python script that follows
 * the tool's own code, or written by the tool itself for the real LLMPerf run).
 */
class PeerSamplesTest {
  static final Path SAMPLES = Path.of("sample-logs/peers");

  @TempDir
  Path tmp;

  /**
   * How close a tool's own figure must be: inference-perf's are fractions of a second computed
   * from unrounded seconds, tokentime's from times kept to the ns (a nanosecond in 0.17 s is 6e-9
   * of it); every other tool's to the last digits.
   */
  static double tolerance(String tool) {
    return tool.equals("inference-perf") ? 1e-8 : 1e-9;
  }

  @Test
  void everySampleReproducesItsExpectedNumbers() throws Exception {
    Map<String, String> views = Map.of("genai-perf", "genai_perf_metrics", "aiperf", "aiperf_metrics",
        "vllm-bench", "vllm_bench_metrics", "sglang", "sglang_bench_metrics", "llmperf", "llmperf_metrics",
        "inference-perf", "inference_perf_metrics");
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(SAMPLES.toString())));
      assertEquals(0L, t.count("SELECT count(*) FROM rejects"), "the samples are clean");
      List<String> diffs = new ArrayList<>();
      int checked = 0;
      for (var e : views.entrySet()) {
        Path file = SAMPLES.resolve(e.getKey()).resolve("expected").resolve(e.getValue() + ".json");
        JsonNode expected = new ObjectMapper().readTree(file.toFile());
        String run = expected.get("run").asText();
        Map<String, Map<String, Double>> got = PeerCasesTest.metrics(t, e.getValue(), run);
        Iterator<Map.Entry<String, JsonNode>> metrics = expected.get("metrics").fields();
        while (metrics.hasNext()) {
          var m = metrics.next();
          Iterator<Map.Entry<String, JsonNode>> stats = m.getValue().fields();
          while (stats.hasNext()) {
            var s = stats.next();
            Double g = got.getOrDefault(m.getKey(), Map.of()).get(s.getKey());
            double w = s.getValue().asDouble();
            if (g == null || !Numpy.close(w, g, tolerance(e.getKey()))) {
              diffs.add(e.getKey() + " " + m.getKey() + " " + s.getKey() + ": expected " + w + " but was " + g);
            }
            checked++;
          }
        }
      }
      assertEquals(List.of(), diffs);
      assertTrue(checked > 250, "checked " + checked);
      // what the tools reported themselves (vLLM's and SGLang's result files, LLMPerf's summary)
      // is what tokentime computes under their definitions
      List<List<Object>> rows = t.rows("SELECT run, metric, stat, convention, reported_value, convention_value"
          + " FROM peer_comparison WHERE reported_value IS NOT NULL AND convention_value IS NOT NULL");
      assertTrue(rows.size() >= 45, "compared " + rows.size());
      for (List<Object> r : rows) {
        double reported = ((Number) r.get(4)).doubleValue();
        double computed = ((Number) r.get(5)).doubleValue();
        assertTrue(Numpy.close(reported, computed, tolerance((String) r.get(3))), r.toString());
      }
    }
  }
}
