package dev.tokentime.formats.sglang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import dev.tokentime.ingest.StepRecord;
import dev.tokentime.testing.RecordingSink;
import dev.tokentime.testing.TestDb;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sglang-log on real excerpts of SGLang 0.3 → 0.5.10 (src/test/resources/real-logs/sglang,
 * PROVENANCE.md there) and on sample-logs/sglang-server, whose numbers expected/make_sample.py wrote.
 */
class SglangLogFormatTest {
  static final Path REAL = Path.of("src/test/resources/real-logs/sglang");
  static final Path SAMPLE = Path.of("sample-logs/sglang-server");

  @TempDir
  Path tmp;

  static ParseContext ctx() {
    return new ParseContext("test.log", "r1", false, null, null, Instant.parse("2026-12-31T00:00:00Z"), null);
  }

  static RecordingSink parse(String text) throws IOException {
    return parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
  }

  static RecordingSink parse(InputStream in) throws IOException {
    RecordingSink s = new RecordingSink();
    long lines = new SglangLogFormat().parse(in, ctx(), s);
    assertEquals(lines, s.c.records + s.c.other + s.c.rejects.size(), "lines = records + other + rejects");
    return s;
  }

  static RecordingSink real(String file) throws IOException {
    try (InputStream in = Files.newInputStream(REAL.resolve(file))) {
      return parse(in);
    }
  }

