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
 * _itl_stalls_top(n) — each run's n longest stalls, attributed after they are picked — gives the
 * same rows as taking the n longest of itl_stalls, whose attributions are computed for every
 * stall: on generated runs that queue, so prefills overlap stalls (the attributions themselves
 * are checked by hand in the itl_stalls golden cases).
 */
class StallsTopTest {
  @TempDir
  Path tmp;

  static final String ORDER = "ORDER BY gap_ms DESC, t0_ns, request_key, seq";

  /** Two generated runs that queue, so prefills overlap stalls, ingested. */
  private TestDb runsThatQueue() throws Exception {
    Generated.into(tmp.resolve("gen"), "--levels", "4,16", "--slots", "4",
            "--requests", "80", "--mean-output", "60", "--seed", "11");
    TestDb t = new TestDb(tmp.resolve("db"));
    t.ingest(tmp.resolve("gen"));
    return t;
  }

  @Test
  void theLongestStallsOfEachRunWithTheSameAttributions() throws Exception {
    try (TestDb t = runsThatQueue()) {
      // the data must exercise what is compared: several runs, stalls with overlapping prefills
      assertEquals(2L, t.value("SELECT count(DISTINCT run) FROM itl_stalls"));
      assertTrue((Long) t.value("SELECT count(*) FROM itl_stalls WHERE other_prefills > 0") > 5);
      for (int n : List.of(1, 5, 40)) {
        String top = "SELECT * FROM _itl_stalls_top(" + n + ")";
        String expected = "SELECT * FROM itl_stalls QUALIFY row_number() OVER (PARTITION BY run " + ORDER
            + ") <= " + n;
        assertEquals(0L, t.value("SELECT count(*) FROM (" + top + " EXCEPT ALL " + expected + ")"), "n = " + n);
        assertEquals(0L, t.value("SELECT count(*) FROM (" + expected + " EXCEPT ALL " + top + ")"), "n = " + n);
        assertEquals(t.value("SELECT count(*) FROM (" + expected + ")"), t.value("SELECT count(*) FROM (" + top + ")"));
      }
      assertEquals(80L, t.value("SELECT count(*) FROM _itl_stalls_top(40)"), "40 from each of 2 runs");
      assertEquals(t.value("SELECT count(*) FROM itl_stalls"), t.value("SELECT count(*) FROM _itl_stalls_top(NULL)"));
    }
  }

  @Test
  void aFloorUnderEveryThresholdDropsNoStall() throws Exception {
    try (TestDb t = runsThatQueue()) {
      t.db.execute("CREATE TEMP TABLE every AS SELECT * FROM itl_stalls");
      t.db.execute("CREATE TEMP TABLE summary AS SELECT * FROM stall_summary");
      // what the report sets (ReportService.StallFloor): the lowest threshold less 1 ns; the two
      // runs' thresholds differ, so the higher one still does the filtering
      t.db.execute("SET VARIABLE tt_stall_floor_ns = (SELECT floor(min(p99) * 1e6)::BIGINT - 1"
          + " FROM metric_stats WHERE metric = 'itl_ms')");
      assertTrue((Long) t.value("SELECT count(DISTINCT p99) FROM metric_stats WHERE metric = 'itl_ms'") == 2);
      assertTrue((Long) t.value("SELECT count(*) FROM every") > 10);
      for (String[] q : new String[][] {{"every", "itl_stalls"}, {"summary", "stall_summary"}}) {
        assertEquals(0L, t.value("SELECT count(*) FROM (SELECT * FROM " + q[0] + " EXCEPT ALL SELECT * FROM " + q[1] + ")"), q[1]);
        assertEquals(0L, t.value("SELECT count(*) FROM (SELECT * FROM " + q[1] + " EXCEPT ALL SELECT * FROM " + q[0] + ")"), q[1]);
      }
      // a floor above a threshold would drop stalls: the filter is in force
      t.db.execute("SET VARIABLE tt_stall_floor_ns = (SELECT max(gap_ms) * 1e6 FROM every)::BIGINT");
      assertEquals(0L, t.value("SELECT count(*) FROM itl_stalls"));
    }
  }
}
