package dev.tokentime.formats.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pieces of one long line joined before matching: CRI's P lines, docker json-file's records whose
 * log text does not end in a newline. The joined line is numbered as its last piece; the other
 * pieces are partial (other) lines; streams are joined apart.
 */
class PartialLinesTest {
  private final List<String> out = new ArrayList<>();

  private PartialLines joiner() {
    return new PartialLines(new PartialLines.Sink() {
      @Override
      public void line(long lineNo, byte[] buf, int off, int len) {
        out.add(lineNo + " " + new String(buf, off, len, StandardCharsets.UTF_8));
      }

      @Override
      public void tooLong(long lineNo, long length, byte[] head, int headLen) {
        out.add(lineNo + " too long " + length);
      }

      @Override
      public void partial(long lineNo) {
        out.add(lineNo + " partial");
      }
    });
  }

  private void feed(PartialLines p, String... lines) throws IOException {
    for (int i = 0; i < lines.length; i++) {
      byte[] b = lines[i].getBytes(StandardCharsets.UTF_8);
      p.line(i + 1, b, 0, b.length);
    }
    p.end();
  }

  @Test
  void dockerJsonRecordsOfOneLineAreJoinedIntoTheFirstRecord() throws IOException {
    feed(joiner(),
        "{\"log\":\"INFO a \\\"q\\\" \",\"stream\":\"stdout\",\"time\":\"2025-08-12T02:00:01.1Z\"}",
        "{\"log\":\"err \",\"stream\":\"stderr\",\"time\":\"2025-08-12T02:00:01.2Z\"}",
        "{\"log\":\"b\\\\\",\"stream\":\"stdout\",\"time\":\"2025-08-12T02:00:01.3Z\"}",
        "{\"log\":\"c.\\n\",\"stream\":\"stdout\",\"time\":\"2025-08-12T02:00:01.4Z\"}",
        "{\"log\":\"whole\\n\",\"stream\":\"stdout\",\"time\":\"2025-08-12T02:00:01.5Z\"}",
        "{\"log\":\"end\\n\",\"stream\":\"stderr\",\"time\":\"2025-08-12T02:00:01.6Z\"}");
    assertEquals(List.of(
        "1 partial",
        "3 partial",
        "4 {\"log\":\"INFO a \\\"q\\\" b\\\\c.\\n\",\"stream\":\"stdout\",\"time\":\"2025-08-12T02:00:01.1Z\"}",
        "5 {\"log\":\"whole\\n\",\"stream\":\"stdout\",\"time\":\"2025-08-12T02:00:01.5Z\"}",
        "2 partial",
        "6 {\"log\":\"err end\\n\",\"stream\":\"stderr\",\"time\":\"2025-08-12T02:00:01.2Z\"}"), out);
  }

  @Test
  void anEscapedBackslashBeforeNIsNoNewlineAndPiecesLeftAtTheEndAreEmitted() throws IOException {
    feed(joiner(),
        "{\"log\":\"path C:\\\\n\",\"stream\":\"stdout\",\"time\":\"2025-08-12T02:00:01Z\"}",
        "{\"log\":\"ext\",\"stream\":\"stdout\",\"time\":\"2025-08-12T02:00:02Z\"}");
    assertEquals(List.of("1 partial",
        "2 {\"log\":\"path C:\\\\next\",\"stream\":\"stdout\",\"time\":\"2025-08-12T02:00:01Z\"}"), out);
  }