  @Test
  void everyRealExcerptIsSniffedAndReadWithoutRejects() throws IOException {
    FormatRegistry reg = FormatRegistry.standard();
    try (Stream<Path> files = Files.list(REAL)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".log")).toList()) {
        byte[] b = Files.readAllBytes(f);
        assertEquals("sglang-log", reg.sniff(new Sample(f.getFileName().toString(), b, b.length)).id(), f.toString());
        RecordingSink s = parse(new ByteArrayInputStream(b));
        assertEquals(List.of(), s.c.rejects, f.toString());
        assertTrue(s.c.records > 0, f.toString());
      }
    }
  }

  /**
   * PD prefill lines a terminal wrapped at 120 and at 80 columns inside their last number
   * (constructed/hard-wrap-pieces): the pieces before the last already end as a whole line
   * ("… (token/s): 12345.6"), and the throughput was stored short (12345.6, 23456.7) with its last
   * digit an other line. The wrap goes on while the next line continues the list; a progress bar
   * and a bare print after a line that ends whole are no part of it.
   */
  @Test
  void aWrapInsideTheLastNumberIsJoinedWhole() throws IOException {
    RecordingSink s;
    try (InputStream in = Files.newInputStream(
        Path.of("src/test/resources/constructed/hard-wrap-pieces/sgl-pd-prefill-wrapped-inside-throughput-w120-w80.log"))) {
      s = parse(in);
    }
    assertEquals(List.of(), s.c.rejects);
    assertEquals(List.of(1L, 4L, 8L, 12L), s.steps.stream().map(x -> x.lineNo).toList());
    assertEquals(java.util.Arrays.asList(12345.67, 23456.78, 3456.78, null),
        s.steps.stream().map(x -> x.extras.get("input_tokens_per_s")).toList());
    assertEquals(List.of(8, 9, 3, 4), s.steps.stream().map(x -> x.ctxRequests).toList());
    assertEquals(List.of(0, 0, 2, 1), s.steps.stream().map(x -> x.waiting).toList());
    assertEquals(List.of(0.0, 0.0, 0.0), s.steps.subList(0, 3).stream().map(x -> x.extras.get("inflight_req")).toList());
    assertEquals(10, s.c.other, "the 8 pieces after a first, the progress bar, the bare print");
  }

  /** A batch's Receive line opens a request per rid (only the first was), and a batch sent again is a reject. */
  @Test
  void aBatchsReceiveLineOpensEachOfItsRequests() throws IOException {
    RecordingSink s = real("v049-receive-batch-six-rids-i8089.log");
    assertEquals(6, s.requests.size());
    assertTrue(s.requests.stream().allMatch(r -> r.requestId.startsWith("1846246021_") && r.arrivalNs == s.requests.get(0).arrivalNs),
        s.requests.toString());
    String line = Files.readString(REAL.resolve("v049-receive-batch-six-rids-i8089.log"));
    RecordingSink twice = parse(line + line.replace("14:43:09", "14:43:19"));
    assertEquals(6, twice.requests.size());
    assertEquals(List.of(2L), twice.c.rejects.stream().map(r -> r.lineNo()).toList());
  }

  /**
   * SGLang 0.1 (January to July 2024): its prefill "new fill batch." lines of dot-separated fields
   * and its bare decode sample are steps (the file was sniffed as vLLM's and nothing read).
   */
  @Test
  void version01BatchLinesAreSteps() throws IOException {
    RecordingSink s = real("v01-newfill-decode-access-i393.log");
    assertEquals(List.of(4L, 5L, 6L, 9L, 10L, 11L), s.steps.stream().map(x -> x.lineNo).toList());
    StepRecord p = s.steps.get(3);
    assertEquals(List.of(1, 353, 3, 1), java.util.Arrays.asList(p.ctxRequests, p.ctxTokens, p.running, p.waiting));
    assertEquals(17.0, p.extras.get("cached_tokens"));
    assertEquals(0.8082, p.extras.get("cache_hit_rate"), 1e-9);
    StepRecord d = s.steps.get(5);
    assertEquals(List.of(5, 0), java.util.Arrays.asList(d.genRequests, d.waiting));
    assertEquals(0.24, d.kvUsage, 1e-9);
    assertEquals(1938.0, d.extras.get("kv_tokens"));
    assertEquals(0, real("v01-newfill-traceback-i55.log").steps.get(0).running);
    // PR #119 before its merge: the hit rates, the FSM cache's with them, before the queue counts
    RecordingSink fsm = real("v01-newfill-fsm-cache-premerge-pr119.log");
    assertEquals(1, fsm.steps.size());
    StepRecord f = fsm.steps.get(0);
    assertEquals(List.of(1, 18, 0, 0), java.util.Arrays.asList(f.ctxRequests, f.ctxTokens, f.running, f.waiting));
    assertEquals(2510.0, f.extras.get("cached_tokens"));
    assertEquals(0.6218, f.extras.get("cache_hit_rate"), 1e-9);
    assertEquals(0.3333, f.extras.get("fsm_cache_hit_rate"), 1e-9);
    assertEquals(15.73, f.extras.get("fsm_cache_avg_init_s"), 1e-9);
  }

  private static final String DECODE = "] Decode batch. #running-req: 1, #token: 4078, token usage: 0.00, "
      + "gen throughput (token/s): 447.31, #queue-req: 0\n";

  private static long ns(String instant) {
    return Instant.parse(instant).toEpochMilli() * 1_000_000L;
  }

  /**
   * A time of day alone passes midnight: the next day. A line written just before midnight and
   * logged just after one written after it stays on its day (it added a day for good, before);
   * a line 13 hours after the one before stays on the same day.
   */
  @Test
  void timeOnlyHeadersPassMidnightOnceEvenOutOfOrder() throws IOException {
    StringBuilder log = new StringBuilder();
    for (String t : List.of("08:00:00", "21:00:00", "23:59:58", "00:00:01", "23:59:59", "00:00:02", "00:00:03")) {
      log.append('[').append(t).append(" TP0").append(DECODE);
    }
    RecordingSink s = parse(log.toString());
    assertEquals(List.of(), s.c.rejects);
    // the file's time is 2026-12-31 00:00 UTC: the first line, later in the day, is of the day before
    assertEquals(List.of(ns("2026-12-30T08:00:00Z"), ns("2026-12-30T21:00:00Z"), ns("2026-12-30T23:59:58Z"),
        ns("2026-12-31T00:00:01Z"), ns("2026-12-30T23:59:59Z"), ns("2026-12-31T00:00:02Z"), ns("2026-12-31T00:00:03Z")),
        s.steps.stream().map(x -> x.tsNs).toList());
  }

  /** A time of day before the file's first dated line is at or before that line: 23:59:50 of the day before. */
  @Test
  void aTimeOfDayBeforeTheFirstDatedLineIsBeforeIt() throws IOException {
    RecordingSink s = parse("[23:59:50 TP0" + DECODE + "[2025-03-10 00:00:05 TP0" + DECODE + "[00:00:09 TP0" + DECODE);
    assertEquals(List.of(ns("2025-03-09T23:59:50Z"), ns("2025-03-10T00:00:05Z"), ns("2025-03-10T00:00:09Z")),
        s.steps.stream().map(x -> x.tsNs).toList());
  }

  /**
   * A build of July 2025 ends its batch lines with ", timestamp: <local ISO time, µs>" (the shape
   * of a public excerpt whose repository has no known licence: written here by hand). Every line
   * was rejected ("field timestamp_2: -7.0 is not a non-negative number"): the time is now the
   * step's time, to the µs, and a date or time in a field no spec names is dropped, not read as
   * numbers.
   */
  @Test
  void aBatchLinesOwnTimestampIsTheStepsTime() throws IOException {
    RecordingSink s = parse("[2025-07-18 15:32:52 TP0] Prefill batch. #new-seq: 1, #new-token: 2192, #cached-token: 35,"
        + " #token: 35, token usage: 0.00, #running-req: 0, #queue-req: 0, timestamp: 2025-07-18T15:32:52.498932\n"
        + "[2025-07-18 15:32:54 TP0] Decode batch. #running-req: 1, #token: 2266, token usage: 0.00, cuda graph: True,"
        + " gen throughput (token/s): 3.13, #queue-req: 0, timestamp: 2025-07-18T15:32:54.159394\n"
        + "[2025-07-18 15:32:55 TP0] Decode batch. #running-req: 1, #token: 2306, token usage: 0.00,"
        + " logged at: 2025-07-18 15:32:55, #queue-req: 0\n");
    assertEquals(List.of(), s.c.rejects);
    assertEquals(List.of(ns("2025-07-18T15:32:52Z") + 498_932_000L, ns("2025-07-18T15:32:54Z") + 159_394_000L,
        ns("2025-07-18T15:32:55Z")), s.steps.stream().map(x -> x.tsNs).toList());
    assertEquals(List.of(2192, 35.0, 35.0), List.of(s.steps.get(0).ctxTokens, s.steps.get(0).extras.get("cached_tokens"),
        s.steps.get(0).extras.get("kv_tokens")));
    assertEquals(List.of(1, 2266.0, 0), List.of(s.steps.get(1).genRequests, s.steps.get(1).extras.get("kv_tokens"),
        s.steps.get(1).waiting));
    assertTrue(s.steps.get(2).extras.keySet().stream().noneMatch(k -> k.startsWith("logged_at")), s.steps.get(2).extras.toString());
    // cut inside its timestamp: truncated, never a step at the header's time with pieces of a date in extras
    RecordingSink cut = parse("[2025-07-18 15:32:55 TP0] Decode batch. #running-req: 1, #token: 2266, token usage: 0.00,"
        + " #queue-req: 0, timestamp: 2025-0\n");
    assertEquals(List.of(), cut.steps);
    assertTrue(cut.c.rejects.get(0).reason().startsWith("truncated"), cut.c.rejects.toString());
  }

  /** Decode ran out of KV cache and requests went back to the queue: an event per TP rank (sglang#4184). */
  @Test
  void decodeOutOfMemoryIsARetractEvent() throws IOException {
    RecordingSink s = real("decode-oom-retract-tp-ranks-sgl4184.log");
    assertEquals(11, s.events.size());
    assertEquals(List.of("retract"), s.events.stream().map(e -> e[1]).distinct().toList());
    assertEquals("#retracted_reqs: 1, #new_token_ratio: 0.1474 -> 0.1845", s.events.get(0)[2]);
    assertEquals("TP13", s.events.get(0)[3]);
    // the later wording, with and without the ratio; a line cut before its figures end is truncated
    RecordingSink later = parse("""
        [2026-07-22 01:22:40] KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_token_ratio: 0.1427 -> 0.3414
        [2026-07-22 01:22:41] KV cache pool is full. Retract requests. #retracted_reqs: 4
        [2026-07-22 01:22:42] KV cache pool is full. Retract requests. #retracted_reqs: 3, #new_token_ratio: 0.0980 ->
        """);
    assertEquals(List.of("#retracted_reqs: 1, #new_token_ratio: 0.1427 -> 0.3414", "#retracted_reqs: 4"),
        later.events.stream().map(e -> e[2]).toList());
    assertEquals(List.of(3L), later.c.rejects.stream().map(r -> r.lineNo()).toList());
    assertTrue(later.c.rejects.get(0).reason().startsWith("truncated"), later.c.rejects.toString());
    // 0.5.18 adds the tokens the retraction freed (the shape of a run's log published in 2026;
    // the repository has no licence, so the lines are written here): every figure kept, a cut
    // one still truncated
    RecordingSink gained = parse("""
        [2026-09-13 16:06:07] KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_tokens_gained: 646, #new_token_ratio: 0.0980 -> 0.3487
        [2026-09-13 16:06:08] KV cache pool is full. Retract requests. #retracted_reqs: 2, #aborted_retracted_reqs: 1, #new_tokens_gained: 906
        [2026-09-13 16:06:09] KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_tokens_gained: 9
        """);
    assertEquals(List.of("#retracted_reqs: 1, #new_tokens_gained: 646, #new_token_ratio: 0.0980 -> 0.3487",
        "#retracted_reqs: 2, #aborted_retracted_reqs: 1, #new_tokens_gained: 906",
        "#retracted_reqs: 1, #new_tokens_gained: 9"), gained.events.stream().map(e -> e[2]).toList());
    RecordingSink cut = parse("""
        [2026-09-13 16:06:07] KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_tokens_gained: 646, #new_token_ratio: 0.0980 ->
        [2026-09-13 16:06:07] KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_tokens_gained:
        """);
    assertEquals(0, cut.events.size());
    assertEquals(2, cut.c.rejects.size(), cut.c.rejects.toString());
  }

  /**
   * What is no crash: a soft watchdog (the server runs on), a traceback chained to one already
   * counted, uvicorn's traceback at an ordinary Ctrl+C, a manager's words after another " - "
   * (a user's text echoed in an error line).
   */
  @Test
  void linesThatOnlyLookLikeCrashesAreNone() throws IOException {
    RecordingSink s = parse("""
        [2026-03-01 10:00:00 TP0] Scheduler watchdog timeout (self.watchdog_timeout=30, self.soft=True)
        [2026-03-01 10:00:01] Traceback (most recent call last):
          File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 10, in run
        ValueError: one

        During handling of the above exception, another exception occurred:

        Traceback (most recent call last):
          File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 12, in run
        RuntimeError: two
        [2026-03-01 10:00:02] ERROR:    Traceback (most recent call last):
        [2026-03-01 10:00:03] [http_server] Error: user asked why - Scheduler hit an exception in a story
        [2026-03-01 10:00:04 TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)
        [2026-03-01 10:00:05] 🔌 Worker 0 - DetokenizerManager hit an exception: Traceback (most recent call last):
        """);
    // the first traceback of the chain is the crash, its exception line the detail
    assertEquals(List.of("ValueError: one", "Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)",
        "🔌 Worker 0 - DetokenizerManager hit an exception: Traceback (most recent call last):"),
        s.events.stream().map(e -> e[2]).toList());
  }

  /** --at names the date of a log whose lines carry a time of day only. */
  @Test
  void timeOnlyHeadersTakeTheDateAtGives() throws IOException {
    RecordingSink s = new RecordingSink();
    new SglangLogFormat().parse(new ByteArrayInputStream(("[23:00:00 TP0" + DECODE + "[01:00:00 TP0" + DECODE)
        .getBytes(StandardCharsets.UTF_8)), new ParseContext("test.log", "r1", false, null, null,
        Instant.parse("2026-12-31T00:00:00Z"), Instant.parse("2025-03-09T00:00:00Z")), s);
    assertEquals(List.of(ns("2025-03-09T23:00:00Z"), ns("2025-03-10T01:00:00Z")), s.steps.stream().map(x -> x.tsNs).toList());
  }

  @Test
  void versionVariantsMapToTheSameColumns() throws IOException {
    // 0.3: "Decode batch." with a time-only header: dated by the file's time (2026-12-31 00:00 UTC,
    // the day of the last line: a time later in the day is the day before), UTC assumed
    StepRecord d = real("v03-decode-time-only.log").steps.get(0);
    assertEquals(2, d.genRequests);
    assertEquals(2, d.running);
    assertEquals(0, d.waiting);
    assertEquals(4078.0, d.extras.get("kv_tokens"));
    assertEquals(Instant.parse("2026-12-30T04:40:55Z").toEpochMilli() * 1_000_000L, d.tsNs);
    assertEquals(0, d.rank);

    // 0.3 prefill: cache hit rate is a percentage
    StepRecord p = real("v03-prefill-cache-hit-rate.log").steps.get(1);
    assertEquals(4, p.ctxRequests);
    assertEquals(8192, p.ctxTokens);
    assertEquals(291.0, p.extras.get("cached_tokens"));
    assertEquals(0.0276, p.extras.get("cache_hit_rate"), 1e-12);
    assertEquals(38, p.waiting);
    assertEquals(1, p.running);

    // 0.4.4: trailing ", " and largest-len (an unnamed field: extras by its name)
    RecordingSink v044 = real("v044-decode-largest-len.log");
    assertEquals(509, v044.steps.get(0).genRequests);
    assertEquals(0.0, v044.steps.get(0).extras.get("largest_len"));
    assertEquals(Instant.parse("2025-03-14T02:16:14Z").getEpochSecond() * 1_000_000_000L, v044.steps.get(0).tsNs);
    assertEquals(7897.87, v044.stats.get(0).genTokensPerS, 1e-9);

    // 0.5 on Ascend: full token usage is the KV usage; mamba, pending tokens, speculative decoding
    RecordingSink npu = real("v05-npu-mamba.log");
    StepRecord np = npu.steps.get(0);
    assertEquals(0.28, np.kvUsage, 1e-12);
    assertEquals(0.20, np.extras.get("mamba_usage"), 1e-12);
    assertEquals(0.0, np.extras.get("pending_tokens"));
    assertEquals(16.23, npu.stats.get(0).promptTokensPerS, 1e-9);
    StepRecord nd = npu.steps.get(2);
    assertEquals(40, nd.genRequests);
    assertEquals(350592.0, nd.extras.get("kv_tokens"));
    assertEquals(0.74, nd.kvUsage, 1e-12);
    assertEquals(3.13, nd.extras.get("spec_accept_len"), 1e-12);
    assertEquals(0.71, nd.extras.get("spec_accept_rate"), 1e-12);
    assertEquals(160.0, nd.extras.get("mamba_num"));
  }

  @Test
  void ranksOfThePrefixBecomeInstanceAndRank() throws IOException {
    assertEquals(List.of("DP1", "4"), List.of(SglangSteps.splitRanks("DP1 TP4 EP4")));
    assertEquals("PP0 ATTN_CP3", SglangSteps.splitRanks("PP0 ATTN_CP3 TP3")[0]);
    assertEquals("3", SglangSteps.splitRanks("PP0 ATTN_CP3 TP3")[1]);
    assertNull(SglangSteps.splitRanks("TP0")[0]);
    assertEquals("sglang-1 / DP0", SglangSteps.splitRanks("sglang-1 / DP0 TP0")[0]);

    RecordingSink s = real("v0510-cp-pp-finish.log");
    assertEquals("PP0 ATTN_CP0", s.steps.get(0).instance);
    assertEquals(0, s.steps.get(0).rank);
    assertEquals("PP0 ATTN_CP7", s.steps.get(1).instance);
    assertEquals(7, s.steps.get(1).rank);
    // the shipper's RFC 3339 column is the finer time (ms)
    assertEquals(Instant.parse("2026-05-20T08:02:44.496Z").toEpochMilli() * 1_000_000L, s.steps.get(0).tsNs);
    // an event has no rank column: the crashed scheduler keeps its TP rank in instance
    assertEquals(List.of("crash PP0 ATTN_CP7 TP7"), s.events.stream().map(e -> e[1] + " " + e[3]).filter(k -> k.startsWith("crash")).toList());
  }

  @Test
  void finishLineGivesTheRequestFromMetaInfo() throws IOException {
    RequestRecord r = real("v0510-cp-pp-finish.log").request("bf890d9ca8ce4008bef7ef25d97f8fba");
    assertEquals(32472, r.promptTokens);
    assertEquals(23297, r.outputTokens);
    assertEquals(32320, r.cachedTokens);
    assertEquals(1201924.2150001228, r.e2eMs, 1e-6);
    assertEquals(0.0, r.queueMs);
    // request_received_ts / request_finished_ts: a wall clock of 1 µs
    assertEquals(1779262962640887000L, r.arrivalNs);
    assertEquals(1779264164565102000L, r.finishedNs);
    assertEquals("abort", r.finishReason);
    assertEquals("error", r.status);
    assertEquals(503, r.httpStatus);
    assertEquals("Request running timeout reached.", r.error);
    assertEquals("23297", r.extras.get("reasoning_tokens"));
    assertEquals("1779262965.4523866", r.extras.get("response_sent_to_client_ts"));

    RecordingSink v043 = real("v043-receive-prefill.log");
    RequestRecord open = v043.request("ced00776101841e180bf04c8dbdc4ec2");
    assertNull(open.status, "no Finish line: the log ended while it was in flight");
    assertEquals(Instant.parse("2025-03-03T17:53:04Z").getEpochSecond() * 1_000_000_000L, open.arrivalNs);
  }

  /**
   * Builds of late 2025 end meta_info's times with decode_finished_ts and give the first token as
   * prefill_finished_ts (no request_finished_ts; constructed from the source, README beside it):
   * the finish was unknown and the first token unread (extras), now finished and first token on
   * the meta_info clock; a first token outside arrival..finish rejects the line.
   */
  @Test
  void lateTwentyTwentyFiveMetaInfoGivesFirstTokenAndFinish() throws IOException {
    Path file = Path.of("src/test/resources/constructed/sglang-2025-prefill-decode-finished-ts/finish-meta-prefill-decode-finished-ts.log");
    RecordingSink s;
    try (InputStream in = Files.newInputStream(file)) {
      s = parse(in);
    }
    RequestRecord r = s.request("oBTZYgU-4YNCb4-980033869e849bc1");
    assertEquals(java.util.Arrays.asList(1765417343974081000L, 1765417344021537000L, 1765417344850581000L, "ok"),
        java.util.Arrays.<Object>asList(r.arrivalNs, r.firstTokenNs, r.finishedNs, r.status));
    assertNull(r.extras.get("prefill_finished_ts"));
    assertEquals("1765417343.975002", r.extras.get("request_sent_to_scheduler_ts"));
    RecordingSink bad = parse("""
        [2025-12-11 01:42:24] Finish: obj=GenerateReqInput(rid='x1'), out={'meta_info': {'id': 'x1', 'finish_reason': {'type': 'stop'}, 'prompt_tokens': 3, 'completion_tokens': 2, 'e2e_latency': 0.5, 'request_received_ts': 1765417343.5, 'prefill_finished_ts': 1765417345.0, 'decode_finished_ts': 1765417344.0}}
        """);
    assertEquals(0, bad.requests.size());
    assertEquals(1, bad.c.rejects.size());
    assertTrue(bad.c.rejects.get(0).toString().contains("prefill_finished_ts is after decode_finished_ts"),
        bad.c.rejects.get(0).toString());
  }

  @Test
  void cutAndBadLinesAreRejectedNamingTheField() throws IOException {
    RecordingSink s = parse("""
        [2026-04-08 14:05:21 TP0] Decode batch, #running-req: -5, #token: 20800, token usage: 0.29, cuda graph: True, gen throughput (token/s): 144.95, #queue-req: 0
        [2026-04-08 14:05:22 TP0] Decode batch, #running-req: 5, #token: 20800, token usage: 7.29, cuda graph: True, gen throughput (token/s): 140.27, #queue-req: 0
        [2026-04-08 14:05:23 TP0] Prefill batch, #new-seq: 1.5, #new-token: 158, #cached-token: 0, token usage: 0.08, #running-req: 31, #queue-req: 0
        [2026-04-08 14:05:24] Finish: obj=GenerateReqInput(rid='x'), out={'meta_info': {'id': 'x', 'prompt_tokens': 'many', 'completion_tokens': 3}}
        [2026-04-08 14:05:25] Finish: obj=GenerateReqInput(rid='y'), out={'meta_info': {'id': 'y', 'prompt_tokens': 3, 'e2e_latency': -1.0}}
        [2026-04-08 14:05:26 TP0] Decode batch, #running-req: 5, #token: 20800, token usage: 0.29, cuda gr""");
    List<String> reasons = new ArrayList<>();
    s.c.rejects.forEach(r -> reasons.add(r.lineNo() + ": " + r.reason()));
    assertEquals(6, reasons.size(), reasons.toString());
    assertTrue(reasons.get(0).startsWith("1: ") && reasons.get(0).contains("#running-req"), reasons.get(0));
    assertTrue(reasons.get(1).contains("token usage"), reasons.get(1));
    assertTrue(reasons.get(2).contains("whole number"), reasons.get(2));
    assertTrue(reasons.get(3).contains("prompt_tokens"), reasons.get(3));
    assertTrue(reasons.get(4).contains("e2e_latency"), reasons.get(4));
    assertTrue(reasons.get(5).startsWith("6: truncated"), reasons.get(5));
    assertEquals(0, s.steps.size());
    assertEquals(0, s.requests.size());

    // a Finish line rejected for a value leaves the request its Receive line opened (it was lost
    // with the reject: the cut-lines review)
    RecordingSink opened = parse("""
        [2026-04-08 14:05:20] Receive: obj=GenerateReqInput(rid='a1', stream=False)
        [2026-04-08 14:05:25] Finish: obj=GenerateReqInput(rid='a1'), out={'meta_info': {'id': 'a1', 'prompt_tokens': 3, 'e2e_latency': -0.8125}}
        """);
    assertEquals(1, opened.c.rejects.size());
    assertEquals(List.of("a1"), opened.requests.stream().map(r -> r.requestId).toList());
    assertEquals("log ended while the request was in flight", opened.requests.get(0).extras.get("end"));
  }

  /**
   * A Receive line cut before its rid was an other line, cut after it a request: both are
   * truncated rejects now (every whole Receive line closes its object).
   */
  @Test
  void aReceiveLineCutAnywhereIsTruncated() throws IOException {
    RecordingSink s = parse("""
        [2026-04-08 14:00:10] Receive: obj=GenerateReqInput(text='hi', ri
        [2026-04-08 14:00:11] Receive: obj=GenerateReqInput(text='hi', rid='b2', stream=Tr
        [2026-04-08 14:00:12] Receive: obj=GenerateReqInput(text='hi', rid='c3', stream=True)
        """);
    assertEquals(List.of(1L, 2L), s.c.rejects.stream().map(r -> r.lineNo()).toList());
    assertTrue(s.c.rejects.stream().allMatch(r -> r.reason().startsWith("truncated")), s.c.rejects.toString());
    assertEquals(List.of("c3"), s.requests.stream().map(r -> r.requestId).toList());
  }

  /**
   * Excerpts whose last line (or lines) the publication or a terminal cut, in real-logs/sglang/cut:
   * every cut line is rejected as truncated, at the line the cut is on, and the whole lines before
   * it read as in the other excerpts.
   */
  @Test
  void cutExcerptsRejectTheirCutLinesOnly() throws IOException {
    Path cut = REAL.resolve("cut");
    java.util.Map<String, List<Long>> cutLines = new java.util.TreeMap<>(java.util.Map.of(
        "v02-gpu0-prefill-i1102.log", List.of(10L),
        "v043-receive-list-pr3699.log", List.of(6L),
        "v05-finish-cut-pr15759.log", List.of(1L),
        "v05-metrics-health-i18989.log", List.of(16L),
        // lines 5-8: access lines the terminal cut before their status, which is lost
        "v05-npu-mangled-pr25960.log", List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L),
        "v05-prefill-cudagraph-access-pr22166.log", List.of(11L)));
    try (Stream<Path> files = Files.list(cut)) {
      assertEquals(cutLines.keySet(), new java.util.TreeSet<>(files.map(f -> f.getFileName().toString()).toList()));
    }
    for (var e : cutLines.entrySet()) {
      RecordingSink s = parse(Files.newInputStream(cut.resolve(e.getKey())));
      assertEquals(e.getValue(), s.c.rejects.stream().map(r -> r.lineNo()).toList(), e.getKey());
      s.c.rejects.forEach(r -> assertTrue(r.reason().startsWith("truncated"), e.getKey() + ": " + r.reason()));
    }

    // 0.2's "[gpu=0] " header: the GPU is the rank; 0.2 lines have no time
    RecordingSink v02 = parse(Files.newInputStream(cut.resolve("v02-gpu0-prefill-i1102.log")));
    assertEquals(9, v02.steps.size());
    StepRecord first = v02.steps.get(0);
    assertEquals(0, first.rank);
    assertEquals(2, first.ctxRequests);
    assertEquals(1074, first.ctxTokens);
    assertEquals(389, first.running);
    assertEquals(40, first.waiting);
    assertEquals(RequestRecord.NONE, first.tsNs);

    // "#running-req: 1," ends the excerpt: cut before "#queue-req", no row of NULLs
    RecordingSink v043 = parse(Files.newInputStream(cut.resolve("v043-receive-list-pr3699.log")));
    assertEquals(1, v043.steps.size(), "the prefill line only");
  }

  /**
   * An HTTP error on an access line that no request line is next to (SGLang started without
   * --log-requests) is a failed request of its own, at the line's time, or the last timed line's.
   */
  @Test
  void errorAccessLinesAreFailedRequestsOfTheirOwn() throws IOException {
    RecordingSink s = real("v046-http500-i7083.log");
    assertEquals(1, s.requests.size());
    RequestRecord r = s.requests.get(0);
    assertEquals("http-500-line-1", r.requestId);
    assertEquals("error", r.status);
    assertEquals(500, r.httpStatus);
    assertEquals("HTTP 500 POST /v1/chat/completions (access line only: no request line names it)", r.error);
    long at = Instant.parse("2025-06-11T06:19:30Z").getEpochSecond() * 1_000_000_000L;
    assertEquals(at, r.arrivalNs);
    assertEquals(at, r.finishedNs);
    assertEquals("its own line", r.extras.get("time_from"));

    RecordingSink bare = parse("""
        INFO:     10.0.0.7:5100 - "POST /v1/completions HTTP/1.1" 503 Service Unavailable
        [2026-04-08 14:05:21 TP0] Decode batch, #running-req: 5, #token: 20800, token usage: 0.29, cuda graph: True, gen throughput (token/s): 144.95, #queue-req: 0
        INFO:     10.0.0.7:5102 - "POST /v1/completions HTTP/1.1" 404 Not Found
        INFO:     10.0.0.7:5104 - "POST /v1/completions HTTP/1.1" 200 OK
        INFO:     10.0.0.7:5106 - "GET /health HTTP/1.1" 500 Internal Server Error
        INFO:     10.0.0.7:5108 - "GET /v1/score HTTP/1.1" 405 Method Not Allowed
        INFO:     10.0.0.7:5110 - "PUT /generate HTTP/1.1" 500 Internal Server Error
        """);
    assertEquals(List.of("1: no timestamp: an HTTP 503 access line before any line with a time"),
        bare.c.rejects.stream().map(x -> x.lineNo() + ": " + x.reason()).toList());
    // SGLang's /generate takes a PUT as well as a POST: a failed one is a failed request
    assertEquals(List.of("http-404-line-3", "http-500-line-7"), bare.requests.stream().map(x -> x.requestId).toList());
    assertEquals(Instant.parse("2026-04-08T14:05:21Z").getEpochSecond() * 1_000_000_000L, bare.requests.get(0).arrivalNs);
    assertEquals("the last timed line before it", bare.requests.get(0).extras.get("time_from"));
    assertEquals(3, bare.c.records, "the decode line, the 404 and the PUT's 500");
    // a GET of an inference route is a probe (405): no client's request, not a failed one
    assertEquals(3, bare.c.other, "a success tied to nothing, /health and a GET of /v1/score");
  }

  /**
   * SGLang's router in front of a PD pair (sglang-router of 0.5.8, its `smg` crate): its own log
   * alone was "cannot tell the format"; each answered request is now a row with the router's
   * status and its stated latency (µs) as e2e, the router's start and readiness engine events,
   * and the router's error inside the request's span the failure's cause.
   */
  @Test
  void routerResponsesAreRequestsWithTheirStatusAndStatedLatency() throws IOException {
    FormatRegistry reg = FormatRegistry.standard();
    byte[] b = Files.readAllBytes(REAL.resolve("router-smg-pd-decode-500-startup-ready-slurmv4.log"));
    assertEquals("sglang-log", reg.sniff(new Sample("router.log", b, b.length)).id());
    RecordingSink s = real("router-smg-pd-decode-500-startup-ready-slurmv4.log");
    assertEquals(1, s.requests.size());
    RequestRecord r = s.requests.get(0);
    assertEquals("router:chatcmpl-Wly2zVLtUcyK1Vg13jmipvFZ", r.requestId);
    assertEquals("chatcmpl-Wly2zVLtUcyK1Vg13jmipvFZ", r.extras.get("router_request_id"));
    assertEquals("error", r.status);
    assertEquals(500, r.httpStatus);
    assertEquals(1254.651, r.e2eMs, 1e-9, "latency=1254651 µs");
    // the router writes UTC (tracing's ChronoUtc): no --tz needed
    assertEquals(Instant.parse("2026-02-26T13:00:11Z").getEpochSecond() * 1_000_000_000L, r.arrivalNs);
    assertEquals(Instant.parse("2026-02-26T13:00:13Z").getEpochSecond() * 1_000_000_000L, r.finishedNs);
    assertEquals(58, r.lineNo, "the started line");
    assertEquals("HTTP 500 POST /v1/chat/completions (the router's answer); the router logged: Decode server returned"
        + " error status decode_url=http://10.99.91.49:30001 status=500 Internal Server Error", r.error);
    assertEquals("router", r.extras.get("source"));
    assertEquals(List.of("start Starting router on 0.0.0.0:8000", "ready Router ready | workers: []"),
        s.events.stream().map(e -> e[1] + " " + e[2]).toList());
    assertEquals(9, s.c.records, "start, ready, the started line, five error lines and the answer");
    assertEquals(55, s.c.other, "the router's workflow and registry lines");
    assertEquals(List.of(), s.c.rejects);

    // a 404 whose start the paste cut off, then a request the log ends before the answer of
    RecordingSink cut = real("router-smg-pd-404-then-inflight-slurmv4.log");
    assertEquals(List.of("router:chatcmpl-vKqE58KDYXWZRQRwmxeiKZwv error 404 1.284 1.284", "router:chatcmpl-jPUa0lWtvi7baYIbbYYWqmsH null null null null"),
        cut.requests.stream().map(x -> x.requestId + " " + x.status + " " + x.httpStatus + " " + x.e2eMs + " " + x.extras.get("router_head_ms")).toList());
    assertEquals(RequestRecord.NONE, cut.requests.get(0).arrivalNs);
    assertEquals("log ended while the request was in flight", cut.requests.get(1).extras.get("end"));

    // the model gateway's docs (2026-09): a success is a request too, status ok
    RecordingSink ok = real("router-smg-2026-09-doc-200-finished.log");
    assertEquals(List.of("router:chatcmpl-4qD9pXvR2mT7sLk0aZ3nB8wE ok 200 null 1.523"),
        ok.requests.stream().map(x -> x.requestId + " " + x.status + " " + x.httpStatus + " " + x.e2eMs + " " + x.extras.get("router_head_ms")).toList());

    // sglang-router 0.1.x (actix, local time): its start and readiness, no line per request
    RecordingSink v01 = real("router-rust-v01-actix-start-serving-codeidx6279726932.log");
    assertEquals(List.of("start Initializing router on 127.0.0.1:30000", "ready Serving router on 127.0.0.1:30000"),
        v01.events.stream().map(e -> e[1] + " " + e[2]).toList());
    assertEquals(16, v01.c.other);

    // sgl-router of 2025 recorded the latency as Rust's Duration text (middleware.rs,
    // span.record("latency", format!("{:?}", latency))); probes and a cut line
    RecordingSink older = parse("""
        2025-10-07 23:31:30  INFO http_request{method=POST uri=/generate version=HTTP/1.1 request_id="gnt-a"}: sglang_router_rs::request: src/middleware.rs:250: started processing request
        2025-10-07 23:31:33  INFO http_request{method=POST uri=/generate version=HTTP/1.1 request_id="gnt-a" status_code=200 latency="2.5017s"}: sglang_router_rs::response: src/middleware.rs:280: finished processing request
        2025-10-07 23:31:34  INFO http_request{method=GET uri=/health version=HTTP/1.1 request_id="req-h" status_code=200 latency="850µs"}: sglang_router_rs::response: src/middleware.rs:280: finished processing request
        2025-10-07 23:31:35  WARN http_request{method=POST uri=/v1/completions version=HTTP/1.1 request_id="cmpl-b" status_code=429 latency="12.5ms"}: sglang_router_rs::response: src/middleware.rs:276: request failed with client error
        2025-10-07 23:31:36 ERROR http_request{method=POST uri=/v1/completions version=HTTP/1.1 request_id="cmpl-c" status_code=503 latency=nonsense}: sglang_router_rs::response: src/middleware.rs:272: request failed with server error
        2025-10-07 23:31:37 ERROR http_request{method=POST uri=/v1/completions version=HTTP/1.1 request_id="cmpl-d" status_code=5
        2025-10-07 23:31:38  INFO http_request{method=POST uri=/generate version=HTTP/1.1 request_id="gnt-e" status_code=200 latency=999999999999999}: smg::response: src/middleware.rs:280: finished processing request
        """);
    assertEquals(List.of("router:gnt-a ok 200 null 2501.7", "router:cmpl-b error 429 12.5 12.5"),
        older.requests.stream().map(x -> x.requestId + " " + x.status + " " + x.httpStatus + " " + x.e2eMs + " " + x.extras.get("router_head_ms")).toList());
    // an answer below 400 is the response's head (streamed or not, the line does not say): no end
    assertEquals(RequestRecord.NONE, older.requests.get(0).finishedNs);
    assertEquals(Instant.parse("2025-10-07T23:31:30Z").getEpochSecond() * 1_000_000_000L, older.requests.get(0).arrivalNs);
    assertEquals(List.of(5L, 6L, 7L), older.c.rejects.stream().map(x -> x.lineNo()).toList());
    assertTrue(older.c.rejects.get(0).reason().contains("latency is no duration"), older.c.rejects.get(0).reason());
    assertTrue(older.c.rejects.get(1).reason().startsWith("truncated"), older.c.rejects.get(1).reason());
    // 999999999999999 µs is 31 years: out of range, never stored as router_head_ms
    assertTrue(older.c.rejects.get(2).reason().contains("latency out of range"), older.c.rejects.get(2).reason());
    assertEquals(1, older.c.other, "the probe");
  }

  /**
   * The gateway may pass its request id on to the server as the rid: the router's row and the
   * server's of one request are two rows of one file, the router's named router:ID.
   */
  @Test
  void aRequestTheRouterAndTheServerLogUnderOneIdIsTwoRows() throws Exception {
    Path log = tmp.resolve("in/pd/server.log");
    Files.createDirectories(log.getParent());
    Files.writeString(log, """
        2026-02-26 13:00:11  INFO http_request{method=POST uri=/generate version=HTTP/1.1 request_id="same-1"}: smg::request: src/middleware.rs:250: started processing request
        [2026-02-26 13:00:11] Receive: obj=GenerateReqInput(rid='same-1')
        [2026-02-26 13:00:12] Finish: obj=GenerateReqInput(rid='same-1'), out={'meta_info': {'id': 'same-1', 'finish_reason': {'type': 'stop'}, 'prompt_tokens': 3, 'completion_tokens': 2, 'e2e_latency': 0.5}}
        2026-02-26 13:00:12  INFO http_request{method=POST uri=/generate version=HTTP/1.1 request_id="same-1" status_code=200 latency=1523}: smg::response: src/middleware.rs:280: finished processing request
        """);
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      IngestResult r = t.ingest(log);
      assertEquals(1, r.ingestedFiles(), r.files().toString());
      assertEquals(0, r.rejected());
      assertEquals(List.of(List.of("router:same-1", "router"), java.util.Arrays.asList("same-1", null)),
          t.rows("SELECT request_id, extras['source'] FROM requests ORDER BY request_id"));
      // the server bears the router's id as its rid: one request (rule router-id), led by the
      // server's row, whose times give e2e (Receive 13:00:11 to Finish 13:00:12; the router's
      // 1.523 ms is to the response's head)
      assertEquals(List.of(List.of(1L, 2L, 1000.0, "ok")),
          t.rows("SELECT count(*), max(linked_rows), max(e2e_ms), max(status) FROM request_latency"));
      assertEquals(List.of(List.of("router-id: the router's id is the server's")), t.rows("SELECT rule FROM request_links"));
    }
    // a client's row of the same id (it sent X-Request-ID, the gateway's id) is the client's: the
    // router's and the server's rows still link, and the client's is a source of its own
    Path client = tmp.resolve("in/pd/client.jsonl");
    Files.writeString(client, "{\"request_id\":\"same-1\",\"clock\":\"wall\",\"arrival_ns\":1772110811000000000,"
        + "\"finished_ns\":1772110812100000000,\"status\":\"ok\"}\n");
    try (TestDb t = new TestDb(tmp.resolve("db2"))) {
      IngestResult r = t.ingest(log.getParent());
      assertEquals(2, r.ingestedFiles(), r.files().toString());
      assertEquals(List.of(List.of(3L, 1L)), t.rows("SELECT count(*), count(DISTINCT run) FROM requests"));
      assertEquals(List.of(List.of("router-id: the router's id is the server's"), List.of("vllm-id: same id")),
          t.rows("SELECT rule FROM request_links ORDER BY rule"));
      assertEquals(List.of(List.of(1L, 3L)), t.rows("SELECT count(*), max(linked_rows) FROM request_latency"));
    }
  }

  /**
   * PD disaggregation: a failed KV transfer aborts the request with a 500; every TP rank logs it,
   * and the prefill server's lines (own rids, the same bootstrap rooms) were pasted after.
   */
  @Test
  void pdTransferFailuresAreFailedRequestsOncePerRoomWithTheirAccessLine() throws IOException {
    RecordingSink s = real("v058-pd-transfer-failed-slurmv4.log");
    assertEquals(List.of("978c4d7b91514b25bcf5bf3547f06b2c", "b998c3a9b2ea4978beedde8b0c9b7241",
        "21ae8734d8cd4af6a257ee108ec8a900", "9d2d54f7d76d47258e8947065cba7bbe", "81eb96a3d6bc482f95cf2dc167e25387"),
        s.requests.stream().map(x -> x.requestId).toList(), "the decode side's rids; the prefill lines add none");
    RequestRecord r = s.requests.get(0);
    assertEquals("error", r.status);
    assertEquals(500, r.httpStatus, "the access line after the ranks' lines is this request's");
    assertEquals("Decode transfer failed: KVTransferError(bootstrap_room=7451786167023312285): Failed to get kvcache"
        + " from prefill instance, it might be dead", r.error);
    assertEquals("7451786167023312285", r.extras.get("bootstrap_room"));
    assertEquals("decode", r.extras.get("pd_stage"));
    long at = Instant.parse("2026-02-19T18:39:48Z").getEpochSecond() * 1_000_000_000L;
    assertEquals(at, r.arrivalNs);
    assertEquals(at, r.finishedNs);
    assertTrue(s.requests.stream().allMatch(x -> x.httpStatus == 500));
    assertEquals(3, s.c.other, "the markers 1 and 2 and the blank last line");
    assertEquals(List.of(), s.c.rejects);

    RecordingSink lifecycle = parse("""
        [2026-04-08 14:05:20] Receive: obj=GenerateReqInput(text='hi', rid='r1', bootstrap_room=77)
        [2026-04-08 14:05:21 TP0] Decode transfer failed for request rank=0 decode_req.req.rid='r1' decode_req.req.bootstrap_room=77 with exception KVTransferError(bootstrap_room=77): Aborted by AbortReq.
        [2026-04-08 14:05:21 TP1] Decode transfer failed for request rank=1 decode_req.req.rid='r1' decode_req.req.bootstrap_room=77 with exception KVTransferError(bootstrap_room=77): Aborted by AbortReq.
        [2026-04-08 14:05:22 TP0] Prefill bootstrap failed for request rank=0 req.rid='p9' req.bootstrap_room=78
        """);
    assertEquals(List.of("r1 cancelled 2026-04-08T14:05:20Z 2026-04-08T14:05:21Z",
        "p9 error 2026-04-08T14:05:22Z 2026-04-08T14:05:22Z"),
        lifecycle.requests.stream().map(x -> x.requestId + " " + x.status + " " + Instant.ofEpochSecond(0, x.arrivalNs)
            + " " + Instant.ofEpochSecond(0, x.finishedNs)).toList(),
        "a received request ends at its failure; the client's abort is a cancel");
    assertEquals("Prefill bootstrap failed", lifecycle.requests.get(1).error);
    assertEquals(4, lifecycle.c.records);
  }

  /**
   * A retracted request's negative meta_info.queue_time (SGLang before sglang#39312, 2026): the
   * request is kept with its other figures, the column empty and the value aside (before: the
   * Finish line rejected, the request's end lost); a queue_time that is no number still rejects.
   */
  @Test
  void aRetractedRequestsNegativeQueueTimeLeavesTheColumnEmptyNotTheRequestLost() throws IOException {
    RecordingSink s;
    try (InputStream in = Files.newInputStream(Path.of(
        "src/test/resources/constructed/sglang-negative-queue-time/retracted-finish-negative-queue-time.log"))) {
      s = parse(in);
    }
    assertEquals(1, s.requests.size(), s.c.rejects.toString());
    RequestRecord r = s.requests.get(0);
    assertEquals("q1", r.requestId);
    assertEquals("ok", r.status);
    assertNull(r.queueMs);
    assertEquals("-3.5121", r.extras.get("queue_time_negative"));
    assertEquals(9250.0, r.e2eMs, 1e-9);
    assertEquals(900, r.outputTokens);
    assertEquals(1_789_027_209_250_000_000L, r.finishedNs);
    assertEquals(1, s.c.rejects.size());
    assertEquals(4L, s.c.rejects.get(0).lineNo());
    assertTrue(s.c.rejects.get(0).reason().contains("queue_time"), s.c.rejects.get(0).reason());
  }

  /**
   * A paste whose header lost its time ("[TP0] Scheduler hit an exception: Traceback …",
   * sglang#26265, 2026): the ranks are still SGLang's header, and the scheduler's death a crash
   * (before: no header peeled, every line other, the crash lost).
   */
  @Test
  void aHeaderOfRanksAloneStillCarriesTheSchedulersCrash() throws IOException {
    RecordingSink s = real("v05-2026-ranks-only-header-scheduler-exception-i26265.log");
    assertEquals(List.of(), s.c.rejects);
    assertEquals(1, s.c.records);
    assertEquals(18, s.c.other, "the traceback's frames");
    assertEquals(1, s.c.events.size(), s.c.events.toString());
    assertTrue(s.c.events.get(0).contains("crash Scheduler hit an exception: Traceback (most recent call last):"),
        s.c.events.toString());
  }

  /**
   * A PD failure of a request without a bootstrap room ("req.bootstrap_room=None") is a failed
   * request of its own by its rid (before: a near miss, an other line, the failure lost); two such
   * failures are two requests, never one; a success logged right after a failure is another
   * request's; the encode server's line without a rank is read (constructed, README there).
   */
  @Test
  void pdFailuresWithoutARoomAreFailedRequestsOfTheirOwn() throws IOException {
    RecordingSink s;
    try (InputStream in = Files.newInputStream(Path.of(
        "src/test/resources/constructed/sglang-pd-failed-no-room/pd-failed-room-none-encode.log"))) {
      s = parse(in);
    }
    assertEquals(List.of(), s.c.rejects);
    assertEquals(List.of("p1 error null null", "p2 error 500 null", "e1 cancelled null 991", "d1 error null 77"),
        s.requests.stream().map(x -> x.requestId + " " + x.status + " " + x.httpStatus + " "
            + x.extras.get("bootstrap_room")).toList(),
        "one request per rid where no room joins them; the 200 after p1 is not p1's");
    assertEquals("Prefill bootstrap failed: KVTransferError(bootstrap_room=None): Failed to get kvcache from decode"
        + " instance", s.requests.get(0).error);
    assertEquals("encode", s.requests.get(2).extras.get("pd_stage"));
    assertEquals(Instant.parse("2026-08-30T09:00:01Z").getEpochSecond() * 1_000_000_000L, s.requests.get(1).arrivalNs);
    assertEquals(1, s.c.other, "the success access line, tied to no request");
    assertEquals(6, s.c.records);
  }

  /**
   * SGLang's request logger writes the client's whitelisted headers after the obj (x-smg-routing-key,
   * and x-request-id where SGLANG_LOG_REQUEST_HEADERS names it): they are the request's extras, its
   * id stays the rid (constructed from request_logger.py's format strings, README there).
   */
  @Test
  void loggedRequestHeadersAreExtrasAndTheRidStaysTheId() throws IOException {
    RecordingSink s;
    try (InputStream in = Files.newInputStream(Path.of(
        "src/test/resources/constructed/sglang-request-headers/headers-text-and-json.log"))) {
      s = parse(in);
    }
    assertEquals(List.of(), s.c.rejects);
    assertEquals(List.of("r1 ok client-42 tenant-7", "r3 ok client-44 null", "r4 ok null null", "r2 null client-43 null"),
        s.requests.stream().map(x -> x.requestId + " " + x.status + " " + x.extras.get("x_request_id") + " "
            + x.extras.get("x_smg_routing_key")).toList(),
        "the Finish line's headers (text and JSON), the Receive line's for a request never finished");
    RequestRecord r1 = s.requests.get(0);
    assertEquals(3, r1.promptTokens);
    assertEquals(2, r1.outputTokens);
    assertEquals(1000.0, r1.e2eMs, 1e-9);
    assertEquals(7, s.c.records);
  }

  /**
   * --enable-request-time-stats-logging: a request per ReqTimeStats line, its times from
   * entry_time (Unix seconds) and the durations SGLang measured; the log's header (UTC+8 here)
   * and entry_time are related by a clock anchor. The real 2026 line, then every mode and version.
   */
  @Test
  void requestTimeStatsLinesAreRequests() throws IOException {
    RecordingSink s = real("v05-2026-reqtimestats-unified-doc69732802710.log");
    assertEquals(1, s.requests.size());
    RequestRecord r = s.requests.get(0);
    assertEquals("4b5a1374593f4fddbf07d48d62d67a76", r.requestId);
    assertEquals(786432, r.promptTokens);
    assertEquals(0, r.cachedTokens);
    assertEquals(33, r.outputTokens);
    assertEquals("ok", r.status);
    long entry = Instant.parse("2026-09-08T15:26:46.969Z").getEpochSecond() * 1_000_000_000L + 969_000_000L;
    assertEquals(entry, r.arrivalNs);
    assertEquals(entry, r.queuedNs);
    assertEquals(entry + 980_000L, r.scheduledNs, "+ queue_duration 0.98 ms");
    assertEquals(entry + 980_000L + 142_605_210_000L, r.firstTokenNs, "+ initial_prefill_elapsed");
    assertEquals(entry + 980_000L + 142_862_780_000L, r.finishedNs, "+ forward_duration");
    assertEquals(0.98, r.queueMs, 1e-9);
    assertEquals(142605.21, r.prefillMs, 1e-9);
    assertEquals(257.57, r.decodeMs, 1e-9);
    assertEquals(142606.19, r.ttftMs, 1e-6);
    assertEquals(142863.76, r.e2eMs, 1e-6);
    assertEquals("unified", r.extras.get("time_stats"));
    assertEquals("142862.78", r.extras.get("forward_ms"));
    assertEquals(List.of(), s.c.rejects);

    RecordingSink modes = parse("""
        [2026-04-08 14:05:20 TP0] ReqTimeStats(rid=p1, bootstrap_room=77, input_len=100, cached_input_len=20, output_len=1, attempts=0, type=prefill): bootstrap_duration=5.00ms, alloc_wait_duration=1.00ms, queue_duration=2.00ms, forward_duration=30.00ms, entry_time=1775657120.000, transfer_speed=12.50 GB/s, transfer_total=64.00 MB, #retries=0
        [2026-04-08 14:05:20 TP1] ReqTimeStats(rid=p1, bootstrap_room=77, input_len=100, cached_input_len=20, output_len=1, attempts=0, type=prefill): bootstrap_duration=5.00ms, alloc_wait_duration=1.00ms, queue_duration=2.00ms, forward_duration=30.00ms, entry_time=1775657120.000, transfer_speed=12.50 GB/s, transfer_total=64.00 MB, #retries=0
        [2026-04-08 14:05:21 TP0] ReqTimeStats(rid=d1, bootstrap_room=77, input_len=100, cached_input_len=0, output_len=50, attempts=0, type=decode): prealloc_queue_duration=4.00ms, transfer_duration=6.00ms, queue_duration=1.00ms, forward_duration=500.00ms, entry_time=1775657120.010
        [2026-04-08 14:05:22] Req Time Stats(rid=u1, input len=38, output len=484, type=unified): queue_duration=0.50ms, forward_duration=900.00ms, start_time=12345.678
        [2026-04-08 14:05:22] Req Time Stats(rid=u2, input len=38, output len=484, type=unified): queue_duration=0.00ms, forward_duration=1759654443392.38ms, start_time=0.0
        [2026-04-08 14:05:23] ReqTimeStats(rid=u3, input_len=10, cached_input_len=0, output_len=5, attempts=0, type=unified): queue_duration=1.00ms, forward_duration=20.00ms, entry_time=1775657123.1
        [2026-04-08 14:05:23] ReqTimeStats(rid=u4, input_len=10, cached_input_len=0, output_len=5, attempts=0, type=mystery): Unknown Time Stats
        """);
    assertEquals(List.of("p1", "d1", "u1"), modes.requests.stream().map(x -> x.requestId).toList(),
        "one request per rid (every rank logs it)");
    RequestRecord p = modes.requests.get(0);
    assertEquals(6.0, p.preQueueMs, 1e-9, "bootstrap + allocation wait");
    assertEquals(2.0, p.queueMs, 1e-9);
    assertEquals(38.0, p.e2eMs, 1e-9);
    assertEquals(1775657120_000_000_000L, p.arrivalNs);
    assertEquals(1775657120_008_000_000L, p.scheduledNs);
    assertEquals(1775657120_038_000_000L, p.finishedNs);
    assertEquals("77", p.extras.get("bootstrap_room"));
    assertEquals("12.5", p.extras.get("transfer_gb_per_s"));
    assertEquals("64.0", p.extras.get("transfer_mb"));
    assertEquals("prefill", p.extras.get("time_stats"));
    RequestRecord d = modes.requests.get(1);
    assertEquals(10.0, d.preQueueMs, 1e-9, "pre-allocation + transfer");
    assertEquals(500.0, d.decodeMs, 1e-9, "the decode server's forward is its decode");
    assertEquals(null, d.prefillMs);
    assertEquals(RequestRecord.NONE, d.firstTokenNs);
    assertEquals(1775657120_521_000_000L, d.finishedNs);
    RequestRecord u = modes.requests.get(2);
    assertEquals(900.5, u.e2eMs, 1e-9);
    assertEquals(12345_678_000_000L, u.arrivalNs, "start_time: time.perf_counter(), a steady clock");
    assertEquals(2, modes.c.rejects.size(), modes.c.rejects.toString());
    assertTrue(modes.c.rejects.get(0).reason().contains("forward_duration: 1759654443392.38ms is no duration"),
        modes.c.rejects.get(0).reason());
    assertTrue(modes.c.rejects.get(1).reason().startsWith("truncated"), "entry_time cut inside its decimals");
    assertEquals(1, modes.c.other, "a mode without figures");
  }

  /**
   * Review cases: the scheduler's time stats line comes before the tokenizer's Finish line (a log
   * that starts mid-run has no Receive line): one request, the Finish line's figures and the
   * stats' durations (the Finish line was rejected as a repeat); a line cut inside its last
   * number's integer part is truncated; start_time 0.0 with no other line of the request is no
   * request (no time); a long line of one word costs one pass and leaves no key of it.
   */
  @Test
  void timeStatsBeforeTheirFinishLineAndHostileOnes() throws IOException {
    RecordingSink s = parse("""
        [2026-04-08 14:05:21] ReqTimeStats(rid=r1, input_len=3, cached_input_len=1, output_len=2, attempts=0, type=unified): queue_duration=3.00ms, initial_prefill_elapsed=40.00ms, post_prefill_elapsed=60.00ms, forward_duration=100.00ms, entry_time=1775657120.500
        [2026-04-08 14:05:21] Finish: obj=GenerateReqInput(text='hi', rid='r1'), out={'text': 'ok', 'meta_info': {'id': 'r1', 'finish_reason': {'type': 'stop'}, 'prompt_tokens': 3, 'completion_tokens': 2, 'e2e_latency': 1.2}}
        [2026-04-08 14:05:22] INFO:     127.0.0.1:5000 - "POST /generate HTTP/1.1" 200 OK
        [2026-04-08 14:05:23] ReqTimeStats(rid=c1, input_len=3, cached_input_len=0, output_len=2, attempts=0, type=unified): queue_duration=3.00ms, initial_prefill_elapsed=40.00ms, post_prefill_elapsed=60.00ms, forward_duration=100
        [2026-04-08 14:05:23] Req Time Stats(rid=z1, input len=38, output len=484, type=unified): queue_duration=0.50ms, forward_duration=900.00ms, start_time=0.0
        [2026-04-08 14:05:24] ReqTimeStats(rid=w1, input_len=1, output_len=1, type=unified): queue_duration=1.00ms, %s=1.00ms, forward_duration=2.00ms, entry_time=1775657124.000
        """.formatted("w".repeat(50_000)));
    assertEquals(List.of("r1", "w1"), s.requests.stream().map(x -> x.requestId).toList());
    RequestRecord r1 = s.requests.get(0);
    assertEquals(1200.0, r1.e2eMs, 1e-9, "the Finish line's E2E");
    assertEquals(3.0, r1.queueMs, 1e-9, "the stats' queue");
    assertEquals(40.0, r1.prefillMs, 1e-9);
    assertEquals(200, r1.httpStatus, "the access line after the Finish line");
    assertEquals(List.of(4L, 5L), s.c.rejects.stream().map(x -> x.lineNo()).toList(), s.c.rejects.toString());
    assertTrue(s.c.rejects.get(0).reason().startsWith("truncated"), s.c.rejects.get(0).reason());
    assertTrue(s.c.rejects.get(1).reason().contains("without a time"), s.c.rejects.get(1).reason());
    assertEquals(java.util.Set.of("time_stats", "forward_ms"), s.requests.get(1).extras.keySet(), "no key of the long word");
  }

  /** A request read from its Receive and Finish lines takes its time stats line's durations. */
  @Test
  void timeStatsJoinTheRequestTheirReceiveLineOpened() throws IOException {
    RecordingSink s = parse("""
        [2026-04-08 14:05:20] Receive: obj=GenerateReqInput(text='hi', rid='r1')
        [2026-04-08 14:05:21] ReqTimeStats(rid=r1, input_len=3, cached_input_len=1, output_len=2, attempts=0, type=unified): queue_duration=3.00ms, initial_prefill_elapsed=40.00ms, post_prefill_elapsed=60.00ms, forward_duration=100.00ms, entry_time=1775657120.500
        [2026-04-08 14:05:21] Finish: obj=GenerateReqInput(text='hi', rid='r1'), out={'text': 'ok', 'meta_info': {'id': 'r1', 'finish_reason': {'type': 'stop'}, 'prompt_tokens': 3, 'completion_tokens': 2, 'e2e_latency': 1.2}}
        [2026-04-08 14:05:22] Receive: obj=GenerateReqInput(text='hi', rid='r2')
        [2026-04-08 14:05:23] Finish: obj=GenerateReqInput(text='hi', rid='r2'), out={'text': 'ok', 'meta_info': {'id': 'r2', 'finish_reason': {'type': 'stop'}, 'prompt_tokens': 3, 'completion_tokens': 2, 'e2e_latency': 0.9}}
        [2026-04-08 14:05:23] ReqTimeStats(rid=r2, input_len=3, cached_input_len=0, output_len=2, attempts=0, type=unified): queue_duration=7.00ms, initial_prefill_elapsed=10.00ms, post_prefill_elapsed=20.00ms, forward_duration=30.00ms, entry_time=1775657122.100
        """);
    assertEquals(List.of("r1", "r2"), s.requests.stream().map(x -> x.requestId).toList());
    RequestRecord r1 = s.requests.get(0);
    assertEquals(1200.0, r1.e2eMs, 1e-9, "the Finish line's own E2E stays");
    assertEquals(3.0, r1.queueMs, 1e-9);
    assertEquals(40.0, r1.prefillMs, 1e-9);
    assertEquals(60.0, r1.decodeMs, 1e-9);
    assertEquals(1, r1.cachedTokens);
    assertEquals(Instant.parse("2026-04-08T14:05:20Z").getEpochSecond() * 1_000_000_000L, r1.arrivalNs,
        "the Receive line's time stays the arrival");
    RequestRecord r2 = s.requests.get(1);
    assertEquals(7.0, r2.queueMs, 1e-9, "a stats line after the Finish line joins it too");
    assertEquals(10.0, r2.prefillMs, 1e-9);
    assertEquals(6, s.c.records);
    assertEquals(List.of(), s.c.rejects);
  }

  /** HiSparse (2026): the GPU pool's usage is the KV usage; the CPU pool's stays in extras. */
  @Test
  void hiSparseGpuPoolIsTheKvUsage() throws IOException {
    StepRecord d = real("v05-hisparse-gpu-cpu-token-pr22331.log").steps.get(0);
    assertEquals(0.29, d.kvUsage, 1e-12);
    assertEquals(20800.0, d.extras.get("kv_tokens"));
    assertEquals(41422.0, d.extras.get("cpu_token"));
    assertEquals(0.29, d.extras.get("cpu_token_usage"), 1e-12);
    assertEquals(5, d.genRequests);
    // 2026's pool stats name them with a space ("#gpu token: 20800"): the same columns
    // (constructed from the source: constructed/sglang-2026-pool-stats/README.md); it was gpu_token
    try (InputStream in = Files.newInputStream(
        Path.of("src/test/resources/constructed/sglang-2026-pool-stats/hisparse-gpu-token-space-decode.log"))) {
      StepRecord s = parse(in).steps.get(0);
      assertEquals(java.util.Arrays.asList(0.29, 20800.0, 41422.0, 5),
          java.util.Arrays.<Object>asList(s.kvUsage, s.extras.get("kv_tokens"), s.extras.get("cpu_token"), s.genRequests));
      assertEquals(null, s.extras.get("gpu_token"), s.extras.toString());
    }
  }

  @Test
  void sampleLogGivesTheNumbersMakeSampleWrote() throws Exception {
    JsonNode want = new ObjectMapper().readTree(SAMPLE.resolve("expected/expected.json").toFile());
    try (TestDb t = new TestDb(tmp)) {
      IngestResult r = t.ingest(IngestOptions.of(List.of(SAMPLE.toString())));
      assertEquals(0, r.rejected());
      IngestResult.FileResult f = r.files().stream().filter(x -> x.format().equals("sglang-log")).findFirst().orElseThrow();
      assertEquals(want.get("lines").asLong(), f.lines());
      assertEquals(want.get("other_lines").asLong(), f.otherLines());

      // steps: one per batch line, marked with the log's decode_log_interval
      JsonNode steps = want.get("steps");
      assertEquals(steps.size(), t.count("SELECT count(*) FROM steps"));
      assertEquals(steps.size(), t.count("SELECT count(*) FROM engine_stats JOIN sources USING (source_id)"
          + " WHERE format = 'sglang-log'"));
      assertEquals(steps.size(), t.count("SELECT count(*) FROM steps WHERE extras['decode_log_interval'] = "
          + want.get("decode_log_interval").asInt() + " AND extras['decode_log_interval_assumed'] IS NULL"));
      for (JsonNode st : steps) {
        List<List<Object>> row = t.rows("SELECT s.running, s.waiting, s.kv_usage, e.prompt_tokens_per_s,"
            + " e.gen_tokens_per_s FROM steps s JOIN engine_stats e USING (source_id, line_no) WHERE s.line_no = "
            + st.get("line").asLong());
        assertEquals(st.get("running").asInt(), ((Number) row.get(0).get(0)).intValue());
        assertEquals(st.get("waiting").asInt(), ((Number) row.get(0).get(1)).intValue());
        assertEquals(st.get("kv_usage").asDouble(), ((Number) row.get(0).get(2)).doubleValue(), 1e-12);
        assertEquals(st.get("prompt_tps").isNull() ? null : st.get("prompt_tps").asDouble(),
            row.get(0).get(3) == null ? null : ((Number) row.get(0).get(3)).doubleValue());
        assertEquals(st.get("gen_tps").isNull() ? null : st.get("gen_tps").asDouble(),
            row.get(0).get(4) == null ? null : ((Number) row.get(0).get(4)).doubleValue());
      }

      // the batch-size and queue-depth timelines' steps segments
      List<String> got = new ArrayList<>();
      for (List<Object> x : t.rows("SELECT t0_ns // 1000000000, t1_ns // 1000000000, measure, level"
          + " FROM _level_segments WHERE basis = 'steps' ORDER BY t0_ns, measure")) {
        got.add(x.get(0) + "-" + x.get(1) + " " + x.get(2) + "=" + ((Number) x.get(3)).intValue());
      }
      List<String> exp = new ArrayList<>();
      for (JsonNode s : want.get("step_segments")) {
        String span = s.get("t0").asLong() + "-" + s.get("t1").asLong();
        exp.add(span + " batch=" + s.get("batch").asInt());
        exp.add(span + " running=" + s.get("running").asInt());
        exp.add(span + " waiting=" + s.get("waiting").asInt());
      }
      assertEquals(exp, got);
      assertTrue(t.count("SELECT count(*) FROM batch_size_timeline WHERE method = 'steps'") > 0);
      assertTrue(t.count("SELECT count(*) FROM queue_depth_timeline WHERE basis = 'steps'") > 0);
      assertEquals("sglang-log iterations, decode sampled 1 in 4 (10, 1 s clock)",
          t.rows("SELECT basis FROM figure_basis WHERE figure = 'steps'").get(0).get(0));

      // requests
      JsonNode reqs = want.get("requests");
      assertEquals(reqs.size(), t.count("SELECT count(*) FROM requests"));
      long t0 = want.get("t0_epoch_s").asLong();
      for (var it = reqs.fields(); it.hasNext(); ) {
        var e = it.next();
        JsonNode q = e.getValue();
        List<Object> row = t.rows("SELECT status, http_status, prompt_tokens, output_tokens, cached_tokens, e2e_ms,"
            + " queue_ms, finish_reason, arrival_ns, finished_ns FROM requests WHERE request_id = '" + e.getKey() + "'")
            .get(0);
        String id = e.getKey();
        assertEquals(q.get("status").isNull() ? null : q.get("status").asText(), row.get(0), id);
        assertEquals(q.path("http").isMissingNode() || q.get("http").isNull() ? null : q.get("http").asInt(),
            row.get(1) == null ? null : ((Number) row.get(1)).intValue(), id);
        if (q.has("e2e_ms")) {
          assertEquals(q.get("prompt").asInt(), ((Number) row.get(2)).intValue(), id);
          assertEquals(q.get("output").asInt(), ((Number) row.get(3)).intValue(), id);
          assertEquals(q.get("cached").asInt(), ((Number) row.get(4)).intValue(), id);
          assertEquals(q.get("e2e_ms").asDouble(), ((Number) row.get(5)).doubleValue(), 1e-9, id);
          assertEquals(q.get("queue_ms").asDouble(), ((Number) row.get(6)).doubleValue(), 1e-9, id);
          assertEquals(q.get("finish_reason").asText(), row.get(7), id);
          assertEquals(Math.round((t0 + q.get("arrival").asDouble()) * 1e6) * 1000L, ((Number) row.get(8)).longValue(), id);
          assertEquals(Math.round((t0 + q.get("finished").asDouble()) * 1e6) * 1000L, ((Number) row.get(9)).longValue(), id);
        } else {
          assertEquals((t0 + q.get("arrival_line_s").asLong()) * 1_000_000_000L, ((Number) row.get(8)).longValue(), id);
        }
      }
      assertEquals(List.of(), r.failedChecks());
    }
  }

  /**
   * --log-requests-format json: the same request as the text format's Receive and Finish lines,
   * field for field; without the header (--log-requests-target stdout) the object's own timestamp
   * dates the line; an abort's status and message come from its finish_reason object.
   */
  @Test
  void jsonRequestEventsReadAsTheTextFormat() throws IOException {
    String meta = "'id': 'a1', 'finish_reason': {'type': 'length', 'length': 8}, 'prompt_tokens': 12,"
        + " 'completion_tokens': 8, 'cached_tokens': 4, 'e2e_latency': 0.8125, 'queue_time': 0.0012,"
        + " 'request_received_ts': 1775656810.25, 'request_finished_ts': 1775656811.0625";
    RecordingSink text = parse("[2026-04-08 14:00:10] Receive: obj=GenerateReqInput(rid='a1', text='Hi')\n"
        + "[2026-04-08 14:00:11] Finish: obj=GenerateReqInput(rid='a1', text='Hi'), out={'text': 'x', 'meta_info': {"
        + meta + "}}\n");
    String jsonMeta = "\"id\": \"a1\", \"finish_reason\": {\"type\": \"length\", \"length\": 8}, \"prompt_tokens\": 12,"
        + " \"completion_tokens\": 8, \"cached_tokens\": 4, \"e2e_latency\": 0.8125, \"queue_time\": 0.0012,"
        + " \"request_received_ts\": 1775656810.25, \"request_finished_ts\": 1775656811.0625";
    RecordingSink json = parse("{\"timestamp\": \"2026-04-08T14:00:10.250100\", \"event\": \"request.received\","
        + " \"rid\": \"a1\", \"obj\": {\"rid\": \"a1\", \"text\": \"Hi\"}}\n"
        + "{\"timestamp\": \"2026-04-08T14:00:11.062600\", \"event\": \"request.finished\", \"rid\": \"a1\","
        + " \"obj\": {\"rid\": \"a1\"}, \"out\": {\"text\": \"x\", \"meta_info\": {" + jsonMeta + "}}}\n"
        + "{\"timestamp\": \"2026-04-08T14:00:12.000000\", \"event\": \"request.received\", \"rid\": \"b1\", \"obj\": {}}\n"
        + "{\"timestamp\": \"2026-04-08T14:00:12.500000\", \"event\": \"request.finished\", \"rid\": \"b1\", \"obj\": {},"
        + " \"out\": {\"meta_info\": {\"id\": \"b1\", \"finish_reason\": {\"type\": \"abort\", \"status_code\": 400,"
        + " \"message\": \"The input is too long\"}, \"prompt_tokens\": 9000, \"completion_tokens\": 0, \"e2e_latency\": null}}}\n");
    assertEquals(1, text.requests.size());
    assertEquals(2, json.requests.size());
    RequestRecord t = text.request("a1");
    RequestRecord j = json.request("a1");
    for (RequestRecord r : List.of(t, j)) {
      assertEquals("ok", r.status);
      assertEquals("length", r.finishReason);
      assertEquals(12, r.promptTokens);
      assertEquals(8, r.outputTokens);
      assertEquals(4, r.cachedTokens);
      assertEquals(812.5, r.e2eMs, 1e-9);
      assertEquals(1.2, r.queueMs, 1e-9);
      assertEquals(Instant.parse("2026-04-08T14:00:10.250Z"), Instant.EPOCH.plusNanos(r.arrivalNs));
      assertEquals(Instant.parse("2026-04-08T14:00:11.0625Z"), Instant.EPOCH.plusNanos(r.finishedNs));
    }
    RequestRecord b = json.request("b1");
    assertEquals("error", b.status);
    assertEquals(400, b.httpStatus);
    assertEquals("The input is too long", b.error);
    assertNull(b.e2eMs);
    // no meta_info times: the objects' own timestamps (local, 1 µs), not a header's second
    assertEquals(500_000_000L, b.finishedNs - b.arrivalNs);
  }

  /**
   * SGLang's diffusion runtime writes "[12-05 09:22:03] " (month and day, no year): its lines were
   * other lines (a Receive/Finish pair no request, its start and ready no events, its file not
   * recognised). Now the header is peeled with its time, dated by the file's year.
   */
  @Test
  void theDiffusionRuntimesMonthDayHeaderIsPeeled() throws IOException {
    RecordingSink r;
    try (InputStream in = Files.newInputStream(Path.of(
        "src/test/resources/constructed/sglang-diffusion-md-header/log-requests-month-day-header.log"))) {
      r = parse(in);
    }
    assertEquals(List.of(), r.c.rejects);
    assertEquals(List.of("6ef3fb55-a97c-4c92-87c5-b8f1fb7735da", "5d6089f0-dc0f-466d-a95d-17d40f3a7c0f"),
        r.requests.stream().map(q -> q.requestId).toList());
    assertEquals(ns("2026-06-30T09:14:38Z"), r.requests.get(0).arrivalNs);
    assertEquals(2718.243174997042, r.requests.get(0).e2eMs, 1e-6);
    RecordingSink s = real("diffusion-md-header-serve-flux-blog.log");
    assertEquals(List.of(), s.c.rejects);
    assertEquals(List.of("6 start 37013 " + ns("2026-12-05T09:17:46Z"), "10 ready Application startup complete " + ns("2026-12-05T09:17:46Z"),
        "11 ready Uvicorn running on http://localhost:3000 " + ns("2026-12-05T09:17:46Z")),
        s.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2] + " " + e[4]).toList());
    // its access lines carry no level: a GET 404 and a POST 200 are no failed request; an
    // inference route answered 500 under that header is one
    assertEquals(List.of(), s.requests);
    RecordingSink failed = parse("[12-05 09:22:03] 127.0.0.1:46656 - \"POST /v1/chat/completions HTTP/1.1\" 500\n");
    assertEquals(List.of(), failed.c.rejects);
    assertEquals(List.of(500), failed.requests.stream().map(q -> q.httpStatus).toList());
    byte[] b = Files.readAllBytes(REAL.resolve("diffusion-md-header-serve-flux-blog.log"));
    assertEquals("sglang-log", FormatRegistry.standard().sniff(new Sample("d.log", b, b.length)).id());
  }

  /**
   * SGLang's watchdog names the process it watches ("TokenizerManager watchdog timeout (…,
   * self.soft=False)"): only the scheduler's was a crash, the others other lines. A hard one of
   * any component is a crash now; a soft one still is none.
   */
  @Test
  void aHardWatchdogOfAnyComponentIsACrash() throws IOException {
    RecordingSink s;
    try (InputStream in = Files.newInputStream(Path.of("src/test/resources/constructed/sglang-watchdog-components/watchdog.log"))) {
      s = parse(in);
    }
    assertEquals(List.of(), s.c.rejects);
    assertEquals(List.of(
        // the SIGQUIT after the watchdog's quit is that death told again
        "3 crash TokenizerManager watchdog timeout (self.watchdog_timeout=300, self.soft=False) " + ns("2026-03-01T10:05:01Z"),
        "5 crash DetokenizerManager watchdog timeout (self.watchdog_timeout=300, self.soft=False) " + ns("2026-03-01T11:00:00Z")),
        s.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2] + " " + e[4]).toList());
  }
  /**
   * SGLang's shutdown and the launcher's subprocess watchdog (2026). A SIGTERM'd server ("SIGTERM
   * received. … Draining requests and shutting down...", its scheduler exiting -15, then "SIGQUIT
   * received.") was one crash and no stop: now one stop and no crash. A scheduler that died
   * ("Subprocess scheduler_0 (pid=1123) crashed with exit code -3") was an other line: now the
   * crash, and the SIGQUIT line after it no second one. 0.4.1's "Received sigquit from a child
   * proces." (SGLang's typo) was an other line: now a crash.
   */
  @Test
  void aStopIsNoCrashAndTheSubprocessWatchdogNamesTheDeadChild() throws IOException {
    RecordingSink stop = real("v05-2026-sigterm-subprocess-exit-15-sigquit-doc69481129072.log");
    assertEquals(List.of(), stop.c.rejects);
    assertEquals(List.of("1 stop SIGTERM received. signum=None frame=None. Draining requests and shutting down... "
        + ns("2026-09-20T15:33:22Z")), stop.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2] + " " + e[4]).toList());

    RecordingSink died = real("v05-2026-pd-decode-scheduler-cuda-error-subprocess-exit-3-doc70103223152.log");
    assertEquals(List.of(), died.c.rejects);
    // the scheduler's exception is the death; the watchdog's line of the child's exit tells it again
    assertEquals(List.of(
        "1 crash Scheduler hit an exception: torch.AcceleratorError: CUDA error: unspecified launch failure DP5 TP5"),
        died.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2] + " " + e[3]).toList());
    // and a rank's line between the watchdog's and the SIGQUIT does not make the SIGQUIT a second crash
    assertEquals(List.of("1 crash"), parse("[2026-10-03 02:21:29] Subprocess scheduler_0 (pid=1123) crashed with exit code -3."
        + " Triggering SIGQUIT for cleanup...\n[2026-10-03 02:21:29 DP1 TP1] Load weight end.\n"
        + "[2026-10-03 02:21:30] SIGQUIT received. signum=None, frame=None. It usually means one child failed.\n")
        .events.stream().map(e -> e[0] + " " + e[1]).toList());
    String tail = "[2026-10-03 02:21:30] SIGQUIT received. signum=None, frame=None. It usually means one child failed.\n"
        + "[2026-10-03 02:21:31] INFO:     Shutting down\n"
        + "[2026-10-03 02:21:31] INFO:     Finished server process [621]\n";
    RecordingSink after = parse("[2026-10-03 02:21:29] Subprocess scheduler_0 (pid=1123) crashed with exit code -3. "
        + "Triggering SIGQUIT for cleanup...\n" + tail);
    assertEquals(List.of("1 crash", "3 stop", "4 stop"), after.events.stream().map(e -> e[0] + " " + e[1]).toList());
    // a crash log holding only the watchdog's line is SGLang's (it was "format not recognised")
    byte[] alone = ("[2026-10-03 02:21:29] Subprocess scheduler_0 (pid=1123) crashed with exit code -3. "
        + "Triggering SIGQUIT for cleanup...\n").getBytes(StandardCharsets.UTF_8);
    assertEquals("sglang-log", FormatRegistry.standard().sniff(new Sample("w.log", alone, alone.length)).id());
    // a real run of 2026-08 (Ascend, DP attention): the watchdog's line the crash, the SIGQUIT
    // after it (before: the only crash, "SIGQUIT received…") and the kill no second one
    RecordingSink npu = real("v05-2026-npu-dp-startup-subprocess-exit-3-sigquit-kill-doc57616064554.log");
    assertEquals(List.of(), npu.c.rejects);
    assertEquals(List.of("1 start", "4 ready", "5 ready", "12 crash Subprocess scheduler_0 (pid=3417555) crashed with exit code -3"),
        npu.events.stream().map(e -> e[0] + " " + e[1] + (e[1].equals("crash") ? " " + e[2] : "")).toList());
    // Ctrl+C at the console (SIGINT, -2) is a stop as SIGTERM is: no crash, uvicorn's lines the stop
    assertEquals(List.of("3 stop", "4 stop"), parse("[2026-10-03 02:21:29] Subprocess scheduler_0 (pid=1123) crashed"
        + " with exit code -2. Triggering SIGQUIT for cleanup...\n" + tail).events.stream().map(e -> e[0] + " " + e[1]).toList());
    // with no watchdog line before it, the SIGQUIT line is still the crash it was
    assertEquals(List.of("1 crash", "2 stop", "3 stop"),
        parse(tail).events.stream().map(e -> e[0] + " " + e[1]).toList());

    RecordingSink typo = real("v041-sigquit-proces-typo-scheduler-keyerror-eagle130.log");
    assertEquals(List.of(), typo.c.rejects);
    assertEquals(List.of(
        "3 crash Received sigquit from a child proces. It usually means the child failed. " + ns("2025-01-20T19:10:07Z"),
        "4 crash Scheduler hit an exception: KeyError: 'layers.0.self_attn.qkv_proj.weight' " + ns("2025-01-20T19:10:07Z")),
        typo.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2] + " " + e[4]).toList());
  }

  /**
   * A logging config that writes the level in brackets after SGLang's header ("[2025-05-25
   * 19:45:03] [ERROR] Scheduler hit an exception: …", sglang#6590): the line was an other line and
   * the crash lost; now the header and the level are peeled and the crash is read at its time.
   */
  @Test
  void aLevelInBracketsAfterTheHeaderIsPeeled() throws IOException {
    RecordingSink s = real("v05-level-bracket-scheduler-exception-pd-decode-i6590.log");
    assertEquals(List.of(), s.c.rejects);
    assertEquals(List.of("1 crash " + ns("2025-05-25T19:45:03Z")),
        s.events.stream().map(e -> e[0] + " " + e[1] + " " + e[4]).toList());
    RecordingSink batch = parse("[2025-05-25 19:45:03 DP1 TP1] [INFO] Decode batch. #running-req: 3, #token: 900, "
        + "token usage: 0.01, pre-allocated usage: 0.00, #retracted-req: 0, cuda graph: True, gen throughput (token/s): 15.02, "
        + "#queue-req: 2\n");
    assertEquals(List.of(), batch.c.rejects);
    assertEquals(1, batch.steps.size());
    assertEquals(List.of(3, 2), java.util.Arrays.asList(batch.steps.get(0).genRequests, batch.steps.get(0).waiting));
    assertEquals(Integer.valueOf(1), batch.steps.get(0).rank);
  }
  /**
   * --log-requests-level 2, SGLang's default, cuts a string or a list past 2048 into its two
   * halves with " ... " between them: a Finish line whose output was long ("'text': 'The …' ...
   * '… end.'", "'output_ids': [1, …] ... […, 9]") was rejected ("expected a quoted key") and its
   * request left without its end. Now the cut value is one value and the request is whole.
   */
  @Test
  void aValueCutByLogRequestsLevel2IsOneValue() throws IOException {
    RecordingSink s;
    try (InputStream in = Files.newInputStream(Path.of(
        "src/test/resources/constructed/sglang-log-requests-level2-cut/log-requests-level2-long-prompt-output.log"))) {
      s = parse(in);
    }
    assertEquals(List.of(), s.c.rejects);
    RequestRecord shortPrompt = s.requests.stream().filter(r -> r.requestId.startsWith("4d0b")).findFirst().orElseThrow();
    RequestRecord longPrompt = s.requests.stream().filter(r -> r.requestId.startsWith("b2e7")).findFirst().orElseThrow();
    assertEquals(List.of(12, 600, 688, 2300), List.of(shortPrompt.promptTokens, shortPrompt.outputTokens,
        longPrompt.promptTokens, longPrompt.outputTokens));
    assertEquals(41730.0, longPrompt.e2eMs, 1e-6);
    assertEquals("length", shortPrompt.finishReason);
    assertEquals("stop", longPrompt.finishReason);
    assertEquals(1779263004371205000L, longPrompt.finishedNs);
  }

  static final Path CONSTRUCTED = Path.of("src/test/resources/constructed");

  static RecordingSink constructed(String file) throws IOException {
    try (InputStream in = Files.newInputStream(CONSTRUCTED.resolve(file))) {
      return parse(in);
    }
  }

  static List<String> requestEnds(RecordingSink s) {
    return s.requests.stream().map(r -> r.requestId + " " + r.status + " " + r.extras.get("lost_at_line")).toList();
  }

  /**
   * The subprocess watchdog's line of a child's death kills the server as the scheduler's
   * exception does: a request still open is lost there (before: left in flight to the log's end).
   * Constructed (constructed/sglang-death-scope/README.md).
   */
  @Test
  void aSubprocessCrashEndsTheOpenRequestsAsLost() throws IOException {
    RecordingSink s = constructed("sglang-death-scope/subprocess-crash-open-request.log");
    assertEquals(List.of(), s.c.rejects);
    assertEquals(List.of("req-a ok null", "req-b lost 4"), requestEnds(s));
    assertEquals(ns("2026-10-03T02:21:21Z"), s.requests.get(1).arrivalNs);
    assertEquals(List.of("4 crash"), s.events.stream().map(e -> e[0] + " " + e[1]).toList());
    // the launcher's SIGQUIT line alone and a hard watchdog's timeout end it too
    String open = "[2026-10-03 02:21:21] Receive: obj=GenerateReqInput(rid='req-b', text='hi')\n";
    assertEquals(List.of("req-b lost 2"), requestEnds(parse(open
        + "[2026-10-03 02:21:30] SIGQUIT received. signum=None, frame=None. It usually means one child failed.\n")));
    assertEquals(List.of("req-b lost 2"), requestEnds(parse(open
        + "[2026-10-03 02:26:21 TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)\n")));
    // a stop (SIGTERM: exit code -15) drains the requests: no loss, and neither is the supervisor's word
    assertEquals(List.of("req-b null null"), requestEnds(parse(open
        + "[2026-10-03 02:21:29] Subprocess scheduler_0 (pid=1123) crashed with exit code -15. Triggering SIGQUIT for cleanup...\n")));
    assertEquals(List.of("req-b null null"), requestEnds(parse(open
        + "2026-10-03T02:21:40.000000Z gpu-1 systemd[1]: sglang.service: Main process exited, code=killed, status=9/KILL\n")));
  }

  /**
   * A death or a restart ends the requests of its own server or router only: in a stream of
   * several (compose services, pods) the others' go on (before: every replica's were lost, and
   * their answers then rejected as repeated ids). Constructed (constructed/sglang-death-scope/README.md).
   */
  @Test
  void aDeathOrRestartEndsItsOwnReplicasRequestsOnly() throws IOException {
    RecordingSink routers = constructed("sglang-death-scope/two-routers-one-restarts.log");
    assertEquals(List.of(), routers.c.rejects);
    assertEquals(List.of("router:chatcmpl-a lost 3", "router:chatcmpl-b ok null"), requestEnds(routers));
    assertEquals(List.of("router-1", "router-2"), routers.requests.stream().map(r -> r.instance).toList());
    assertEquals("2000", routers.requests.get(1).extras.get("router_head_ms"));

    RecordingSink servers = constructed("sglang-death-scope/two-servers-one-crashes.log");
    assertEquals(List.of(), servers.c.rejects);
    assertEquals(List.of("req-a lost 3", "req-b ok null"), requestEnds(servers));
    assertEquals(9000.0, servers.requests.get(1).e2eMs, 1e-9);
  }

  /**
   * The router's --log-json output (SMG's documented line and lines made up after it and after the
   * real text lines; constructed/sglang-router-log-json/README.md): before, "format not
   * recognised", and with --from sglang-log every line rejected (a shipper's envelope took its
   * "timestamp" and "message"); now the same requests, notes and events as its text lines.
   */
  @Test
  void theRoutersJsonLinesAreReadAsItsTextLines() throws IOException {
    byte[] b = Files.readAllBytes(CONSTRUCTED.resolve("sglang-router-log-json/router-log-json.log"));
    assertEquals("sglang-log", FormatRegistry.standard().sniff(new Sample("smg.log", b, b.length)).id());
    RecordingSink s = constructed("sglang-router-log-json/router-log-json.log");
    assertEquals(List.of("router:chatcmpl-4qD9pXvR2mT7sLk0aZ3nB8wE ok 200 null 1.523",
            "router:chatcmpl-Wly2zVLtUcyK1Vg13jmipvFZ error 500 1254.651 1254.651", "router:cmpl-b error 429 12.5 12.5"),
        s.requests.stream().map(x -> x.requestId + " " + x.status + " " + x.httpStatus + " " + x.e2eMs + " " + x.extras.get("router_head_ms")).toList());
    RequestRecord ok = s.requests.get(0);
    // UTC, as the text lines' header
    assertEquals(ns("2026-09-24T10:30:44Z"), ok.arrivalNs);
    assertEquals(RequestRecord.NONE, ok.finishedNs, "an answer below 400 is its head: no end");
    assertEquals("chatcmpl-4qD9pXvR2mT7sLk0aZ3nB8wE", ok.extras.get("router_request_id"));
    assertEquals("HTTP 500 POST /v1/chat/completions (the router's answer); the router logged: Decode server returned"
        + " error status decode_url=http://10.0.0.2:30001 status=500 Internal Server Error", s.requests.get(1).error);
    assertEquals(RequestRecord.NONE, s.requests.get(2).arrivalNs, "its start is not in the file");
    assertEquals(List.of("1 start Starting router on 0.0.0.0:8000", "3 ready Router ready"),
        s.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2]).toList());
    assertEquals(2, s.c.other, "the worker line and the GET");
    assertEquals(List.of(11L), s.c.rejects.stream().map(x -> x.lineNo()).toList());
    assertTrue(s.c.rejects.get(0).reason().startsWith("truncated"), s.c.rejects.get(0).reason());

    // in docker's json-file the line is the envelope's log, read the same; a shipper's own
    // {"timestamp": …, "message": …} object is still its envelope
    String line = Files.readAllLines(CONSTRUCTED.resolve("sglang-router-log-json/router-log-json.log")).get(4);
    String docker = "{\"log\":\"" + line.replace("\\", "\\\\").replace("\"", "\\\"") + "\\n\",\"stream\":\"stdout\","
        + "\"time\":\"2026-09-24T10:30:45.123456789Z\"}\n";
    RecordingSink d = parse(docker);
    assertEquals(List.of(), d.c.rejects);
    assertEquals(List.of("router:chatcmpl-4qD9pXvR2mT7sLk0aZ3nB8wE 200"),
        d.requests.stream().map(x -> x.requestId + " " + x.httpStatus).toList());
    RecordingSink shipper = parse("{\"timestamp\": \"2026-09-24T10:30:45.500Z\", \"host\": \"gpu-1\", \"message\":"
        + " \"[2026-09-24 10:30:45 TP0] Decode batch, #running-req: 5, #token: 20800, token usage: 0.29, #queue-req: 0\"}\n");
    assertEquals(List.of(), shipper.c.rejects);
    assertEquals(1, shipper.steps.size());
  }

  /**
   * A scheduler killed while it loaded (exit code -9) leaves only the launcher's words: "Rank 0
   * scheduler is dead. …", "Exit code: -9" and its EOFError traceback (gpustack#3848, the
   * diffusion runtime of 0.5.6). Before: "format not recognised"; now one crash, the traceback
   * after "Exit code:" no second one, and after the scheduler's own exception the line no second either.
   */
  @Test
  void aSchedulerDeadAtStartIsOneCrash() throws IOException {
    String file = "diffusion-v056-rank0-scheduler-dead-exit-9-gpustack3848.log";
    byte[] b = Files.readAllBytes(REAL.resolve(file));
    assertEquals("sglang-log", FormatRegistry.standard().sniff(new Sample(file, b, b.length)).id());
    RecordingSink s = real(file);
    assertEquals(List.of(), s.c.rejects);
    assertEquals(List.of("4 crash Rank 0 scheduler is dead"),
        s.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2]).toList());
    assertEquals(14, s.c.other);
    RecordingSink told = parse("""
        [2026-03-02 14:44:09 TP0] Scheduler hit an exception: RuntimeError: CUDA error: out of memory
        [2026-03-02 14:44:10] Rank 0 scheduler is dead. Please check if there are relevant logs.
        [2026-03-02 14:44:10] Exit code: 1
        """);
    assertEquals(List.of("1 crash"), told.events.stream().map(e -> e[0] + " " + e[1]).toList());
  }

  /**
   * A batch under --log-requests-format json names its rids as a list, as the text format's
   * rid=['a', 'b']: each is opened (before: the line was an other line and the file not told
   * SGLang's). Constructed (constructed/sglang-log-requests-json-batch/README.md).
   */
  @Test
  void aJsonBatchReceiveOpensEachOfItsRequests() throws IOException {
    String file = "sglang-log-requests-json-batch/batch-received-two-rids.log";
    byte[] b = Files.readAllBytes(CONSTRUCTED.resolve(file));
    assertEquals("sglang-log", FormatRegistry.standard().sniff(new Sample("requests.log", b, b.length)).id());
    RecordingSink s = constructed(file);
    assertEquals(List.of(), s.c.rejects);
    assertEquals(List.of("a1 ok 1", "b2 null 1"),
        s.requests.stream().map(r -> r.requestId + " " + r.status + " " + r.lineNo).toList());
    assertEquals(s.requests.get(0).arrivalNs, s.requests.get(1).arrivalNs, "both received at the batch's line");
    assertEquals("log ended while the request was in flight", s.requests.get(1).extras.get("end"));
  }

  /**
   * A model that generates images is logged without its output: "Finish: obj=…" with no out=, a
   * request.finished object with no "out". Before: both lines rejected, their requests left in
   * flight; now each ends at its line's time. Constructed (constructed/sglang-finish-without-out/README.md).
   */
  @Test
  void aFinishLineWithoutOutEndsItsRequestAtItsTime() throws IOException {
    RecordingSink s = constructed("sglang-finish-without-out/multimodal-gen-finish-without-out.log");
    assertEquals(List.of(), s.c.rejects);
    assertEquals(List.of("img-1 ok 3000000000", "img-2 ok 2931948000"), s.requests.stream()
        .map(r -> r.requestId + " " + r.status + " " + (r.finishedNs - r.arrivalNs)).toList());
    assertNull(s.requests.get(0).e2eMs);
    assertNull(s.requests.get(0).extras.get("end"));
    // a line cut before its out= is still rejected as truncated
    RecordingSink cut = parse("[2026-06-30 09:14:41] Finish: obj=GenerateReqInput(rid='img-1', text='A beautiful\n");
    assertEquals(1, cut.c.rejects.size());
    assertTrue(cut.c.rejects.get(0).reason().startsWith("truncated"), cut.c.rejects.get(0).reason());
    // cut inside obj= just after a nested value closes: its last character passes the kind's end
    // check, its obj does not close; a reject, the request stays open
    RecordingSink cutNested = parse("[2026-06-30 09:14:38] Receive: obj=GenerateReqInput(rid='req-a', text='hi')\n"
        + "[2026-06-30 09:14:41] Finish: obj=GenerateReqInput(rid='req-a', text='hi', sampling_params={'max_new_tokens': 8}\n");
    assertEquals(List.of(2L), cutNested.c.rejects.stream().map(x -> x.lineNo()).toList());
    assertTrue(cutNested.c.rejects.get(0).reason().startsWith("truncated"), cutNested.c.rejects.get(0).reason());
    assertEquals(List.of("req-a null"), cutNested.requests.stream().map(r -> r.requestId + " " + r.status).toList());
  }

  /**
   * A run of 200,000 blanks between two items after each line start whose words ran to a lazy
   * ".*?" before an optional end and "$" (a prefill and a decode batch, with and without their own
   * timestamp, a P/D transfer failure's exception, Ray's lost worker): each is read, its words the
   * words and the blanks between them (before, each retried the run of blanks from each blank:
   * minutes of CPU a line). The timeout only guards the run against that backtracking. Constructed.
   */
  @Test
  void aLongRunOfBlanksIsReadInOnePass() throws IOException {
    String blanks = " ".repeat(200_000);
    String words = "x" + blanks + "y";
    String log = "[2025-07-18 15:32:52 TP0] Prefill batch. #new-seq: 1, #new-token: 2192," + blanks + "#cached-token: 35,"
        + " #token: 35, token usage: 0.00, #running-req: 0, #queue-req: 0," + blanks + "timestamp: 2025-07-18T15:32:52.498932" + blanks + "\n"
        + "[2025-07-18 15:32:54 TP0] Decode batch. #running-req: 1, #token: 2266," + blanks + "token usage: 0.00, cuda graph: True,"
        + " gen throughput (token/s): 3.13, #queue-req: 0," + blanks + "\n"
        + "[2025-07-18 15:32:55 TP0] Decode transfer failed for request rank=0 decode_req.req.rid='r1'"
        + " decode_req.req.bootstrap_room=7 with exception " + words + blanks + "\n"
        + "[2025-07-18 15:32:56] A worker died or was killed while executing a task by an unexpected system error. Worker PID: 7"
        + " Worker exit type: SYSTEM_ERROR Worker exit detail: " + words + blanks + "There are some potential root causes. z\n";
    RecordingSink s = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> parse(log));
    assertEquals(List.of(), s.c.rejects);
    assertEquals(List.of(ns("2025-07-18T15:32:52Z") + 498_932_000L, ns("2025-07-18T15:32:54Z")), s.steps.stream().map(x -> x.tsNs).toList());
    assertEquals(List.of(2192, 35.0, 0), List.of(s.steps.get(0).ctxTokens, s.steps.get(0).extras.get("cached_tokens"), s.steps.get(0).waiting));
    assertEquals(List.of(1, 2266.0, 3.13, 0), List.of(s.steps.get(1).genRequests, s.steps.get(1).extras.get("kv_tokens"),
        s.steps.get(1).extras.get("gen_tokens_per_s"), s.steps.get(1).waiting));
    assertEquals(List.of("r1"), s.requests.stream().map(r -> r.requestId).toList());
    assertTrue(s.requests.get(0).error.startsWith("Decode transfer failed: x" + blanks.substring(0, 100)), s.requests.get(0).error);
    // a crash keeps its detail's first 300 characters
    assertEquals(List.of("4 " + dev.tokentime.formats.spec.SpecParser.shortDetail(
        "Worker PID: 7 Worker exit type: SYSTEM_ERROR Worker exit detail: " + words)),
        s.events.stream().filter(e -> e[1].equals("crash")).map(e -> e[0] + " " + e[2]).toList());
  }
}
