package dev.tokentime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.analysis.AnalysisWindow;
import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * _gap_stats: the derive step keeps each run's chunk-gap figures for the default scope, for the
 * runs each ingest touched, equal to computing them from every gap; readers take them only while
 * no scope variable is set.
 */
class GapStatsTest {
  @TempDir
  Path tmp;

  /** Run A: a1 with gaps 10, 20, 30 ms and a2 with 5, 15 ms. */
  static final String FILE_1 = request("A", "a1", 0, 10, 20, 30) + request("A", "a2", 1, 5, 15);
  /** Run A: a3 with one gap of 40 ms; run B: b1 with two of 1 ms. */
  static final String FILE_2 = request("A", "a3", 2, 40) + request("B", "b1", 0, 1, 1);

  static final String KEPT = "SELECT run, n::BIGINT, mean_ms, min_ms, max_ms, q[5] FROM _gap_stats ORDER BY run";
  static final String LIVE = "SELECT run, n::BIGINT, mean_ms, min_ms, max_ms, q[5] FROM _gap_quantiles_live('chunk_gap') ORDER BY run";

  @Test
  void keptForTheRunsEachIngestTouchesAndEqualToComputingThem() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("f1.jsonl", FILE_1));
      // by hand: 5 gaps 5, 10, 15, 20, 30 ms: mean 16, median 15
      assertEquals(List.of(List.of("A", 5L, 16.0, 5.0, 30.0, 15.0)), t.rows(KEPT));
      assertEquals(t.rows(LIVE), t.rows(KEPT));

      Path f2 = t.write("f2.jsonl", FILE_2);
      t.ingest(f2);
      // A gains a3's 40 ms gap: 6 gaps, mean 120 / 6 = 20, median between 15 and 20
      assertEquals(List.of(List.of("A", 6L, 20.0, 5.0, 40.0, 17.5), List.of("B", 2L, 1.0, 1.0, 1.0, 1.0)),
          t.rows(KEPT));
      assertEquals(t.rows(LIVE), t.rows(KEPT));

      // the second file replaced: a3's gap is now 70 ms, B is gone from it
      t.write("f2.jsonl", request("A", "a3", 2, 70));
      t.ingest(new IngestOptions(List.of(f2.toString()), null, null, true, false, false, null, null));
      assertEquals(List.of(List.of("A", 6L, 25.0, 5.0, 70.0, 17.5)), t.rows(KEPT));
      assertEquals(t.rows(LIVE), t.rows(KEPT));
    }
  }

  @Test
  void readersTakeTheKeptFiguresOnlyWhileNoScopeVariableIsSet() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("f1.jsonl", FILE_1));
      // a marker no computation gives: whoever reads it read the kept row
      t.db.execute("UPDATE _gap_stats SET n = -1");
      String metric = "SELECT count::BIGINT FROM metric_stats WHERE metric = 'itl_ms'";
      String dist = "SELECT variant, count::BIGINT FROM itl_distribution WHERE variant IN ('chunk_gap', 'per_token') ORDER BY variant";
      assertEquals(-1L, t.value(metric));
      assertEquals(List.of(List.of("chunk_gap", -1L), List.of("per_token", 5L)), t.rows(dist));
      String plan = plan(t, "SELECT * FROM _gap_quantiles('chunk_gap')");
      assertTrue(plan.contains("_gap_stats"), plan);
      assertFalse(plan.contains("tokens"), "the default scope reads no gap: " + plan);

      // the first 0 requests are warm-up: the same requests, but a variable is set
      t.db.execute("SET VARIABLE tt_warmup_requests = 0");
      assertEquals(5L, t.value(metric));
      assertEquals(List.of(List.of("chunk_gap", 5L), List.of("per_token", 5L)), t.rows(dist));
      assertTrue(plan(t, "SELECT * FROM _gap_quantiles('chunk_gap')").contains("tokens"));
      t.db.execute("SET VARIABLE tt_warmup_requests = 1");
      assertEquals(2L, t.value(metric), "a1, the first to arrive, is warm-up: a2's 2 gaps are left");

      t.db.execute("RESET VARIABLE tt_warmup_requests");
      assertEquals(-1L, t.value(metric));
    }
  }

  @Test
  void computedForTheDefaultScopeWhateverWindowTheIngestingSessionSet() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      new AnalysisWindow(null, null, null, null, 1, null).apply(t.db.connection());
      t.ingest(t.write("f1.jsonl", FILE_1));
      assertEquals(5L, t.value("SELECT n::BIGINT FROM _gap_stats WHERE run = 'A'"));
      assertEquals(1L, t.value("SELECT getvariable('tt_warmup_requests')::BIGINT"), "the session's window is kept");
      // and that session, with its window, reads figures computed from its requests
      assertEquals(2L, t.value("SELECT count::BIGINT FROM metric_stats WHERE metric = 'itl_ms'"));
    }
  }

  /**
   * inference_perf_metrics pools the same gaps as the default ITL where no chunk has several
   * tokens: it reads the kept figures, tails included, instead of every gap. A database whose kept
   * figures have no tails (nine percentiles, kept before them) and a run with a chunk of several
   * tokens (whose gaps of 0 only inference-perf counts) have their gaps counted.
   */
  @Test
  void inferencePerfReadsTheKeptFiguresWhereItPoolsTheSameGaps() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("f1.jsonl", FILE_1));
      assertEquals(11L, t.value("SELECT len(q)::BIGINT FROM _gap_stats"), "p1 … p99, then p0.1 and p99.9");
      String itl = "SELECT stat, round(value * 1000, 6) FROM inference_perf_metrics "
          + "WHERE metric = 'inter_token_latency' AND stat IN ('min', 'p0.1', 'median', 'p99.9', 'max') ORDER BY stat";
      // by hand, gaps 5, 10, 15, 20, 30 ms: p0.1 at rank 4 × 0.001 = 0.004, 5 + 0.004 × 5 = 5.02;
      // p99.9 at rank 3.996, 20 + 0.996 × 10 = 29.96
      List<List<Object>> byHand = List.of(List.of("max", 30.0), List.of("median", 15.0), List.of("min", 5.0),
          List.of("p0.1", 5.02), List.of("p99.9", 29.96));
      assertEquals(byHand, t.rows(itl));
      // a marker no computation gives: read from the kept row
      t.db.execute("UPDATE _gap_stats SET max_ms = 999");
      assertEquals(List.of("max", 999.0), t.rows(itl).get(0));
      // kept before the tails were: counted from the gaps, the same figures
      t.db.execute("UPDATE _gap_stats SET q = q[1:9]");
      assertEquals(byHand, t.rows(itl));

      // run C: a chunk of 3 tokens at 1 ms, one token at 11 ms: inference-perf's gaps 0, 0, 10
      t.ingest(t.write("c.jsonl", "{\"request_id\":\"c1\",\"run\":\"C\",\"arrival_ns\":0,\"finished_ns\":20000000}\n"
          + "{\"request_id\":\"c1\",\"run\":\"C\",\"seq\":0,\"ts_ns\":1000000,\"n_tokens\":3}\n"
          + "{\"request_id\":\"c1\",\"run\":\"C\",\"seq\":1,\"ts_ns\":11000000}\n"));
      t.db.execute("UPDATE _gap_stats SET max_ms = 999 WHERE run = 'C'");
      assertEquals(List.of(List.of(3L, 0.0, 10.0)), t.rows("SELECT count(*) FILTER (WHERE stat <> 'mean'), "
          + "round(1000 * max(value) FILTER (WHERE stat = 'min'), 6), round(1000 * max(value) FILTER (WHERE stat = 'max'), 6) "
          + "FROM inference_perf_metrics WHERE run = 'C' AND metric = 'inter_token_latency' AND stat IN ('mean', 'min', 'max', 'median')"));
    }
  }

  private static String plan(TestDb t, String sql) throws Exception {
    StringBuilder out = new StringBuilder();
    for (List<Object> row : t.rows("EXPLAIN " + sql)) {
      out.append(row.get(row.size() - 1)).append('\n');
    }
    return out.toString();
  }

  /** One request of the run, arriving at arrivalNs, first token at 1 ms, then the gaps in ms. */
  static String request(String run, String id, long arrivalNs, long... gapsMs) {
    StringBuilder ts = new StringBuilder();
    long t = 1_000_000;
    ts.append(t);
    for (long g : gapsMs) {
      t += g * 1_000_000;
      ts.append(',').append(t);
    }
    return "{\"request_id\":\"" + id + "\",\"run\":\"" + run + "\",\"arrival_ns\":" + arrivalNs
        + ",\"tokens_ns\":[" + ts + "]}\n";
  }
}
