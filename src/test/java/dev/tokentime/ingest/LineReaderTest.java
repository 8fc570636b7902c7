package dev.tokentime.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineReaderTest {

  static List<String> lines(byte[] input, int max, List<String> tooLong) throws IOException {
    List<String> out = new ArrayList<>();
    LineReader r = new LineReader(new ByteArrayInputStream(input), max);
    long n = r.forEach(new LineReader.Handler() {
      @Override
      public void line(long lineNo, byte[] buf, int off, int len) {
        out.add(lineNo + ":" + new String(buf, off, len, StandardCharsets.UTF_8));
      }

      @Override
      public void tooLong(long lineNo, long length, byte[] head, int headLen) {
        tooLong.add(lineNo + ":" + length);
      }
    });
    assertEquals(out.size() + tooLong.size(), n);
    return out;
  }

  /** The word-at-a-time newline search finds what a byte loop finds, at every offset and length. */
  @Test
  void newlineSearchAgreesWithAByteLoop() {
    java.util.Random rnd = new java.util.Random(7);
    for (int round = 0; round < 2000; round++) {
      byte[] b = new byte[rnd.nextInt(40)];
      for (int k = 0; k < b.length; k++) {
        // few newlines, bytes either side of '\n' and high bytes (a borrow's false flags)
        int r = rnd.nextInt(20);
        b[k] = (byte) (r == 0 ? '\n' : r == 1 ? 9 : r == 2 ? 11 : r == 3 ? 0x8a : r == 4 ? 0 : rnd.nextInt(256));
      }
      int from = b.length == 0 ? 0 : rnd.nextInt(b.length + 1);
      int to = from + (b.length - from == 0 ? 0 : rnd.nextInt(b.length - from + 1));
      int expected = -1;
      for (int k = from; k < to; k++) {
        if (b[k] == '\n') {
          expected = k;
          break;
        }
      }
      assertEquals(expected, LineReader.indexOfNewline(b, from, to),
          java.util.Arrays.toString(b) + " " + from + ".." + to);
    }
  }

  @Test
  void splitsOnLfAndCrLfAndKeepsAnUnterminatedLastLine() throws IOException {
    List<String> tooLong = new ArrayList<>();
    assertEquals(List.of("1:a", "2:", "3:b", "4:c"),
        lines("a\n\nb\r\nc".getBytes(StandardCharsets.UTF_8), 1000, tooLong));
    assertTrue(tooLong.isEmpty());
  }

  @Test
  void reportsTerminationOfTheLastLine() throws IOException {
    LineReader r = new LineReader(new ByteArrayInputStream("x\ny".getBytes(StandardCharsets.UTF_8)));
    r.forEach(new LineReader.Handler() {
      @Override
      public void line(long lineNo, byte[] buf, int off, int len) {}

      @Override
      public void tooLong(long lineNo, long length, byte[] head, int headLen) {}
    });
    assertFalse(r.lastLineTerminated());
    assertEquals(3, r.bytesRead());
  }

  @Test
  void skipsLinesLongerThanTheLimitWithoutHoldingThem() throws IOException {
    String longLine = "x".repeat(5000);
    List<String> tooLong = new ArrayList<>();
    List<String> got = lines(("ok\n" + longLine + "\nafter\n" + longLine).getBytes(StandardCharsets.UTF_8),
        1000, tooLong);
    assertEquals(List.of("1:ok", "3:after"), got);
    assertEquals(List.of("2:5000", "4:5000"), tooLong);
  }

  @Test
  void handlesLinesAcrossTheReadBuffer() throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 100_000; i++) {
      sb.append("line-").append(i).append(" ").append("y".repeat(i % 37)).append('\n');
    }
    List<String> tooLong = new ArrayList<>();
    List<String> got = lines(sb.toString().getBytes(StandardCharsets.UTF_8), 1 << 20, tooLong);
    assertEquals(100_000, got.size());
    assertEquals("54321:line-54320 " + "y".repeat(54320 % 37), got.get(54320));
  }
}
