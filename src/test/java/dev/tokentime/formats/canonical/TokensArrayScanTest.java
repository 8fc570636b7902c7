package dev.tokentime.formats.canonical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.ParseContext;
import dev.tokentime.testing.CollectingSink;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The by-hand read of tokens_ns arrays: what it accepts, what it leaves to Jackson, and that a
 * file reads the same with it and without it, rejects and their reasons included.
 */
class TokensArrayScanTest {

  static TokensArrayScan scanned(String line) {
    TokensArrayScan s = new TokensArrayScan();
    byte[] b = ("xx" + line + "yy").getBytes(StandardCharsets.UTF_8);
    return s.scan(b, 2, b.length - 4) ? s : null;
  }

  /** The line with a long first field, so that it is long enough for the scan (MIN_LINE). */
  static String padded(String line) {
    return line.startsWith("{") ? "{\"pad\":\"" + "x".repeat(TokensArrayScan.MIN_LINE) + "\"," + line.substring(1) : line;
  }

  static String emptied(TokensArrayScan s) {
    return new String(s.emptiedLine(), 0, s.emptiedLength(), StandardCharsets.UTF_8);
  }

  @Test
  void readsPlainIntegersAndEmptiesTheArray() {
    TokensArrayScan s = scanned("{\"request_id\":\"a\",\"tokens_ns\" : [ 12, 0,\t9223372036854775807 ] ,\"x\":1}");
    assertArrayEquals(new long[] {12, 0, Long.MAX_VALUE}, Arrays.copyOf(s.values(), s.count()));
    assertEquals("{\"request_id\":\"a\",\"tokens_ns\" : [] ,\"x\":1}", emptied(s));
    assertEquals('[', emptied(s).charAt(s.arrayOffset()));
    assertEquals(32, s.arrayOffset());
  }

  @Test
  void readsAnEmptyArrayAndGrowsPastItsFirstBuffer() {
    TokensArrayScan s = scanned("{\"tokens_ns\":[]}");
    assertEquals(0, s.count());
    assertEquals("{\"tokens_ns\":[]}", emptied(s));
    StringBuilder b = new StringBuilder("{\"tokens_ns\":[");
    for (int i = 0; i < 5000; i++) {
      b.append(i == 0 ? "" : ",").append(1767225600000000000L + i);
    }
    s = scanned(b.append("]}").toString());
    assertEquals(5000, s.count());
    assertEquals(1767225600000004999L, s.values()[4999]);
  }

  /**
   * Eight digits are read at a time (a word of the line's bytes): every length from 1 to 19
   * digits, at every alignment, with values next to Long.MAX_VALUE and with a non-digit at each
   * place of the word, read as Long.parseLong reads them (or left to Jackson where it fails).
   */
  @Test
  void readsDigitsEightAtATimeAsParseLongDoes() {
    Random rnd = new Random(11);
    List<String> numbers = new java.util.ArrayList<>(List.of("0", "7", "12345678", "123456789",
        "1234567890123456", "12345678901234567", "9223372036854775807", "9223372036854775808",
        "9999999999999999999", "1000000000000000000", "99999999", "100000000"));
    for (int digits = 1; digits <= 19; digits++) {
      for (int k = 0; k < 40; k++) {
        StringBuilder d = new StringBuilder().append((char) ('1' + rnd.nextInt(9)));
        while (d.length() < digits) {
          d.append((char) ('0' + rnd.nextInt(10)));
        }
        numbers.add(d.toString());
      }
    }
    for (String n : numbers) {
      long expected;
      try {
        expected = Long.parseLong(n);
      } catch (NumberFormatException e) {
        expected = -1;
      }
      for (String pad : List.of("", " ", "  ", "   ", "    ", "     ", "      ", "       ")) {
        TokensArrayScan s = scanned("{\"tokens_ns\":[" + pad + n + "," + n + "]}");
        if (expected < 0) {
          assertEquals(null, s, n);
        } else {
          assertArrayEquals(new long[] {expected, expected}, Arrays.copyOf(s.values(), s.count()), n);
        }
      }
    }
    // a byte that is not a digit, at each place of an eight-byte word, ends the number there
    for (int at = 1; at < 17; at++) {
      String digits = "1234567890123456789".substring(0, 17);
      for (char c : new char[] {'/', ':', '.', ',', ']', ' ', 'a', (char) 0x7f}) {
        String line = "{\"tokens_ns\":[" + digits.substring(0, at) + c + digits.substring(at) + "]}";
        TokensArrayScan s = scanned(line);
        if (c == ',' && digits.charAt(at) == '0') {
          assertEquals(null, s, line); // the second number's leading zero: not JSON
        } else if (c == ',') {
          assertArrayEquals(new long[] {Long.parseLong(digits.substring(0, at)), Long.parseLong(digits.substring(at))},
              Arrays.copyOf(s.values(), s.count()), line);
        } else if (c == ']') {
          // the array ends there; what follows it is Jackson's to judge (the emptied line)
          assertArrayEquals(new long[] {Long.parseLong(digits.substring(0, at))},
              Arrays.copyOf(s.values(), s.count()), line);
        } else {
          assertEquals(null, s, line);
        }
      }
    }
    for (long word : new long[] {0x3939393939393939L, 0x3030303030303030L}) {
      assertTrue(TokensArrayScan.eightDigits(word));
    }
    assertEquals(99999999L, TokensArrayScan.eightDigitsValue(0x3939393939393939L));
    assertEquals(12345678L, TokensArrayScan.eightDigitsValue(0x3837363534333231L));
    for (long word : new long[] {0x3A30303030303030L, 0x302F303030303030L, 0x3030303030303040L, 0xB030303030303030L}) {
      assertFalse(TokensArrayScan.eightDigits(word), Long.toHexString(word));
    }
  }

