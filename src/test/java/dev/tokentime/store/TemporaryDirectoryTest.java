package dev.tokentime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DuckDB spills into a directory of this process beside the database, not into the "<file>.tmp"
 * that every process reading the same file would share, and removes it on close.
 */
class TemporaryDirectoryTest {
  @TempDir
  Path tmp;

  @Test
  void spillsGoToThisProcessesDirectoryBesideTheDatabase() throws Exception {
    Path file = tmp.resolve("run.duckdb");
    Path mine = Database.temporaryDirectory(file);
    assertEquals(file.toAbsolutePath() + ".tmp-" + ProcessHandle.current().pid(), mine.toString());
    try (Database db = Database.open(file, Database.Mode.CREATE)) {
      try (Statement st = db.connection().createStatement();
          ResultSet rs = st.executeQuery("SELECT current_setting('temp_directory')")) {
        rs.next();
        assertEquals(mine.toString(), rs.getString(1));
      }
      // more than the memory limit of temporary rows: they are spilled
      db.execute("SET memory_limit = '16MB'");
      db.execute("SET threads = 1");
      db.execute("CREATE TEMP TABLE spilled AS SELECT i, hash(i) AS h FROM range(4000000) r(i)");
      assertEquals(4_000_000L, db.queryLong("SELECT count(*) FROM spilled"));
      assertTrue(Files.isDirectory(mine), "spilled into " + mine);
      assertFalse(Files.exists(Path.of(file.toAbsolutePath() + ".tmp")), "not into the shared <file>.tmp");
    }
    assertFalse(Files.exists(mine), "removed when the database closed");
  }

  @Test
  void spillDirectoriesOfProcessesThatNoLongerRunAreRemovedByTheNextWriter() throws Exception {
    Path file = tmp.resolve("left.duckdb");
    long dead = 4_000_000;
    while (ProcessHandle.of(dead).isPresent()) {
      dead++;
    }
    Path stale = Files.createDirectories(Path.of(file.toAbsolutePath() + ".tmp-" + dead));
    Files.writeString(stale.resolve("duckdb_temp_storage_DEFAULT-0.tmp"), "spilled by a killed process");
    // pid 1 runs: its directory stays
    Path live = Files.createDirectories(Path.of(file.toAbsolutePath() + ".tmp-1"));
    try (Database db = Database.open(file, Database.Mode.CREATE)) {
      assertFalse(Files.exists(stale), "removed: its process is gone");
      assertTrue(Files.isDirectory(live), "kept: its process runs");
    }
    try (Database db = Database.open(file, Database.Mode.READ_ONLY)) {
      assertTrue(Files.isDirectory(live), "readers remove nothing");
    }
  }
}
