package dev.tokentime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.testing.TestDb;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new database is written in the storage format of DuckDB 1.0 (docs/notebooks.md), whatever
 * the DuckDB JDBC's own default, so the DuckDB CLIs and notebooks users already have open it.
 */
class StorageCompatibilityTest {
  @TempDir
  Path tmp;

  @Test
  void newDatabasesAreReadableFromDuckDb10() throws Exception {
    Path file = tmp.resolve("new.duckdb");
    try (Database d = Database.open(file, Database.Mode.CREATE)) {
      d.execute("CHECKPOINT");
      try (TestDb t = new TestDb(tmp.resolve("t"))) {
        // what DuckDB itself says of the file it has open
        assertEquals("v1.0.0+", t.value("SELECT tags['storage_version'] FROM duckdb_databases() "
            + "WHERE database_name = current_database()"));
      }
    }
    // the header's storage version number: 64 is what DuckDB 1.0 and 1.1 write and read
    try (InputStream in = Files.newInputStream(file)) {
      byte[] head = in.readNBytes(20);
      assertEquals("DUCK", new String(head, 8, 4, java.nio.charset.StandardCharsets.US_ASCII));
      assertEquals(64, head[12]);
    }
  }
}
