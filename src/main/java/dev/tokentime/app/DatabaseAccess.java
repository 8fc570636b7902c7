package dev.tokentime.app;

import dev.tokentime.analysis.AnalysisWindow;
import dev.tokentime.query.QueryLibrary;
import dev.tokentime.store.Database;
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
    try (Database d = Database.open(path, Database.Mode.WRITE)) {
      QueryLibrary.get().installIfChanged(d);
      window.apply(d.connection());
      return work.apply(d);
    }
  }

  /** Runs {@code work} on the database opened (created when missing) for ingest. */
  public static <T> T write(Path path, Work<T> work) throws Exception {
    try (Database d = forWriting(path)) {
      return work.apply(d);
    }
  }

  /**
   * Opens an existing database for queries: read-only (so other processes may read it too),
   * unless its views are from another version of the query library, which are then reinstalled.
   */
  public static Database forReading(Path path) throws SQLException {
    Database db = Database.open(path, Database.Mode.READ_ONLY);
    if (QueryLibrary.get().hash().equals(db.meta("queries_hash"))) {
      return db;
    }
    db.close();
    Database rw = Database.open(path, Database.Mode.WRITE);
    QueryLibrary.get().install(rw);
    return rw;
  }

  /** Opens (creating when missing, from the cached empty database) a database for ingest. */
  public static Database forWriting(Path path) throws SQLException {
    return EmptyDatabases.openForWriting(path);
  }
}
