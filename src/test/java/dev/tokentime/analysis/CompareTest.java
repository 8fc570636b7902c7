package dev.tokentime.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.Generated;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** compare over more values than it resamples: exact figures, and a run is within noise of itself. */
class CompareTest {
  @TempDir
  Path tmp;

  @Test
  void moreChunkGapsThanItResamplesGiveExactFiguresAndARunIsWithinNoiseOfItself() throws Exception {
    Generated.into(tmp.resolve("gen"), "--levels", "4,8", "--requests", "120", "--mean-output", "80", "--seed", "5");
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      t.ingest(tmp.resolve("gen"));
      long gaps = ((Number) t.value("SELECT count(*) FROM token_gaps WHERE measured AND ok AND run = 'c8'")).longValue();
      assertTrue(gaps > Compare.MAX_VALUES, "the test needs more gaps than are resampled: " + gaps);

      CompareReport self = new Compare().compare(t.db, "c8", "c8");
      for (CompareReport.Row r : self.rows()) {
        if (r.unit().equals("ms")) {
          assertEquals("within noise", r.verdict(), r.metric() + " " + r.stat());
        }
      }
      // the exact figures over every gap, as metric_stats gives them
      List<Object> ms = t.rows("SELECT mean, p50, p95, p99 FROM metric_stats WHERE run = 'c8' AND metric = 'itl_ms'").get(0);
      List<String> stats = List.of("mean", "p50", "p95", "p99");
      for (CompareReport.Row r : self.rows()) {
        if (r.metric().equals("itl_ms")) {
          double want = ((Number) ms.get(stats.indexOf(r.stat()))).doubleValue();
          assertEquals(want, r.a(), 1e-9 * Math.max(1, Math.abs(want)), "itl_ms " + r.stat());
        }
      }

      CompareReport levels = new Compare().compare(t.db, "c4", "c8");
      CompareReport.Row p99 = levels.rows().stream()
          .filter(r -> r.metric().equals("itl_ms") && r.stat().equals("p99")).findFirst().orElseThrow();
      assertEquals(((Number) t.value("SELECT p99 FROM metric_stats WHERE run = 'c4' AND metric = 'itl_ms'")).doubleValue(),
          p99.a(), 1e-9);
      assertTrue(p99.ciLow() <= p99.ciHigh());
      // every interval holds the change printed beside it (issue 23: 6.105 with [6.114, 6.315])
      for (CompareReport.Row r : levels.rows()) {
        if (r.unit().equals("ms") && r.ciLow() != null) {
          assertTrue(r.ciLow() <= r.change() + 1e-9 && r.change() <= r.ciHigh() + 1e-9,
              r.metric() + " " + r.stat() + ": " + r.change() + " outside [" + r.ciLow() + ", " + r.ciHigh() + "]");
        }
      }
    }
  }

  @Test
  void aLevelPoolsTheValuesOfItsRunsExactly() throws Exception {
    Generated.into(tmp.resolve("a"), "--levels", "4", "--requests", "60", "--mean-output", "80", "--seed", "7");
    Generated.into(tmp.resolve("b"), "--levels", "4", "--requests", "60", "--mean-output", "80", "--seed", "8");
    // the second run of the level: another name for the same shape
    Path second = tmp.resolve("b/c4.jsonl");
    java.nio.file.Files.writeString(second, java.nio.file.Files.readString(second)
        .replace("\"run\":\"c4\"", "\"run\":\"c4b\"").replace("\"request_id\":\"c4-", "\"request_id\":\"c4b-"));
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      t.ingest(tmp.resolve("a"));
      t.ingest(tmp.resolve("b"));
      CompareReport r = new Compare().compare(t.db, "concurrency=4", "c4");
      assertEquals(List.of("c4", "c4b"), r.runsA());
      List<Object> itl = t.rows("SELECT avg(gap_ms), quantile_cont(gap_ms, 0.5), quantile_cont(gap_ms, 0.95),"
          + " quantile_cont(gap_ms, 0.99) FROM token_gaps WHERE measured AND ok").get(0);
      List<Object> ttft = t.rows("SELECT avg(ttft_ms), quantile_cont(ttft_ms, 0.5), quantile_cont(ttft_ms, 0.95),"
          + " quantile_cont(ttft_ms, 0.99) FROM request_latency WHERE measured AND ok").get(0);
      List<String> stats = List.of("mean", "p50", "p95", "p99");
      int checked = 0;
      for (CompareReport.Row row : r.rows()) {
        List<Object> want = row.metric().equals("itl_ms") ? itl : row.metric().equals("ttft_ms") ? ttft : null;
        if (want != null) {
          double w = ((Number) want.get(stats.indexOf(row.stat()))).doubleValue();
          assertEquals(w, row.a(), 1e-9 * Math.max(1, Math.abs(w)), row.metric() + " " + row.stat() + " of the level");
          checked++;
        }
      }
      assertEquals(8, checked);
    }
  }
}
