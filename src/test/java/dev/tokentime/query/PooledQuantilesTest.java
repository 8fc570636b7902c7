package dev.tokentime.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * _pooled_quantiles (the peer views' pooled chunk gaps: exact percentiles in bounded memory) gives
 * what quantile_cont gives over the same values, per run and metric, reading a table or the
 * caller's CTE by name: on ties, one value, negative and zero values, values at the buckets' edges
 * (in ms, bucketed by their whole ns), and a seeded random mix with a tail.
 */
class PooledQuantilesTest {
  @TempDir
  Path tmp;

  static final String PS = "[0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99]";
  static final String ITEMS = "q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[8], q[9]";

  @Test
  void sameAsQuantileContPerRunAndMetric() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.db.execute("CREATE TABLE pooled (run VARCHAR, metric VARCHAR, v DOUBLE)");
      t.db.execute("INSERT INTO pooled VALUES ('ties', 'itl', 1), ('ties', 'itl', 1), ('ties', 'itl', 1),"
          + " ('ties', 'itl', 2), ('ties', 'itl', 1), ('one', 'itl', 42.123457),"
          + " ('edges', 'itl', 0), ('edges', 'itl', -0.5), ('edges', 'itl', 0.065535), ('edges', 'itl', 0.065536),"
          + " ('edges', 'itl', 0.065537), ('edges', 'itl', 1073.741823), ('edges', 'itl', 1073.741824),"
          + " ('edges', 'itl', 10000000), ('edges', 'ttft', 5), ('edges', 'ttft', 7), ('edges', 'itl', NULL)");
      // a body around 30 ms and a tail of stalls, at ns resolution, in two runs and two metrics
      t.db.execute("INSERT INTO pooled SELECT 'random' || (i % 2), CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END,"
          + " CASE WHEN hash(i) % 50 = 0 THEN 200 + (hash(i * 7) % 2000000000) / 1e6"
          + " ELSE 30 * exp(((hash(i * 13) % 1000000) / 1e6 - 0.5) * 0.6) END"
          + " FROM range(40000) r(i)");
      String expected = "SELECT run, metric, " + ITEMS + " FROM (SELECT run, metric, quantile_cont(v, " + PS
          + ") AS q FROM pooled WHERE v IS NOT NULL GROUP BY ALL) ORDER BY run, metric";
      List<List<Object>> want = t.rows(expected);
      assertEquals(8, want.size());
      for (String actual : List.of(
          "SELECT run, metric, " + ITEMS + " FROM _pooled_quantiles('pooled') ORDER BY run, metric",
          "WITH mine AS NOT MATERIALIZED (SELECT * FROM pooled) SELECT run, metric, " + ITEMS
              + " FROM _pooled_quantiles('mine') ORDER BY run, metric")) {
        List<List<Object>> got = t.rows(actual);
        assertEquals(want.size(), got.size(), actual);
        for (int i = 0; i < want.size(); i++) {
          assertEquals(want.get(i).subList(0, 2), got.get(i).subList(0, 2));
          for (int k = 2; k < 11; k++) {
            double ev = ((Number) want.get(i).get(k)).doubleValue();
            assertEquals(ev, ((Number) got.get(i).get(k)).doubleValue(), 1e-12 * Math.max(1, Math.abs(ev)),
                want.get(i) + " vs " + got.get(i));
          }
        }
      }
    }
  }
}
