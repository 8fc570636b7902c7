package dev.tokentime.app;

import java.io.IOException;
import java.io.InputStream;

/**
 * The lines a log platform's download holds, given as a stream of bytes chunk by chunk: each
 * export ({@link CsvLogExport}, {@link JsonLogExport}) makes the next chunk when the last is read.
 */
abstract class GivenLines extends InputStream {
  private byte[] pending;
  private int at;
  private boolean done;

  /** Makes the next chunk ({@link #give}); false at the end. */
  protected abstract boolean next() throws IOException;

  /** The next chunk of lines, read before the next is made (an empty one is skipped). */
  protected final void give(byte[] chunk) {
    pending = chunk;
    at = 0;
  }

  @Override
  public final int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public final int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (pending == null || at >= pending.length) {
      if (done || !next()) {
        done = true;
        return -1;
      }
    }
    int n = Math.min(len, pending.length - at);
    System.arraycopy(pending, at, b, off, n);
    at += n;
    return n;
  }
}
