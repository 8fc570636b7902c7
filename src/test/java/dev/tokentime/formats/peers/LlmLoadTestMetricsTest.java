package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * llm_load_test_metrics against llm-load-test's own summary: every figure of the real
 * non-streaming file (real-logs/tools/llm-load-test-2024-nonstreaming-c2) and of the streaming
 * file the tool's own writer wrote (constructed/llm-load-test-streaming) is reproduced from the
 * requests, and peer_comparison puts them beside tokentime's.
 */
class LlmLoadTestMetricsTest {
  @TempDir
  Path tmp;

  Path copy(Path from, String to) throws Exception {
    Path p = tmp.resolve("in").resolve(to);
    Files.createDirectories(p.getParent());
    return Files.copy(from, p);
  }

  /** Every reported figure (the configured duration aside) beside the view's, with its run. */
  static List<List<Object>> figures(TestDb t) throws Exception {
    return t.rows("SELECT m.run, m.metric, m.stat, m.value, c.value FROM reported_metrics AS m"
        + " LEFT JOIN llm_load_test_metrics AS c USING (run, metric, stat) WHERE m.metric <> 'duration'");
  }

  static void reproduced(List<List<Object>> rows) {
    for (List<Object> r : rows) {
      assertNotNull(r.get(4), r.get(1) + " " + r.get(2) + " not computed");
      double own = ((Number) r.get(3)).doubleValue();
      double computed = ((Number) r.get(4)).doubleValue();
      assertEquals(own, computed, Math.abs(own) * 1e-12, r.get(0) + " " + r.get(1) + " " + r.get(2));
    }
  }

  @Test
  void theRealFilesSummaryIsReproducedFromItsRequests() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(copy(LlmLoadTestFormatTest.REAL, "llt/output.json"));
      List<List<Object>> rows = figures(t);
      assertEquals(47, rows.size(), "tpot, response_time and the three lengths x 8 statistics + 7 run figures");
      reproduced(rows);
      // full_duration is the difference of two time.time() doubles: 31.136247158050537, not the
      // exact 31.1362471 of the decimals written
      assertEquals(31.136247158050537, ((Number) t.value("SELECT value FROM llm_load_test_metrics"
          + " WHERE metric = 'full_duration'")).doubleValue(), 0.0);
      // non-streaming: no first token, so no ttft, itl or tt_ack, as the tool's NaN
      assertEquals(0L, t.count("SELECT count(*) FROM llm_load_test_metrics WHERE metric IN ('ttft', 'itl', 'tt_ack')"));
    }
  }

  @Test
  void theStreamingFilesSummaryIsReproducedAndComparedWithTokentimes() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(copy(LlmLoadTestFormatTest.STREAMING, "llt/output-003.json"));
      List<List<Object>> rows = figures(t);
      assertEquals(8 * 8 + 7, rows.size(), "every metric x 8 statistics + 7 run figures");
      reproduced(rows);
      // the request past the test's end is out of the ttft statistics: the tool's mean is of 7
      // requests (265.714), tokentime's of all 8 successful ones (277.5)
      List<List<Object>> ttft = t.rows("SELECT round(tokentime_value, 6), round(convention_value, 6),"
          + " round(reported_value, 6), reported_minus_convention, not_reproducible FROM peer_comparison"
          + " WHERE convention = 'llm-load-test' AND metric = 'ttft_ms' AND stat = 'mean'");
      assertEquals(1, ttft.size());
      assertEquals(277.5, ((Number) ttft.get(0).get(0)).doubleValue(), 1e-9);
      assertEquals(265.714305, ((Number) ttft.get(0).get(1)).doubleValue(), 1e-9);
      assertEquals(265.714305, ((Number) ttft.get(0).get(2)).doubleValue(), 1e-9);
      assertEquals(0.0, ((Number) ttft.get(0).get(3)).doubleValue(), 1e-9);
      assertNull(ttft.get(0).get(4));
      double diff = ((Number) t.value("SELECT max(abs(reported_minus_convention)) FROM peer_comparison"
          + " WHERE convention = 'llm-load-test' AND reported_value IS NOT NULL")).doubleValue();
      assertTrue(diff < 1e-9, "reported - computed: " + diff);
      assertEquals(13L, t.count("SELECT count(*) FROM peer_comparison WHERE convention = 'llm-load-test'"
          + " AND reported_value IS NOT NULL"), "ttft, itl, response_time x (mean, p50, p90, p99) + throughput");
      // a 200 without data is a failure to tokentime, a success to the tool
      assertEquals(List.of(List.of(4L, 3.0)), t.rows("SELECT (SELECT failed_requests FROM run_summary),"
          + " (SELECT value FROM llm_load_test_metrics WHERE metric = 'total_failures')"));
    }
  }
}
