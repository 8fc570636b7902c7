package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.query.QueryLibrary;
import dev.tokentime.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmptyDatabasesTest {
  @TempDir
  Path tmp;

  private static long views(Database db) throws Exception {
    return db.queryLong("SELECT count(*) FROM duckdb_views() WHERE NOT internal");
  }

  @Test
  void aNewDatabaseIsACopyOfTheCachedEmptyOneWithSchemaAndViews() throws Exception {
    Path cache = tmp.resolve("cache");
    long expected;
    try (Database first = EmptyDatabases.openForWriting(tmp.resolve("a.duckdb"), cache)) {
      expected = views(first);
      assertTrue(expected > 40, "the query library's views are installed: " + expected);
      first.execute("INSERT INTO runs (run) VALUES ('c1')");
    }
    Path template = EmptyDatabases.template(cache);
    assertTrue(Files.isRegularFile(template), "the first database left a template behind");
    try (Database second = EmptyDatabases.openForWriting(tmp.resolve("b.duckdb"), cache)) {
      assertEquals(expected, views(second));
      assertEquals(0, second.queryLong("SELECT count(*) FROM runs"), "a copy of the empty one, not of a");
      assertEquals(QueryLibrary.get().hash(), second.meta("queries_hash"));
    }
  }

  @Test
  void aDamagedTemplateIsDroppedAndTheDatabaseCreatedInPlace() throws Exception {
    Path cache = tmp.resolve("cache");
    Files.createDirectories(cache);
    Files.writeString(EmptyDatabases.template(cache), "not a database");
    try (Database db = EmptyDatabases.openForWriting(tmp.resolve("c.duckdb"), cache)) {
      assertTrue(views(db) > 40);
    }
    assertTrue(!Files.exists(EmptyDatabases.template(cache))
        || Files.size(EmptyDatabases.template(cache)) > 1000, "the damaged template is gone or rebuilt");
  }

  @Test
  void withoutACacheTheDatabaseIsCreatedInPlace() throws Exception {
    try (Database db = EmptyDatabases.openForWriting(tmp.resolve("d.duckdb"), null)) {
      assertTrue(views(db) > 40);
    }
  }
}
