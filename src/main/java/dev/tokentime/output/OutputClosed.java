package dev.tokentime.output;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Standard output stopped taking what a command writes: its reader went away ({@code | head}) or
 * the device failed. Java ignores SIGPIPE and its print streams keep the failure to themselves,
 * so a long result went on being computed and written into nothing; the streaming writers ask
 * every few thousand rows and stop with this.
 */
public final class OutputClosed extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Rows between two checks: a check flushes the stream. */
  static final int EVERY = 4096;

  /** Whether standard output was a pipe or socket when the failure was seen. */
  private final boolean pipe;

  public OutputClosed(String message) {
    super(message, null, false, false);
    this.pipe = stdoutIsPipe(); // asked now: a writer's close may close the descriptor later
  }

  /** Whether the reader of a pipe went away (no failure), rather than a file's device failing. */
  public boolean readerGone() {
    return pipe;
  }

  /** Throws if {@code out} is a print writer that has failed (checked every {@value #EVERY} rows). */
  static void check(Object out, long rows) {
    if (rows % EVERY == 0 && failed(out)) {
      throw new OutputClosed("standard output stopped after about " + rows + " rows");
    }
  }

  /** Throws if {@code out} is a print stream that has failed (after an Arrow batch). */
  public static void checkStream(Object out) {
    if (failed(out)) {
      throw new OutputClosed("standard output stopped");
    }
  }

  /** Whether a print writer or stream has failed a write (asking flushes it). */
  private static boolean failed(Object out) {
    return out instanceof PrintWriter pw ? pw.checkError() : out instanceof PrintStream ps && ps.checkError();
  }

  /** Whether an I/O failure is a pipe or socket whose reader has gone (EPIPE, ECONNRESET). */
  public static boolean isClosedPipe(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof OutputClosed) {
        return true;
      }
      // also as DuckDB says it of its own writes (COPY … TO '/dev/stdout': "IO Error: … Broken pipe")
      if ((t instanceof IOException || t instanceof java.sql.SQLException) && t.getMessage() != null
          && (t.getMessage().contains("Broken pipe") || t.getMessage().contains("Connection reset"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether standard output is a pipe or socket (Linux: {@code /proc/self/fd/1}): a reader that
   * stops there ({@code head}) is no failure. Elsewhere (a file on a full disk) it is.
   */
  public static boolean stdoutIsPipe() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/1")).toString();
      return target.startsWith("pipe:") || target.startsWith("socket:");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }
}
