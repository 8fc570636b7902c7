package dev.tokentime.formats.canonical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tokentime-jsonl parser on strings, against an in-memory sink. */
class TokentimeJsonlFormatTest {
  final TokentimeJsonlFormat format = new TokentimeJsonlFormat();

  CollectingSink parse(byte[] input, boolean keepText) throws IOException {
    CollectingSink sink = new CollectingSink();
    long lines = format.parse(new ByteArrayInputStream(input),
        new ParseContext("test.jsonl", "dir-run", keepText, null, null), sink);
    assertEquals(lines, sink.records + sink.other + sink.rejects.size(), "lines reconcile");
    return sink;
  }

  CollectingSink parse(String input) throws IOException {
    return parse(input.getBytes(StandardCharsets.UTF_8), false);
  }

  /** Reasons name the value written and speak to the user, not to a programmer of Jackson. */
  @Test
  void rejectReasonsNameTheValueWrittenAndNoParserSettings() throws IOException {
    CollectingSink s = parse("{\"request_id\":\"a\",\"prompt_tokens\":1e308}\n{\"request_id\":\"b\",\"ttft_ms\":NaN}\n");
    assertEquals("prompt_tokens out of range: 1.0E308 is beyond a 64-bit integer", s.rejects.get(0).reason());
    assertEquals("not valid JSON: Non-standard token 'NaN' (JSON has no NaN or Infinity: write null, or leave the"
        + " field out)", s.rejects.get(1).reason());
  }

  @Test
  void readsARequestWithItsTokens() throws IOException {
    CollectingSink s = parse("{\"request_id\":\"r-17\",\"run\":\"c16\",\"concurrency\":16,\"arrival_ns\":100,"
        + "\"first_token_ns\":200,\"output_tokens\":3,\"tokens_ns\":[200,250,300]}\n");
    assertEquals(1, s.requests.size());
    CollectingSink.Req r = s.requests.get(0);
    assertEquals("c16", r.run());
    assertEquals("r-17", r.id());
    assertEquals(100, r.arrivalNs());
    assertEquals("ok", r.status(), "status defaults to ok");
    assertEquals(List.of(new CollectingSink.Tok(r.key(), 0, 200, 1, ChunkKind.CONTENT),
        new CollectingSink.Tok(r.key(), 1, 250, 1, ChunkKind.CONTENT),
        new CollectingSink.Tok(r.key(), 2, 300, 1, ChunkKind.CONTENT)), s.tokens);
    assertEquals(16.0, s.levels.get("c16")[1]);
  }

  @Test
  void tokenCountsAreUnknownUnlessTheyMatchOrAreGiven() throws IOException {
    CollectingSink s = parse("{\"request_id\":\"a\",\"tokens_ns\":[1,2]}\n"
        + "{\"request_id\":\"b\",\"tokens_ns\":[1,2],\"tokens_n\":[3,4]}\n");
    assertEquals(-1, s.tokens.get(0).nTokens());
    assertEquals(3, s.tokens.get(2).nTokens());
    assertEquals(4, s.tokens.get(3).nTokens());
  }

  @Test
  void readsTokenLinesAndDefaultsTheRunToTheDirectory() throws IOException {
    CollectingSink s = parse("{\"request_id\":\"r\",\"seq\":1,\"ts_ns\":20,\"n_tokens\":2}\n"
        + "\n"
        + "{\"label\":\"x\",\"request_id\":\"r\",\"seq\":0,\"ts_ns\":10,\"chunk_kind\":\"reasoning\"}\n");
    assertEquals(2, s.tokens.size());
    assertEquals(1, s.other, "a blank line is an other line");
    assertEquals(new CollectingSink.Tok(1, 1, 20, 2, ChunkKind.CONTENT), s.tokens.get(0));
    assertEquals(ChunkKind.REASONING, s.tokens.get(1).kind());
    assertEquals(2, s.tokens.get(1).key(), "label x is another run than the directory's");
  }

