package dev.tokentime.formats.vllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.testing.PinnedExcerpts;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Real vLLM excerpts with request lifecycle lines (src/test/resources/real-logs/lifecycle,
 * PROVENANCE.md there): engine deaths in each generation's words, aborts, access lines among
 * stats lines, production wrappers. Each file's account is pinned; the lines each fix was made
 * for are checked by value.
 */
class LifecycleExcerptsTest {
  static final Path DIR = Path.of("src/test/resources/real-logs/lifecycle");

  static final Map<String, String> ACCOUNTS = new TreeMap<>(Map.ofEntries(
      Map.entry("01-v0-073-abort-burst-ascend457.log", "vllm-log 70 22 48 0"),
      Map.entry("02-kubectl-ts-v0fork-abort-proxytimeout-gonka817.log", "vllm-log 5 3 2 0"),
      Map.entry("03-journald-v04-received-finished-easyllm.log", "vllm-log 5 5 0 0"),
      Map.entry("04-apiserver-v0202-enginedead-500-messages-vllm42362.log", "vllm-log 10 3 7 0"),
      Map.entry("05-compose-apiserver-enginedead-500s-sparkmxfp4-3.log", "vllm-log 8 3 5 0"),
      // one death, one crash: the traceback's "RuntimeError: Engine loop has died" and the
      // launcher's "MQLLMEngine is already dead" after "RuntimeError('Engine loop has died')" tell
      // it again (three crashes before)
      Map.entry("10-v06-added-engine-loop-died-mqllm-dead-vllm10024.log", "vllm-log 12 3 9 0"),
      // a sidecar's own prefix ("[VllmSidecar id]: RFC 3339 1 stdout: ") no wrapper knows
      // four "MQLLMEngine is already dead" lines (one a request open at the death): one crash
      Map.entry("11-sidecar-wrapper-mqllm-dead-500s-pr9818.log", "vllm-log 8 5 3 0"),
      Map.entry("12-v06-habana-added-200-received-habana841.log", "vllm-log 4 3 1 0"),
      Map.entry("14-v03-received-prefixpos-empty-token-ids-vllm2731.log", "vllm-log 2 2 0 0"),
      Map.entry("15-apiserver-v0101-received-unprefixed-added-vllm24578.log", "vllm-log 2 2 0 0"),
      Map.entry("17-v07-received-500-aborted-vllm13655.log", "vllm-log 3 2 1 0"),
      Map.entry("18-v064-added-mqllm-dead-500-vllm10627.log", "vllm-log 8 4 4 0"),
      // the core client's "Got fatal signal from worker processes" after the engine core's "hit an
      // exception" is that death told again (two crashes before), in 19 and 20
      Map.entry("19-v1-080-startup-duplicate-id-enginecore-exception-vllm15041.log", "vllm-log 44 6 36 2"),
      Map.entry("20-v1-083-ray-enginecore-dead-health-annotated-abort-vllm16259.log", "vllm-log 131 13 118 0"),
      Map.entry("21-v050-embeddings-404-400-finished-500-vllm5906.log", "vllm-log 8 7 0 1"),
      Map.entry("22-v06-warmup-id-reuse-background-task-failed-vllm8158.log", "vllm-log 14 3 10 1"),
      // "[[36m(VLLMActor pid=50643) [[0m": a paste that doubled the bracket of a lost ESC
      Map.entry("23-ray-actor-ansi-lost-finished-shutdown-vllm7904.log", "vllm-log 3 1 2 0"),
      Map.entry("24-journald-pyapp-formatter-rsyslog-toolong-vllm16030.log", "vllm-log 21 4 17 0"),
      // the traceback after "Error in chat completion stream generator." is that request's, no crash
      Map.entry("25-v09-added-engine-process-died-shutting-down-vllm20484.log", "vllm-log 8 3 5 0"),
      Map.entry("26-v043-received-aborted-500-vllm5060.log", "vllm-log 3 3 0 0"),
      // its 200 follows the response_body line, which keeps it next to the request (12 records)
      Map.entry("27-v0220-streaming-complete-iteration-aggregated-lanzhiwang.log", "vllm-log 30 12 18 0"),
      // the engine's late cleanup line of a request already ended is other
      Map.entry("28-v0220-offline-added-suffix-aborted-by-caller-id-lanzhiwang.log", "vllm-log 24 2 22 0"),
      Map.entry("29-v0220-aborted-engine-id-then-caller-id-lanzhiwang.log", "vllm-log 4 4 0 0"),
      // uvicorn's "ERROR:    Traceback …" of a failed application startup: the crash (it was an other line)
      Map.entry("30-cloudrun-uvicorn-error-traceback-llm-startup.log", "vllm-log 44 3 41 0"),
      // "EngineCore failed to start." and its traceback: one death, one crash
      Map.entry("31-v010-enginecore-failed-to-start-then-traceback-ascend2497.log", "vllm-log 12 1 11 0"),
      // the front end's MQEngineDeadError and the launcher's five "MQLLMEngine is already dead"
      // after the engine's tracebacks (crashes counted): that death told again, other lines (six
      // more crashes before)
      Map.entry("32-v0-mqllm-dead-then-five-500s-vllm16378.log", "vllm-log 163 18 145 0"),
      // the engine core's fatal error, then the output handler's EngineDeadError: one death, one crash
      Map.entry("33-v010-failed-engine-dead-then-500-ascend2723.log", "vllm-log 34 8 26 0"),
      Map.entry("34-2026-failed-internal-error-then-500-doc61893643560.log", "vllm-log 4 2 2 0"),
      // V0's AsyncEngineDeadError after "Engine background task failed": that death told again, an
      // other line
      Map.entry("35-v064-bgtask-failed-traceback-then-500-vllm10478.log", "vllm-log 66 11 55 0")));

