package dev.tokentime.store;

import java.sql.SQLException;

/** A database failure while writing rows handed over by a parser (which cannot throw SQLException). */
public final class StoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StoreException(SQLException cause) {
    super(Database.firstLine(cause), cause);
  }
}