  @Test
  void leavesEverythingElseToJackson() {
    for (String line : List.of(
        "{\"request_id\":\"a\"}",                               // no tokens_ns
        "{\"tokens_ns\":null}",                                 // not an array
        "{\"tokens_ns\":[1,-2]}",                               // a sign
        "{\"tokens_ns\":[1.5]}",                                // a fraction
        "{\"tokens_ns\":[1e9]}",                                // an exponent
        "{\"tokens_ns\":[1E9]}",
        "{\"tokens_ns\":[01]}",                                 // a leading zero
        "{\"tokens_ns\":[9223372036854775808]}",                // beyond a long
        "{\"tokens_ns\":[99999999999999999999]}",
        "{\"tokens_ns\":[\"1\"]}",                              // a string
        "{\"tokens_ns\":[1,]}",                                 // a trailing comma
        "{\"tokens_ns\":[1 2]}",                                // no comma
        "{\"tokens_ns\":[1,2",                                  // truncated
        "{\"tokens_ns\":[",
        "{\"tokens_ns\"",
        "{\"x\":\"\\\"tokens_ns\",\"tokens_ns\":[1]}")) {       // first match is inside a string
      assertEquals(null, scanned(line), line);
    }
  }

  @Test
  void jacksonConfirmsTheKeyBeforeTheValuesAreUsed() {
    CanonicalRecord rec = new CanonicalRecord(new ParseContext("t.jsonl", "dir-run", false, null, null), new CollectingSink());
    TokensArrayScan scan = new TokensArrayScan();
    byte[] good = padded("{\"request_id\":\"a\",\"tokens_ns\":[10,20]}").getBytes(StandardCharsets.UTF_8);
    rec.reset(1);
    assertTrue(TokentimeJsonlFormat.readScanned(scan, good, 0, good.length, rec));
    // Jackson counts byte offsets: text of several bytes a character before the array
    byte[] utf8 = padded("{\"request_id\":\"ünïcödé €\",\"tokens_ns\":[10,20]}").getBytes(StandardCharsets.UTF_8);
    rec.reset(4);
    assertTrue(TokentimeJsonlFormat.readScanned(scan, utf8, 0, utf8.length, rec));
    // the first match is a key named "tokens_ns (with the quote): the scan reads its array, Jackson
    // finds another field there, and the line goes the slow way
    byte[] other = padded("{\"request_id\":\"b\",\"\\\"tokens_ns\":[1,2],\"tokens_ns\":[40]}").getBytes(StandardCharsets.UTF_8);
    rec.reset(2);
    assertTrue(scan.scan(other, 0, other.length));
    assertFalse(TokentimeJsonlFormat.readScanned(scan, other, 0, other.length, rec));
    // short lines are Jackson's alone
    byte[] shortLine = "{\"request_id\":\"a\",\"tokens_ns\":[10,20]}".getBytes(StandardCharsets.UTF_8);
    rec.reset(3);
    assertFalse(TokentimeJsonlFormat.readScanned(scan, shortLine, 0, shortLine.length, rec));
  }

  // ---- the same records either way ----

