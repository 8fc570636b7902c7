package dev.tokentime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Database.underLeanLimit: work under a smaller DuckDB memory limit, again under the general one if it runs out. */
class LeanLimitTest {
  @TempDir
  Path tmp;

  private static String limit(TestDb t) throws SQLException {
    return (String) t.value("SELECT current_setting('memory_limit')");
  }

  @Test
  void workRunsUnderTheLeanLimitAndTheGeneralOneComesBack() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      String general = limit(t);
      assertEquals("476.8 MiB", general);
      // DuckDB shows limits in MiB: 250 MB
      assertEquals("238.4 MiB", t.db.underLeanLimit(() -> limit(t)));
      assertEquals(general, limit(t));
    }
  }

  @Test
  void workThatRunsOutOfMemoryRunsAgainUnderTheGeneralLimit() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      List<String> limits = new ArrayList<>();
      // two million distinct strings do not fit in 1 MB: a real out-of-memory error from DuckDB
      long n = t.db.underLimit("1MB", () -> {
        limits.add(limit(t));
        return t.db.queryLong("SELECT count(*) FROM (SELECT DISTINCT 'request-' || i FROM range(2000000) r(i))");
      });
      assertEquals(2_000_000, n);
      assertEquals(2, limits.size(), limits.toString());
      assertEquals("476.8 MiB", limits.get(1));
      assertEquals("476.8 MiB", limit(t));
    }
  }

  @Test
  void otherErrorsAreNotRunAgain() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      int[] runs = {0};
      SQLException e = assertThrows(SQLException.class, () -> t.db.underLeanLimit(() -> {
        runs[0]++;
        return t.db.queryLong("SELECT count(*) FROM no_such_table");
      }));
      assertTrue(e.getMessage().contains("no_such_table"), e.getMessage());
      assertEquals(1, runs[0]);
      assertEquals("476.8 MiB", limit(t));
    }
  }
}
