package dev.tokentime.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.export.ArrowIpc;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * A reader that stops (`tokentime query … | head`) stops the command: Java's print streams keep
 * a broken pipe to themselves, and before, a 10 M-row CSV went on being computed and written into
 * nothing for 37 s after head had its line. The streaming writers now ask the stream every few
 * thousand rows (CSV, JSON) or after each Arrow batch, and stop.
 */
class OutputClosedTest {
  /** Takes {@code limit} bytes, then fails as a pipe whose reader has gone. */
  static final class ClosingPipe extends OutputStream {
    final long limit;
    long written;
    boolean closed;

    ClosingPipe(long limit) {
      this.limit = limit;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (written + len > limit) {
        throw new IOException("Broken pipe");
      }
      written += len;
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  private static final String ROWS = "SELECT range AS i, range * 2 AS j FROM range(2000000)";

  private static long rowsLeft(ResultSet rs) throws Exception {
    long n = 0;
    while (rs.next()) {
      n++;
    }
    return n;
  }

  @Test
  void csvAndJsonStopWhenTheReaderHasGone() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      for (boolean json : new boolean[] {false, true}) {
        ClosingPipe pipe = new ClosingPipe(100_000);
        PrintWriter out = new PrintWriter(new PrintStream(pipe), true);
        try (ResultSet rs = st.executeQuery(ROWS)) {
          OutputClosed e = assertThrows(OutputClosed.class,
              () -> { if (json) { ResultStreamer.json(rs, out); } else { ResultStreamer.csv(rs, out); } });
          assertTrue(e.getMessage().contains("stopped"), e.getMessage());
          // stopped within a few thousand rows of the failure, not at the end of the result
          assertTrue(rowsLeft(rs) > 1_900_000, "json=" + json);
        }
      }
    }
  }

  @Test
  void anArrowStreamStopsAfterTheBatchThatFailedAndLeavesStandardOutputOpen() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      ClosingPipe pipe = new ClosingPipe(2_000_000);
      PrintStream out = new PrintStream(pipe);
      try (ResultSet rs = st.executeQuery(ROWS)) {
        // before, the print stream swallowed the failure and every batch was still written
        assertThrows(OutputClosed.class, () -> ArrowIpc.writeStream(rs, out));
      }
      assertFalse(pipe.closed, "the stream handed in is the caller's to close");
    }
    // a whole result still goes through, and the caller's stream stays open
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT range FROM range(10)")) {
      ClosingPipe pipe = new ClosingPipe(Long.MAX_VALUE);
      assertEquals(10, ArrowIpc.writeStream(rs, new PrintStream(pipe)));
      assertFalse(pipe.closed);
    }
  }

  @Test
  void aBrokenPipeAnywhereInTheCausesIsAClosedReader() {
    assertTrue(OutputClosed.isClosedPipe(new RuntimeException(new IOException("Broken pipe"))));
    assertFalse(OutputClosed.isClosedPipe(new IOException("No space left on device")));
  }
}
