package dev.tokentime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.TestDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's timeline snapshot: the token cells and the level segments of every basis but token
 * steps are read from scratch files while it is open, the token steps are still found (from the
 * cells' copy), the timelines are the same, and closing it leaves nothing behind.
 */
class TimelineSnapshotTest {
  @TempDir
  Path tmp;

  private static final String BY_BASIS = "SELECT basis, measure, count(*), sum(level), min(t0_ns), max(t1_ns)"
      + " FROM _level_segments GROUP BY ALL ORDER BY ALL";
  private static final String BATCH = "SELECT run, method, t_s, batch_mean FROM batch_size_timeline ORDER BY ALL";
  private static final String LOAD = "SELECT run, t_s, in_flight_mean, running_mean FROM concurrency_timeline ORDER BY ALL";

  @Test
  void theTimelinesReadTheCopiesWhileItIsOpenAndTheSameRows() throws Exception {
    Path file;
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of("sample-logs/canonical")));
      file = t.db.path();
    }
    try (Database db = Database.open(file, Database.Mode.READ_ONLY)) {
      List<List<Object>> segments = rows(db, BY_BASIS);
      List<List<Object>> batch = rows(db, BATCH);
      List<List<Object>> load = rows(db, LOAD);
      assertTrue(segments.stream().anyMatch(r -> r.get(0).equals("tokens")), "token steps: " + segments);
      assertTrue(segments.stream().anyMatch(r -> r.get(0).equals("requests")), "request segments: " + segments);
      List<String> scratch;
      try (TimelineSnapshot s = TimelineSnapshot.snapshot(db)) {
        assertEquals(segments, rows(db, BY_BASIS), "the same segments, token steps included");
        assertEquals(batch, rows(db, BATCH));
        assertEquals(load, rows(db, LOAD));
        scratch = rows(db, "SELECT path FROM duckdb_databases() WHERE database_name LIKE 'tt_snapshot%' ORDER BY 1")
            .stream().map(r -> (String) r.get(0)).toList();
        assertEquals(2, scratch.size(), "two scratch files: " + scratch);
        assertEquals(List.of(List.of("_level_segments"), List.of("_token_cells")),
            rows(db, "SELECT view_name FROM duckdb_views() WHERE temporary AND NOT internal ORDER BY 1"));
        // the copy of the segments holds no token steps: those are found from the cells' copy
        assertEquals(0L, rows(db, "SELECT count(*) FROM tt_snapshot__level_segments.rows WHERE basis = 'tokens'")
            .get(0).get(0));
        // mark both copies: the load timeline must move, and the token batch too
        db.execute("UPDATE tt_snapshot__level_segments.rows SET level = level + 100 WHERE measure = 'in_flight'");
        db.execute("UPDATE tt_snapshot__token_cells.rows SET requests = requests + 100");
        assertNotEquals(load, rows(db, LOAD), "the load timeline reads the segments' copy");
        List<List<Object>> marked = rows(db, BATCH);
        for (int i = 0; i < batch.size(); i++) {
          if ("tokens".equals(batch.get(i).get(1))) {
            assertTrue(((Number) marked.get(i).get(3)).doubleValue() > ((Number) batch.get(i).get(3)).doubleValue() + 50,
                "the token batch reads the cells' copy: " + batch.get(i) + " -> " + marked.get(i));
          } else {
            assertEquals(batch.get(i), marked.get(i), "other methods do not read the cells");
          }
        }
      }
      assertEquals(segments, rows(db, BY_BASIS), "closed: computed again");
      assertEquals(load, rows(db, LOAD));
      assertEquals(0L, rows(db, "SELECT count(*) FROM duckdb_databases() WHERE database_name LIKE 'tt_snapshot%'").get(0).get(0));
      for (String f : scratch) {
        assertFalse(Files.exists(Path.of(f)), "deleted: " + f);
      }
    }
  }

  private static List<List<Object>> rows(Database db, String sql) throws java.sql.SQLException {
    return ViewSnapshotTest.rows(db, sql);
  }
}
