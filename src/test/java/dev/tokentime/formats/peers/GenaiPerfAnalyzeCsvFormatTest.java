package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import dev.tokentime.testing.TestDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * genai-perf analyze's sweep CSV (real-logs/tools/genai-perf-analyze-2024-12-gpt2-c32: the file a
 * genai-perf developer's run left in perf_analyzer's repository). It was "format not recognised".
 */
class GenaiPerfAnalyzeCsvFormatTest {
  static final Path REAL = Path.of(
      "src/test/resources/real-logs/tools/genai-perf-analyze-2024-12-gpt2-c32/analyze_export_genai_perf.csv");
  final GenaiPerfAnalyzeCsvFormat format = new GenaiPerfAnalyzeCsvFormat();

  @TempDir
  Path tmp;

  @Test
  void theRealSweepIsARunPerConfigurationWithItsFigures() throws Exception {
    byte[] b = Files.readAllBytes(REAL);
    assertEquals("genai-perf-analyze-csv",
        FormatRegistry.standard().sniff(new Sample("analyze_export_genai_perf.csv", b, b.length)).id());
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      t.ingest(t.writeBytes("sweep/analyze_export_genai_perf.csv", b));
      // 5 configurations; the two headers, the blank row and the 5 GPU rows are other lines
      assertEquals(List.of(List.of("genai-perf-analyze-csv", 13L, 5L, 8L, 0L)),
          t.rows("SELECT format, lines, records, other_lines, rejected FROM sources"));
      assertEquals(List.of(
              List.of("sweep", "concurrency", 32.0, "from genai-perf analyze gpt2_run_config_3 (Num Prompts 175)"),
              List.of("sweep#5", "concurrency", 32.0, "from genai-perf analyze gpt2_run_config_2 (Num Prompts 150)")),
          t.rows("SELECT run, level_kind, level, notes FROM runs WHERE run IN ('sweep', 'sweep#5') ORDER BY run"));
      assertEquals(List.of(
              List.of("input_sequence_length", "p99", 200.0, "tokens"),
              List.of("inter_token_latency", "p99", 30.9, "ms"),
              List.of("output_sequence_length", "p99", 125.98, "tokens"),
              List.of("output_token_throughput", "avg", 1134.92, "tokens/sec"),
              List.of("request_latency", "p99", 3406.24, "ms"),
              List.of("request_throughput", "avg", 10.12, "requests/sec"),
              List.of("time_to_first_token", "p99", 184.43, "ms")),
          t.rows("SELECT metric, stat, value, unit FROM reported_metrics WHERE run = 'sweep' ORDER BY metric"));
      assertEquals(35L, t.count("SELECT count(*) FROM reported_metrics"));
      // genai-perf's figures beside tokentime's metrics: its ITL is a per-request TPOT
      assertEquals(List.of(List.of("tpot_ms", "p99", 31.25)),
          t.rows("SELECT metric, stat, reported_value FROM peer_reported WHERE run = 'sweep#5'"
              + " AND tool_metric = 'inter_token_latency p99'"));
    }
  }

  @Test
  void cutAndBadRowsAreRejectedAndOtherCsvIsNotClaimed() throws Exception {
    String text = Files.readString(REAL).replace("\r\n", "\n");
    String[] lines = text.split("\n");
    String doc = String.join("\n", lines[0], lines[1],
        "gpt2_run_config_0,32,200,100,230.99,30.38,3346.72",                 // cut
        "gpt2_run_config_4,32,200,200,-182.46,30.52,3333.14,125.96,1126.97,10.04", // negative TTFT
        "gpt2_run_config_1,0,200,125,185.61,31.23,3387.44,125.47,1121.66,10.03",    // no level
        "gpt2_run_config_2,32,200,150,195.49,N/A,3448.02,124.49,1101.54,9.83",
        "\"gpt2_run_config_3,32,200,175,195.49,31.0,3448.02,124.49,1101.54,9.83") + "\n"; // a quote left open
    CollectingSink s = Parsing.parse(format, doc);
    assertEquals(1, s.records);
    assertEquals(List.of(3L, 4L, 5L, 6L, 7L), s.rejects.stream().map(CollectingSink.Rej::lineNo).toList());
    assertTrue(s.rejects.get(0).reason().startsWith("a cut row: 7 of the header's 10 cells"), s.rejects.get(0).reason());
    assertTrue(s.rejects.get(1).reason().contains("out of range"), s.rejects.get(1).reason());
    assertTrue(s.rejects.get(2).reason().startsWith("Concurrency 0"), s.rejects.get(2).reason());
    assertEquals("p99 Inter Token Latency (ms): 'N/A' is no number", s.rejects.get(3).reason());
    assertEquals("not a CSV row (a quote left open)", s.rejects.get(4).reason());
    CollectingSink before = Parsing.parse(format, lines[1] + "\n");
    assertEquals(1, before.rejects.size());
    for (String other : new String[] {
        "Concurrency,Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,Server Compute Input\n",
        "Metric,avg,min,max,p99,p95,p90,p75,p50,p25\nTime To First Token (ms),1,1,1,1,1,1,1,1,1\n",
        "Config Name,Score\nbaseline,0.5\n"}) {
      byte[] b = other.getBytes(StandardCharsets.UTF_8);
      assertEquals(0, format.sniff(new Sample("x.csv", b, b.length)), other);
    }
  }
}
