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

  @Test
  void theLongestStallsOfEachRunWithTheSameAttributions() throws Exception {
    Generated.into(tmp.resolve("gen"), "--levels", "4,16", "--slots", "4",
            "--requests", "80", "--mean-output", "60", "--seed", "11");
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      t.ingest(tmp.resolve("gen"));
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
}