  @Test
  void aFieldGivenTwiceIsRejectedNotResolvedByPickingOne() throws IOException {
    // Jackson and Python's json keep the last value, other readers the first: the line has no one meaning
    long scanned = 1_000_000_000L;
    StringBuilder longTokens = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      longTokens.append(i == 0 ? "" : ",").append(scanned + 1_000_000L * i);
    }
    CollectingSink s = parse("{\"request_id\":\"a\",\"arrival_ns\":1000,\"arrival_ns\":900}\n"
        + "{\"request_id\":\"b\",\"seq\":0,\"ts_ns\":5,\"seq\":1}\n"
        + "{\"request_id\":\"c\",\"arrival_ns\":900,\"tokens_ns\":[" + longTokens + "],\"tokens_ns\":[" + longTokens + "]}\n"
        + "{\"request_id\":\"d\",\"arrival_ns\":900,\"meta\":{\"k\":1},\"extra\":{\"k\":2}}\n");
    assertEquals(List.of("field arrival_ns appears twice", "field seq appears twice", "field tokens_ns appears twice"),
        s.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertEquals(List.of(1L, 2L, 3L), s.rejects.stream().map(r -> r.lineNo()).toList());
    assertEquals(List.of("d"), s.requests.stream().map(CollectingSink.Req::id).toList(),
        "the same key inside two nested objects is no repeat");
  }

  /** With clock wall, a time before 1990 is seconds or ms written as ns: a reject, not a window of decades. */
  @Test
  void aWallClockTimeBefore1990IsRejected() throws IOException {
    CollectingSink s = parse("{\"request_id\":\"a\",\"clock\":\"wall\",\"arrival_ns\":1767225600000}\n"
        + "{\"request_id\":\"b\",\"clock\":\"wall\",\"tokens_ns\":[1,2]}\n"
        + "{\"request_id\":\"c\",\"clock\":\"wall\",\"seq\":0,\"ts_ns\":5}\n"
        + "{\"request_id\":\"d\",\"arrival_ns\":1767225600000}\n"
        + "{\"request_id\":\"e\",\"clock\":\"steady\",\"arrival_ns\":5}\n");
    assertEquals(List.of("1 arrival_ns out of range: 1767225600000 ns is not a wall-clock time between 1990 and 2100"
        + " (clock: wall; seconds or ms written as ns?)", "2 tokens_ns[0] out of range: 1 ns is not a wall-clock time"
        + " between 1990 and 2100 (clock: wall; seconds or ms written as ns?)", "3 ts_ns out of range: 5 ns is not a"
        + " wall-clock time between 1990 and 2100 (clock: wall; seconds or ms written as ns?)"),
        s.rejects.stream().map(r -> r.lineNo() + " " + r.reason()).toList());
    assertEquals(List.of("d", "e"), s.requests.stream().map(CollectingSink.Req::id).toList(),
        "a clock left unsaid, or a steady one, may start at 0");
  }

