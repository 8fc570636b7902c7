package dev.tokentime.cli;

import dev.tokentime.app.EmptyDatabases;
import dev.tokentime.query.QueryLibrary;
import dev.tokentime.store.Database;
import java.nio.file.Path;
import java.sql.SQLException;

/** Opening databases the way commands need them. */
final class Databases {
  private Databases() {}

  /**
   * Opens an existing database for queries: read-only (so other processes may read it too),
   * unless its views are from another version of the query library, which are then reinstalled.
   */
  static Database forReading(Path path) throws SQLException {
    Database db = Database.open(path, Database.Mode.READ_ONLY);
    if (QueryLibrary.get().hash().equals(db.meta("queries_hash"))) {
      return db;
    }
    java.nio.file.Path abs = path.toAbsolutePath();
    if (!java.nio.file.Files.isWritable(abs)
        || (abs.getParent() != null && !java.nio.file.Files.isWritable(abs.getParent()))) {
      // a file we may not write (shared, archived): read it with the views it has; reopening it
      // writable to reinstall them failed every query
      return db;
    }
    db.close();
    Database rw = Database.open(path, Database.Mode.WRITE);
    QueryLibrary.get().install(rw);
    return rw;
  }

  /** Opens (creating when missing, from the cached empty database) a database for ingest. */
  static Database forWriting(Path path) throws SQLException {
    return EmptyDatabases.openForWriting(path);
  }
}