  static final PinnedExcerpts EXCERPTS = new PinnedExcerpts(DIR, "lifecycle", Instant.parse("2025-06-30T00:00:00Z"));

  static PinnedExcerpts.Read read(String file) throws IOException {
    return EXCERPTS.read(file);
  }

  static RequestRecord request(String file, String idStart) throws IOException {
    for (RequestRecord r : read(file).sink().requests) {
      if (r.requestId.startsWith(idStart)) {
        return r;
      }
    }
    throw new AssertionError("no request " + idStart + "… in " + file);
  }

  @Test
  void everyExcerptIsAccountedAsPinned() throws IOException {
    EXCERPTS.assertAccounts(ACCOUNTS);
  }

  /**
   * V1 (since vllm#27987) names a request by the caller's id and by the engine's (the caller's with
   * a random 8-hex suffix): an abort by either ends the one request, at the first abort line; a
   * late engine line of a request already written is other. "streaming_complete" is the logger's
   * end of the stream, no finish reason.
   */
  @Test
  void callerAndEngineIdsAreOneRequest() throws IOException {
    List<RequestRecord> offline = read("28-v0220-offline-added-suffix-aborted-by-caller-id-lanzhiwang.log").sink().requests;
    assertEquals(1, offline.size());
    RequestRecord r = offline.get(0);
    assertEquals("test-direct-abort-001-8181cd7c", r.requestId);
    assertEquals("cancelled", r.status);
    assertEquals(1.0e9, (double) (r.finishedNs - r.arrivalNs), 0.0, "03:39:33 to the first abort at 03:39:34");
    List<RequestRecord> both = read("29-v0220-aborted-engine-id-then-caller-id-lanzhiwang.log").sink().requests;
    assertEquals(List.of("chatcmpl-req-a1f76d7a-124a-4c27-a79d-2610a261-a44df1a4", "chatcmpl-a0779fe804f9454f-a6787051"),
        both.stream().map(x -> x.requestId).toList());
    RequestRecord done = request("27-v0220-streaming-complete-iteration-aggregated-lanzhiwang.log", "chatcmpl-8cf1353bd72254e3");
    assertEquals("ok", done.status);
    assertEquals(null, done.finishReason);
    assertEquals(200, done.httpStatus, "the 200 after response_body={streaming_started: chunks=807}");
    assertEquals("807", done.extras.get("response_chunks"));
    // the excerpt joined it mid-stream (its last deltas): no first token, no output length of its own
    assertEquals(dev.tokentime.ingest.RequestRecord.NONE, done.firstTokenNs);
    assertEquals(null, done.outputTokens);
    assertEquals("true", done.extras.get("joined_mid_stream"));
  }