  @Test
  void rejectsBadLinesWithTheirLineNumberAndReason() throws IOException {
    String good = "{\"request_id\":\"ok\",\"arrival_ns\":1}\n";
    CollectingSink s = parse(good
        + "{\"request_id\":\"a\",\"arrival_ns\":\"yesterday\"}\n"
        + "this is not json\n"
        + "{\"request_id\":\"b\",\"arrival_ns\":5,\"first_token_ns\":4}\n"
        + "{\"request_id\":\"c\",\"tokens_ns\":[5,4]}\n"
        + "{\"arrival_ns\":5}\n"
        + "{\"request_id\":\"d\",\"tokens_ns\":[1,\"x\"]}\n"
        + "[1,2]\n"
        + "{\"request_id\":\"e\"} {\"request_id\":\"f\"}\n"
        + "{\"request_id\":\"g\",\"status\":\"fine\"}\n"
        + "{\"request_id\":\"h\",\"seq\":0,\"ts_ns\":1,\"arrival_ns\":3}\n"
        + "{\"request_id\":\"i\",\"arrival_ns\":-3}\n"
        + "{\"request_id\":\"j\",\"arrival_ns\":1.5}\n"
        + "{\"request_id\":\"k\",\"arrival_ns\":99999999999999999999999}\n"
        + "{\"request_id\":\"m\",\"tokens_ns\":[1,99999999999999999999]}\n"
        + "{\"request_id\":\"n\",\"seq\":1000000000000,\"ts_ns\":1}\n"
        + "{\"request_id\":\"l\",\"arrival_ns\":1");
    List<String> reasons = s.rejects.stream().map(r -> r.lineNo() + " " + r.reason()).toList();
    assertEquals(List.of(
        "2 arrival_ns: expected an integer (ns), got \"yesterday\"",
        "3 not valid JSON: Unrecognized token 'this': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')",
        "4 timestamps decrease: first_token_ns (4) is before arrival_ns (5)",
        "5 timestamps decrease: tokens_ns[1] (4) is before tokens_ns[0] (5)",
        "6 request_id is missing",
        "7 tokens_ns[1]: expected an integer (ns), got \"x\"",
        "8 not a JSON object",
        "9 more than one JSON value on the line",
        "10 status: expected ok, error, cancelled or lost, got \"fine\"",
        "11 a token line (ts_ns, seq) cannot carry the request field arrival_ns",
        "12 arrival_ns: negative timestamp -3",
        "13 arrival_ns: expected an integer (ns), got 1.5",
        "14 arrival_ns out of range: 99999999999999999999999 (more than a 64-bit integer holds)",
        "15 tokens_ns[1] out of range: 99999999999999999999 (more than a 64-bit integer holds)",
        "16 seq out of range: 1000000000000 (at most 2147483647)",
        "17 truncated JSON: the line ends inside the record"), reasons);
    assertEquals(1, s.requests.size());
  }

