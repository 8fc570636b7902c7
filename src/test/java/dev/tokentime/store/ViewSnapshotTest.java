package dev.tokentime.store;

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

  @Test
  void anOnDiskSnapshotShadowsTheViewFromAScratchFileOnAReadOnlyDatabase() throws Exception {
    Path file;
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of("sample-logs/canonical")));
      file = t.db.path();
    }
    try (dev.tokentime.store.Database db = dev.tokentime.store.Database.open(file, dev.tokentime.store.Database.Mode.READ_ONLY)) {
      String steps = "SELECT run, count(*), sum(level) FROM _token_steps_live GROUP BY run ORDER BY run";
      List<List<Object>> computed = rows(db, steps);
      List<String> scratch;
      try (ViewSnapshot s = ViewSnapshot.onDisk(db, "_token_steps_live")) {
        assertEquals(computed, rows(db, steps), "the snapshot holds the view's rows");
        scratch = rows(db, "SELECT path FROM duckdb_databases() WHERE database_name = 'tt_snapshot__token_steps_live'")
            .stream().map(r -> (String) r.get(0)).toList();
        assertEquals(1, scratch.size(), "in a scratch database");
        assertEquals(1L, rows(db, "SELECT count(*) FROM duckdb_views() WHERE temporary AND view_name = '_token_steps_live'")
            .get(0).get(0), "shadowed by a temporary view");
        try (ViewSnapshot inner = ViewSnapshot.onDisk(db, "_token_steps_live")) {
          assertEquals(computed, rows(db, steps), "a nested snapshot shares the outer one");
        }
        assertEquals(computed, rows(db, steps), "closing the nested one leaves the outer one");
      }
      assertEquals(computed, rows(db, steps), "closed: the view is computed again");
      assertEquals(0L, rows(db, "SELECT count(*) FROM duckdb_databases() WHERE database_name LIKE 'tt_snapshot%'").get(0).get(0));
      assertEquals(false, java.nio.file.Files.exists(Path.of(scratch.get(0))), "the scratch file is deleted");
    }
  }

  @Test
  void snapshotsOfEachViewAreTakenInTurnAndClosedTogether() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of("sample-logs/canonical")));
      String temporary = "SELECT list(table_name ORDER BY table_name) FROM duckdb_tables() WHERE temporary";
      Object computed = t.rows(C1_TTFT_P50).get(0).get(0);
      try (ViewSnapshot.Group g = ViewSnapshot.ofEach(t.db, List.of("metric_stats", "run_summary"))) {
        assertEquals("[metric_stats, run_summary]", String.valueOf(t.rows(temporary).get(0).get(0)));
        t.db.execute("UPDATE temp.main.metric_stats SET p50 = -1 WHERE metric = 'ttft_ms'");
        assertEquals(-1.0, ((Number) t.rows(C1_TTFT_P50).get(0).get(0)).doubleValue(), "level_summary reads the copy");
        try (ViewSnapshot.Group inner = ViewSnapshot.ofEach(t.db, List.of("metric_stats"))) {
          assertEquals(-1.0, ((Number) t.rows(C1_TTFT_P50).get(0).get(0)).doubleValue(), "nested: the outer copy");
        }
        assertEquals(-1.0, ((Number) t.rows(C1_TTFT_P50).get(0).get(0)).doubleValue());
      }
      assertEquals(null, t.rows(temporary).get(0).get(0));
      assertEquals(computed, t.rows(C1_TTFT_P50).get(0).get(0));
    }
  }

  @Test
  void aSnapshotOfSomeRowsServesThemFromItsCopyAndTheOthersFromTheView() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of("sample-logs/canonical")));
      String temporaries = "SELECT (SELECT count(*) FROM duckdb_tables() WHERE temporary)"
          + " + (SELECT count(*) FROM duckdb_views() WHERE temporary AND view_name = '_gap_buckets')";
      try (ViewSnapshot none = ScopedGapBuckets.open(t.db)) {
        assertEquals(0L, ((Number) t.rows(temporaries).get(0).get(0)).longValue(), "the default scope: nothing taken");
      }
      t.db.execute("SET VARIABLE tt_warmup_requests = 2");
      // (std rounded: its sums over buckets vary in the last digit with the order DuckDB adds them)
      String itl = "SELECT run, count, min, max, p50, p99, round(std, 9) FROM metric_stats WHERE metric = 'itl_ms' ORDER BY run";
      String perToken = "SELECT * FROM _gap_buckets WHERE variant = 'per_token' ORDER BY run, b";
      List<List<Object>> itlComputed = t.rows(itl);
      List<List<Object>> perTokenComputed = t.rows(perToken);
      assertEquals(3, itlComputed.size());
      try (ViewSnapshot s = ScopedGapBuckets.open(t.db)) {
        assertEquals(itlComputed, t.rows(itl), "the same figures from the copy");
        // mark the copy: metric_stats must now count every gap twice, so it reads the copy
        t.db.execute("UPDATE temp.main.tt_rows__gap_buckets SET n = 2 * n");
        List<List<Object>> marked = t.rows(itl);
        for (int i = 0; i < itlComputed.size(); i++) {
          assertEquals(2 * ((Number) itlComputed.get(i).get(1)).longValue(), ((Number) marked.get(i).get(1)).longValue());
        }
        assertEquals(perTokenComputed, t.rows(perToken), "the other rows are computed from the view");
      }
      assertEquals(itlComputed, t.rows(itl), "closed: computed again");
      assertEquals(0L, ((Number) t.rows(temporaries).get(0).get(0)).longValue());
    }
  }

  static List<List<Object>> rows(dev.tokentime.store.Database db, String sql) throws java.sql.SQLException {
    List<List<Object>> out = new java.util.ArrayList<>();
    try (var st = db.connection().createStatement(); var rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new java.util.ArrayList<>();
        for (int i = 1; i <= n; i++) {
          row.add(rs.getObject(i));
        }
        out.add(row);
      }
    }
    return out;
  }
}
