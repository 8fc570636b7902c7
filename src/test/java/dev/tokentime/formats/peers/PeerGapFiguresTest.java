package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.testing.Generated;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The peer views' pooled ITL figures take one of two roads per run: _gap_quantiles' stored figures
 * where the run's counted gaps are token_gaps' (_stored_gap_runs), else the gaps themselves. Both
 * give the figures of the definition, computed here directly over the gaps: c4 takes the first
 * road, c8 is sent down the second by one request the tool counts apart.
 */
class PeerGapFiguresTest {
  @TempDir
  Path tmp;

  /** run → [mean, median or p50, std, p95, p99] of the gaps of measured, ok requests, bar one request. */
  private static Map<String, double[]> direct(TestDb t, long leftOut) throws Exception {
    Map<String, double[]> out = new HashMap<>();
    for (List<Object> r : t.rows("SELECT run, avg(gap_ms), quantile_cont(gap_ms, 0.5), stddev_pop(gap_ms),"
        + " quantile_cont(gap_ms, 0.95), quantile_cont(gap_ms, 0.99) FROM token_gaps"
        + " WHERE measured AND ok AND request_key <> " + leftOut + " GROUP BY run")) {
      double[] v = new double[5];
      for (int i = 0; i < 5; i++) {
        v[i] = ((Number) r.get(i + 1)).doubleValue();
      }
      out.put((String) r.get(0), v);
    }
    return out;
  }

  private static void assertFigures(TestDb t, String sql, Map<String, double[]> want, String what) throws Exception {
    List<List<Object>> rows = t.rows(sql);
    assertEquals(want.size(), rows.size(), what + ": one row per run");
    for (List<Object> r : rows) {
      double[] w = want.get((String) r.get(0));
      for (int i = 0; i < 5; i++) {
        double got = ((Number) r.get(i + 1)).doubleValue();
        assertEquals(w[i], got, 1e-9 * Math.max(1, Math.abs(w[i])), what + " " + r.get(0) + " figure " + i);
      }
    }
  }

  @Test
  void storedAndCountedGapsGiveTheSameFigures() throws Exception {
    Generated.into(tmp.resolve("gen"), "--levels", "4,8", "--requests", "40", "--mean-output", "60", "--seed", "9");
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      t.ingest(tmp.resolve("gen"));
      long odd = ((Number) t.value("SELECT min(request_key) FROM token_gaps WHERE run = 'c8'")).longValue();
      Map<String, double[]> all = direct(t, -1);
      Map<String, double[]> butOne = direct(t, odd);

      String sglang = "SELECT run, max(value) FILTER (WHERE stat = 'mean'), max(value) FILTER (WHERE stat = 'median'),"
          + " max(value) FILTER (WHERE stat = 'std'), max(value) FILTER (WHERE stat = 'p95'),"
          + " max(value) FILTER (WHERE stat = 'p99') FROM sglang_bench_metrics WHERE metric = 'itl' GROUP BY run";
      String vllm = sglang.replace("sglang_bench_metrics", "vllm_bench_metrics");
      String aiperf = sglang.replace("sglang_bench_metrics", "aiperf_metrics").replace("'mean'", "'avg'")
          .replace("'median'", "'p50'").replace("'itl'", "'inter_chunk_latency'");
      assertEquals(List.of(List.of("c4"), List.of("c8")), t.rows("WITH v AS (SELECT run, request_key FROM _peer_requests"
          + " WHERE measured AND ok) SELECT run FROM _stored_gap_runs('v') ORDER BY run"), "both runs take the stored figures");
      assertFigures(t, sglang, all, "sglang");
      assertFigures(t, vllm, all, "vllm");
      assertFigures(t, aiperf, all, "aiperf");

      // AIPerf refuses a request with a gap that is not positive; vLLM puts a request with a
      // role-only chunk in seq order itself: c8 then counts its gaps, c4 keeps the stored figures
      t.db.execute("UPDATE _request_tokens SET min_gap_ns = 0, choice_chunks = choice_chunks + 1 WHERE request_key = " + odd);
      Map<String, double[]> aiperfWant = new HashMap<>(all);
      aiperfWant.put("c8", butOne.get("c8"));
      assertFigures(t, aiperf, aiperfWant, "aiperf, c8 counted");
      // the role-only chunk is not in the tokens here, so c8's choice gaps are its chunk gaps
      assertFigures(t, vllm, all, "vllm, c8 counted");
    }
  }
}
