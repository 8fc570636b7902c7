package dev.tokentime.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A snapshot shadows its view for the views built on it, for as long as it is open. */
class ViewSnapshotTest {
  @TempDir
  Path tmp;

  private static final String C1_TTFT_P50 = "SELECT ttft_p50_ms FROM level_summary WHERE level = 1";

  @Test
  void viewsBuiltOnTheViewReadTheSnapshotUntilItCloses() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of("sample-logs/canonical")));
      Object computed = t.rows(C1_TTFT_P50).get(0).get(0);
      try (ViewSnapshot outer = ViewSnapshot.of(t.db, "metric_stats")) {
        assertEquals(computed, t.rows(C1_TTFT_P50).get(0).get(0), "the snapshot holds the view's rows");
        // mark the snapshot: level_summary must now show the mark, so it reads the snapshot
        t.db.execute("UPDATE temp.main.metric_stats SET p50 = -1 WHERE metric = 'ttft_ms'");
        assertEquals(-1.0, ((Number) t.rows(C1_TTFT_P50).get(0).get(0)).doubleValue());
        try (ViewSnapshot inner = ViewSnapshot.of(t.db, "metric_stats")) {
          assertEquals(-1.0, ((Number) t.rows(C1_TTFT_P50).get(0).get(0)).doubleValue(),
              "a nested snapshot shares the outer one");
        }
        assertEquals(-1.0, ((Number) t.rows(C1_TTFT_P50).get(0).get(0)).doubleValue(),
            "closing the nested snapshot leaves the outer one");
      }
      assertEquals(computed, t.rows(C1_TTFT_P50).get(0).get(0), "closed: the view is computed again");
      assertEquals(0L, ((Number) t.rows("SELECT count(*) FROM duckdb_tables() WHERE temporary").get(0).get(0)).longValue());
    }
  }
}
