package dev.tokentime.cli;

import dev.tokentime.app.DatabaseAccess;
import dev.tokentime.store.Database;
import java.nio.file.Path;
import java.sql.SQLException;

/**
 * Kept for CompareCommand, which opens its database itself until it takes the {@link ReadAccess}
 * mixin; every other command goes through {@link ReadAccess} or {@link DatabaseAccess}.
 */
final class Databases {
  private Databases() {}

  static Database forReading(Path path) throws SQLException {
    return DatabaseAccess.forReading(path);
  }
}
