package dev.tokentime.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.Generated;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * itl_per_request takes each request's median and P99 gap from a window partitioned by request
 * (bounded memory); the same figures as quantile_cont as an aggregate over token_gaps, which
 * holds every gap in memory: on generated runs with stalls and a warm-up, every column.
 */
class ItlPerRequestTest {
  @TempDir
  Path tmp;

  static final String REFERENCE = "SELECT g.run, g.request_key, any_value(r.request_id) AS request_id,"
      + " any_value(g.measured) AS measured, any_value(g.ok) AS ok, count(*) AS gaps,"
      + " avg(g.gap_ms) AS itl_mean_ms, stddev_pop(g.gap_ms) AS itl_std_ms,"
      + " quantile_cont(g.gap_ns, 0.5) / 1e6 AS itl_p50_ms, quantile_cont(g.gap_ns, 0.99) / 1e6 AS itl_p99_ms,"
      + " max(g.gap_ms) AS itl_max_ms, stddev_pop(g.gap_ms) / nullif(avg(g.gap_ms), 0) AS itl_cv"
      + " FROM token_gaps AS g JOIN requests AS r USING (request_key) GROUP BY g.run, g.request_key";

  @Test
  void sameFiguresAsTheAggregateOverEveryGap() throws Exception {
    Generated.into(tmp.resolve("gen"), "--levels", "2,8", "--slots", "4",
            "--requests", "40", "--warmup", "3", "--error-every", "9", "--mean-output", "50", "--seed", "3");
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      t.ingest(tmp.resolve("gen"));
      long rows = (Long) t.value("SELECT count(*) FROM (" + REFERENCE + ")");
      assertTrue(rows > 70, "requests with gaps: " + rows);
      assertEquals(rows, t.value("SELECT count(*) FROM itl_per_request"));
      assertTrue((Long) t.value("SELECT count(*) FROM itl_per_request WHERE NOT measured") > 0, "warm-up rows");
      String differing = "SELECT count(*) FROM (" + REFERENCE + ") AS o FULL JOIN itl_per_request AS n USING (request_key)"
          + " WHERE o.request_key IS NULL OR n.request_key IS NULL OR o.run <> n.run OR o.request_id <> n.request_id"
          + " OR o.measured <> n.measured OR o.ok <> n.ok OR o.gaps <> n.gaps"
          + " OR o.itl_p50_ms <> n.itl_p50_ms OR o.itl_p99_ms <> n.itl_p99_ms OR o.itl_max_ms <> n.itl_max_ms"
          + " OR abs(o.itl_mean_ms - n.itl_mean_ms) > 1e-9 * o.itl_mean_ms"
          + " OR abs(o.itl_std_ms - n.itl_std_ms) > 1e-9 * o.itl_std_ms + 1e-12"
          + " OR (o.itl_cv IS NULL) <> (n.itl_cv IS NULL) OR abs(o.itl_cv - n.itl_cv) > 1e-9 * o.itl_cv + 1e-12";
      assertEquals(0L, t.value(differing));
    }
  }
}
