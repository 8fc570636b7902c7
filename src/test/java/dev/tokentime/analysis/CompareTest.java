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
}
