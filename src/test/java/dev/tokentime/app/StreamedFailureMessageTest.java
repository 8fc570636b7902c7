package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * A streamed query that fails inside DuckDB (out of memory, measured at 50 M tokens: the same
 * query unstreamed said "Out of Memory Error: failed to allocate data of size 1.0 GiB") reaches
 * JDBC as "Invalid result set" alone; the message says what it most often means and what to do.
 */
class StreamedFailureMessageTest {
  @Test
  void anInvalidResultSetSaysWhatItMostOftenMeans() {
    assertEquals("Invalid Input Error: Invalid result set (DuckDB could not produce the result, most often for"
        + " lack of memory under its limit: TOKENTIME_MEMORY_LIMIT=2GB raises it)",
        DatabaseErrors.describe(new SQLException("Invalid Input Error: Invalid result set")));
  }
}
