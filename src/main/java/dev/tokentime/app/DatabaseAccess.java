package dev.tokentime.app;

import dev.tokentime.analysis.AnalysisWindow;
import dev.tokentime.query.QueryLibrary;
import dev.tokentime.store.Database;
import dev.tokentime.store.Deriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;

/**
 * Opening databases the way commands need them, so commands hand over work and never open,
 * configure or close a database themselves.
 */
public final class DatabaseAccess {
  private DatabaseAccess() {}

  /** Work on an open database. */
  @FunctionalInterface
  public interface Work<T> {
    T apply(Database db) throws Exception;
  }

  /**
   * Runs {@code work} on the database opened for reading with the analysis window applied, and
   * closes it afterwards.
   */
  public static <T> T read(Path path, AnalysisWindow window, Work<T> work) throws Exception {
    try (Database d = forReading(path)) {
      window.apply(d.connection());
      return work.apply(d);
    }
  }

  /**
   * As {@link #read}, but writable with {@code writable} (what is made in the shell with --write
   * is kept).
   */
  public static <T> T open(Path path, boolean writable, AnalysisWindow window, Work<T> work) throws Exception {
    if (!writable) {
      return read(path, window, work);
    }
    try (Database d = open(path, Database.Mode.WRITE)) {
      QueryLibrary.get().installIfChanged(d);
      window.apply(d.connection());
      return work.apply(d);
    }
  }

  /**
   * Runs {@code work} on the database opened (created when missing) for ingest. A database this
   * call created is removed again when the work fails before any file was stored in it (an
   * unrecognised file, a bad option): a failed first ingest leaves nothing behind.
   */
  public static <T> T write(Path path, Work<T> work) throws Exception {
    return write(path, work, result -> false);
  }

  /**
   * As {@link #write(Path, Work)}; a result that {@code failed} (an ingest --strict stopped, every
   * file refused: exit 2) also removes the database this call created when nothing was stored in
   * it. It was left empty, and the next command answered "0 runs" with exit 0.
   */
  public static <T> T write(Path path, Work<T> work, java.util.function.Predicate<T> failed) throws Exception {
    boolean existed = Files.exists(path);
    try (Database d = forWriting(path)) {
      if (!existed) {
        d.removeOnExitWhileEmpty(); // stopped (Ctrl-C) before a file is stored, it goes as a failure does
      }
      try {
        T result = work.apply(d);
        if (failed.test(result) && !existed && storedNothing(d)) {
          d.closeAndDelete();
        }
        return result;
      } catch (Exception e) {
        if (!existed && storedNothing(d)) {
          // under the writer lock, which goes with the file: a lock file left beside the path
          // was all a failed first ingest left
          d.closeAndDelete();
        }
        throw e;
      }
    }
  }

  private static boolean storedNothing(Database d) {
    try {
      return d.holdsNoSource();
    } catch (SQLException e) {
      return false; // when in doubt, keep the file
    }
  }

  /**
   * Opens an existing database for queries: read-only (so other processes may read it too),
   * unless its views are from another version of the query library, which are then reinstalled
   * where the file may be written.
   */
  public static Database forReading(Path path) throws SQLException {
    if (!Files.exists(path)) {
      throw new dev.tokentime.BadInputException(notFound(path));
    }
    Database db = open(path, Database.Mode.READ_ONLY);
    boolean current = QueryLibrary.get().hash().equals(db.meta("queries_hash"));
    long pending = Deriver.pendingRunCount(db);
    if (current && pending == 0) {
      return db;
    }
    Path abs = path.toAbsolutePath();
    if (!Files.isWritable(abs) || (abs.getParent() != null && !Files.isWritable(abs.getParent()))) {
      // a file we may not write (shared, archived): read it with the views it has; reopening it
      // writable to reinstall them would fail every query
      if (pending > 0) {
        System.err.println("tokentime: note: " + pending + " run(s) of " + path + " were stored but not derived (an"
            + " ingest stopped before its end), and the file is not writable here: their figures are missing");
      }
      return db;
    }
    db.close();
    Database rw = open(path, Database.Mode.WRITE);
    if (!current) {
      QueryLibrary.get().install(rw);
    }
    if (pending > 0 && Deriver.hasPending(rw)) {
      // an ingest killed between its commits and its derive step left runs stored but not
      // derived: a reader saw "0 runs" until the next ingest; the step is finished here
      System.err.println("tokentime: finishing the derive step an earlier ingest did not reach (" + pending
          + " run(s) of " + path + ")");
      rw.underLeanLimit(() -> Deriver.derive(rw, dev.tokentime.ingest.FormatRegistry.standard().namespaceFormats(),
          java.util.List.of()));
    }
    return rw;
  }