  /** V0's MQLLMEngine and engine loop, V0.9's engine process, V1's EngineCore: each death loses what was in flight. */
  @Test
  void everyGenerationsEngineDeathLosesTheRequestsInFlight() throws IOException {
    assertEquals("lost", request("10-v06-added-engine-loop-died-mqllm-dead-vllm10024.log", "chat-58cc").status);
    assertEquals("lost", request("25-v09-added-engine-process-died-shutting-down-vllm20484.log", "chatcmpl-0ff807c9").status);
    RequestRecord v1 = request("20-v1-083-ray-enginecore-dead-health-annotated-abort-vllm16259.log", "cmpl-17baf80e");
    assertEquals("lost", v1.status);
    assertEquals("cmpl-17baf80e349d4adfb4e385cf652e427a-0", v1.requestId, "the aborted id ends at its first space");
  }

  /**
   * The 500s uvicorn logs after an engine's death answer the requests it ended: one failed request
   * each, not one more per 500 (10 failures for 5 clients before); V1's "Request … failed (engine
   * dead)." and a 2026 build's "… failed with an internal error during generation" name the request
   * their 500 answers.
   */
  @Test
  void theErrorsAfterADeathAnswerTheRequestsItEnded() throws IOException {
    List<RequestRecord> v0 = read("32-v0-mqllm-dead-then-five-500s-vllm16378.log").sink().requests;
    assertEquals(5, v0.size());
    assertTrue(v0.stream().allMatch(r -> r.requestId.startsWith("chatcmpl-") && "error".equals(r.status)
        && Integer.valueOf(500).equals(r.httpStatus) && "132".equals(r.extras.get("lost_at_line"))), v0.toString());
    RequestRecord v1 = request("33-v010-failed-engine-dead-then-500-ascend2723.log", "chatcmpl-b3678bb5");
    assertEquals(List.of("error", "500", "failed (engine dead)"), List.of(v1.status, String.valueOf(v1.httpStatus), v1.error));
    RequestRecord internal = request("34-2026-failed-internal-error-then-500-doc61893643560.log", "chatcmpl-8da6fc665494abe1");
    assertEquals("failed with an internal error during generation", internal.error);
    assertEquals(500, internal.httpStatus);
    RequestRecord bg = request("35-v064-bgtask-failed-traceback-then-500-vllm10478.log", "cmpl-3706abf5");
    // lost at the death's first word, the watcher's "Worker VllmWorkerProcess pid 29 died, exit code: 1"
    // (line 12); "Engine background task failed" after it tells it again
    assertEquals(List.of("error", "500", "12"), List.of(bg.status, String.valueOf(bg.httpStatus), bg.extras.get("lost_at_line")));
    assertEquals(1, read("35-v064-bgtask-failed-traceback-then-500-vllm10478.log").sink().requests.size());
  }

  /** Access lines are tied only to request lines right next to them, never across stats lines. */
  @Test
  void accessLinesAreTiedOnlyWhenAdjacent() throws IOException {
    // 40 s of stats lines and 47 access lines between its Added and its Aborted line
    RequestRecord r = request("01-v0-073-abort-burst-ascend457.log", "chatcmpl-4dbcb2f7");
    assertEquals("cancelled", r.status);
    assertNull(r.httpStatus);
    // a 200 right before a Received line is an earlier request's (the handler logs Received
    // before a response can start)
    assertNull(request("12-v06-habana-added-200-received-habana841.log", "chatcmpl-c7fabc22").httpStatus);
  }

