package dev.tokentime.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into lines without decoding it: parsers get the raw bytes of each line
 * (so invalid UTF-8 is found where it is, and JSON is parsed from bytes). A line longer than
 * {@code maxLineBytes} is never held in memory: it is skipped to its end and reported as too long.
 *
 * <p>Line terminators are {@code \n} and {@code \r\n}; a final line without a terminator is still
 * a line (and {@link #lastLineTerminated()} tells the parser it may be truncated).
 */
public final class LineReader {
  /** Receives each line; {@code buf[off, off+len)} is valid only during the call. */
  public interface Handler {
    void line(long lineNo, byte[] buf, int off, int len) throws IOException;

    /** A line longer than the limit; {@code head} is its first bytes. */
    void tooLong(long lineNo, long length, byte[] head, int headLen) throws IOException;
  }

  public static final int DEFAULT_MAX_LINE_BYTES = 64 << 20;

  private final InputStream in;
  private final int maxLineBytes;
  private byte[] buf = new byte[1 << 20];
  private long lines;
  private long bytesRead;
  private boolean lastLineTerminated = true;

  public LineReader(InputStream in, int maxLineBytes) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
  }

  public LineReader(InputStream in) {
    this(in, DEFAULT_MAX_LINE_BYTES);
  }

  /** Reads to the end of the stream, calling the handler once per line. Returns the line count. */
  public long forEach(Handler h) throws IOException {
    int start = 0; // start of the current line in buf
    int end = 0; // end of valid data in buf
    int scan = 0; // where to continue looking for '\n'
    boolean skipping = false; // inside an over-long line
    long skippedLength = 0;
    byte[] head = null;
    while (true) {
      // find newlines in buf[scan, end)
      int nl = indexOfNewline(buf, scan, end);
      if (nl >= 0) {
        lines++;
        if (skipping) {
          skippedLength += nl - start;
          h.tooLong(lines, skippedLength, head, head.length);
          skipping = false;
        } else if (nl - start > maxLineBytes) {
          h.tooLong(lines, nl - start, Arrays.copyOfRange(buf, start, start + 256), 256);
        } else {
          int len = nl - start;
          if (len > 0 && buf[nl - 1] == '\r') {
            len--;
          }
          h.line(lines, buf, start, len);
        }
        start = nl + 1;
        scan = start;
        continue;
      }
      // no newline in the buffered data: need more bytes
      if (skipping) {
        skippedLength += end - start;
        start = end = scan = 0;
      } else if (end - start >= maxLineBytes) {
        skipping = true;
        head = Arrays.copyOfRange(buf, start, start + Math.min(256, end - start));
        skippedLength = end - start;
        start = end = scan = 0;
      } else if (start > 0) {
        System.arraycopy(buf, start, buf, 0, end - start);
        end -= start;
        start = 0;
      }
      scan = end;
      if (end == buf.length) {
        buf = Arrays.copyOf(buf, (int) Math.min((long) buf.length * 2, (long) maxLineBytes + 1));
      }
      int n = in.read(buf, end, buf.length - end);
      if (n < 0) {
        break;
      }
      bytesRead += n;
      end += n;
    }
    if (skipping) {
      lines++;
      skippedLength += end - start;
      lastLineTerminated = false;
      h.tooLong(lines, skippedLength, head, head.length);
    } else if (end - start > maxLineBytes) {
      lines++;
      lastLineTerminated = false;
      h.tooLong(lines, end - start, Arrays.copyOfRange(buf, start, start + 256), 256);
    } else if (end > start) {
      lines++;
      lastLineTerminated = false;
      int len = end - start;
      if (buf[end - 1] == '\r') {
        len--;
      }
      h.line(lines, buf, start, len);
    }
    return lines;
  }

  private static final java.lang.invoke.VarHandle LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long NEWLINES = ONES * '\n';

  /**
   * The first '\n' in b[from, to), or -1: eight bytes at a time (every byte of a file passes here,
   * and the JIT of Java 17 does not vectorise a byte loop), the classic test for a zero byte in
   * a word after an XOR with the newline in every byte; the rest one byte at a time.
   */
  static int indexOfNewline(byte[] b, int from, int to) {
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long x = (long) LONGS.get(b, i) ^ NEWLINES;
      long found = (x - ONES) & ~x & HIGHS;
      if (found != 0) {
        return i + (Long.numberOfTrailingZeros(found) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  public long lines() {
    return lines;
  }

  public long bytesRead() {
    return bytesRead;
  }

  /** False when the input ended without a line terminator (a possibly truncated last line). */
  public boolean lastLineTerminated() {
    return lastLineTerminated;
  }
}
