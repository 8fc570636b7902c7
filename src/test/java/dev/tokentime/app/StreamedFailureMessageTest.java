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

  /**
   * A checkpoint that runs out of memory is fatal to DuckDB (measured: 100,000 scrapes of an AIPerf
   * server-metrics file with 150 extras each, under the 250 MB limit after loading); the error
   * says where the data is and what to run (the next open with the memory writes the log out).
   */
  @Test
  void aFailedCheckpointSaysTheDataIsKeptAndWhatToRun() {
    assertEquals("FATAL Error: Failed to create checkpoint because of error: failed to allocate data of size 116.0 MiB"
        + " (180.4 MiB/238.4 MiB used) (what was committed is kept in the database's write-ahead log; writing it to"
        + " the file needs more memory than the limit: run the command again with TOKENTIME_MEMORY_LIMIT=2GB)",
        DatabaseErrors.describe(new SQLException("FATAL Error: Failed to create checkpoint because of error: failed to"
            + " allocate data of size 116.0 MiB (180.4 MiB/238.4 MiB used)")));
  }
}
