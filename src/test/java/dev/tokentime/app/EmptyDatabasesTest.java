package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.query.QueryLibrary;
import dev.tokentime.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
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
  void eachUsePrunesOldTemplatesAndKeepsTheRecentlyUsed() throws Exception {
    Path cache = tmp.resolve("cache");
    Files.createDirectories(cache);
    Instant now = Instant.now();
    // other versions' templates, used 1..6 hours ago, and one unused for 40 days
    for (int h = 1; h <= 6; h++) {
      Path p = cache.resolve("empty-old" + h + ".duckdb");
      Files.writeString(p, "x");
      Files.setLastModifiedTime(p, FileTime.from(now.minus(Duration.ofHours(h))));
    }
    Path ancient = cache.resolve("empty-ancient.duckdb");
    Files.writeString(ancient, "x");
    Files.writeString(cache.resolve("empty-ancient.duckdb.wal"), "x");
    Files.setLastModifiedTime(ancient, FileTime.from(now.minus(Duration.ofDays(40))));
    // a build another process left behind two days ago, and one that may still be running
    Path leftover = cache.resolve("building-123.duckdb");
    Files.writeString(leftover, "x");
    Files.setLastModifiedTime(leftover, FileTime.from(now.minus(Duration.ofDays(2))));
    Path running = cache.resolve("building-456.duckdb");
    Files.writeString(running, "x");
    Path unrelated = cache.resolve("notes.txt");
    Files.writeString(unrelated, "mine");

    try (Database db = EmptyDatabases.openForWriting(tmp.resolve("e.duckdb"), cache)) {
      assertTrue(views(db) > 40);
    }
    Set<String> left = new TreeSet<>();
    try (Stream<Path> files = Files.list(cache)) {
      files.forEach(p -> left.add(p.getFileName().toString()));
    }
    // KEEP = 4: the new template and the three most recently used others
    assertEquals(new TreeSet<>(Set.of(EmptyDatabases.template(cache).getFileName().toString(),
        "empty-old1.duckdb", "empty-old2.duckdb", "empty-old3.duckdb", "building-456.duckdb", "notes.txt")), left);
  }

  @Test
  void usingATemplateMarksItRecentlyUsed() throws Exception {
    Path cache = tmp.resolve("cache");
    try (Database db = EmptyDatabases.openForWriting(tmp.resolve("f.duckdb"), cache)) {
      assertTrue(views(db) > 40);
    }
    Path template = EmptyDatabases.template(cache);
    Instant longAgo = Instant.now().minus(Duration.ofDays(10));
    Files.setLastModifiedTime(template, FileTime.from(longAgo));
    try (Database db = EmptyDatabases.openForWriting(tmp.resolve("g.duckdb"), cache)) {
      assertTrue(views(db) > 40);
    }
    assertTrue(Files.getLastModifiedTime(template).toInstant().isAfter(longAgo.plus(Duration.ofDays(9))),
        "copying the template touched it");
  }

  @Test
  void withoutACacheTheDatabaseIsCreatedInPlace() throws Exception {
    try (Database db = EmptyDatabases.openForWriting(tmp.resolve("d.duckdb"), null)) {
      assertTrue(views(db) > 40);
    }
  }
}
