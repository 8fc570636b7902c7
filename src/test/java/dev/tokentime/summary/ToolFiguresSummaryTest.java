package dev.tokentime.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose files hold a tool's figures only (MLPerf LoadGen's summary: no per-request times)
 * shows those figures in the summary, where every figure of tokentime's is n/a; a run with request
 * rows shows tokentime's own and none of the tool's.
 */
class ToolFiguresSummaryTest {
  @TempDir
  Path tmp;

  static final String LOADGEN = "src/test/resources/real-logs/peers-extra/mlperf-loadgen/b200-llama2-70b-99.9-server";

  @Test
  void aRunOfReportedFiguresOnlyShowsTheToolsOwn() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(LOADGEN, "sample-logs/canonical/c1.jsonl")));
      Summary s = new SummaryService().summarize(t.db, Set.of());
      List<Map<String, Object>> loadgen = s.toolFigures().stream()
          .filter(f -> "b200-llama2-70b-99.9-server".equals(f.get("run"))).toList();
      // the summary's "99.00 percentile first token latency (ns) : 357223316"
      assertEquals(357.223316, value(loadgen, "ttft_ms", "p99"), 1e-9);
      assertEquals(151.920, value(loadgen, "tpot_ms", "p99"), 1e-3);
      assertEquals(10755.6, value(loadgen, "output_tokens_per_s", "value"), 1e-6);
      assertTrue(loadgen.stream().allMatch(f -> "mlperf".equals(f.get("convention"))));
      assertTrue(s.toolFigures().stream().noneMatch(f -> "c1".equals(f.get("run"))),
          "a run with request rows has tokentime's figures, not the tool's");

      String text = SummaryRenderer.text(s, 120);
      String run = text.substring(text.indexOf("run b200-llama2-70b-99.9-server"));
      run = run.substring(0, run.indexOf("\n\n"));
      assertTrue(run.contains("requests    none as rows (the files hold the tool's figures only)"), run);
      assertTrue(run.contains("reported    by mlperf"), run);
      assertTrue(run.contains("throughput  10755.6 output tokens/s, 39.253 requests/s"), run);
      assertTrue(run.matches("(?s).*ttft_ms\\s+209 ms\\s+205 ms\\s+285 ms\\s+357 ms.*"), run);
      assertFalse(run.contains("n/a"), "n/a in: " + run);
      String c1 = text.substring(text.indexOf("run c1"));
      c1 = c1.substring(0, c1.indexOf("\n\n"));
      assertTrue(c1.contains("ttft_ms           9"), c1);
      assertFalse(c1.contains("reported    by"), "c1: " + c1);
    }
  }

  private static double value(List<Map<String, Object>> figures, String metric, String stat) {
    return figures.stream().filter(f -> metric.equals(f.get("metric")) && stat.equals(f.get("stat")))
        .map(f -> ((Number) f.get("value")).doubleValue()).findFirst().orElseThrow(() -> new AssertionError(metric + " " + stat));
  }
}
