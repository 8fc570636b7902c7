package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * genai_bench_metrics against genai-bench's own figures: the published 2024 fixture keeps 2 of its
 * run's 32 requests, among them the slowest, so the extremes of its statistics are reproducible
 * (and peer_comparison says its other figures are of requests tokentime does not have); the
 * constructed file of the 2025 layout (constructed/genai-bench-ms) holds every request of its run.
 */
class GenaiBenchMetricsTest {
  static final Path REAL = Path.of("src/test/resources/real-logs/tools/genai-bench-2024-sglang-h100-c1/"
      + "D100_100_text-to-text_num_concurrency_1_time_60s.json");
  static final Path MS = Path.of("src/test/resources/constructed/genai-bench-ms/"
      + "D100_100_text-to-text_num_concurrency_4_time_16s.json");

  @TempDir
  Path tmp;

  Path copy(Path from, String to) throws Exception {
    Path p = tmp.resolve("in").resolve(to);
    Files.createDirectories(p.getParent());
    return Files.copy(from, p);
  }

  static double value(TestDb t, String sql) throws Exception {
    Object v = t.value(sql);
    assertNotNull(v, sql);
    return ((Number) v).doubleValue();
  }

  @Test
  void the2024FixtureKeepsItsOwnPerTokenTimesAndSaysItIsPartial() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(copy(REAL, "gb/" + REAL.getFileName()));
      // the slowest request is one of the two kept: the view's max (min of a speed) is the tool's own
      for (String[] m : List.of(new String[] {"ttft", "max"}, new String[] {"tpot", "max"},
          new String[] {"e2e_latency", "max"}, new String[] {"output_latency", "max"},
          new String[] {"output_inference_speed", "min"}, new String[] {"output_throughput", "min"})) {
        double own = value(t, "SELECT value FROM reported_metrics WHERE metric = '" + m[0]
            + "' AND stat = '" + m[1] + "'");
        double computed = value(t, "SELECT value FROM genai_bench_metrics WHERE metric = '"
            + m[0] + "' AND stat = '" + m[1] + "'");
        assertEquals(own, computed, Math.abs(own) * 1e-12, m[0] + " " + m[1]);
      }
      // genai-bench of 2024 divided the output latency by the output tokens, not by N - 1:
      // (2.5309561993926764 - 0.6695356667041779) / 100 = 0.018614205, where N - 1 gives 0.018802228
      assertEquals(0.018614205326884986, value(t, "SELECT value FROM genai_bench_metrics WHERE metric = 'tpot'"
          + " AND stat = 'max'"), 1e-15);
      assertEquals(18.802227602914126, value(t, "SELECT max(tpot_ms) FROM request_latency"), 1e-9,
          "tokentime's own TPOT keeps its definition");
      // the tool counted 32 requests; the fixture holds 2
      String why = (String) t.value("SELECT not_reproducible FROM peer_comparison WHERE convention = 'genai-bench'"
          + " AND metric = 'ttft_ms' AND stat = 'mean'");
      assertNotNull(why);
      assertTrue(why.contains("the tool counted 32 requests, the run holds 2"), why);
      assertEquals(200.0, value(t, "SELECT value FROM genai_bench_metrics WHERE metric = 'num_output_tokens'"
          + " AND stat = 'sum'"), 0.0);
    }
  }

  @Test
  void aWholeRunFileOfTheMillisecondLayoutIsReproduced() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(copy(MS, "ms/" + MS.getFileName()));
      // every statistic genai-bench wrote, in its unit (ms for the four latencies), recomputed in s;
      // num_reasoning_tokens and audio_throughput are not computed
      List<List<Object>> rows = t.rows("SELECT m.metric, m.stat, m.value, m.unit, c.value"
          + " FROM reported_metrics AS m LEFT JOIN genai_bench_metrics AS c USING (run, metric, stat)"
          + " WHERE m.metric NOT IN ('num_reasoning_tokens', 'audio_throughput', 'error_count',"
          + " 'error_rate', 'batch_size')");
      assertEquals(10 * 11 + 8, rows.size(), "10 metrics x 11 statistics + 8 run figures");
      for (List<Object> r : rows) {
        assertNotNull(r.get(4), r.get(0) + " " + r.get(1) + " not computed");
        double own = ((Number) r.get(2)).doubleValue();
        double computed = ((Number) r.get(4)).doubleValue() * ("ms".equals(r.get(3)) ? 1e3 : 1);
        assertEquals(own, computed, Math.max(1e-9, Math.abs(own) * 1e-12), r.get(0) + " " + r.get(1));
      }
      // errors over all requests (the file's own 1/3; genai-bench's code writes 0 there)
      assertEquals(1.0 / 3, value(t, "SELECT value FROM genai_bench_metrics WHERE metric = 'error_rate'"), 1e-15);
      // peer_comparison: the reported figures are the convention's, converted from ms
      double diff = value(t, "SELECT max(abs(reported_minus_convention)) FROM peer_comparison"
          + " WHERE convention = 'genai-bench' AND reported_value IS NOT NULL");
      assertTrue(diff < 1e-9, "reported - computed: " + diff);
      assertEquals(17L, t.count("SELECT count(*) FROM peer_comparison WHERE convention = 'genai-bench'"
          + " AND reported_value IS NOT NULL"), "ttft, tpot, e2e x (mean, std, p50, p90, p99) less what is absent");
    }
  }
}
