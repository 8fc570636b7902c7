package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each tool's numbers through the packaged jar: a real LLMPerf run's per-request file, summarised
 * under LLMPerf's convention, gives the figures of LLMPerf's own summary.json; `conventions`
 * shows a run under every convention with the reasons they differ.
 */
class ConventionsIT {
  @TempDir
  Path tmp;

  static final Path LLMPERF = Path.of("src/test/resources/real-logs/peers/llmperf/leaderboard-groq-70b");

  @Test
  void llmperfConventionReproducesLlmperfsOwnSummary() throws Exception {
    Path run = Files.createDirectories(tmp.resolve("groq"));
    Files.copy(LLMPERF.resolve("individual_responses.json"), run.resolve("individual_responses.json"));
    Path db = tmp.resolve("l.duckdb");
    Cli.Result in = Cli.run("ingest", "--db", db.toString(), run.toString());
    assertEquals(0, in.code(), in.err());
    Cli.Result s = Cli.run("summary", "--db", db.toString(), "--convention", "llmperf", "--format", "json");
    assertEquals(0, s.code(), s.err());
    JsonNode got = new ObjectMapper().readTree(s.out());
    assertEquals("llmperf", got.get("convention").asText());
    Map<String, Double> figures = new HashMap<>();
    for (JsonNode m : got.get("runs").get(0).get("metrics")) {
      figures.put(m.get("metric").asText() + "/" + m.get("stat").asText(), m.get("value").asDouble());
    }
    JsonNode own = new ObjectMapper().readTree(LLMPERF.resolve("summary.json").toFile());
    List<String> diffs = new ArrayList<>();
    int compared = 0;
    for (String metric : List.of("ttft_s", "inter_token_latency_s", "end_to_end_latency_s",
        "request_output_throughput_token_per_s")) {
      for (String stat : List.of("p25", "p50", "p75", "p90", "p95", "p99", "mean", "min", "max", "stddev")) {
        String key = "results_" + metric + (stat.startsWith("p") ? "_quantiles_" + stat : "_" + stat);
        if (!own.has(key)) {
          continue;
        }
        double want = own.get(key).asDouble();
        Double have = figures.get(metric + "/" + stat);
        compared++;
        if (have == null || Math.abs(have - want) > 1e-9 * Math.max(1, Math.abs(want))) {
          diffs.add(key + ": LLMPerf " + want + ", tokentime under its convention " + have);
        }
      }
    }
    assertEquals(List.of(), diffs);
    assertEquals(40, compared, "quantiles, mean, min, max and sample std of four metrics");
  }

  @Test
  void conventionsShowsEveryDefinitionWithReasons() throws Exception {
    Cli.Result c = Cli.run("conventions", "sample-logs/peers/aiperf");
    assertEquals(0, c.code(), c.err());
    String out = c.out();
    for (String metric : List.of("ttft_ms", "itl_ms", "tpot_ms", "e2e_ms", "output_tokens_per_s", "requests_per_s")) {
      assertTrue(out.contains("\n" + metric + " "), metric + " in:\n" + out);
    }
    assertTrue(out.contains("tokentime     vllm  genai-perf   aiperf  llmperf   sglang"), out);
    assertTrue(out.contains("- itl_ms mean: llmperf gives"), out);
    assertTrue(out.contains("LLMPerf ITL INCLUDES TTFT"), out);
    assertTrue(out.contains("- requests_per_s value: genai-perf gives"), out);
    Cli.Result unknown = Cli.run("summary", "--db", tmp.resolve("none.duckdb").toString(), "--convention", "triton");
    assertEquals(2, unknown.code());
    assertTrue(unknown.err().contains("unknown convention triton"), unknown.err());
  }
}