  @Test
  void rejectsInvalidUtf8() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes("{\"request_id\":\"ok\",\"arrival_ns\":1}\n".getBytes(StandardCharsets.UTF_8));
    b.writeBytes("{\"request_id\":\"".getBytes(StandardCharsets.UTF_8));
    b.write(0xC3);
    b.write(0x28); // an invalid 2-byte sequence
    b.writeBytes("\",\"arrival_ns\":2}\n".getBytes(StandardCharsets.UTF_8));
    CollectingSink s = parse(b.toByteArray(), false);
    assertEquals(1, s.rejects.size());
    assertEquals(2, s.rejects.get(0).lineNo());
    assertTrue(s.rejects.get(0).reason().startsWith("invalid UTF-8"), s.rejects.get(0).reason());
  }

  /**
   * Forms Jackson's decoder lets through (the adversarial review): an overlong "/" (C0 AF, E0 80
   * AF) was stored as "/", an overlong key "ru\xC1\xAEn" read as "run", a code point past
   * U+10FFFF as "??"; each is a reject naming the byte, on the fast path (a long tokens_ns array)
   * as on Jackson's, and a well-formed multibyte id stays as written.
   */
  @Test
  void utf8ThatJacksonWouldAcceptMalformedIsRejected() throws IOException {
    StringBuilder ts = new StringBuilder("1");
    for (int i = 2; i <= 300; i++) {
      ts.append(',').append(i);
    }
    String[][] cases = {{"{\"request_id\":\"c1-", "\",\"arrival_ns\":1}"},
        {"{\"request_id\":\"c1-", "\",\"arrival_ns\":1,\"tokens_ns\":[" + ts + "]}"}};
    int[][] bad = {{0xC0, 0xAF}, {0xE0, 0x80, 0xAF}, {0xF4, 0x90, 0x80, 0x80}};
    for (String[] c : cases) {
      for (int[] seq : bad) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(c[0].getBytes(StandardCharsets.UTF_8));
        for (int x : seq) {
          b.write(x);
        }
        b.writeBytes((c[1] + "\n").getBytes(StandardCharsets.UTF_8));
        CollectingSink s = parse(b.toByteArray(), false);
        assertEquals(List.of("invalid UTF-8 at byte 19"), s.rejects.stream().map(r -> r.reason()).toList(), c[1]);
      }
    }
    ByteArrayOutputStream key = new ByteArrayOutputStream();
    key.writeBytes("{\"request_id\":\"a\",\"arrival_ns\":1,\"ru".getBytes(StandardCharsets.UTF_8));
    key.write(0xC1);
    key.write(0xAE);
    key.writeBytes("\":\"x\"}\n".getBytes(StandardCharsets.UTF_8));
    assertEquals(1, parse(key.toByteArray(), false).rejects.size());
    CollectingSink ok = parse("{\"request_id\":\"c1-\u00e9\u4e2d\ud83d\ude00\",\"arrival_ns\":1}\n".getBytes(StandardCharsets.UTF_8), false);
    assertEquals(List.of(), ok.rejects);
    assertEquals("c1-\u00e9\u4e2d\ud83d\ude00", ok.requests.get(0).id());
  }

  /**
   * A record's level follows --level's rule (the adversarial review): a concurrency of 2.5 or
   * 1e18 and a rate of 1e308 (printed as 9223372036854775807) were run levels.
   */
  @Test
  void aRecordsLevelIsRangeCheckedAsTheCommandLinesIs() throws IOException {
    CollectingSink s = parse("{\"request_id\":\"a\",\"run\":\"x\",\"concurrency\":2.5,\"arrival_ns\":1}\n"
        + "{\"request_id\":\"b\",\"run\":\"y\",\"concurrency\":1e18,\"arrival_ns\":1}\n"
        + "{\"request_id\":\"c\",\"run\":\"z\",\"request_rate\":1e308,\"arrival_ns\":1}\n"
        + "{\"request_id\":\"d\",\"run\":\"w\",\"request_rate\":0.5,\"arrival_ns\":1}\n");
    assertEquals(List.of("concurrency: concurrency must be a whole number of requests, 1 or more, got 2.5",
        "concurrency: concurrency of at most 10,000,000, got 1.0E18",
        "request_rate: a request rate of at most 10,000,000, got 1.0E308"),
        s.rejects.stream().map(r -> r.reason()).toList());
    assertEquals(List.of("d"), s.requests.stream().map(r -> r.id()).toList());
  }

  @Test
  void tokenLinesMayArriveOutOfOrderButNotDecreaseOrRepeat() throws IOException {
    CollectingSink s = parse("{\"request_id\":\"r\",\"seq\":0,\"ts_ns\":10}\n"
        + "{\"request_id\":\"r\",\"seq\":2,\"ts_ns\":30}\n"
        + "{\"request_id\":\"r\",\"seq\":1,\"ts_ns\":20}\n"
        + "{\"request_id\":\"r\",\"seq\":1,\"ts_ns\":20}\n"
        + "{\"request_id\":\"r\",\"seq\":3,\"ts_ns\":25}\n"
        + "{\"request_id\":\"r\",\"ts_ns\":40}\n");
    assertEquals(3, s.tokens.size());
    assertEquals(List.of(
        "4 duplicate token: seq 1 of this request was already read",
        "5 timestamps decrease: seq 3 (ts_ns 25) is before seq 2 (ts_ns 30)",
        "6 token line without seq"),
        s.rejects.stream().map(r -> r.lineNo() + " " + r.reason()).toList());
  }

  @Test
  void dropsTextUnlessAskedAndKeepsOtherFieldsAsExtras() throws IOException {
    String line = "{\"request_id\":\"r\",\"prompt\":\"my secret\",\"model\":\"llama\",\"tp\":2,"
        + "\"params\":{\"max_tokens\":64},\"arrival_ns\":\"17\"}\n";
    CollectingSink s = parse(line);
    assertEquals(17, s.requests.get(0).arrivalNs(), "numbers in strings are accepted");
    assertEquals(java.util.Map.of("model", "llama", "tp", "2", "params", "{\"max_tokens\":64}"),
        s.requests.get(0).extras());
    CollectingSink kept = parse(line.getBytes(StandardCharsets.UTF_8), true);
    assertEquals("my secret", kept.requests.get(0).extras().get("prompt"));
  }

  @Test
  void conflictingLevelsOfOneRunAreRejected() throws IOException {
    CollectingSink s = parse("{\"request_id\":\"a\",\"run\":\"x\",\"concurrency\":4}\n"
        + "{\"request_id\":\"b\",\"run\":\"x\",\"concurrency\":8}\n"
        + "{\"request_id\":\"c\",\"run\":\"x\",\"concurrency\":4,\"request_rate\":2}\n");
    assertEquals(List.of("conflict", "a record has either concurrency or request_rate, not both"),
        s.rejects.stream().map(CollectingSink.Rej::reason).toList());
  }

  @Test
  void readsStepsStatsAndEventsLines() throws IOException {
    CollectingSink s = parse("{\"table\":\"steps\",\"iter\":7,\"ts_ns\":1000,\"duration_ms\":12.5,"
        + "\"ctx_requests\":1,\"ctx_tokens\":512,\"gen_requests\":3,\"gen_tokens\":3,\"kv_blocks\":40}\n"
        + "{\"table\":\"engine_stats\",\"ts_ns\":2000,\"running\":4,\"waiting\":2,\"kv_usage\":0.5,\"mfu\":0.3}\n"
        + "{\"table\":\"engine_events\",\"ts_ns\":3000,\"kind\":\"restart\",\"detail\":\"oom\"}\n"
        + "{\"table\":\"steps\",\"iter\":\"x\"}\n"
        + "{\"table\":\"steps\",\"run\":\"other\",\"iter\":1}\n"
        + "{\"table\":\"gpus\"}\n");
    assertEquals(List.of("iter=7 epoch=0 rank=null ts=1000 dur=12.5 running=null waiting=null ctx=1/512"
        + " gen=3/3 paused=null kv=null extras={kv_blocks=40.0}"), s.steps);
    assertEquals(List.of("line=2 ts=2000 running=4 waiting=2 swapped=null prompt=null gen=null kv=0.5"
        + " prefix=null preempt=null extras={mfu=0.3}"), s.stats);
    assertEquals(List.of("3 restart oom"), s.events);
    assertEquals(List.of("4 iter: expected an integer, got \"x\"",
        "5 steps rows belong to the file's run (dir-run); this line says run \"other\" (use --run or another file)",
        "6 table: expected steps, engine_stats or engine_events, got \"gpus\""),
        s.rejects.stream().map(r -> r.lineNo() + " " + r.reason()).toList());
  }

  @Test
  void sniffsCanonicalLinesOnly() {
    assertEquals(90, format.sniff(sample("{\"table\":\"steps\",\"iter\":1}\n")));
    assertEquals(90, format.sniff(sample("{\"request_id\":\"a\",\"tokens_ns\":[1]}\n")));
    assertEquals(90, format.sniff(sample("{\"request_id\":\"a\",\"seq\":0,\"ts_ns\":1}\n")));
    assertEquals(0, format.sniff(sample("{\"metadata\":{\"x_request_id\":\"a\"},\"metrics\":{}}\n")));
    assertEquals(0, format.sniff(sample("request_id,seq,ts_ns\n")));
    assertNull(null);
  }

  static Sample sample(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return new Sample("x.jsonl", b, b.length);
  }
}
