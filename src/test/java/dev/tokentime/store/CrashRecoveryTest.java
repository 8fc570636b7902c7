package dev.tokentime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a writer that never closed leaves (its committed work only in {@code <db>.wal}) opens
 * read-only: DuckDB JDBC 1.4.4.0 and 1.5.6.0 failed there when the log held index changes
 * ("Failure while replaying WAL … Bad file descriptor"); tokentime's read-only open now reads
 * it (DuckDB 2.0 replays it read-only; were that to fail, Database replays it once writable).
 */
class CrashRecoveryTest {
  @TempDir
  Path tmp;

  @Test
  void aDatabaseWhoseWriterDiedOpensReadOnlyWithItsCommittedRows() throws Exception {
    Path file = tmp.resolve("crashed.duckdb");
    try (Database d = Database.open(file, Database.Mode.CREATE)) {
      d.execute("CHECKPOINT");
    }
    Properties p = new Properties();
    p.setProperty("storage_compatibility_version", Database.STORAGE_COMPATIBILITY);
    // a writer that dies: no checkpoint on close, so the commits stay in the WAL, as after kill -9
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath(), p);
        Statement s = c.createStatement()) {
      s.execute("PRAGMA disable_checkpoint_on_shutdown");
      s.execute("SET wal_autocheckpoint = '1TB'");
      s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, grp INTEGER)");
      s.execute("INSERT INTO t SELECT i, i % 10 FROM range(100000) r(i)");
      s.execute("CREATE INDEX t_grp ON t (grp)");
      s.execute("INSERT INTO runs (run) VALUES ('c1')");
    }
    assertTrue(Files.size(Path.of(file + ".wal")) > 100_000, "the commits are in the WAL only");
    try (Database ro = Database.open(file, Database.Mode.READ_ONLY)) {
      assertEquals(100_000, ro.queryLong("SELECT count(*) FROM t"));
      assertEquals(1, ro.queryLong("SELECT count(*) FROM runs"));
    }
  }
}