  /**
   * Fluentd's and Fluent Bit's records of a CRI log read by their cri parser keep the piece's flag
   * ("logtag":"P" / "_p":"P"): a stream's P records are joined with the F record after them into
   * the first record, its text every piece's, numbered as the last; the earlier pieces are partial.
   * Before, each piece was a line of its own: a vLLM line split so was a truncated reject and the
   * rest of it an other line. The published shape: fluent/fluent-plugin-parser-cri's README, both
   * records after Fluentd's stdout prefix (real-logs/wrapped/fluentd-cri-parser-logtag-pieces.log).
   */
  @Test
  void criParsedRecordsFlaggedPartialAreJoined() throws IOException {
    List<String> real = java.nio.file.Files.readAllLines(
        java.nio.file.Path.of("src/test/resources/real-logs/wrapped/fluentd-cri-parser-logtag-pieces.log"));
    feed(joiner(), real.toArray(String[]::new));
    assertEquals(List.of("1 partial", "2 2020-10-10 09:10:00.333333333 +0900 cri: {\"stream\":\"stdout\",\"logtag\":\"F\","
        + "\"message\":\"This is first lineThis is last line\",\"time\":\"2020-10-10T00:10:00.333333333Z\"}"), out);
    out.clear();
    // Fluent Bit's records one a line ("_p", the text under "log"), two streams interleaved, a
    // whole record between the pieces, a piece left at the end
    feed(joiner(),
        "{\"time\":\"2025-08-12T02:00:01.1Z\",\"stream\":\"stdout\",\"_p\":\"P\",\"log\":\"INFO a \\\"q\\\" \",\"kubernetes\":{\"pod_name\":\"v-0\"}}",
        "{\"time\":\"2025-08-12T02:00:01.2Z\",\"stream\":\"stderr\",\"_p\":\"P\",\"log\":\"err \"}",
        "{\"time\":\"2025-08-12T02:00:01.3Z\",\"stream\":\"stdout\",\"_p\":\"F\",\"log\":\"b\"}",
        "{\"time\":\"2025-08-12T02:00:01.4Z\",\"stream\":\"stdout\",\"_p\":\"F\",\"log\":\"whole\"}",
        "{\"time\":\"2025-08-12T02:00:01.5Z\",\"stream\":\"stderr\",\"_p\":\"P\",\"log\":\"cut\"}");
    assertEquals(List.of(
        "1 partial",
        "3 {\"time\":\"2025-08-12T02:00:01.1Z\",\"stream\":\"stdout\",\"_p\":\"F\",\"log\":\"INFO a \\\"q\\\" b\","
            + "\"kubernetes\":{\"pod_name\":\"v-0\"}}",
        "4 {\"time\":\"2025-08-12T02:00:01.4Z\",\"stream\":\"stdout\",\"_p\":\"F\",\"log\":\"whole\"}",
        "2 partial",
        "5 {\"time\":\"2025-08-12T02:00:01.2Z\",\"stream\":\"stderr\",\"_p\":\"F\",\"log\":\"err cut\"}"), out);
  }

  @Test
  void otherJsonAndCriLinesPassAsBefore() throws IOException {
    feed(joiner(),
        "{\"request_id\":\"r1\"}",
        "2025-08-12T02:00:01Z stdout P INFO a",
        "2025-08-12T02:00:01Z stdout F bc");
    assertEquals(List.of("1 {\"request_id\":\"r1\"}", "2 partial", "3 2025-08-12T02:00:01Z stdout P INFO abc"), out);
  }

  /**
   * GitLab's runner marks a piece that continues the line before it with "+" after its stream
   * ("TS 00O+text"): each runner line is held until the next shows whether it goes on; pieces are
   * joined per stream, numbered as the last, earlier pieces partial. Before, each piece was a line
   * of its own (a vLLM line split so was read as two near misses).
   */
  @Test
  void gitlabContinuationsAreJoinedToTheLineBefore() throws IOException {
    feed(joiner(),
        "2024-06-12T10:27:13.765080Z 00O INFO a",
        "2024-06-12T10:27:13.765090Z 00O+bc",
        "2024-06-12T10:27:13.765095Z 00O+d",
        "2024-06-12T10:27:13.765100Z 00O whole",
        "2024-06-12T10:27:13.765110Z 01E+other stream",
        "{\"request_id\":\"r1\"}",
        "2024-06-12T10:27:13.765120Z 00O last");
    assertEquals(List.of(
        "1 partial",
        "2 partial",
        "3 2024-06-12T10:27:13.765080Z 00O INFO abcd",
        "4 2024-06-12T10:27:13.765100Z 00O whole",
        "5 2024-06-12T10:27:13.765110Z 01E+other stream",
        "6 {\"request_id\":\"r1\"}",
        "7 2024-06-12T10:27:13.765120Z 00O last"), out);
    // a published trace (real-logs/wrapped/gitlab-runner-trace-continuation.log)
    out.clear();
    List<String> real = java.nio.file.Files.readAllLines(
        java.nio.file.Path.of("src/test/resources/real-logs/wrapped/gitlab-runner-trace-continuation.log"));
    feed(joiner(), real.toArray(String[]::new));
    assertEquals(List.of("1 " + real.get(0), "2 " + real.get(1), "3 partial",
        "4 2026-01-21T09:47:05.094269Z 00O section_start:1768988825:prepare_executor[0K[0K[36;1mPreparing the"
            + " \"docker+machine\" executor[0;m[0;m",
        "5 " + real.get(4)), out);
  }
}