  /**
   * A database that is not there, with what to do: "database not found: x.duckdb" alone left a
   * user to guess whether the name was mistyped (the databases beside it are named) or nothing
   * was ingested yet.
   */
  static String notFound(Path path) {
    Path dir = path.toAbsolutePath().getParent();
    if (dir != null && !Files.isDirectory(dir)) {
      return "database not found: " + path + " (there is no directory " + dir + ")";
    }
    java.util.List<String> near = new java.util.ArrayList<>();
    if (dir != null && Files.isDirectory(dir)) {
      try (var files = Files.list(dir)) {
        // the likeliest meant first: the longest start shared with the name given
        String wanted = path.getFileName() == null ? "" : path.getFileName().toString();
        files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".duckdb"))
            .sorted(java.util.Comparator.comparingInt((String n) -> -sharedStart(n, wanted))
                .thenComparing(java.util.Comparator.naturalOrder()))
            .forEach(near::add);
      } catch (java.io.IOException | java.io.UncheckedIOException e) {
        near.clear(); // a folder we may not list: no names to offer
      }
    }
    String beside = near.isEmpty() ? "" : "; the databases beside it: " + (near.size() <= 5 ? String.join(", ", near)
        : String.join(", ", near.subList(0, 5)) + ", … (" + near.size() + " in all)");
    return "database not found: " + path + " (tokentime ingest --db " + path + " FILES creates it" + beside + ")";
  }

  private static int sharedStart(String a, String b) {
    int i = 0;
    while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return i;
  }

  private static Database open(Path path, Database.Mode mode) {
    return waitingForOthers(path, mode != Database.Mode.READ_ONLY, () -> Database.open(path, mode));
  }

  /** Opens (creating when missing, from the cached empty database) a database for ingest. */
  public static Database forWriting(Path path) throws SQLException {
    try {
      return waitingForOthers(path, true, () -> {
        try {
          return EmptyDatabases.openForWriting(path);
        } catch (SQLException e) {
          throw new dev.tokentime.store.StoreException(e);
        }
      });
    } catch (dev.tokentime.store.StoreException e) {
      if (e.getCause() instanceof SQLException sql) {
        throw sql;
      }
      throw e;
    }
  }

  /**
   * Opens, waiting (up to TOKENTIME_LOCK_WAIT seconds, as a writer waits for another) while
   * another process has the file in a way DuckDB lets no second process share: a reader waits
   * for an ingest to finish, an ingest for a shell to close, both ways alike (a lock met in one
   * direction is no more final than in the other).
   */
  private static Database waitingForOthers(Path path, boolean writing, java.util.function.Supplier<Database> open) {
    long deadline = System.nanoTime() + Database.lockWaitSeconds() * 1_000_000_000L;
    boolean told = false;
    while (true) {
      try {
        return open.get();
      } catch (RuntimeException e) {
        RuntimeException said = DatabaseErrors.lockConflict(e, path, writing);
        if (said == e || System.nanoTime() >= deadline) {
          throw said;
        }
        if (!told) {
          System.err.println("tokentime: waiting for another process that has " + path + " open"
              + (writing ? "" : " for writing") + " (up to " + Database.lockWaitSeconds()
              + " s, TOKENTIME_LOCK_WAIT)");
          told = true;
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw said;
        }
      }
    }
  }
}
