package dev.tokentime.app;

import dev.tokentime.Version;
import dev.tokentime.query.QueryLibrary;
import dev.tokentime.schema.CanonicalSchema;
import dev.tokentime.store.Database;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * New databases start as a copy of an empty one kept in a cache directory. Creating the schema
 * and installing the query library's views (DuckDB binds every view as it is created) takes
 * longer than loading a million tokens; copying the small file it produces is nearly free
 * (BENCHMARKS.md). The cached file is keyed by everything that shapes it (schema
 * version, storage compatibility, query library hash, tokentime and DuckDB versions), so a new
 * version never copies an old template. The cache is a speed-up only: when it cannot be read or
 * written, the database is created in place as before.
 *
 * <p>Where: {@code $TOKENTIME_CACHE_DIR}, else {@code $XDG_CACHE_HOME/tokentime}, else
 * {@code ~/.cache/tokentime}; {@code TOKENTIME_CACHE_DIR=off} turns it off. Each version of the
 * schema, the query library, tokentime or DuckDB makes its own template (1.3 MB), so each use
 * (which touches the file) prunes the others: those unused for {@link #UNUSED_FOR} and all but
 * the {@link #KEEP} most recently used, which leaves room for a few versions in use side by side.
 * Listing the directory costs well under a millisecond next to the copy.
 */
public final class EmptyDatabases {
  static final int KEEP = 4;
  static final Duration UNUSED_FOR = Duration.ofDays(30);

  private EmptyDatabases() {}

  /**
   * Opens {@code target} for writing, creating it from the cached empty database when it does not
   * exist yet; the query library is installed (or already is). The copy is made under a private
   * name and checked there before it is linked into place (Database.open): a damaged cached file
   * is forgotten and the database created from scratch, and nothing another process may hold is
   * ever deleted.
   */
  public static Database openForWriting(Path target) throws SQLException {
    return openForWriting(target, cacheDir());
  }

  /** As {@link #openForWriting(Path)}, with the cache in {@code dir} (null: no cache). */
  static Database openForWriting(Path target, Path dir) throws SQLException {
    Database db = Database.open(target, Database.Mode.CREATE, fresh -> fromTemplate(fresh, dir));
    try {
      QueryLibrary.get().installIfChanged(db);
    } catch (SQLException | RuntimeException e) {
      db.close();
      throw e;
    }
    return db;
  }

  /** Copies the cached template to {@code fresh} and checks it opens; false (and no file) if not. */
  private static boolean fromTemplate(Path fresh, Path dir) {
    if (!copyTemplate(fresh, dir)) {
      return false;
    }
    try (Database db = Database.open(fresh, Database.Mode.WRITE)) {
      QueryLibrary.get().installIfChanged(db);
      db.execute("CHECKPOINT");
      return true;
    } catch (RuntimeException | SQLException e) {
      // a damaged cached file: forget it (fresh is private to this process)
      deleteQuietly(fresh);
      deleteQuietly(Path.of(fresh + ".wal"));
      deleteQuietly(Path.of(fresh + ".lock"));
      deleteQuietly(template(dir));
      return false;
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // best effort: the caller goes on without the cache
    }
  }

  static Path template(Path dir) {
    return dir.resolve("empty-" + key() + ".duckdb");
  }

  /**
   * Copies the template to {@code target}, a private name (building the template first when
   * missing); false when it could not.
   */
  static boolean copyTemplate(Path target, Path dir) {
    if (dir == null) {
      return false;
    }
    Path template = template(dir);
    try {
      if (!Files.isRegularFile(template)) {
        build(dir, template);
      }
      Path parent = target.toAbsolutePath().getParent();
      if (parent == null || !Files.isDirectory(parent)) {
        return false; // Database.open says what is wrong with the path
      }
      Files.copy(template, target);
      touch(template);
      prune(dir, template);
      return true;
    } catch (IOException | SQLException | RuntimeException e) {
      try {
        Files.deleteIfExists(target);
      } catch (IOException ignored) {
        // Database.open reports the path's problem
      }
      return false;
    }
  }

  /** Marks the template as used now (pruning keeps the recently used ones). */
  private static void touch(Path template) {
    try {
      Files.setLastModifiedTime(template, FileTime.from(Instant.now()));
    } catch (IOException ignored) {
      // a read-only cache still works; pruning then goes by build time
    }
  }

  /**
   * Deletes the other templates that were unused for {@link #UNUSED_FOR} or are not among the
   * {@link #KEEP} most recently used ({@code current} counts as one), and build leftovers older than a
   * day. Best effort: a file another process is using or cannot delete is left.
   */
  static void prune(Path dir, Path current) {
    Instant now = Instant.now();
    // each file's time read once: a comparator that stats could see a time change mid-sort
    Map<Path, Instant> others = new HashMap<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "{empty,building}-*.duckdb*")) {
      for (Path p : ds) {
        if (p.getFileName().toString().startsWith("building-")) {
          if (modified(p).isBefore(now.minus(Duration.ofDays(1)))) {
            deleteQuietly(p);
          }
        } else if (!p.equals(current) && p.getFileName().toString().endsWith(".duckdb")) {
          others.put(p, modified(p));
        }
      }
    } catch (IOException | RuntimeException e) {
      return;
    }
    List<Path> recentFirst = new ArrayList<>(others.keySet());
    recentFirst.sort(Comparator.comparing(others::get, Comparator.reverseOrder()));
    for (int i = 0; i < recentFirst.size(); i++) {
      Path p = recentFirst.get(i);
      if (i >= KEEP - 1 || others.get(p).isBefore(now.minus(UNUSED_FOR))) {
        deleteQuietly(p);
        deleteQuietly(Path.of(p + ".wal"));
      }
    }
  }

  private static Instant modified(Path p) {
    try {
      return Files.getLastModifiedTime(p).toInstant();
    } catch (IOException e) {
      return Instant.EPOCH;
    }
  }

  /** Builds the template under a temporary name and moves it into place (atomic for readers). */
  private static void build(Path dir, Path template) throws IOException, SQLException {
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, "building-", ".duckdb");
    Files.delete(tmp); // DuckDB creates the file itself
    try {
      try (Database db = Database.open(tmp, Database.Mode.CREATE)) {
        QueryLibrary.get().install(db);
        db.execute("CHECKPOINT");
      }
      try {
        Files.move(tmp, template, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, template, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
      Files.deleteIfExists(Path.of(tmp + ".wal"));
      Files.deleteIfExists(Path.of(tmp + ".lock"));
    }
  }

  /** The cache directory, or null when turned off or unknown. */
  static Path cacheDir() {
    String own = System.getenv("TOKENTIME_CACHE_DIR");
    if (own != null && !own.isBlank()) {
      return own.equals("off") ? null : Path.of(own);
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isBlank()) {
      return Path.of(xdg, "tokentime");
    }
    String home = System.getProperty("user.home");
    return home == null || home.isBlank() ? null : Path.of(home, ".cache", "tokentime");
  }

  /** What the empty database depends on, hashed. */
  static String key() {
    String duckdb = String.valueOf(org.duckdb.DuckDBDriver.class.getPackage().getImplementationVersion())
        + "@" + org.duckdb.DuckDBDriver.class.getProtectionDomain().getCodeSource();
    String all = "schema " + CanonicalSchema.VERSION + "\nstorage " + Database.STORAGE_COMPATIBILITY
        + "\nqueries " + QueryLibrary.get().hash()
        + "\ntokentime " + Version.get() + "\nduckdb " + duckdb;
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(all.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(h, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