  static CollectingSink parse(boolean scan, String input) throws IOException {
    CollectingSink sink = new CollectingSink();
    InputStream in = new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8));
    long lines = new TokentimeJsonlFormat(scan).parse(in, new ParseContext("t.jsonl", "dir-run", false, null, null), sink);
    assertEquals(lines, sink.records + sink.other + sink.rejects.size(), "lines reconcile");
    return sink;
  }

  static void assertSameEitherWay(String input) throws IOException {
    CollectingSink fast = parse(true, input);
    CollectingSink slow = parse(false, input);
    assertEquals(slow.requests, fast.requests);
    assertEquals(slow.tokens, fast.tokens);
    assertEquals(slow.rejects, fast.rejects);
    assertEquals(slow.records, fast.records);
    assertEquals(slow.other, fast.other);
  }

  @Test
  void trickyLinesReadAsJacksonAloneReadsThem() throws IOException {
    String input = String.join("\n", Stream.of(
        "{\"request_id\":\"a\",\"tokens_ns\":[10,20,30],\"output_tokens\":3}",
        // a key that only contains the name: Jackson sees another field, the scan is not used
        "{\"request_id\":\"b\",\"\\\"tokens_ns\":[1,2],\"tokens_ns\":[40,50]}",
        // the name inside a string value before the real key
        "{\"request_id\":\"c\",\"error\":\"x \\\"tokens_ns\\\":[7] y\",\"tokens_ns\":[60]}",
        // the key twice: rejected, on either path (which array would be meant?)
        "{\"request_id\":\"d\",\"tokens_ns\":[1,2],\"tokens_ns\":[3]}",
        // bad values: the slow path's reasons
        "{\"request_id\":\"e\",\"tokens_ns\":[1,-2]}",
        "{\"request_id\":\"f\",\"tokens_ns\":[1,2.5]}",
        "{\"request_id\":\"g\",\"tokens_ns\":[9223372036854775808]}",
        "{\"request_id\":\"h\",\"tokens_ns\":[01]}",
        // a good array in a line broken elsewhere
        "{\"request_id\":\"i\",\"tokens_ns\":[1,2],\"x\":}",
        "{\"request_id\":\"j\",\"tokens_ns\":[1,2]} {}",
        "{\"request_id\":\"k\",\"tokens_ns\":[1,2],\"tokens_n\":[1]}",
        "{\"tokens_ns\":[5,6]}",
        "[{\"request_id\":\"l\",\"tokens_ns\":[1]}]",
        "{\"request_id\":\"m\",\"tokens_ns\":[3,2,1]}",
        "{\"request_id\":\"n\",\"tokens_ns\":[1,2,3]",
        "").map(TokensArrayScanTest::padded).toList());
    CollectingSink fast = parse(true, input);
    assertEquals(List.of(10L, 20L, 30L, 40L, 50L, 60L),
        fast.tokens.stream().map(CollectingSink.Tok::tsNs).toList());
    assertEquals(List.of(4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L),
        fast.rejects.stream().map(CollectingSink.Rej::lineNo).toList());
    assertEquals("field tokens_ns appears twice", fast.rejects.get(0).reason());
    assertEquals("tokens_ns[1]: negative timestamp -2", fast.rejects.get(1).reason());
    assertEquals("not valid JSON: Invalid numeric value: Leading zeroes not allowed", fast.rejects.get(4).reason());
    assertSameEitherWay(input);
  }

  @Test
  void theBundledSamplesReadTheSameEitherWay() throws IOException {
    StringBuilder b = new StringBuilder();
    for (String f : List.of("c1", "c2", "c4")) {
      b.append(java.nio.file.Files.readString(java.nio.file.Path.of("sample-logs/canonical/" + f + ".jsonl")));
    }
    TokensArrayScan scan = new TokensArrayScan();
    long scanned = b.toString().lines()
        .filter(l -> l.length() >= TokensArrayScan.MIN_LINE && scan.scan(l.getBytes(StandardCharsets.UTF_8), 0, l.length()))
        .count();
    // 36 request lines; the 3 failed requests (tokens_ns [], 312 bytes) are short and Jackson's
    assertEquals(33, scanned, "every request line with tokens takes the scan");
    assertSameEitherWay(b.toString());
  }

  @Test
  void generatedLinesReadTheSameEitherWay() throws IOException {
    Random rnd = new Random(7);
    StringBuilder b = new StringBuilder();
    for (int r = 0; r < 300; r++) {
      b.append("{\"request_id\":\"r").append(r).append("\",\"arrival_ns\":").append(1000L * r);
      if (rnd.nextBoolean()) {
        b.append(",\"pad\":\"").append("y".repeat(TokensArrayScan.MIN_LINE)).append('"');
      }
      int n = rnd.nextInt(40);
      b.append(",\"tokens_ns\":[");
      long t = 1000L * r + rnd.nextInt(1000);
      for (int i = 0; i < n; i++) {
        t += rnd.nextInt(3) == 0 ? 0 : (Math.abs(rnd.nextLong()) >> (rnd.nextInt(63) + 8)) % 1_000_000_000_000_000L;
        b.append(i == 0 ? "" : rnd.nextBoolean() ? ", " : ",").append(t);
      }
      b.append("]");
      if (rnd.nextInt(5) == 0) {
        b.append(",\"output_tokens\":").append(n);
      }
      b.append("}\n");
    }
    CollectingSink fast = parse(true, b.toString());
    assertTrue(fast.tokens.size() > 5000, "tokens: " + fast.tokens.size());
    assertEquals(List.of(), fast.rejects);
    assertFalse(fast.requests.isEmpty());
    assertSameEitherWay(b.toString());
  }
}
