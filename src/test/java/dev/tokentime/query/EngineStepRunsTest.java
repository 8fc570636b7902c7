package dev.tokentime.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.Generated;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs from the generator's engine model (tokens of the batch in lock-step at the end of each
 * iteration, prefills inside iterations) recover what the model did: the batch size found from
 * token timestamps alone equals the one from request intervals, never exceeds the slots, and
 * every ITL stall overlaps another request's prefill — the only cause of stalls the model has.
 */
class EngineStepRunsTest {
  @TempDir
  Path tmp;

  @Test
  void tokenStepsGiveTheEnginesBatchAndStallsArePrefills() throws Exception {
    Generated.into(tmp.resolve("gen"), "--levels", "2,8", "--slots", "4",
            "--requests", "60", "--mean-output", "60", "--seed", "5", "--token-timing", "steps");
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      t.ingest(tmp.resolve("gen"));
      // bucket by bucket where both methods cover the whole bucket
      List<List<Object>> diff = t.rows("SELECT a.run, count(*), max(abs(a.batch_mean - b.batch_mean)) "
          + "FROM batch_size_timeline_at(0.5) AS a JOIN batch_size_timeline_at(0.5) AS b USING (run, clock_id, t_s) "
          + "WHERE a.method = 'tokens' AND b.method = 'intervals' AND a.coverage = 1 AND b.coverage = 1 "
          + "GROUP BY a.run ORDER BY a.run");
      assertEquals(2, diff.size(), diff.toString());
      for (List<Object> row : diff) {
        assertTrue((Long) row.get(1) >= 15, "buckets compared: " + row);
        assertTrue((Double) row.get(2) < 0.01, "tokens against intervals: " + row);
      }
      // 8 clients on 4 slots: the batch is full but for the moments a finished request's slot waits
      // for the next iteration; 2 clients never fill it
      List<List<Object>> batch = t.rows("SELECT run, sum(batch_mean * coverage) / sum(coverage), max(batch_max) "
          + "FROM batch_size_timeline_at(1.0) WHERE method = 'tokens' GROUP BY run ORDER BY run");
      assertEquals("c2", batch.get(0).get(0));
      assertTrue((Double) batch.get(0).get(1) > 1.9 && (Double) batch.get(0).get(1) <= 2.0, batch.toString());
      assertEquals(2.0, (Double) batch.get(0).get(2), batch.toString());
      assertTrue((Double) batch.get(1).get(1) > 3.8 && (Double) batch.get(1).get(1) <= 4.0, batch.toString());
      assertEquals(4.0, (Double) batch.get(1).get(2), batch.toString());

      List<List<Object>> stalls = t.rows("SELECT run, stalls, prefill_share FROM stall_summary ORDER BY run");
      assertEquals(2, stalls.size(), stalls.toString());
      for (List<Object> row : stalls) {
        assertTrue(((Number) row.get(1)).longValue() > 10, "stalls found: " + row);
        assertEquals(1.0, ((Number) row.get(2)).doubleValue(), "every stall overlaps a prefill: " + row);
      }
    }
  }
}
