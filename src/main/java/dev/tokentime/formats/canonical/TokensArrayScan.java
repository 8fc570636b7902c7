package dev.tokentime.formats.canonical;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The hot path of the per-request form: a line's {@code "tokens_ns"} array, when it holds plain
 * non-negative integers only, read straight from the line's bytes, and the line given to Jackson
 * with that array emptied ({@code "tokens_ns":[]}), so Jackson reads the request's few fields and
 * not its hundreds of timestamps.
 *
 * <p>Why by hand: Jackson copies every number's digits into its text buffer before converting
 * them, and for a request's hundreds of timestamps that was most of the parse thread's CPU (JFR;
 * BENCHMARKS.md). Here each digit is read once. Anything but {@code [ digits (, digits)* ]} with JSON
 * whitespace — a sign, a fraction, an exponent, a leading zero, a value over Long.MAX_VALUE, a
 * string, a truncated array — makes {@link #scan} answer false, and the caller reads the original
 * line with Jackson alone, so every reject and its reason stay Jackson's and the record's. The
 * match of the key is checked by Jackson too: the caller uses the values only where Jackson finds
 * the field {@code tokens_ns} opening an array at {@link #arrayOffset()} of the emptied line.
 */
final class TokensArrayScan {
  /**
   * Lines shorter than this are left to Jackson: they hold a few timestamps at most, and looking
   * for the key in every line of the token-per-line form cost more than it saved.
   */
  static final int MIN_LINE = 512;

  private static final byte[] KEY = "\"tokens_ns\"".getBytes(StandardCharsets.US_ASCII);
  /** Digits of Long.MAX_VALUE; a 19-digit value is checked against it. */
  private static final long MAX_DIV_10 = Long.MAX_VALUE / 10;
  private static final VarHandle LE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private long[] values = new long[1024];
  private int count;
  private byte[] emptied = new byte[4096];
  private int emptiedLen;
  private int arrayOffset;

  /**
   * Looks for the first {@code "tokens_ns"} key of the line and reads its array; true when it is
   * an array of plain non-negative integers, which {@link #values()} then holds, and
   * {@link #emptiedLine()} holds the line with the array emptied.
   */
  boolean scan(byte[] b, int off, int len) {
    int end = off + len;
    int k = indexOf(b, off, end);
    if (k < 0) {
      return false;
    }
    int i = skipSpace(b, k + KEY.length, end);
    if (i >= end || b[i] != ':') {
      return false;
    }
    i = skipSpace(b, i + 1, end);
    if (i >= end || b[i] != '[') {
      return false;
    }
    int open = i;
    count = 0;
    i = skipSpace(b, i + 1, end);
    if (i < end && b[i] == ']') {
      return empty(b, off, end, open, i);
    }
    while (true) {
      if (i >= end) {
        return false;
      }
      int c = b[i] - '0';
      if (c < 0 || c > 9) {
        return false;
      }
      long v = c;
      int start = i++;
      // a nanosecond timestamp has 19 digits: eight at a time while eight more are digits
      // (at most two such reads before v could overflow; the loop below checks the rest)
      for (int r = 0; r < 2 && i + 8 <= end; r++) {
        long eight = (long) LE_LONG.get(b, i);
        if (!eightDigits(eight)) {
          break;
        }
        v = v * 100_000_000L + eightDigitsValue(eight);
        i += 8;
      }
      while (i < end && (c = b[i] - '0') >= 0 && c <= 9) {
        if (v > MAX_DIV_10 || (v == MAX_DIV_10 && c > 7)) {
          return false; // beyond a long: Jackson says "out of range"
        }
        v = v * 10 + c;
        i++;
      }
      if (b[start] == '0' && i - start > 1) {
        return false; // a leading zero: not JSON
      }
      if (i < end && (b[i] == '.' || b[i] == 'e' || b[i] == 'E')) {
        return false;
      }
      if (count == values.length) {
        values = Arrays.copyOf(values, count * 2);
      }
      values[count++] = v;
      i = skipSpace(b, i, end);
      if (i >= end) {
        return false;
      }
      if (b[i] == ']') {
        return empty(b, off, end, open, i);
      }
      if (b[i] != ',') {
        return false;
      }
      i = skipSpace(b, i + 1, end);
    }
  }

  /** Whether all eight bytes (read little-endian) are ASCII digits. */
  static boolean eightDigits(long eight) {
    // each byte 0x30..0x39: its high nibble is 3, and adding 6 does not carry out of its low nibble
    return (eight & 0xF0F0F0F0F0F0F0F0L) == 0x3030303030303030L
        && ((eight + 0x0606060606060606L) & 0xF0F0F0F0F0F0F0F0L) == 0x3030303030303030L;
  }

  /** The value of eight ASCII digits read little-endian (the first digit in the lowest byte). */
  static long eightDigitsValue(long eight) {
    long d = eight - 0x3030303030303030L;
    d = (d * 10 + (d >>> 8)) & 0x00FF00FF00FF00FFL; // pairs of digits
    d = (d * 100 + (d >>> 16)) & 0x0000FFFF0000FFFFL; // fours
    return (d * 10000 + (d >>> 32)) & 0xFFFFFFFFL; // eight
  }

  /** The line without the array's contents: up to and with '[', then from ']' on. */
  private boolean empty(byte[] b, int off, int end, int open, int close) {
    int head = open + 1 - off;
    int tail = end - close;
    emptiedLen = head + tail;
    if (emptied.length < emptiedLen) {
      emptied = new byte[Math.max(emptiedLen, emptied.length * 2)];
    }
    System.arraycopy(b, off, emptied, 0, head);
    System.arraycopy(b, close, emptied, head, tail);
    arrayOffset = open - off;
    return true;
  }

  long[] values() {
    return values;
  }

  int count() {
    return count;
  }

  byte[] emptiedLine() {
    return emptied;
  }

  int emptiedLength() {
    return emptiedLen;
  }

  /** Byte offset of the array's '[' in the emptied line (as Jackson counts its token locations). */
  int arrayOffset() {
    return arrayOffset;
  }

  private static int indexOf(byte[] b, int from, int end) {
    byte first = KEY[0];
    int last = end - KEY.length;
    outer:
    for (int i = from; i <= last; i++) {
      if (b[i] != first) {
        continue;
      }
      for (int j = 1; j < KEY.length; j++) {
        if (b[i + j] != KEY[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static int skipSpace(byte[] b, int i, int end) {
    while (i < end && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) {
      i++;
    }
    return i;
  }
}
