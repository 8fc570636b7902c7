package dev.tokentime.app;

import dev.tokentime.store.Database;
import dev.tokentime.store.StoreException;
import java.sql.SQLException;

/** A database failure told in tokentime's words, for the one line (or few) a command prints. */
public final class DatabaseErrors {
  private DatabaseErrors() {}

  /** Whether {@code e} is a failure of the database (rather than of tokentime or the input). */
  public static boolean isDatabaseError(Throwable e) {
    return e instanceof SQLException || e instanceof StoreException;
  }

  /** What to print after "database error: ". */
  public static String describe(Throwable e) {
    if (e instanceof SQLException s) {
      return Database.firstLine(s);
    }
    return e.getMessage();
  }
}