  /**
   * A 500 right after the death that ended the one request in flight is that request's response;
   * a 500 that refuses a request ends it at the last time the log gave; an empty prompt id list
   * (what --max-log-len 0 leaves) is no count.
   */
  @Test
  void errorsEndTheirRequestsAndEmptyIdListsCountNothing() throws IOException {
    RequestRecord died = request("18-v064-added-mqllm-dead-500-vllm10627.log", "chatcmpl-247fa5bb");
    assertEquals("error", died.status);
    assertEquals(500, died.httpStatus);
    assertEquals("5", died.extras.get("lost_at_line"));
    assertEquals(1, read("18-v064-added-mqllm-dead-500-vllm10627.log").sink().requests.size(), "no failed request of its own");
    RequestRecord refused = request("17-v07-received-500-aborted-vllm13655.log", "chatcmpl-c10b409a");
    assertEquals(500, refused.httpStatus);
    assertEquals(refused.arrivalNs, refused.finishedNs);
    for (RequestRecord r : read("14-v03-received-prefixpos-empty-token-ids-vllm2731.log").sink().requests) {
      assertNull(r.promptTokens, r.requestId);
    }
  }

  /**
   * A wrapper no prefix knows is peeled up to where a vLLM line can start (resync): a custom
   * collector's "[VllmSidecar id]: 2024-…Z 1 stdout: " gives its 500s, with the collector's
   * millisecond instant as their time; "[[36m" (a paste's ESC) before a Ray actor's tag no longer
   * passes for JSON.
   */
  @Test
  void linesBehindAnUnknownWrapperAreRead() throws IOException {
    List<RequestRecord> failed = read("11-sidecar-wrapper-mqllm-dead-500s-pr9818.log").sink().requests;
    assertEquals(4, failed.size());
    RequestRecord first = failed.get(0);
    assertEquals("error", first.status);
    assertEquals(500, first.httpStatus);
    assertEquals(Instant.parse("2024-11-13T03:15:08.672Z").toEpochMilli() * 1_000_000L, first.arrivalNs);
    assertEquals(Instant.parse("2024-11-13T03:15:08.675Z").toEpochMilli() * 1_000_000L, failed.get(3).arrivalNs);
    RequestRecord finished = request("23-ray-actor-ansi-lost-finished-shutdown-vllm7904.log", "ed5d5c0f");
    assertEquals("VLLMActor pid=50643", finished.instance);
  }

  /** Colour codes as rsyslog escapes them ("#033[1;36m") are colour codes: the worker's death is read, with its process. */
  @Test
  void rsyslogEscapedColourCodesAreStripped() throws IOException {
    List<String[]> events = read("24-journald-pyapp-formatter-rsyslog-toolong-vllm16030.log").sink().events;
    // the worker's "WorkerProc hit an exception:" (the engine's death); its traceback on the next
    // line is the same death, no second crash
    assertEquals(1, events.size());
    assertEquals("13 crash", events.get(0)[0] + " " + events.get(0)[1]);
    assertTrue(events.get(0)[2].startsWith("WorkerProc hit an exception"), events.get(0)[2]);
    assertTrue(events.get(0)[3].endsWith("VllmWorker rank=3 pid=140343"), events.get(0)[3]);
  }

  /** An error on vLLM's Anthropic-style endpoint is a failed request like any other. */
  @Test
  void messagesEndpointErrorsAreFailedRequests() throws IOException {
    RequestRecord r = request("04-apiserver-v0202-enginedead-500-messages-vllm42362.log", "http-500-line-");
    assertEquals("error", r.status);
    assertEquals(500, r.httpStatus);
    assertTrue(r.error.contains("POST /v1/messages"), r.error);
  }
}
