package dev.tokentime.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/** The report's reads: streamed, and the connection as it was for whatever reads it next. */
class ReportQueriesTest {
  @TempDir
  Path tmp;

  @Test
  void aReadLeavesTheConnectionNotStreaming() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Table read = new ReportQueries(t.db, Set.of()).read("numbers", "SELECT i::BIGINT AS i FROM range(5000) r(i)");
      assertEquals(5000, read.rowCount());
      assertEquals(4999L * 5000 / 2, read.longColumn("i").sum(), 0.0);
      // a result built whole stays readable while the connection runs another query; a streamed
      // one would not (report code reads one result while it runs others, e.g. snapshots)
      try (Statement a = t.db.connection().createStatement();
          ResultSet big = a.executeQuery("SELECT i FROM range(200000) r(i) ORDER BY i")) {
        try (Statement b = t.db.connection().createStatement(); ResultSet one = b.executeQuery("SELECT 1")) {
          one.next();
        }
        long n = 0;
        while (big.next()) {
          n++;
        }
        assertEquals(200000, n);
      }
    }
  }
}
