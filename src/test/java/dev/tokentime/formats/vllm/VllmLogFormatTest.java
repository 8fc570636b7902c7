package dev.tokentime.formats.vllm;

import static dev.tokentime.ingest.RequestRecord.NONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.RequestRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** vllm-log on hand-made lines: prefixes, clocks, request lifecycles and bad input. */
class VllmLogFormatTest {
  static final VllmLogFormat LOG = new VllmLogFormat();
  static final String STATS = "Engine 000: Avg prompt throughput: 10.0 tokens/s, Avg generation throughput: "
      + "5.0 tokens/s, Running: 3 reqs, Waiting: 2 reqs, GPU KV cache usage: 12.5%, Prefix cache hit rate: 50.0%";

  @Test
  void tokenIdListsAreCountedAsPythonPrintsThem() {
    assertEquals(-1, VllmRequestTracker.tokenCount(null));
    assertEquals(-1, VllmRequestTracker.tokenCount("None"));
    assertEquals(0, VllmRequestTracker.tokenCount("[]"));
    assertEquals(0, VllmRequestTracker.tokenCount("[  ]"));
    assertEquals(1, VllmRequestTracker.tokenCount("[1219]"));
    assertEquals(3, VllmRequestTracker.tokenCount("[1, 2, 3]"));
    assertEquals(2, VllmRequestTracker.tokenCount("[ , ]"));
  }

  /**
   * V0's "Finished request <id>." hard-wrapped by a terminal inside its id (a tmux capture, `fold`
   * at 80 columns of lifecycle/22's real line): its two pieces are one line, the request's whole
   * id, never a request of the cut id and a second of the rest.
   */
  @Test
  void aFinishedLineWrappedInsideItsIdIsOneLine() throws Exception {
    String line = "INFO 09-04 12:25:44 async_llm_engine.py:176] Finished request 09f9e54acf7a425fb155949722f1d5ca.";
    String text = "INFO 09-04 12:25:40 async_llm_engine.py:529] Added request 09f9e54acf7a425fb155949722f1d5ca.\n"
        + line.substring(0, 80) + "\n" + line.substring(80) + "\n";
    Parse p = Parse.text(LOG, text, Parse.ctx(2024, java.time.ZoneOffset.UTC, false, null));
    assertEquals(List.of("09f9e54acf7a425fb155949722f1d5ca"), p.full.requests.stream().map(r -> r.requestId).toList());
    assertEquals(List.of(), p.sink.rejects);
  }

  /**
   * Probes of a server's routes (a browser's or a scanner's GET of /score, /v1/score: 405 Method
   * Not Allowed, a V0 server on a CPU, 2025-04) were failed requests: every inference route takes
   * a POST, so a GET is no client's request. A POST refused before admission still is one.
   */
  @Test
  void aGetOfAnInferenceRouteIsNoFailedRequest() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "INFO 04-16 09:38:30 [metrics.py:489] " + STATS + "\n"
        + "INFO:     127.0.0.1:35408 - \"GET /score HTTP/1.1\" 405 Method Not Allowed\n"
        + "INFO:     127.0.0.1:47636 - \"GET /v1/score HTTP/1.1\" 405 Method Not Allowed\n"
        + "INFO:     127.0.0.1:47640 - \"POST /v1/completions HTTP/1.1\" 404 Not Found\n",
        Parse.ctx(null, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(List.of("http-404-line-4"), p.full.requests.stream().map(r -> r.requestId).toList());
    assertEquals(2, p.sink.other, "the two probes");
  }

  /**
   * A logging wrapper's bracketed local time before vLLM 0.5's own header (vllm-project/vllm#6206:
   * "[2024-07-08 15:17:34] INFO 07-08 07:17:34 metrics.py:334] Avg prompt throughput: …"): the
   * wrapper's prefix took vLLM's level too and the stats line was a near miss (0 records); the
   * wrapper's clock is +08:00 against vLLM's UTC.
   */
  @Test
  void aBracketedLocalTimeBeforeVllmsHeaderLeavesItsLevel() throws Exception {
    Parse p = Parse.text(LOG, "[2024-07-08 15:17:34] INFO 07-08 07:17:34 metrics.py:334] Avg prompt throughput: 6501.4"
        + " tokens/s, Avg generation throughput: 69.1 tokens/s, Running: 4 reqs, Swapped: 0 reqs, Pending: 0 reqs,"
        + " GPU KV cache usage: 15.6%, CPU KV cache usage: 0.0%\n", Parse.ctx(2024, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(1, p.full.stats.size());
    assertEquals(Parse.ns("2024-07-08T07:17:34Z"), p.full.stats.get(0).tsNs);
    assertEquals(4, p.full.stats.get(0).running);
  }

  /**
   * A patched engine's line per request ("Request finished: req … elapsed_s=2.59"): a cut one is a
   * truncated reject, one whose elapsed_s is out of range a reject that leaves no request behind
   * (the line opened its request before it checked the figure: a row of an ok request with no end).
   */
  @Test
  void aPatchedEnginesRequestLineIsWholeOrRejected() throws Exception {
    String head = "INFO 09-18 11:35:0%d [scheduler.py:1984] Request finished: req chatcmpl-%s finish_reason=stop ";
    Parse p = Parse.text(LOG, String.format(head, 0, "a") + "prompt_tokens=11448 generated_tokens=46 elapsed_s=2.59\n"
        + String.format(head, 1, "b") + "prompt_tok\n"
        + String.format(head, 2, "c") + "prompt_tokens=1 generated_tokens=4 elapsed_s=99999999.00\n",
        Parse.ctx(2025, null, false, null));
    assertEquals(List.of(2L, 3L), p.sink.rejects.stream().map(r -> r.lineNo()).toList(), p.sink.rejects.toString());
    assertTrue(p.sink.rejects.get(0).reason().startsWith("truncated"), p.sink.rejects.get(0).reason());
    assertTrue(p.sink.rejects.get(1).reason().startsWith("elapsed_s: 99999999.00 is out of range"), p.sink.rejects.get(1).reason());
    assertEquals(List.of("chatcmpl-a"), p.full.requests.stream().map(r -> r.requestId).toList());
    assertEquals(2_590_000_000L, p.full.requests.get(0).finishedNs - p.full.requests.get(0).arrivalNs);
    // a terminal's hard wrap inside the figures is joined, never read as the figures it cut
    Parse wrapped = Parse.text(LOG, String.format(head, 0, "d") + "prompt_tokens=1 generated_tokens=4\n6 elapsed_s=1.25\n",
        Parse.ctx(2025, null, false, null));
    assertEquals(List.of(), wrapped.sink.rejects);
    assertEquals(List.of(46, 1_250_000_000L), List.of(wrapped.full.requests.get(0).outputTokens,
        wrapped.full.requests.get(0).finishedNs - wrapped.full.requests.get(0).arrivalNs));
    // elapsed_s dates no arrival after a time the request already has (its token lines, whole seconds)
    Parse tokens = Parse.text(LOG, "INFO 09-18 11:35:05 [logger.py:1] Generated response chatcmpl-e (streaming delta): output:"
        + " 'Hi', output_token_ids: [13], finish_reason: None\n"
        + String.format(head, 6, "e") + "prompt_tokens=100 generated_tokens=1 elapsed_s=0.30\n", Parse.ctx(2025, null, false, null));
    var e = tokens.full.requests.get(0);
    assertEquals(List.of("chatcmpl-e", dev.tokentime.ingest.RequestRecord.NONE), List.of(e.requestId, e.arrivalNs), "no arrival after its first token");
  }

  /**
   * The platform plugins name their device where vLLM names the GPU (vllm-ascend's docs: "NPU KV
   * cache usage: 0.0%, CPU KV cache usage: 0.0%"; Intel's "XPU KV cache usage"): the device's usage
   * is kv_usage, the CPU's stays apart; before, both landed in extras and kv_usage was empty.
   */
  @Test
  void aPluginsDeviceKvUsageIsTheKvUsage() throws Exception {
    Parse p = Parse.text(LOG, "INFO 02-19 17:37:35 [metrics.py:453] Avg prompt throughput: 0.0 tokens/s, Avg generation"
        + " throughput: 0.0 tokens/s, Running: 0 reqs, Swapped: 0 reqs, Pending: 0 reqs, NPU KV cache usage: 12.5%,"
        + " CPU KV cache usage: 0.0%.\n"
        + "INFO 02-19 17:37:45 [loggers.py:123] Engine 000: Avg prompt throughput: 1.0 tokens/s, Avg generation throughput:"
        + " 2.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, XPU KV cache usage: 3.4%, Prefix cache hit rate: 0.0%\n",
        Parse.ctx(2025, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(List.of(0.125, 0.034), p.full.stats.stream().map(r -> r.kvUsage).toList());
    assertEquals(0.0, p.full.stats.get(0).extras.get("cpu_kv_usage"));
    assertEquals(List.of(false, false), p.full.stats.stream()
        .map(r -> r.extras.keySet().stream().anyMatch(k -> k.contains("pu_kv") && !k.equals("cpu_kv_usage"))).toList());
  }

  /**
   * Two stats records on one physical line (their newline lost: a paste of vllm#2595, tqdm's \r
   * between records in a captured run): no row blending the first record's time with the last
   * one's figures and made-up extras keys; a near miss, said by the ingest.
   */
  @Test
  void statsRecordsRunTogetherAreNoRow() throws Exception {
    String rec = "INFO 01-25 11:26:53 llm_engine.py:706] Avg prompt throughput: 1.0 tokens/s, Avg generation throughput:"
        + " 2.0 tokens/s, Running: 1 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.1%, CPU KV cache usage: 0.0%";
    Parse p = Parse.text(LOG, rec + " " + rec.replace("11:26:53", "11:26:58").replace("1.0 tokens/s", "9.0 tokens/s") + "\n"
        + rec + "\n", Parse.ctx(2024, null, false, null));
    assertEquals(1, p.full.stats.size(), "the whole line after it");
    assertEquals(Parse.ns("2024-01-25T11:26:53Z"), p.full.stats.get(0).tsNs);
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(1, p.sink.other);
  }

  /**
   * A bare print between a request's last line and its access line (vLLM 0.3's two "None" lines
   * before the 500 of its request, real: field/91, vllm-project/vllm#2706) leaves them adjacent: it
   * has no time, no header and names no request. A line that does say something happened between
   * them (a header's line, a traceback frame, uvicorn's own logger) still parts them, and a bare
   * print never ties an error to a request other than the one right before it.
   */
  @Test
  void aBarePrintDoesNotPartARequestFromItsAccessLine() throws Exception {
    String fin = "INFO 02-02 09:05:42 async_llm_engine.py:110] Finished request cmpl-a.\n";
    String err = "INFO:     127.0.0.1:46374 - \"POST /v1/completions HTTP/1.1\" 500 Internal Server Error\n";
    java.util.function.Function<String, List<String>> read = text -> {
      try {
        Parse p = Parse.text(LOG, text, Parse.ctx(2024, null, false, null));
        return p.full.requests.stream().map(r -> r.requestId + " " + r.status + " " + r.httpStatus).sorted().toList();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    };
    assertEquals(List.of("cmpl-a error 500"), read.apply(fin + "None\nNone\n" + err));
    // the next request's last line, after the print: the 500 is that request's, never cmpl-a's
    assertEquals(List.of("cmpl-a ok null", "cmpl-b error 500"), read.apply(fin + "None\n"
        + "INFO 02-02 09:05:43 async_llm_engine.py:110] Finished request cmpl-b.\nNone\n" + err));
    // a stats line, a traceback's frame or uvicorn's error between: not adjacent, print or not
    for (String between : List.of("INFO 02-02 09:05:47 llm_engine.py:706] Avg prompt throughput: 1.0 tokens/s,"
            + " Avg generation throughput: 2.0 tokens/s, Running: 0 reqs, Swapped: 0 reqs, Pending: 0 reqs,"
            + " GPU KV cache usage: 0.1%, CPU KV cache usage: 0.0%\nNone\n",
        "None\n  File \"/usr/lib/python3.10/site-packages/vllm/x.py\", line 1, in f\n",
        "ERROR:    Exception in ASGI application\nNone\n")) {
      assertEquals(List.of("cmpl-a ok null", "http-500-line-" + (between.split("\n").length + 2) + " error 500"),
          read.apply(fin + between + err), between);
    }
    // a run of prints (a progress bar, a script's echoes: time passing) or a long one parts them
    assertEquals(List.of("cmpl-a ok null", "http-500-line-6 error 500"),
        read.apply(fin + "Processed prompts: 1\nProcessed prompts: 2\nProcessed prompts: 3\nProcessed prompts: 4\n" + err));
    assertEquals(List.of("cmpl-a ok null", "http-500-line-3 error 500"), read.apply(fin + "x".repeat(81) + "\n" + err));
    assertEquals(List.of("cmpl-a error 500"), read.apply(fin + "None\nNone\nNone\n" + err));
    // streaming order: the 200 before the request's Added line, a print between
    assertEquals(List.of("cmpl-s ok 200"), read.apply(
        "INFO:     127.0.0.1:46374 - \"POST /v1/completions HTTP/1.1\" 200 OK\nNone\n"
        + "INFO 02-02 09:05:41 async_llm_engine.py:431] Added request cmpl-s.\n"
        + "INFO 02-02 09:05:42 async_llm_engine.py:110] Finished request cmpl-s.\n"));
  }

  /**
   * A stats line whose figure is printed "n/a" or "nan" (no value: a rate over nothing) is whole:
   * a row with that column empty and the others read, not a "truncated" reject. A line cut inside
   * such a value, or before it, is still truncated; a value that is neither a number nor one of
   * those rejects the line naming its field and value. (Hand-made: constructed/vllm-stats-na.)
   */
  @Test
  void aStatsFigurePrintedNaIsNoValueNotACut() throws Exception {
    Parse p = Parse.real(LOG, "../../constructed/vllm-stats-na/stats-na.log", Parse.ctx(2025, null, false, null));
    assertEquals(List.of("1 null 0.001 0.0", "2 0 0.001 null", "3 0 null 0.0", "6 0 0.001 null"),
        p.full.stats.stream().map(s -> s.lineNo + " " + s.waiting + " " + s.kvUsage + " " + s.prefixHitRate).toList());
    assertNull(p.full.stats.get(1).promptTokensPerS, "nan tokens/s");
    assertEquals(20.3, p.full.stats.get(1).genTokensPerS, 0.0);
    assertEquals(List.of(
            "4 truncated: a stats line that ends before its last field",
            "5 truncated: a stats line that ends before its last field",
            "7 stats line: field Waiting: not a number: \"? reqs\"",
            "8 truncated last line: a stats line that ends before its last field"),
        p.sink.rejects.stream().map(r -> r.lineNo() + " " + r.reason()).toList());
  }

  /**
   * A value a no-value word runs into ("n/a5", "5n/a", "nan5") is no number: the line is a reject
   * naming its field (it read as 5 % or 5 reqs, the number found inside the text), where "n/a" or
   * "nan" alone still leaves the column empty. Made-up lines.
   */
  @Test
  void aNumberRunIntoANoValueWordIsARejectNamingItsField() throws Exception {
    String head = "INFO 05-30 07:55:2%d [loggers.py:1] Engine 000: Avg prompt throughput: 0.0 tokens/s,"
        + " Avg generation throughput: 20.3 tokens/s, Running: 1 reqs, Waiting: %s, GPU KV cache usage: 0.1%%,"
        + " Prefix cache hit rate: %s\n";
    Parse p = Parse.text(LOG, String.format(head, 0, "0 reqs", "n/a5")
        + String.format(head, 1, "5n/a", "0.0%") + String.format(head, 2, "nan5 reqs", "0.0%")
        + String.format(head, 3, "n/a", "nan") + String.format(head, 4, "2 reqs", "5n/a%")
        + String.format(head, 5, "2 reqs", "0.0%, Spec rate: n/a5, Draft rate: 7n/a"),
        Parse.ctx(2025, null, false, null));
    assertEquals(List.of(
            "1 stats line: field Prefix cache hit rate: not a number: \"n/a5\"",
            "2 stats line: field Waiting: not a number: \"5n/a\"",
            "3 stats line: field Waiting: not a number: \"nan5 reqs\"",
            "5 stats line: field Prefix cache hit rate: not a number: \"5n/a%\""),
        p.sink.rejects.stream().map(r -> r.lineNo() + " " + r.reason()).toList());
    assertEquals(List.of("4 null 0.001 null", "6 2 0.001 0.0"),
        p.full.stats.stream().map(s -> s.lineNo + " " + s.waiting + " " + s.kvUsage + " " + s.prefixHitRate).toList());
    // a field no spec names keeps its numbers in extras: none in these
    assertEquals(java.util.Map.of(), p.full.stats.get(1).extras);
  }

  /**
   * An access line cut before its status (a terminal's width, a paste) is a truncated reject: the
   * status it lost may have been a failure's. Whole lines around it are read.
   */
  @Test
  void anAccessLineCutBeforeItsStatusIsTruncated() throws Exception {
    Parse p = Parse.text(LOG, "INFO 05-30 07:55:20 [loggers.py:1] Engine 000: Avg prompt throughput: 0.0 tokens/s,"
        + " Avg generation throughput: 20.3 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.1%,"
        + " Prefix cache hit rate: 0.0%\n"
        + "INFO:     172.17.0.1:47466 - \"POST /v1/chat/completions HTTP/1.1\" 500 Internal Server Error\n"
        + "INFO:     172.17.0.1:47467 - \"POST /v1/chat/completions HTTP/1.1\" 5\n"
        + "INFO:     172.17.0.1:47468 - \"POST /v1/chat/comp\n"
        + "INFO:     172.17.0.1:47469 - \"GET /metrics HTTP/1.1\" 200 OK\n", Parse.ctx(2025, null, false, null));
    assertEquals(List.of(3L, 4L), p.sink.rejects.stream().map(r -> r.lineNo()).toList(), p.sink.rejects.toString());
    assertTrue(p.sink.rejects.stream().allMatch(r -> r.reason().startsWith("truncated: an access line")),
        p.sink.rejects.toString());
    assertEquals(List.of("error"), p.full.requests.stream().map(r -> r.status).toList(), "the whole 500 line");
  }

  /**
   * A vLLM 0.3 stats line with "Avg time/tok:149.4 ms" (no space after the colon; real,
   * vllm-project/vllm#2731): its own figure, and "Max iteration time" keeps 386.7 (it was
   * overwritten by 149.4).
   */
  @Test
  void aKeyGluedToItsNumberIsAFigureOfItsOwn() throws Exception {
    Parse p = Parse.text(LOG, "INFO 02-01 06:36:05 llm_engine.py:921] Avg prompt throughput: 382.6 tokens/s, Avg generation"
        + " throughput: 118.5 tokens/s, Max iteration time: 386.7 ms, Avg time/tok:149.4 ms, Running: 35 reqs, Swapped: 0"
        + " reqs, Pending: 115 reqs, GPU KV cache usage: 99.0%, CPU KV cache usage: 0.0%\n", Parse.ctx(2024, null, false, null));
    var st = p.full.stats.get(0);
    assertEquals(List.of(35, 115), List.of(st.running, st.waiting));
    assertEquals(386.7, st.extras.get("max_iteration_time"));
    assertEquals(149.4, st.extras.get("avg_time_tok"));
  }

  /**
   * V1's AsyncLLM.abort logs one line a call, its ids joined by commas ("Aborted request(s) %s.",
   * ",".join(request_ids); an RL trainer aborting all in flight, the RLHF router's
   * /abort_requests): lines made from that format string. Each request named is cancelled (before,
   * one request named "a,b" was cancelled and the two in flight were left unended); a list cut
   * before its period is rejected, never read as fewer aborts.
   */
  @Test
  void anAbortOfSeveralRequestsCancelsEach() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "(APIServer pid=1) INFO 06-30 10:00:00 [async_llm.py:382] Added request cmpl-r1-0-1a2b3c4d.\n"
        + "(APIServer pid=1) INFO 06-30 10:00:00 [async_llm.py:382] Added request cmpl-r2-0-5e6f7a8b.\n"
        + "(APIServer pid=1) INFO 06-30 10:00:00 [async_llm.py:382] Added request cmpl-r3-0-9c0d1e2f.\n"
        + "(APIServer pid=1) INFO 06-30 10:00:04 [async_llm.py:836] Aborted request(s) cmpl-r1-0-1a2b3c4d,cmpl-r2-0-5e6f7a8b.\n"
        + "(APIServer pid=1) INFO 06-30 10:00:05 [async_llm.py:836] Aborted request(s) cmpl-r3-0-9c0d1e2f,cmpl-r4",
        Parse.ctx(2026, null, false, null));
    assertEquals(List.of("cmpl-r1-0-1a2b3c4d cancelled", "cmpl-r2-0-5e6f7a8b cancelled", "cmpl-r3-0-9c0d1e2f null"),
        p.full.requests.stream().map(r -> r.requestId + " " + r.status).sorted().toList());
    assertEquals(List.of(Parse.ns("2026-06-30T10:00:04Z"), Parse.ns("2026-06-30T10:00:04Z")),
        p.full.requests.stream().filter(r -> "cancelled".equals(r.status)).map(r -> r.finishedNs).toList());
    assertEquals(1, p.sink.rejects.size(), "the cut list");
    assertTrue(p.sink.rejects.get(0).reason().startsWith("truncated"), p.sink.rejects.toString());
  }

  /** vLLM 0.1.x's scheduler stats line (vllm-project/vllm#633, 2023): read (0 records before). */
  @Test
  void theStatsLineOfVllm01IsRead() throws Exception {
    Parse p = Parse.text(LOG, "INFO 08-01 03:08:45 scheduler.py:271] Throughput: 181.6 tokens/s, Running: 1 reqs,"
        + " Swapped: 0 reqs, Pending: 2 reqs, GPU KV cache usage: 100.0%, CPU KV cache usage: 0.0%\n"
        + "INFO 08-01 03:08:51 scheduler.py:271] Throughput: 185.4 tokens/s, Running: 1 reqs, Swapped: 0 reqs, Pen\n",
        Parse.ctx(2023, null, false, null));
    assertEquals(1, p.full.stats.size());
    var st = p.full.stats.get(0);
    assertEquals(List.of(1, 2, 0, 1.0, 181.6), java.util.Arrays.asList(st.running, st.waiting, st.swapped, st.kvUsage,
        st.extras.get("tokens_per_s")));
    assertEquals(1, p.sink.rejects.size(), "the cut line");
    assertTrue(p.sink.rejects.get(0).reason().startsWith("truncated"), p.sink.rejects.toString());
  }

  /**
   * A custom formatter's time of day alone ("13:57:45 …", vllm#41081) after vLLM's own header in
   * the same file: dated by the header's day, not by the file's; its token lines are read too.
   */
  @Test
  void aTimeOfDayAloneTakesTheDayOfTheLineBefore() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "INFO 03-09 23:59:50 [loggers.py:1] " + STATS + "\n"
        + "00:00:01 Received request cmpl-1: prompt: 'hi', params: SamplingParams(max_tokens=2), prompt_token_ids: [1, 2], lora_request: None.\n"
        + "00:00:01 Added request cmpl-1.\n"
        + "00:00:02 Generated response cmpl-1 (streaming delta): output: 'a', output_token_ids: [5], finish_reason: None\n"
        + "00:00:03 Generated response cmpl-1 (streaming delta): output: 'b', output_token_ids: [6], finish_reason: length\n",
        Parse.ctx(null, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(Parse.ns("2025-03-09T23:59:50Z"), p.full.stats.get(0).tsNs);
    assertEquals(1, p.full.requests.size(), p.full.requests.toString());
    assertEquals(Parse.ns("2025-03-10T00:00:01Z"), p.full.requests.get(0).arrivalNs);
    assertEquals(Parse.ns("2025-03-10T00:00:03Z"), p.full.requests.get(0).finishedNs);
    assertEquals(2, p.full.tokens.size());
  }

  /**
   * A server stopped and started again in one log (0.2x's "Starting vLLM server on …", the
   * launcher's "Shutting down FastAPI HTTP server."): the start and the stop are events, uvicorn's
   * timeless "Application startup complete." is placed at the last time the log gave; a request
   * that finishes after the stop (uvicorn drains its connections) is ok, one still in flight when
   * the server starts again is lost.
   */
  @Test
  void startsAndStopsAreEventsAndOnlyAStartEndsWhatIsInFlight() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "(APIServer pid=4) INFO 09-23 17:13:00 [api_server.py:617] Starting vLLM server on http://0.0.0.0:8000\n"
        + "(APIServer pid=4) INFO:     Application startup complete.\n"
        + "(APIServer pid=4) INFO 09-23 17:20:00 [logger.py:41] Received request chatcmpl-8: prompt: 'hi', params: SamplingParams(max_tokens=2), prompt_token_ids: [1, 2], lora_request: None.\n"
        + "(APIServer pid=4) INFO 09-23 17:20:00 [logger.py:41] Received request chatcmpl-9: prompt: 'hi', params: SamplingParams(max_tokens=2), prompt_token_ids: [1, 2], lora_request: None.\n"
        + "(APIServer pid=4) INFO 09-23 18:06:57 [launcher.py:137] Shutting down FastAPI HTTP server.\n"
        + "(APIServer pid=4) INFO 09-23 18:06:58 [async_llm.py:1] Finished request chatcmpl-8.\n"
        + "(APIServer pid=4) INFO 09-23 19:41:00 [api_server.py:617] Starting vLLM server on http://0.0.0.0:8000\n",
        Parse.ctx(null, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(List.of("start", "ready", "stop", "start"), p.full.events.stream().map(e -> e[1]).toList());
    assertEquals(Long.toString(Parse.ns("2025-09-23T17:13:00Z")), p.full.events.get(1)[4]);
    assertEquals(List.of("chatcmpl-8 ok", "chatcmpl-9 lost"),
        p.full.requests.stream().map(r -> r.requestId + " " + r.status).sorted().toList());
  }

  @Test
  void containerTimestampsGiveSubSecondTimeYearAndZone() throws Exception {
    // the container's UTC time is 2 h behind vLLM's local 10:00:01: the zone is UTC+02:00
    Parse p = Parse.text(LOG, ""
        + "2026-05-12T08:00:01.331095044Z (APIServer pid=31) INFO 05-12 10:00:01 [loggers.py:1] " + STATS + "\n"
        + "INFO 05-12 10:00:11 [loggers.py:1] " + STATS + "\n", Parse.ctx(null, null, false, null));
    assertEquals(2, p.full.stats.size());
    assertEquals(Parse.ns("2026-05-12T08:00:01.331095044Z"), p.full.stats.get(0).tsNs);
    // the second line has only vLLM's own time: year and zone learned from the first
    assertEquals(Parse.ns("2026-05-12T08:00:11Z"), p.full.stats.get(1).tsNs);
    // the log's clock is named by its absolute path, so its rotated files share it however typed
    String log = "vllm-log " + java.nio.file.Path.of("test.log").toAbsolutePath();
    assertEquals(List.of(new ClockSpec("wall", log, 1, null, false),
        new ClockSpec("wall", log, 1_000_000_000L, "+02:00", false)), p.sink.clocks);
  }

  @Test
  void givenZoneAndYearAreUsedAndTheYearRollsOverOnlyFromDecemberToJanuary() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "INFO 12-31 23:59:59 [loggers.py:1] " + STATS + "\n"
        + "INFO 01-01 00:00:09 [loggers.py:1] " + STATS + "\n", Parse.ctx(2025, ZoneId.of("Europe/Berlin"), false, null));
    assertEquals(Parse.ns("2025-12-31T22:59:59Z"), p.full.stats.get(0).tsNs);
    assertEquals(Parse.ns("2025-12-31T23:00:09Z"), p.full.stats.get(1).tsNs);
    assertEquals("Europe/Berlin", p.sink.clocks.get(0).tz());
    assertEquals(false, p.sink.clocks.get(0).tzAssumed());
  }

  @Test
  void withoutAYearTheFileDateDecides() throws Exception {
    // the file was last written on 2025-12-31: a line of March is of 2025
    Parse p = Parse.text(LOG, "INFO 03-01 00:00:00 [loggers.py:1] " + STATS + "\n", Parse.ctx(null, null, false, null));
    assertEquals(Parse.ns("2025-03-01T00:00:00Z"), p.full.stats.get(0).tsNs);
  }

  @Test
  void logConfigFormattersOfEveryLayoutArePeeled() throws Exception {
    // "%(asctime)s %(levelname)s %(name)s - ", "[%(asctime)s] [%(levelname)s] %(name)s: " and
    // "%(asctime)s - %(levelname)s - ": the line's local time to the ms, with its year
    Parse p = Parse.text(LOG, ""
        + "2025-11-17 14:50:30,270 INFO vllm.v1.metrics.loggers - " + STATS + "\n"
        + "[2025-11-17 14:50:31,271] [INFO] vllm.v1.metrics.loggers: " + STATS + "\n"
        + "2025-11-17 14:50:32.272 - INFO - " + STATS + "\n"
        // a container's RFC 3339 time is no formatter's (a T, not a space)
        + "2025-11-17T14:50:33.273Z 2025-11-17 14:50:33,273 INFO vllm.v1.metrics.loggers - " + STATS + "\n",
        Parse.ctx(null, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(4, p.full.stats.size());
    assertEquals(Parse.ns("2025-11-17T14:50:30.270Z"), p.full.stats.get(0).tsNs);
    assertEquals("Engine 000", p.full.stats.get(0).instance);
    assertEquals(Parse.ns("2025-11-17T14:50:31.271Z"), p.full.stats.get(1).tsNs);
    assertEquals(Parse.ns("2025-11-17T14:50:32.272Z"), p.full.stats.get(2).tsNs);
    assertEquals(Parse.ns("2025-11-17T14:50:33.273Z"), p.full.stats.get(3).tsNs);
  }

  @Test
  void aDayAfterTheFilesDateIsOfTheYearBefore() throws Exception {
    // the file was last written on 2026-12-05: its lines are no later, so 12-22 is of 2025; a
    // day's slack is left for a line's clock in another zone than the one assumed
    var written = new dev.tokentime.ingest.ParseContext("w.log", "r1", false, null, null,
        Instant.parse("2026-12-05T10:00:00Z"), null);
    for (String[] c : new String[][] {{"12-22", "2025"}, {"12-07", "2025"}, {"12-06", "2026"}, {"12-05", "2026"},
        {"11-30", "2026"}}) {
      Parse p = Parse.text(LOG, "INFO " + c[0] + " 21:44:40 [loggers.py:1] " + STATS + "\n", written);
      assertEquals(Parse.ns(c[1] + "-" + c[0] + "T21:44:40Z"), p.full.stats.get(0).tsNs, c[0]);
    }
  }

  /**
   * A dated line near the top (a formatter's, a wrapper's) dates the month-day lines before it,
   * where the file's modification date is that of a copy (xinference#3787's paste, real lines).
   */
  @Test
  void aDatedLineInTheHeadDatesTheMonthDayLinesBeforeIt() throws Exception {
    var copied = new dev.tokentime.ingest.ParseContext("w.log", "r1", false, null, null,
        Instant.parse("2026-12-05T10:00:00Z"), null);
    Parse p = Parse.text(LOG, ""
        + "INFO 07-08 17:36:58 [async_llm.py:271] Added request 17e83250-5bdf-11f0-be71-0242a0580c28.\n"
        + "2025-07-08 17:36:59,526 xinference.model.llm.vllm.core 458 INFO     Generate finished, request_id: 17e83250\n"
        + "2025-07-08 17:24:00 - vllm.engine.metrics - INFO - " + STATS + "\n", copied);
    assertEquals(Parse.ns("2025-07-08T17:36:58Z"), p.full.requests.get(0).arrivalNs, "2025, not the copy's 2026");
    // across a new year: 12-31 before a line of 2026-01-01 is of 2025
    Parse q = Parse.text(LOG, ""
        + "INFO 12-31 23:59:58 [loggers.py:1] " + STATS + "\n"
        + "2026-01-01 00:00:08 - vllm.engine.metrics - INFO - " + STATS + "\n", copied);
    assertEquals(Parse.ns("2025-12-31T23:59:58Z"), q.full.stats.get(0).tsNs);
    // --year still decides
    Parse r = Parse.text(LOG, ""
        + "INFO 07-08 17:36:58 [loggers.py:1] " + STATS + "\n"
        + "2025-07-08 17:24:00 - vllm.engine.metrics - INFO - " + STATS + "\n", Parse.ctx(2024, null, false, null));
    assertEquals(Parse.ns("2024-07-08T17:36:58Z"), r.full.stats.get(0).tsNs);
  }

  @Test
  void outerPrefixesOfEveryKindArePeeledOff() throws Exception {
    String esc = "\u001b[0;36m";
    String reset = "\u001b[0;0m";
    Parse p = Parse.text(LOG, ""
        + esc + "(APIServer pid=31)" + reset + " INFO 05-12 10:00:01 [loggers.py:1] " + STATS + "\n"
        + "vllm-1  | (EngineCore pid=925) (RayWorkerProc pid=8272) INFO 05-12 10:00:02 [v1/engine/core.py:407] Iteration(5): 1 context requests, 512 context tokens, 3 generation requests, 3 generation tokens, iteration elapsed time: 25.77 ms (dummy)\n"
        + "авг 18 14:15:04 llm python3[28059]: INFO 08-18 14:15:04 [loggers.py:1] " + STATS + "\n"
        + "2025-07-08 17:24:00 - vllm.engine.metrics - INFO - Avg prompt throughput: 1.0 tokens/s, Avg generation throughput: 2.0 tokens/s, Running: 4 reqs, Swapped: 0 reqs, Pending: 1 reqs, GPU KV cache usage: 3.0%, CPU KV cache usage: 0.0%.\n"
        + "[pod/vllm-0/vllm] INFO 05-12 10:00:03 [loggers.py:1] 2 Engines Aggregated: Avg prompt throughput: 1.0 tokens/s, Avg generation throughput: 2.0 tokens/s, Running: 7 reqs, Waiting: 0 reqs, Deferred: 2 reqs, GPU KV cache usage: 3.0%, Prefix cache hit rate: 0.0%, New field: 4 widgets\n",
        Parse.ctx(2025, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(Map.of("stats", 4L, "iteration", 1L), p.kinds());
    assertEquals(3, p.full.stats.get(0).running);
    assertEquals("Engine 000", p.full.stats.get(0).instance);
    var step = p.full.steps.get(0);
    assertEquals("vllm-1 / EngineCore pid=925 / RayWorkerProc pid=8272", step.instance);
    assertEquals(512, step.ctxTokens);
    assertEquals(Map.of("dummy", 1.0), step.extras);
    assertEquals(Parse.ns("2025-08-18T14:15:04Z"), p.full.stats.get(1).tsNs);
    // an embedding app's formatter carries a year
    assertEquals(Parse.ns("2025-07-08T17:24:00Z"), p.full.stats.get(2).tsNs);
    assertEquals(1, p.full.stats.get(2).waiting);
    // a field no version had lands in extras; Deferred is known
    assertEquals(Map.of("deferred", 2.0, "new_field", 4.0), p.full.stats.get(3).extras);
    // the engine's own name behind the wrapper's identity: replicas in one stream stay apart
    assertEquals("pod/vllm-0/vllm / 2 Engines Aggregated", p.full.stats.get(3).instance);
    assertEquals("llm/python3[28059] / Engine 000", p.full.stats.get(1).instance);
  }

  @Test
  void aStreamedRequestFromReceivedToItsLastDelta() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "(APIServer pid=1) INFO 05-21 00:19:05 [logger.py:43] Received request chatcmpl-a1: params: SamplingParams(max_tokens=5), prompt_token_ids: [1, 2, 3, 4], lora_request: None.\n"
        + "(APIServer pid=1) INFO:     10.0.0.1:5000 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n"
        + "(APIServer pid=1) INFO 05-21 00:19:05 [async_llm.py:1] Added request chatcmpl-a1-0a1b2c3d.\n"
        + "(APIServer pid=1) INFO 05-21 00:19:06 [logger.py:92] Generated response chatcmpl-a1 (streaming delta): output: '', output_token_ids: [], finish_reason: None\n"
        + "(APIServer pid=1) INFO 05-21 00:19:06 [logger.py:92] Generated response chatcmpl-a1 (streaming delta): output: 'He', output_token_ids: [10, 11], finish_reason: None\n"
        + "(APIServer pid=1) INFO 05-21 00:19:08 [logger.py:92] Generated response chatcmpl-a1 (streaming delta): output: 'llo', output_token_ids: [12], finish_reason: length\n"
        + "(APIServer pid=1) INFO:     10.0.0.1:5001 - \"GET /metrics HTTP/1.1\" 200 OK\n",
        Parse.ctx(2025, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(6, p.sink.records);
    assertEquals(1, p.sink.other, "the /metrics access line");
    RequestRecord r = p.full.request("chatcmpl-a1");
    assertEquals(Parse.ns("2025-05-21T00:19:05Z"), r.arrivalNs);
    assertEquals(Parse.ns("2025-05-21T00:19:06Z"), r.firstTokenNs);
    assertEquals(Parse.ns("2025-05-21T00:19:08Z"), r.lastTokenNs);
    assertEquals(Parse.ns("2025-05-21T00:19:08Z"), r.finishedNs);
    assertEquals(3, r.outputTokens);
    assertEquals(4, r.promptTokens);
    assertEquals("length", r.finishReason);
    assertEquals("ok", r.status);
    assertEquals(200, r.httpStatus);
    assertEquals(List.of(0, 2, 1), p.sink.tokens.stream().map(t -> t.nTokens()).toList());
    assertEquals("EMPTY", p.sink.tokens.get(0).kind().name());
  }

  /**
   * vLLM from 2026-08 (#52098): the INFO response line keeps text and finish reason, the token ids
   * moved to a DEBUG line right before it. At DEBUG both are read as one delta with its count; at
   * INFO alone the deltas stay (first token, last token, finish reason), their counts unknown.
   */
  @Test
  void responseLinesWithoutTheirIdsAndTheDebugLineThatCarriesThem() throws Exception {
    Path dir = Path.of("src/test/resources/constructed/vllm-log-outputs-2026");
    Parse debug = Parse.text(LOG, Files.readString(dir.resolve("debug.log")), Parse.ctx(2026, null, false, null));
    assertEquals(List.of(), debug.sink.rejects);
    assertEquals(0, debug.sink.other);
    assertEquals(13, debug.sink.records, "every line a record: the version, prompt and ids lines too");
    RequestRecord r = debug.full.request("chatcmpl-9f2a");
    assertEquals(Parse.ns("2026-08-20T10:00:05Z"), r.arrivalNs);
    assertEquals(Parse.ns("2026-08-20T10:00:06Z"), r.firstTokenNs);
    assertEquals(Parse.ns("2026-08-20T10:00:07Z"), r.lastTokenNs);
    assertEquals(Parse.ns("2026-08-20T10:00:07Z"), r.finishedNs);
    assertEquals("stop", r.finishReason);
    assertEquals("ok", r.status);
    assertEquals(200, r.httpStatus);
    assertEquals(3, r.outputTokens, "the deltas' ids: 0 + 2 + 1 (the complete line's are None)");
    assertEquals(List.of(0, 2, 1), debug.sink.tokens.stream().map(t -> t.nTokens()).toList());
    assertEquals(List.of("EMPTY", "CONTENT", "CONTENT"), debug.sink.tokens.stream().map(t -> t.kind().name()).toList());

    Parse info = Parse.text(LOG, Files.readString(dir.resolve("info.log")), Parse.ctx(2026, null, false, null));
    assertEquals(List.of(), info.sink.rejects);
    RequestRecord i = info.full.request("chatcmpl-9f2a");
    assertEquals(r.firstTokenNs, i.firstTokenNs, "the empty first delta is no first token, by its text");
    assertEquals(r.lastTokenNs, i.lastTokenNs);
    assertEquals("stop", i.finishReason);
    assertEquals(200, i.httpStatus);
    assertNull(i.outputTokens, "no ids at INFO: the count is unknown, never the number of lines");
    assertEquals(List.of("EMPTY", "CONTENT", "CONTENT"), info.sink.tokens.stream().map(t -> t.kind().name()).toList());
    assertTrue(info.sink.tokens.stream().allMatch(t -> t.nTokens() < 0),
        info.sink.tokens.toString());

    // cut inside the new line's finish reason, or inside its text: a reject each, never a delta
    for (String line : new String[] {
        "INFO 08-20 10:00:06 [request_logger.py:95] Generated response x (streaming delta): output: 'a', finish_reason: N",
        "INFO 08-20 10:00:06 [request_logger.py:95] Generated response x (streaming delta): output: 'a, finish",
        "DEBUG 08-20 10:00:06 [request_logger.py:88] Generated response x (streaming delta) details: output_token_ids: [1, 2"}) {
      Parse p = Parse.text(LOG, "INFO 08-20 10:00:05 [async_llm.py:1] Added request x.\n" + line,
          Parse.ctx(2026, null, false, null));
      assertEquals(1, p.sink.rejects.size(), line);
      assertTrue(p.sink.rejects.get(0).reason().startsWith("truncated"), p.sink.rejects.get(0).reason());
      assertEquals(List.of(), p.sink.tokens, line);
    }
  }

  /** A 5xx on the image, video, audio and SageMaker routes is a failed request too; a GET of them is no request. */
  @Test
  void errorsOnImageVideoAndAudioRoutesAreFailedRequests() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "INFO 05-21 00:19:05 [engine.py:1] Added request r-1.\n"
        + "INFO:     10.0.0.1:5000 - \"POST /v1/images/generations HTTP/1.1\" 500 Internal Server Error\n"
        + "INFO:     10.0.0.1:5001 - \"POST /v1/audio/transcriptions HTTP/1.1\" 503 Service Unavailable\n"
        + "INFO:     10.0.0.1:5002 - \"POST /v1/videos HTTP/1.1\" 500 Internal Server Error\n"
        + "INFO:     10.0.0.1:5003 - \"GET /v1/videos HTTP/1.1\" 500 Internal Server Error\n"
        // SageMaker's route (vLLM's and SGLang's /invocations), and its health probe
        + "INFO:     10.0.0.1:5004 - \"POST /invocations HTTP/1.1\" 500 Internal Server Error\n"
        + "INFO:     10.0.0.1:5005 - \"GET /ping HTTP/1.1\" 500 Internal Server Error\n",
        Parse.ctx(2025, null, false, null));
    assertEquals(List.of(500, 503, 500, 500), p.full.requests.stream().filter(r -> "error".equals(r.status))
        .map(r -> r.httpStatus).toList());
    assertEquals(2, p.sink.other, "the GETs");
  }

  /**
   * The scheduler's KV load failure (kv_load_failure_policy=fail) names the requests it fails in a
   * Python set: each is a failed request with the line's reason, its 500 its own; a request it
   * does not name stays ok; a line cut inside the set is rejected, never fewer failures.
   */
  @Test
  void aKvLoadFailureFailsEachRequestItNames() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "(APIServer pid=1) INFO 10-28 09:00:00 [async_llm.py:1] Added request cmpl-aaa-0.\n"
        + "(APIServer pid=1) INFO 10-28 09:00:00 [async_llm.py:1] Added request cmpl-bbb-0.\n"
        + "(APIServer pid=1) INFO 10-28 09:00:00 [async_llm.py:1] Added request cmpl-ccc-0.\n"
        + "(EngineCore_DP0 pid=120) ERROR 10-28 09:00:01 [scheduler.py:2192] Failing 2 request(s) due to KV load"
        + " failure (failure_policy=fail, 21376 tokens affected). Request IDs: {'cmpl-aaa-0', 'cmpl-bbb-0'}\n"
        + "(APIServer pid=1) INFO:     10.0.0.1:5000 - \"POST /v1/completions HTTP/1.1\" 500 Internal Server Error\n"
        + "(APIServer pid=1) INFO:     10.0.0.1:5001 - \"POST /v1/completions HTTP/1.1\" 500 Internal Server Error\n"
        + "(APIServer pid=1) INFO 10-28 09:00:03 [loggers.py:1] Finished request cmpl-ccc-0.\n"
        + "(EngineCore_DP0 pid=120) ERROR 10-28 09:00:04 [scheduler.py:2192] Failing 1 request(s) due to KV load"
        + " failure (failure_policy=fail, 512 tokens affected). Request IDs: {'cmpl-ddd-0', 'cmpl-e\n",
        Parse.ctx(2025, null, false, null));
    for (String id : List.of("cmpl-aaa-0", "cmpl-bbb-0")) {
      RequestRecord r = p.full.request(id);
      assertEquals("error", r.status, id);
      assertEquals("failed due to KV load failure (failure_policy=fail, 21376 tokens affected)", r.error, id);
      assertEquals(500, r.httpStatus, id);
      assertEquals(1_000_000_000L, r.finishedNs - r.arrivalNs, id);
    }
    assertEquals("ok", p.full.request("cmpl-ccc-0").status);
    assertEquals(3, p.full.requests.size(), "no request of a cut line, none of the 500s alone");
    assertEquals(1, p.sink.rejects.size());
    assertEquals(8, p.sink.rejects.get(0).lineNo());
    assertTrue(p.sink.rejects.get(0).reason().startsWith("truncated"), p.sink.rejects.get(0).reason());
  }

  @Test
  void nonStreamingResponsesAccessLinesAfterTheEndAndRefusedRequests() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "INFO 05-21 00:19:05 [logger.py:43] Received request cmpl-b-0: params: SamplingParams(max_tokens=5), lora_request: None.\n"
        + "INFO 05-21 00:19:07 [logger.py:92] Generated response cmpl-b-0: output: 'Hi there', output_token_ids: [5, 6, 7], finish_reason: stop\n"
        + "INFO:     127.0.0.1:59042 - \"POST /v1/completions HTTP/1.1\" 200 OK\n"
        + "INFO 05-21 00:19:09 [logger.py:43] Received request cmpl-c-0: params: SamplingParams(max_tokens=99999), lora_request: None.\n"
        + "INFO:     127.0.0.1:59043 - \"POST /v1/completions HTTP/1.1\" 400 Bad Request\n",
        Parse.ctx(2025, null, true, null));
    RequestRecord b = p.full.request("cmpl-b-0");
    assertEquals(3, b.outputTokens);
    assertEquals(200, b.httpStatus);
    assertEquals(2_000_000_000L, b.finishedNs - b.arrivalNs);
    assertEquals("'Hi there'", b.extras.get("output"));
    RequestRecord c = p.full.request("cmpl-c-0");
    assertEquals(400, c.httpStatus);
    assertEquals("error", c.status);
    assertEquals(5, p.sink.records);
  }

  @Test
  void aRestartMarksWhatWasInFlightLostAndRepeatedIdsAreRejected() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "INFO 05-21 00:19:05 [engine.py:1] Added request r-1.\n"
        + "INFO 05-21 00:19:06 [engine.py:2] Finished request r-1.\n"
        + "INFO 05-21 00:19:07 [engine.py:1] Added request r-2.\n"
        + "INFO 05-21 00:20:00 [api_server.py:1] vLLM API server version 0.6.3\n"
        + "INFO 05-21 00:20:05 [engine.py:1] Added request r-1.\n",
        Parse.ctx(2025, null, false, null));
    assertEquals("ok", p.full.request("r-1").status);
    assertEquals("lost", p.full.request("r-2").status);
    assertEquals("4", p.full.request("r-2").extras.get("lost_at_line"));
    assertEquals(1, p.sink.rejects.size());
    assertEquals(5, p.sink.rejects.get(0).lineNo());
    assertTrue(p.sink.rejects.get(0).reason().contains("repeats a request already read"), p.sink.rejects.get(0).reason());
    assertEquals(List.of("4 version 0.6.3"), p.sink.events);
  }

  /**
   * A traceback is no second crash only after its own process's death line: another process's
   * traceback interleaved there is a crash of its own; uvicorn's traceback of a failed shutdown
   * is none; a tagged worker behind an unknown wrapper keeps its process (the review's cases).
   */
  @Test
  void aTracebackFollowsItsOwnProcesssDeath() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "(VllmWorker TP0 pid=1) ERROR 08-22 09:46:12 [multiproc_executor.py:1] WorkerProc hit an exception.\n"
        + "(VllmWorker TP0 pid=1) ERROR 08-22 09:46:12 [multiproc_executor.py:1] Traceback (most recent call last):\n"
        + "(APIServer pid=3) ERROR 08-22 09:46:12 [core.py:1] Traceback (most recent call last):\n"
        + "INFO:     Shutting down\n"
        + "INFO:     Waiting for application shutdown.\n"
        + "ERROR:    Traceback (most recent call last):\n"
        + "INFO:     Started server process [8]\n"
        + "[VllmSidecar abc]: 2025-08-22T09:46:13.672Z 1 stdout: (VllmWorker TP1 pid=21355) ERROR 08-22 09:46:13"
        + " [multiproc_executor.py:559] WorkerProc failed to start.\n",
        Parse.ctx(2025, null, false, null));
    // in line order: a traceback's event is written when its exception line (here none) is read
    List<String[]> events = p.full.events.stream()
        .sorted(java.util.Comparator.comparingLong(e -> Long.parseLong(e[0]))).toList();
    // (the server starts again before the sidecar's worker fails: a death's words before a new
    // start are that death told again)
    assertEquals(List.of("1 crash", "3 crash", "4 stop", "7 start", "8 crash"),
        events.stream().map(e -> e[0] + " " + e[1]).toList());
    assertEquals("VllmWorker TP1 pid=21355", events.get(4)[3]);
    assertEquals("Traceback (most recent call last):", events.get(1)[2]);
  }

  /** The rules of matching an error line to the request a death or failure ended (constructed/vllm-death, README there). */
  @Test
  void errorsAfterADeathFindTheirRequests() throws Exception {
    java.util.Map<String, List<String>> want = new java.util.LinkedHashMap<>();
    want.put("two-failed-then-two-500s.log", List.of("chatcmpl-aaa error 500", "chatcmpl-bbb error 500"));
    want.put("streamed-200-then-death-then-4xx.log", List.of("cmpl-17baf80e349d4adfb4e385cf652e427a-0 lost 200",
        "http-400-line-9 error 400", "http-404-line-10 error 404", "cmpl-22222222222222222222222222222222-0 lost null"));
    want.put("added-after-death-line.log", List.of("chatcmpl-b3678bb5415c4440b811f5d3598e1323 error 500"));
    want.put("caller-id-failed-for-suffixed-engine-id.log", List.of("chatcmpl-a1-1a2b3c4d error 500",
        "chatcmpl-b1-1a2b3c4e error 500"));
    want.put("death-then-500-ten-minutes-later.log", List.of("chatcmpl-aaa lost null", "http-500-line-6 error 500"));
    for (var e : want.entrySet()) {
      String text = java.nio.file.Files.readString(java.nio.file.Path.of("src/test/resources/constructed/vllm-death", e.getKey()));
      Parse p = Parse.text(LOG, text, Parse.ctx(2025, null, false, null));
      assertEquals(List.of(), p.sink.rejects, e.getKey());
      assertEquals(e.getValue(), p.full.requests.stream().map(r -> r.requestId + " " + r.status + " " + r.httpStatus).toList(),
          e.getKey());
    }    String json = java.nio.file.Files.readString(
        java.nio.file.Path.of("src/test/resources/constructed/vllm-death/docker-json-death-then-traceback.json"));
    Parse wrapped = Parse.text(LOG, json, Parse.ctx(2025, null, false, null));
    assertEquals(1, wrapped.full.events.stream().filter(ev -> ev[1].equals("crash")).count(), "one death, one crash");
  }

  /**
   * A V1 server under Ray's executor: the raylet's word on the dead worker, then the front end's
   * EngineDeadError (constructed/vllm-ray-death, README there). Before, two crashes (the raylet's
   * counted by the spec, the EngineDeadError by the request tracker, each blind to the other);
   * now one, and the request open at it ends once: lost at the EngineDeadError (the raylet names
   * no server of its cluster), answered by the 500.
   */
  @Test
  void aRayWorkersDeathThenEngineDeadErrorIsOneCrash() throws Exception {
    String text = java.nio.file.Files.readString(java.nio.file.Path.of(
        "src/test/resources/constructed/vllm-ray-death/raylet-worker-died-then-enginedeaderror.log"));
    Parse p = Parse.text(LOG, text, Parse.ctx(2025, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(List.of("3 crash"), p.full.events.stream().map(e -> e[0] + " " + e[1]).toList());
    assertEquals(1, p.full.requests.size());
    RequestRecord r = p.full.requests.get(0);
    assertEquals(List.of("error", "500", "12"), List.of(r.status, String.valueOf(r.httpStatus), r.extras.get("lost_at_line")));
    assertEquals(14, p.lines);
    assertEquals(5, p.sink.records, "the stats-free log's records: Received, Added, the crash, failed, the 500");
  }

  /**
   * A 2026 V1 engine core under Ray (vllm-project/vllm#38529, real-logs/vllm): the raylet's word on
   * its dead worker, then "EngineCore failed to start.". Before, two crashes (the raylet's kind and
   * the engine's words each counted one); now the engine's line is that death told again.
   */
  @Test
  void theEngineCoresWordsAfterARayWorkersDeathAreThatDeath() throws Exception {
    String text = java.nio.file.Files.readString(java.nio.file.Path.of("src/test/resources/real-logs/vllm/"
        + "v1-2026-raylet-worker-died-then-enginecore-failed-to-start-pr38529.log"));
    Parse p = Parse.text(LOG, text, Parse.ctx(2026, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(List.of("1 crash"), p.full.events.stream().map(e -> e[0] + " " + e[1]).toList());
    assertTrue(p.full.events.get(0)[2].startsWith("Worker PID: 442 Worker exit type: SYSTEM_ERROR"), p.full.events.get(0)[2]);
    assertEquals(1, p.sink.records);
    assertEquals(5, p.sink.other, "the engine's line and its traceback (its four lines)");
  }

  /**
   * V0's death in three lines (lifecycle/10, vllm-project/vllm#10024): "RuntimeError('Engine loop
   * has died')", its traceback's exception line, the launcher's "MQLLMEngine is already dead":
   * one crash (three before), and the request open at it lost once, at the first.
   */
  @Test
  void aV0DeathToldThriceIsOneCrash() throws Exception {
    String text = java.nio.file.Files.readString(java.nio.file.Path.of(
        "src/test/resources/real-logs/lifecycle/10-v06-added-engine-loop-died-mqllm-dead-vllm10024.log"));
    Parse p = Parse.text(LOG, text, Parse.ctx(2024, null, false, null));
    assertEquals(List.of("2 crash"), p.full.events.stream().map(e -> e[0] + " " + e[1]).toList());
    assertEquals(1, p.full.requests.size());
    assertEquals(List.of("lost", "2"), List.of(p.full.requests.get(0).status, p.full.requests.get(0).extras.get("lost_at_line")));
  }

  /**
   * A CRLF log copied out of a pager shows each carriage return as the two characters "^M"
   * (vllm-project/vllm-ascend#10630, 2026, real-logs/vllm). Before, they stayed in what was read
   * (the crash's detail "EngineCore encountered a fatal error.^M"; a request line's id); now they
   * are removed as the CR itself is.
   */
  @Test
  void caretMAtALinesEndIsACarriageReturn() throws Exception {
    String text = java.nio.file.Files.readString(java.nio.file.Path.of("src/test/resources/real-logs/vllm/"
        + "ascend-2026-caret-m-line-ends-enginecore-fatal-ascend10630.log"));
    Parse p = Parse.text(LOG, text, Parse.ctx(2026, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(1, p.full.events.size());
    String[] e = p.full.events.get(0);
    assertEquals(List.of("1", "crash", "EngineCore encountered a fatal error.", "EngineCore_DP0 pid=62024"),
        List.of(e[0], e[1], e[2], e[3]));
  }

  /**
   * A worker killed by PyTorch's NCCL watchdog (vllm-project/vllm#6042, real-logs/vllm): V0's
   * watcher logs "Worker VllmWorkerProcess pid 1159 died, exit code: -6", the watchdog "To avoid
   * data inconsistency, we are taking the entire process down.". Before, no crash at all; now one,
   * the watcher's line; the watchdog's alone is one too; an exit of -15 (a stop) is none.
   */
  @Test
  void aWorkerDeadOfTheNcclWatchdogIsOneCrash() throws Exception {
    String text = java.nio.file.Files.readString(java.nio.file.Path.of("src/test/resources/real-logs/vllm/"
        + "v05-worker-died-exit-6-nccl-watchdog-process-down-vllm6042.log"));
    Parse p = Parse.text(LOG, text, Parse.ctx(2024, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(List.of("1 crash Worker VllmWorkerProcess pid 1159 died, exit code: -6"),
        p.full.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2]).toList());
    // the watchdog's lines alone, the paste's "  | " before them taken off
    Parse watchdog = Parse.text(LOG, text.lines().skip(2).map(l -> l.substring(4) + "\n")
        .collect(java.util.stream.Collectors.joining()), Parse.ctx(2024, null, false, null));
    assertEquals(List.of("4 crash"), watchdog.full.events.stream().map(e -> e[0] + " " + e[1]).toList(),
        "the watchdog's word alone is the death");
    // the whole excerpt as the server wrote it (no paste's "  | "): the watcher's word and rank0's
    // watchdog line are one death (before, two: "[rank0]:" was taken for a server of its own)
    Parse bare = Parse.text(LOG, text.lines().map(l -> l.substring(4) + "\n")
        .collect(java.util.stream.Collectors.joining()), Parse.ctx(2024, null, false, null));
    assertEquals(List.of("1 crash Worker VllmWorkerProcess pid 1159 died, exit code: -6"),
        bare.full.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2]).toList());
    Parse stopped = Parse.text(LOG, "ERROR 07-01 13:54:43 multiproc_worker_utils.py:120] Worker VllmWorkerProcess pid 1159"
        + " died, exit code: -15\n", Parse.ctx(2024, null, false, null));
    assertEquals(List.of(), stopped.full.events);
  }

  /**
   * TP=2: PyTorch's NCCL watchdog takes each rank's process down, and each rank logs it under
   * torch's "[rank0]:" / "[rank1]:" (constructed from vllm-project/vllm#6042's rank0 line). The
   * ranks are of one server: one crash, and the request open at it ends lost at the first rank's
   * word. Before, two crashes (instances rank0 and rank1) and the request left in flight.
   */
  @Test
  void eachRanksWatchdogWordIsOneDeathOfItsServer() throws Exception {
    String down = "[E ProcessGroupNCCL.cpp:583] [Rank %d] To avoid data inconsistency, we are taking the entire process down.\n";
    Parse p = Parse.text(LOG, ""
        + "INFO 07-01 13:44:40 engine.py:290] Added request chat-58cc8fe807d34717b775ea663d913bcb.\n"
        + "[rank0]:" + String.format(down, 0)
        + "[rank1]:" + String.format(down, 1),
        Parse.ctx(2024, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(List.of("2 crash rank0"), p.full.events.stream().map(e -> e[0] + " " + e[1] + " " + e[3]).toList());
    assertEquals(1, p.full.requests.size());
    assertEquals(List.of("lost", "2"), List.of(p.full.requests.get(0).status, p.full.requests.get(0).extras.get("lost_at_line")));
  }

  /**
   * The same death under mpirun --tag-output (its "[1,0]<stderr>:" names rank 0 of job 1; the
   * prefix as in sgl-project/sglang#3065): the ranks are of one server, one crash, the open request
   * lost at the first rank's word. Before, two crashes ([1,0] and [1,1]) and the request in flight.
   */
  @Test
  void eachMpiRanksWatchdogWordIsOneDeathOfItsServer() throws Exception {
    String down = "[E ProcessGroupNCCL.cpp:583] [Rank %d] To avoid data inconsistency, we are taking the entire process down.\n";
    Parse p = Parse.text(LOG, ""
        + "[1,0]<stdout>:INFO 07-01 13:44:40 engine.py:290] Added request chat-58cc8fe807d34717b775ea663d913bcb.\n"
        + "[1,0]<stderr>:" + String.format(down, 0)
        + "[1,1]<stderr>:" + String.format(down, 1),
        Parse.ctx(2024, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(List.of("2 crash [1,0]"), p.full.events.stream().map(e -> e[0] + " " + e[1] + " " + e[3]).toList());
    assertEquals(1, p.full.requests.size());
    assertEquals(List.of("lost", "2"), List.of(p.full.requests.get(0).status, p.full.requests.get(0).extras.get("lost_at_line")));
  }

  @Test
  void lifecycleLinesBecomeEngineEvents() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "INFO 05-21 00:19:00 [api_server.py:1] vLLM API server version 0.10.1\n"
        + "INFO 05-21 00:19:00 [utils.py:1] non-default args: {'model': 'x'}\n"
        + "INFO 05-21 00:19:01 [launcher.py:1] Started server process [7]\n"
        + "INFO 05-21 00:19:02 [launcher.py:1] Uvicorn running on http://0.0.0.0:8000\n"
        + "ERROR 05-21 00:19:03 [core.py:1] EngineCore encountered a fatal error.\n"
        + "Traceback (most recent call last):\n"
        + "  File \"x.py\", line 1, in <module>\n",
        Parse.ctx(2025, null, false, null));
    assertEquals(List.of("1 version 0.10.1", "2 config {'model': 'x'}", "3 start 7",
        "4 ready http://0.0.0.0:8000", "5 crash EngineCore encountered a fatal error."), p.sink.events,
        "the traceback right after the death it follows is that death, not a second crash");
    assertEquals(2, p.sink.other, "the traceback's first line and its frame line");
  }

  @Test
  void damagedLinesAreRejectedWithTheirLineAndReason() throws Exception {
    byte[] bad = "INFO 05-21 00:19:00 [loggers.py:1] Avg prompt throughput: \u00ff".getBytes(StandardCharsets.ISO_8859_1);
    String text = "INFO 05-21 00:19:00 [loggers.py:1] " + STATS + "\n"
        + new String(bad, StandardCharsets.ISO_8859_1) + "\n"
        + "INFO 05-21 00:19:00 [loggers.py:1] bin\u0000ary\n"
        + "INFO 02-30 00:19:00 [loggers.py:1] " + STATS + "\n"
        + "INFO 05-21 00:19:10 [loggers.py:1] Avg prompt throughput: 1.0 tokens/s, Running: many reqs, Waiting: 0 reqs, GPU KV cache usage: 1.0%\n"
        + "garbage that is no log line at all\n"
        + "INFO 05-21 00:19:20 [loggers.py:1] Engine 000: Avg prompt throughput: 10.0 tokens/s, Avg gen";
    byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
    Parse p = Parse.bytes(LOG, bytes, Parse.ctx(2025, null, false, null));
    assertEquals(7, p.lines);
    assertEquals(1, p.sink.records);
    assertEquals(1, p.sink.other, "garbage text is an other line");
    assertEquals(List.of(2L, 3L, 4L, 5L, 7L), p.sink.rejects.stream().map(r -> r.lineNo()).toList());
    assertTrue(p.sink.rejects.get(0).reason().startsWith("invalid UTF-8"), p.sink.rejects.get(0).reason());
    assertTrue(p.sink.rejects.get(1).reason().startsWith("not text: control character U+0000"));
    assertTrue(p.sink.rejects.get(2).reason().startsWith("not a valid time"), p.sink.rejects.get(2).reason());
    assertEquals("stats line: field Running: not a number: \"many reqs\"", p.sink.rejects.get(3).reason());
    assertTrue(p.sink.rejects.get(4).reason().startsWith("truncated last line"), p.sink.rejects.get(4).reason());
  }

  /**
   * A hole of zeros a crash left in a log (the file system's blocks never written): a reject that
   * says so, not "control character U+0000"; a line after the hole and a line of its own stay
   * read.
   */
  @Test
  void aHoleOfZerosIsNamedAsOne() throws Exception {
    String text = "INFO 05-21 00:19:00 [loggers.py:1] " + STATS + "\n"
        + "INFO 05-21 00:19:10 [loggers.py:1] Engine 000: Avg prompt thr" + "\u0000".repeat(4096)
        + "INFO 05-21 00:19:20 [loggers.py:1] " + STATS + "\n"
        + "INFO 05-21 00:19:30 [loggers.py:1] " + STATS + "\n"
        + "\u0000".repeat(512);
    Parse p = Parse.bytes(LOG, text.getBytes(StandardCharsets.ISO_8859_1), Parse.ctx(2025, null, false, null));
    assertEquals(List.of(2L, 4L), p.sink.rejects.stream().map(r -> r.lineNo()).toList());
    assertEquals("not text: 4096 zero bytes at column 62: a part of the file never written (a crash?)",
        p.sink.rejects.get(0).reason());
    assertTrue(p.sink.rejects.get(1).reason().startsWith("not text: 512 zero bytes at column 1"), p.sink.rejects.get(1).reason());
    assertEquals(2, p.sink.records);
  }

  @Test
  void aLineCutMidRecordIsRejectedAsTruncatedEvenWithItsNewline() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "(APIServer pid=1) INFO 05-21 00:19:00 [loggers.py:1] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 9.9 tokens/s, Running: 1 reqs, Wa\n"
        + "(APIServer pid=1) INFO 05-21 00:19:10 [loggers.py:1] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 9.9 tokens/s, Running: 1 reqs, Waiting: \n"
        + "(APIServer pid=1) INFO 05-21 00:19:20 [loggers.py:1] " + STATS + "\n",
        Parse.ctx(2025, null, false, null));
    assertEquals(List.of(1L, 2L), p.sink.rejects.stream().map(r -> r.lineNo()).toList());
    assertTrue(p.sink.rejects.stream().allMatch(r -> r.reason().startsWith("truncated: a stats line")),
        p.sink.rejects.toString());
    assertEquals(1, p.full.stats.size(), "no row of NULL waiting and KV usage");
  }

  /** NVIDIA NIM writes its ms unpadded ("…45.91" is 91 ms): one or two digits keep the line's whole second. */
  @Test
  void nimsUnpaddedMillisecondsAreNoFraction() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "INFO 2024-11-14 16:51:23.925 metrics.py:396] " + STATS + "\n"
        + "INFO 2024-11-14 16:51:33.44 metrics.py:396] " + STATS + "\n"
        + "INFO 2024-11-14 16:51:43.7 metrics.py:396] " + STATS + "\n",
        Parse.ctx(2024, null, false, null));
    assertEquals(List.of(1731603083925000000L, 1731603093000000000L, 1731603103000000000L),
        p.full.stats.stream().map(r -> r.tsNs).toList());
  }

  /**
   * V1's first stats logger (vLLM 0.7.0, vllm/v1/metrics/loggers.py: "Avg prompt throughput: %.1f
   * tokens/s, Avg generation throughput: %.1f tokens/s, Running: %d reqs, Waiting: %d reqs ")
   * printed no KV cache usage: its lines are whole, not truncated; cut ones still are.
   */
  @Test
  void v1sFirstStatsLineWithoutKvUsageIsWhole() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "INFO 01-28 10:00:05 loggers.py:72] Avg prompt throughput: 12.3 tokens/s, Avg generation throughput: 45.6 tokens/s, Running: 3 reqs, Waiting: 0 reqs \n"
        + "INFO 01-28 10:00:10 loggers.py:72] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 50.1 tokens/s, Running: 2 reqs, Waiting: 1 reqs\n"
        + "INFO 01-28 10:00:15 loggers.py:72] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 50.1 tokens/s, Running: 2 reqs, Waiting: 1\n"
        + "INFO 01-28 10:00:20 loggers.py:72] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 50.1 tokens/s, Running: 2 reqs, Waiting: 1 reqs, GPU KV\n",
        Parse.ctx(2025, null, false, null));
    assertEquals(List.of(3L, 4L), p.sink.rejects.stream().map(r -> r.lineNo()).toList());
    assertEquals(List.of(3, 2), p.full.stats.stream().map(r -> r.running).toList());
    assertEquals(List.of(0, 1), p.full.stats.stream().map(r -> r.waiting).toList());
    assertEquals(List.of(45.6, 50.1), p.full.stats.stream().map(r -> r.genTokensPerS).toList());
  }

  /**
   * A response line cut inside the file (a paste, a terminal's wrap) is rejected as truncated; a
   * line of another shape that still ends as a whole one does (a field more) stays an other line,
   * a near miss the ingest names.
   */
  @Test
  void aResponseLineCutInsideTheFileIsRejectedOneOfAnotherShapeIsANearMiss() throws Exception {
    String h = "(APIServer pid=1) INFO 05-21 00:19:00 [logger.py:71] Generated response cmpl-1 (streaming delta): output: ";
    Parse p = Parse.text(LOG, ""
        + "(APIServer pid=1) INFO 05-21 00:19:00 [logger.py:43] Received request cmpl-1: params: SamplingParams(n=1), lora_request: None.\n"
        + h + "'a', output_token_ids: [1], finish_reason: None\n"
        + h + "'b', output_tok\n"
        + h + "'c', output_token_ids: [3, 4\n"
        + h + "'d', output_token_ids: [5], finish_reason: None, stop_reason: None\n"
        + h + "'e', output_token_ids: [6], finish_reason: stop\n",
        Parse.ctx(2025, null, false, null));
    assertEquals(List.of("3 truncated: a generated line cut short (it ends before its pattern does)",
        "4 truncated: a generated line cut short (it ends before its pattern does)"),
        p.sink.rejects.stream().map(r -> r.lineNo() + " " + r.reason()).toList());
    assertEquals(1, p.sink.other, "line 5: a field more, still a whole line");
    assertEquals(3, p.sink.records);
  }

  /**
   * A stats line a terminal wrapped at its width: its rest, with no header of its own and no wider
   * than the first piece, is joined to it (up to eight pieces, the middle ones as wide as the
   * first); a cut line whose next line is no rest stays a reject.
   */
  @Test
  void aHardWrappedLineIsReadJoinedToItsRest() throws Exception {
    String h = "INFO 05-21 00:19:00 [loggers.py:1] ";
    Parse p = Parse.text(LOG, ""
        + h + "Avg prompt throughput: 1.0 tokens/s, Avg generation throughput: 9.0 tokens/s, Runn\n"
        + "ing: 3 reqs, Waiting: 2 reqs, GPU KV cache usage: 7.5%, CPU KV cache usage: 0.0%.\n"
        + wrapped(h + "Avg prompt throughput: 1.0 tokens/s, Avg generation throughput: 9.0 tokens/s, Running: 4 reqs,"
            + " Waiting: 1 reqs, Swapped: 0 reqs, Deferred: 0 reqs, GPU KV cache usage: 8.5%, CPU KV cache usage: 0.0%.", 100)
        + h + "Avg prompt throughput: 1.0 tokens/s, Avg generation throughput: 9.0 tokens/s, Running: 5 reqs, Wa\n"
        + h + "Avg prompt throughput: 1.0 tokens/s, Avg generation throughput: 9.0 tokens/s, Running: 6 reqs, Wa\n"
        + "not the rest of anything, KV cache usage: 1%, as short as a rest but no middle piece\n"
        + h + "Avg prompt throughput: 1.0 tokens/s, Avg generation throughput: 9.0 tokens/s, Running: 7 reqs, Wa\n",
        Parse.ctx(2025, null, false, null));
    assertEquals(List.of(1L, 3L), p.full.stats.stream().map(r -> r.lineNo).toList());
    assertEquals(List.of(3, 4), p.full.stats.stream().map(r -> r.running).toList());
    assertEquals(List.of(2, 1), p.full.stats.stream().map(r -> r.waiting).toList());
    assertEquals(0.085, p.full.stats.get(1).kvUsage, 1e-12);
    assertEquals(List.of(6L, 7L, 9L), p.sink.rejects.stream().map(r -> r.lineNo()).toList(),
        "followed by a line of its own, by no rest, by the end of the file");
    assertEquals(4, p.sink.other, "three pieces, and a line that is no rest");
  }

  /**
   * A 60-column terminal (a split pane) wraps a V0 stats line with its swap and CPU cache figures
   * (300 characters) over five pieces: joined (up to eight), not a truncated reject of its first.
   */
  @Test
  void aStatsLineWrappedOverFivePiecesIsOneLine() throws Exception {
    String line = "INFO 02-01 06:36:05 metrics.py:455] Avg prompt throughput: 382.6 tokens/s, Avg generation"
        + " throughput: 118.5 tokens/s, Running: 35 reqs, Swapped: 0 reqs, Pending: 115 reqs, GPU KV cache usage:"
        + " 99.0%, CPU KV cache usage: 0.0%, Prefix cache hit rate: GPU: 12.5%, CPU: 0.0%, Avg time/tok: 149.4 ms.";
    String text = wrapped(line, 60);
    assertEquals(5, text.lines().count());
    Parse p = Parse.text(LOG, text, Parse.ctx(2025, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(List.of(1L), p.full.stats.stream().map(r -> r.lineNo).toList());
    assertEquals(List.of(35, 115), List.of(p.full.stats.get(0).running, p.full.stats.get(0).waiting));
    assertEquals(0.99, p.full.stats.get(0).kvUsage, 1e-12);
    assertEquals(4, p.sink.other, "its four pieces after the first");
  }

  /**
   * A V1 stats line a 120-column terminal wrapped in three pieces inside its last figure: the
   * first two end as a whole line ("… Prefix cache hit rate: 1"), which was read alone (hit rate
   * 1%, the "2.5%" an other line); the third piece goes on it, so the rate is the 12.5% printed.
   */
  @Test
  void aWrapInsideTheLastFigureIsJoinedNotReadShort() throws Exception {
    String line = "(APIServer pid=1) INFO 05-21 00:19:00 [loggers.py:123] Engine 000: Avg prompt throughput: 10240.0"
        + " tokens/s, Avg generation throughput: 960.3 tokens/s, Running: 140 reqs, Waiting: 100 reqs, GPU KV cache"
        + " usage: 18.5%, Prefix cache hit rate: 12.5%";
    String text = wrapped(line, 120) + "Processed prompts: 100%|##########| 8/8 [00:01<00:00,  5.31it/s]\n";
    assertTrue(text.contains("hit rate: 1\n2.5%\n"), text);
    Parse p = Parse.text(LOG, text, Parse.ctx(2025, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(List.of(1L), p.full.stats.stream().map(r -> r.lineNo).toList());
    assertEquals(0.125, p.full.stats.get(0).prefixHitRate, 1e-12);
    assertEquals(List.of(140, 100), List.of(p.full.stats.get(0).running, p.full.stats.get(0).waiting));
    assertEquals(3, p.sink.other, "its two pieces after the first, and the progress bar");
  }

  /** The line as a terminal of this width shows it: pieces of the width, each on a line. */
  static String wrapped(String line, int width) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < line.length(); i += width) {
      b.append(line, i, Math.min(line.length(), i + width)).append('\n');
    }
    return b.toString();
  }

  @Test
  void aRequestLineWithoutATimeIsRejectedNeverOk() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "Added request chatcmpl-x.\n"
        + "Finished request chatcmpl-x.\n", Parse.ctx(2025, null, false, null));
    assertEquals(2, p.sink.rejects.size());
    assertTrue(p.sink.rejects.get(0).reason().startsWith("no timestamp: an added line"), p.sink.rejects.toString());
    assertTrue(p.full.requests.isEmpty());
  }

  @Test
  void aTruncatedLastRequestLineIsRejectedButACompleteOneWithoutNewlineIsKept() throws Exception {
    Parse cut = Parse.text(LOG, "INFO 05-21 00:19:05 [logger.py:92] Generated response x (streaming delta): output: 'ab",
        Parse.ctx(2025, null, false, null));
    assertEquals(1, cut.sink.rejects.size());
    assertTrue(cut.sink.rejects.get(0).reason().contains("generated"), cut.sink.rejects.get(0).reason());
    Parse whole = Parse.text(LOG, "INFO 05-21 00:19:05 [engine.py:1] Added request x.", Parse.ctx(2025, null, false, null));
    assertEquals(List.of(), whole.sink.rejects);
    assertEquals(NONE, whole.full.request("x").finishedNs);
    assertNull(whole.full.request("x").status);
    // cut inside the id ("Added request c": a request "c" that never was) or inside the finish
    // reason ("finish_reason: N": a request finished ok for "N"), at the end of a file being
    // written or mid-file: a reject each, no row (the adversarial review's byte-by-byte cuts)
    for (String line : new String[] {"INFO 05-21 00:19:05 [engine.py:1] Added request c",
        "INFO 05-21 00:19:05 [engine.py:1] Added request chatcmpl-5f1c0a9e2b\n",
        "INFO 05-21 00:19:05 [logger.py:92] Generated response x (streaming delta): output: 'a', output_token_ids: [1], finish_reason: N",
        "INFO 05-21 00:19:05 [logger.py:92] Generated response x (streaming delta): output: 'a', output_token_ids: [1], finish_reason: sto\n"}) {
      Parse p = Parse.text(LOG, line, Parse.ctx(2025, null, false, null));
      assertEquals(List.of(), p.full.requests, line);
      assertEquals(1, p.sink.rejects.size(), line);
      assertTrue(p.sink.rejects.get(0).reason().startsWith("truncated"), p.sink.rejects.get(0).reason());
    }
  }

  @Test
  void requestsInFlightAreBoundedTheOldestIsWrittenAsItIs() throws Exception {
    StringBuilder sb = new StringBuilder();
    int n = VllmRequestTracker.MAX_IN_FLIGHT + 2;
    for (int i = 0; i < n; i++) {
      sb.append("INFO 05-21 00:19:05 [engine.py:1] Added request r-").append(i).append(".\n");
    }
    sb.append("INFO 05-21 00:19:09 [engine.py:2] Finished request r-").append(n - 1).append(".\n");
    sb.append("INFO 05-21 00:19:09 [engine.py:2] Finished request r-0.\n");
    Parse p = Parse.text(LOG, sb.toString(), Parse.ctx(2025, null, false, null));
    assertEquals(n, p.full.requests.size());
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(n + 1, p.sink.records);
    assertEquals(1, p.sink.other, "the late Finished line of a request written early");
    RequestRecord first = p.full.requests.get(0);
    assertEquals("r-0", first.requestId);
    assertTrue(first.extras.get("end").startsWith("written early"), first.extras.toString());
    assertEquals("ok", p.full.request("r-" + (n - 1)).status);
  }

  @Test
  void streamingCompleteEndsTheRequestWithTheWholeOutputsCount() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "INFO 05-21 00:19:05 [async_llm.py:1] Added request chatcmpl-z.\n"
        + "INFO 05-21 00:19:06 [logger.py:92] Generated response chatcmpl-z (streaming delta): output: 'a', output_token_ids: [1], finish_reason: None\n"
        + "INFO 05-21 00:19:07 [logger.py:92] Generated response chatcmpl-z (streaming delta): output: 'b', output_token_ids: [2], finish_reason: stop\n"
        + "INFO 05-21 00:19:07 [logger.py:92] Generated response chatcmpl-z (streaming complete): output: 'ab', output_token_ids: [1, 2], finish_reason: stop\n",
        Parse.ctx(2025, null, false, null));
    assertEquals(1, p.full.requests.size());
    RequestRecord r = p.full.request("chatcmpl-z");
    assertEquals(2, r.outputTokens);
    assertEquals("stop", r.finishReason);
    assertEquals(Parse.ns("2025-05-21T00:19:07Z"), r.finishedNs);
    assertEquals(2, p.sink.tokens.size(), "the complete line is no token row");
    assertEquals(4, p.sink.records);
  }

  /**
   * LMCache's per-request line (LMCache/LMCache#842's real line, behind its own dated header) gives
   * the request its prompt length and the tokens found in LMCache; a request the log names nowhere
   * else is no request of its own (an other line), and more hits than tokens is rejected.
   */
  @Test
  void lmcachesHitTokensAreTheRequestsCachedTokens() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "INFO 06-16 15:51:18 [logger.py:43] Received request chatcmpl-d971db31134e43a0ae7da519a2b79253: prompt: 'hi', params: SamplingParams(n=1), prompt_token_ids: None, lora_request: None.\n"
        + "[2025-06-16 15:51:18,474] LMCache INFO: Reqid: chatcmpl-d971db31134e43a0ae7da519a2b79253, Total tokens 265, LMCache hit tokens: 264, need to load: 264 (vllm_v1_adapter.py:769:lmcache.integration.vllm.vllm_v1_adapter)\n"
        + "[2025-06-16 15:51:18,475] LMCache INFO: Reqid: chatcmpl-other, Total tokens 12, LMCache hit tokens: 0, need to load: 0 (vllm_v1_adapter.py:769:lmcache.integration.vllm.vllm_v1_adapter)\n"
        + "INFO 06-16 15:51:18 [logger.py:43] Received request chatcmpl-bad: prompt: 'hi', params: SamplingParams(n=1), prompt_token_ids: None, lora_request: None.\n"
        + "[2025-06-16 15:51:18,476] LMCache INFO: Reqid: chatcmpl-bad, Total tokens 5, LMCache hit tokens: 9, need to load: 9 (vllm_v1_adapter.py:769:lmcache.integration.vllm.vllm_v1_adapter)\n"
        + "INFO 06-16 15:51:19 [async_llm.py:400] Finished request chatcmpl-d971db31134e43a0ae7da519a2b79253.\n",
        Parse.ctx(2025, null, false, null));
    RequestRecord r = p.full.request("chatcmpl-d971db31134e43a0ae7da519a2b79253");
    assertEquals(265, r.promptTokens);
    assertEquals(264, r.cachedTokens);
    assertEquals("264", r.extras.get("lmcache_need_to_load"));
    assertEquals(List.of("chatcmpl-d971db31134e43a0ae7da519a2b79253", "chatcmpl-bad"),
        p.full.requests.stream().map(x -> x.requestId).toList(), "chatcmpl-other: no request of its own");
    assertEquals(1, p.sink.rejects.size(), p.sink.rejects.toString());
    assertTrue(p.sink.rejects.get(0).reason().contains("exceed"), p.sink.rejects.get(0).reason());
  }

  /**
   * LMCache's 2026 lookup line names vLLM's own share ("Inference Engine computed tokens: N",
   * LMCache/LMCache#2552; constructed lines after its format strings, see the folder's README): the
   * cached tokens are the larger share, and under min_retrieve ("but need to load: 256 <
   * min_retrieve 512, skip retrieve …") vLLM's alone, LMCache loading nothing. Both were near misses
   * (other lines): the requests kept no prompt length and no cached tokens.
   */
  @Test
  void lmcaches2026LookupNamesVllmsShare() throws Exception {
    String text = java.nio.file.Files.readString(java.nio.file.Path.of(
        "src/test/resources/constructed/lmcache-2026-lookup-lines/vllm-lmcache-engine-computed-tokens.log"));
    Parse p = Parse.text(LOG, text, Parse.ctx(2025, null, false, null));
    RequestRecord vllmMore = p.full.request("chatcmpl-917d97645fb9403c8a73e31bb9135e42");
    assertEquals(List.of(497, 496, 200), java.util.Arrays.asList(vllmMore.promptTokens, vllmMore.cachedTokens, vllmMore.httpStatus));
    assertEquals("256", vllmMore.extras.get("lmcache_hit_tokens"));
    RequestRecord lmcacheMore = p.full.request("chatcmpl-a867c905f6045a62");
    assertEquals(List.of(1546, 1280), List.of(lmcacheMore.promptTokens, lmcacheMore.cachedTokens));
    assertEquals(null, lmcacheMore.extras.get("lmcache_hit_tokens"));
    RequestRecord skipped = p.full.request("chatcmpl-8a60c111b2b85690");
    assertEquals(List.of(1067, 512), List.of(skipped.promptTokens, skipped.cachedTokens));
    assertEquals("768", skipped.extras.get("lmcache_hit_tokens"));
    assertEquals(List.of(), p.sink.rejects);
  }

  /**
   * --enable-log-request-prompts appends a prompt preview to the Received line (vllm-project/vllm#38583;
   * constructed lines after its format string, see the folder's README): the line was rejected as
   * truncated (it ends in "'."), the request lost its arrival and its params. Now it is read; the
   * preview's text is never a count, nor an id list as long as its cap (512, or --max-log-len from
   * the args line); a line cut inside its preview is still rejected as truncated.
   */
  @Test
  void receivedLinesWithAPromptPreviewAreRead() throws Exception {
    String dir = "src/test/resources/constructed/vllm-request-prompt-preview/";
    Parse p = Parse.text(LOG, java.nio.file.Files.readString(java.nio.file.Path.of(dir + "default-caps.log")),
        Parse.ctx(2026, java.time.ZoneOffset.UTC, true, null));
    RequestRecord text = p.full.request("chatcmpl-a269fdcb7c6ce890");
    assertEquals(java.time.Instant.parse("2026-02-13T11:33:30Z").toEpochMilli() * 1_000_000L, text.arrivalNs);
    assertEquals(null, text.promptTokens);
    assertEquals("100", text.extras.get("max_tokens"));
    assertEquals("\"<|im_start|>user\\nit's max_tokens=5, prompt_token_ids: [1]<|im_end|>\\n\"", text.extras.get("prompt"));
    assertEquals(null, p.full.request("cmpl-b2c4e6f8a0b1c3d5-0").promptTokens, "512 ids: the default cap");
    assertEquals(3, p.full.request("cmpl-c3d5e7f9a1b2c4d6-0").promptTokens);
    assertEquals(null, p.full.request("embd-d4e6f8a0b2c3d5e7-0").promptTokens);
    assertEquals(4, p.full.requests.size());
    assertEquals(List.of(5L, 6L), p.sink.rejects.stream().map(r -> r.lineNo()).toList());
    for (var r : p.sink.rejects) {
      assertTrue(r.reason().startsWith("truncated"), r.reason());
    }
    Parse q = Parse.text(LOG, java.nio.file.Files.readString(java.nio.file.Path.of(dir + "max-log-len-4.log")),
        Parse.ctx(2026, java.time.ZoneOffset.UTC, false, null));
    assertEquals(null, q.full.request("cmpl-a1b2c3d4e5f6a7b8-0").promptTokens, "4 ids: --max-log-len 4");
    assertEquals(2, q.full.request("cmpl-b1c2d3e4f5a6b7c8-0").promptTokens);
    assertEquals(null, q.full.request("chatcmpl-c1d2e3f4a5b6c7d8").promptTokens);
    assertEquals(List.of(), q.sink.rejects);
  }

  /**
   * MTP-1's SpecDecoding line has one per-position rate (vllm-project/vllm-ascend#9673, 2026): it is
   * spec_per_position_acceptance_rate_1, as MTP-3's are _1 to _3, so one query reads both.
   */
  @Test
  void onePerPositionRateIsTheFirstPosition() throws Exception {
    Parse p = Parse.text(LOG, "(APIServer pid=1) INFO 05-21 10:00:00 [metrics.py:101] SpecDecoding metrics: Mean acceptance"
        + " length: 2.00, Accepted throughput: 10.00 tokens/s, Drafted throughput: 10.04 tokens/s, Accepted: 100 tokens,"
        + " Drafted: 101 tokens, Per-position acceptance rate: 0.996, Avg Draft acceptance rate: 99.6%\n",
        Parse.ctx(2026, null, false, null));
    Map<String, Double> x = p.full.stats.get(0).extras;
    assertEquals(0.996, x.get("spec_per_position_acceptance_rate_1"));
    assertEquals(null, x.get("spec_per_position_acceptance_rate"));
    assertEquals(0.996, x.get("spec_avg_draft_acceptance_rate"));
  }

  /**
   * vllm-ascend's KV pool logs LMCache's line behind vLLM's own header (vllm-project/vllm-ascend#13478,
   * 2026: "Reqid: …, Total tokens 92164, kvpool hit tokens: 65536, need to load: 0"), once per
   * scheduling pass: the request's cached tokens, the last pass standing. It was an other line.
   */
  @Test
  void theKvPoolsHitTokensAreTheRequestsCachedTokens() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "(APIServer pid=1) INFO 08-04 07:28:15 [async_llm.py:346] Added request chatcmpl-bd806e3598837dd6-bca3abef.\n"
        + "(EngineCore_DP1 pid=693) INFO 08-04 07:28:16 [pool_scheduler.py:565] Reqid: chatcmpl-bd806e3598837dd6-bca3abef, Total tokens 92164, kvpool hit tokens: 0, need to load: 0\n"
        + "(EngineCore_DP1 pid=693) INFO 08-04 07:28:18 [pool_scheduler.py:565] Reqid: chatcmpl-bd806e3598837dd6-bca3abef, Total tokens 92164, kvpool hit tokens: 65536, need to load: 0\n",
        Parse.ctx(2026, null, false, null));
    RequestRecord r = p.full.request("chatcmpl-bd806e3598837dd6-bca3abef");
    assertEquals(List.of(92164, 65536), List.of(r.promptTokens, r.cachedTokens));
    assertEquals(List.of(), p.sink.rejects);
  }

  /**
   * Ray's dedup suffix the first time it shows, with its notice (ray's own text): removed like the
   * short suffix, so the stats line before it is whole (it was rejected as truncated).
   */
  @Test
  void raysFirstDedupNoticeIsNoPartOfTheLine() throws Exception {
    Parse p = Parse.text(LOG, "(EngineCore_0 pid=345, ip=10.42.9.225) INFO 09-10 23:27:01 [loggers.py:123] Engine 000: Avg"
        + " prompt throughput: 1.0 tokens/s, Avg generation throughput: 2.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs,"
        + " GPU KV cache usage: 0.5%, Prefix cache hit rate: 0.0% [repeated 2x across cluster] (Ray deduplicates logs by"
        + " default. Set RAY_DEDUP_LOGS=0 to disable log deduplication, or see https://docs.ray.io/en/master/"
        + "ray-observability/user-guides/configure-logging.html#log-deduplication for more options.)\n",
        Parse.ctx(2025, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(1, p.full.stats.size());
    assertEquals(0.005, p.full.stats.get(0).kvUsage, 1e-12);
  }

  /**
   * Review cases: a non-streaming response's body ("response_body={{…}}", "{<empty>}") keeps its
   * request next to its access line too, and a streaming body's chunk count is its last
   * "chunks=", not words of the text.
   */
  @Test
  void everyResponseBodyLineKeepsItsRequestNextToItsAccessLine() throws Exception {
    Parse p = Parse.text(LOG, ""
        + "(APIServer pid=66) INFO 09-02 08:46:10 [v1/engine/async_llm.py:346] Added request chatcmpl-a1.\n"
        + "(APIServer pid=66) INFO 09-02 08:46:11 [entrypoints/logger.py:92] Generated response chatcmpl-a1: output: 'hello', output_token_ids: [1, 2], finish_reason: stop\n"
        + "(APIServer pid=66) INFO 09-02 08:46:11 [entrypoints/openai/server_utils.py:290] response_body={{\"id\":\"chatcmpl-a1\",\"object\":\"chat.completion\"}}\n"
        + "(APIServer pid=66) INFO:     127.0.0.1:52052 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n"
        + "(APIServer pid=66) INFO 09-02 08:46:12 [v1/engine/async_llm.py:346] Added request chatcmpl-a3.\n"
        + "(APIServer pid=66) INFO 09-02 08:46:13 [entrypoints/logger.py:92] Generated response chatcmpl-a3: output: 'x', output_token_ids: [1], finish_reason: stop\n"
        + "(APIServer pid=66) INFO 09-02 08:46:13 [entrypoints/openai/server_utils.py:290] response_body={<empty>}\n"
        + "(APIServer pid=66) INFO:     127.0.0.1:52054 - \"POST /v1/chat/completions HTTP/1.1\" 400 Bad Request\n"
        + "(APIServer pid=66) INFO 09-02 08:46:14 [v1/engine/async_llm.py:346] Added request chatcmpl-a2.\n"
        + "(APIServer pid=66) INFO 09-02 08:46:15 [entrypoints/logger.py:92] Generated response chatcmpl-a2 (streaming complete): output: 'hi', output_token_ids: None, finish_reason: streaming_complete\n"
        + "(APIServer pid=66) INFO 09-02 08:46:15 [entrypoints/openai/server_utils.py:280] response_body={streaming_complete: content='hi chunks=99 there', chunks=3}\n"
        + "(APIServer pid=66) INFO:     127.0.0.1:52053 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n",
        Parse.ctx(2025, null, false, null));
    assertEquals(200, p.full.request("chatcmpl-a1").httpStatus);
    assertEquals(400, p.full.request("chatcmpl-a3").httpStatus);
    assertEquals("error", p.full.request("chatcmpl-a3").status);
    assertEquals(200, p.full.request("chatcmpl-a2").httpStatus);
    assertEquals("3", p.full.request("chatcmpl-a2").extras.get("response_chunks"));
    assertEquals(List.of(), p.sink.rejects);
  }

  /**
   * Ray Serve's own logger and access lines (its ServeFormatter; the 200 lines are real,
   * ray-project/ray#65486; the 500 is that shape as Ray writes an error, hand-made): its header's
   * dated ms time is the line's; a failed call on an inference route is a failed request from the
   * header's time back by its duration, once per Ray request id though the router and the proxy
   * log it too; a 200 is no request of ours (Ray's id is not vLLM's); the older "file.py:N - "
   * header is peeled too.
   */
  @Test
  void rayServesAccessLinesCountFailedCallsOnce() throws Exception {
    String replica = "(ServeReplica:app:LLMServer:m pid=28488) ";
    Parse p = Parse.text(LOG, ""
        + "(ServeReplica:app:LLMRouter pid=28239) ERROR 2026-08-19 18:02:12,425 app_LLMRouter the5croz 4493b8e2-932a-41ee-8e0f-a4b45319596d -- POST __call__ 500 1.6ms\n"
        + replica + "ERROR 2026-08-19 18:02:15,711 app_LLMServer:m d2ngfytn 4493b8e2-932a-41ee-8e0f-a4b45319596d -- POST /v1/chat/completions 500 3285.7ms\n"
        + "(ProxyActor pid=100) ERROR 2026-08-19 18:02:15,713 proxy 10.0.0.1 4493b8e2-932a-41ee-8e0f-a4b45319596d -- POST /v1/chat/completions 500 3290.1ms\n"
        + replica + "INFO 08-19 18:02:22 [loggers.py:310] " + STATS + "\n"
        + replica + "INFO 2026-08-19 18:02:37,409 app_LLMServer:m d2ngfytn 920cf95a-5398-416d-a19a-8288decc7d03 -- POST /v1/chat/completions 200 4792.0ms\n"
        + "INFO 2024-11-18 01:46:34,210 default_VLLMDeployment ujj4diu5 replica.py:893 - " + STATS + "\n",
        Parse.ctx(null, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(List.of("http-500-line-2"), p.full.requests.stream().map(r -> r.requestId).toList());
    RequestRecord r = p.full.requests.get(0);
    assertEquals(Instant.parse("2026-08-19T18:02:15.711Z").toEpochMilli() * 1_000_000L, r.finishedNs);
    assertEquals(r.finishedNs - 3_285_700_000L, r.arrivalNs);
    assertEquals("4493b8e2-932a-41ee-8e0f-a4b45319596d", r.extras.get("ray_request_id"));
    assertEquals("ServeReplica:app:LLMServer:m pid=28488", r.instance);
    assertEquals(2, p.full.stats.size(), "the stats line behind Ray's older header too");
    assertEquals(Instant.parse("2024-11-18T01:46:34.210Z").toEpochMilli() * 1_000_000L, p.full.stats.get(1).tsNs);
    assertEquals(3, p.sink.other, "the router's __call__, the proxy's repeat, the 200");

    // the review: vLLM's request named by Ray's id is the failed one (no second row), and the
    // shape without Ray's header (a logging middleware's line beside uvicorn's own) is no failure
    Parse tied = Parse.text(LOG, ""
        + replica + "INFO 08-19 18:02:12 [logger.py:43] Received request chatcmpl-4493b8e2: params: SamplingParams(max_tokens=5), lora_request: None.\n"
        + replica + "ERROR 2026-08-19 18:02:15,711 app_LLMServer:m d2ngfytn 4493b8e2 -- POST /v1/chat/completions 500 3285.7ms\n"
        + "(APIServer pid=1) INFO 08-19 18:02:16 [timing.py:12] POST /v1/chat/completions 503 3.2ms\n",
        Parse.ctx(2026, null, false, null));
    assertEquals(List.of(), tied.sink.rejects);
    assertEquals(List.of("chatcmpl-4493b8e2 error 500"), tied.full.requests.stream()
        .map(x -> x.requestId + " " + x.status + " " + x.httpStatus).toList());
  }

  /**
   * In one stream of several pods (stern, a shipper's export), one pod's restart ends its own
   * requests only: another pod's ended request still takes its late chunk, and another's in flight
   * is not lost (the review: the restart had flushed every pod's).
   */
  @Test
  void aPodsRestartEndsOnlyItsOwnRequests() throws Exception {
    String a = "vllm-a vllm (APIServer pid=1) INFO 05-21 00:19:";
    String b = "vllm-b vllm (APIServer pid=1) INFO 05-21 00:19:";
    Parse p = Parse.text(LOG, ""
        + a + "05 [async_llm.py:1] Added request chatcmpl-a.\n"
        + a + "05 [async_llm.py:1] Added request chatcmpl-c.\n"
        + a + "06 [logger.py:92] Generated response chatcmpl-a (streaming delta): output: 'x', output_token_ids: [1], finish_reason: None\n"
        + a + "07 [async_llm.py:2] Finished request chatcmpl-a.\n"
        + b + "07 [async_llm.py:2] Added request chatcmpl-b.\n"
        + b + "07 [api_server.py:1790] vLLM API server version 0.11.0\n"
        + a + "07 [logger.py:92] Generated response chatcmpl-a (streaming delta): output: 'z', output_token_ids: [3, 4], finish_reason: stop\n"
        + a + "08 [async_llm.py:2] Finished request chatcmpl-c.\n",
        Parse.ctx(2025, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(3, p.full.request("chatcmpl-a").outputTokens);
    assertEquals("lost", p.full.request("chatcmpl-b").status, "pod b's own request, in flight at its restart");
    assertEquals("ok", p.full.request("chatcmpl-c").status, "pod a's, not lost to pod b's restart");
  }

  /**
   * V1's output handler logs "Finished request X." as it hands the last output to the API
   * server, which logs that output's delta after it, other requests' lines in between (vLLM's
   * AsyncLLM logs the end where it puts the output in the request's stream). Those late chunks
   * were other lines and their tokens lost; they are the request's within 5 s of log time. A
   * chunk later than that, with tokens, is a reject naming the request, never dropped in silence.
   */
  @Test
  void aRequestsLastChunksAfterItsFinishedLineAreItsOwn() throws Exception {
    String h = "(APIServer pid=1) INFO 05-21 00:19:";
    Parse p = Parse.text(LOG, ""
        + h + "05 [async_llm.py:1] Added request chatcmpl-a.\n"
        + h + "05 [async_llm.py:1] Added request chatcmpl-b.\n"
        + h + "06 [logger.py:92] Generated response chatcmpl-a (streaming delta): output: 'x', output_token_ids: [1], finish_reason: None\n"
        + h + "07 [async_llm.py:2] Finished request chatcmpl-a.\n"
        + h + "07 [logger.py:92] Generated response chatcmpl-b (streaming delta): output: 'y', output_token_ids: [2], finish_reason: None\n"
        + h + "07 [logger.py:92] Generated response chatcmpl-a (streaming delta): output: 'z', output_token_ids: [3, 4], finish_reason: stop\n"
        + h + "08 [logger.py:92] Generated response chatcmpl-b (streaming delta): output: 'w', output_token_ids: [5], finish_reason: None\n"
        + h + "09 [async_llm.py:2] Finished request chatcmpl-b.\n"
        + h + "09 [async_llm.py:1] Added request chatcmpl-c.\n"
        + h + "20 [logger.py:92] Generated response chatcmpl-b (streaming delta): output: 'v', output_token_ids: [6], finish_reason: stop\n",
        Parse.ctx(2025, null, false, null));
    RequestRecord a = p.full.request("chatcmpl-a");
    assertEquals(3, a.outputTokens, "both chunks: the one after its Finished line too");
    assertEquals(Parse.ns("2025-05-21T00:19:07Z"), a.lastTokenNs);
    assertEquals("stop", a.finishReason);
    assertEquals(2, p.full.request("chatcmpl-b").outputTokens);
    assertEquals(List.of(10L), p.sink.rejects.stream().map(r -> r.lineNo()).toList());
    assertTrue(p.sink.rejects.get(0).reason().contains("a streamed chunk of request chatcmpl-b logged after the request"
        + " was written"), p.sink.rejects.get(0).reason());
  }

  /**
   * A log viewer's export lists the newest line first (Kibana, CloudWatch Insights, Grafana's
   * Explore, gcloud logging read, logcli): read so, requests ended before they began, ids
   * "repeated" and ITL went negative with hardly a warning. Such a file is refused whole, saying
   * how to turn it; two processes whose clocks differ by a second, interleaved, are not.
   */
  @Test
  void aFileWhoseLinesAreNewestFirstIsRefusedWithWhatToDo() throws Exception {
    java.util.List<String> lines = new java.util.ArrayList<>();
    for (int i = 0; i < 8; i++) {
      lines.add("INFO 05-21 00:19:" + (10 + i) + " [loggers.py:1] " + STATS);
    }
    java.util.List<String> reversed = new java.util.ArrayList<>(lines);
    java.util.Collections.reverse(reversed);
    dev.tokentime.ingest.InputRefused e = org.junit.jupiter.api.Assertions.assertThrows(
        dev.tokentime.ingest.InputRefused.class,
        () -> Parse.text(LOG, String.join("\n", reversed) + "\n", Parse.ctx(2025, null, false, null)));
    assertTrue(e.getMessage().startsWith("its lines are newest first (the time goes down at 7 of 7 changes"), e.getMessage());
    assertTrue(e.getMessage().contains("tac FILE > FILE.oldest-first"), e.getMessage());
    assertEquals(8, Parse.text(LOG, String.join("\n", lines) + "\n", Parse.ctx(2025, null, false, null)).full.stats.size());
    // two engines a second apart, their lines alternating: as many ups as downs
    StringBuilder skew = new StringBuilder();
    for (int i = 0; i < 20; i++) {
      skew.append("INFO 05-21 00:19:").append(20 + i).append(" [loggers.py:1] ").append(STATS).append('\n');
      skew.append("INFO 05-21 00:19:").append(19 + i).append(" [loggers.py:1] ").append(STATS).append('\n');
    }
    assertEquals(40, Parse.text(LOG, skew.toString(), Parse.ctx(2025, null, false, null)).full.stats.size());
  }

  /**
   * A run of 200,000 blanks between two words after each line start whose words ran to a lazy
   * ".*?" before an optional end and "$" (the V0 stats and prefix cache, speculative and KV transfer
   * metrics, TensorRT-LLM's iteration line, a failed request, the Triton backend's start and load
   * failures, Ray's lost worker): each is read, its words the words and the blanks between them
   * (before, each retried the run of blanks from each blank: minutes of CPU a line). The timeout
   * only guards the run against that backtracking. Constructed.
   */
  @Test
  void aLongRunOfBlanksIsReadInOnePass() throws Exception {
    String blanks = " ".repeat(200_000);
    String words = "x" + blanks + "y";
    String log = "INFO 05-12 10:00:01 [llm_engine.py:1] Throughput: 1.5 tokens/s, Running: 3 reqs," + blanks + "Swapped: 0 reqs, Pending: 2 reqs,"
        + " GPU KV cache usage: 1.5%, CPU KV cache usage: 0.0%." + blanks + "\n"
        + "INFO 05-12 10:00:02 [metrics.py:1] Prefix cache hit rate: GPU: 12.5%," + blanks + "CPU: 0.0%" + blanks + "\n"
        + "INFO 05-12 10:00:03 [metrics.py:1] SpecDecoding metrics: Draft acceptance rate: 0.5," + blanks + "Mean acceptance length: 2.5." + blanks + "\n"
        + "INFO 05-12 10:00:04 [metrics.py:1] KV Transfer metrics: Num successful transfers=4," + blanks + "Avg xfer time (ms)=2.5." + blanks + "\n"
        + "INFO 05-12 10:00:05 [core.py:1] Iteration(5): 1 context requests, 512 context tokens, 3 generation requests,"
        + " 3 generation tokens, iteration elapsed time: 25.77 ms, a: 1," + blanks + "b: 2" + blanks + "\n"
        + "ERROR 05-12 10:00:06 [engine.py:1] Request r1 failed with an internal error" + blanks + "during generation." + blanks + "\n"
        + "[vllm] Failed to start engine: " + words + "\\n\"" + blanks + "\n"
        + "failed to load 'm' version 1: " + words + "\"" + blanks + "\n"
        + "A worker died or was killed while executing a task by an unexpected system error. Worker PID: 7 Worker exit type:"
        + " SYSTEM_ERROR Worker exit detail: " + words + blanks + "There are some potential root causes. z\n";
    Parse p = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
        () -> Parse.text(LOG, log, Parse.ctx(2025, java.time.ZoneOffset.UTC, false, null)));
    assertEquals(List.of(), p.sink.rejects);
    Map<String, Long> matched = new java.util.TreeMap<>();
    p.explain.kinds().forEach(k -> { if (k.matched > 0) matched.put(k.kind, k.matched); });
    assertEquals(Map.of("stats_v01", 1L, "prefix_cache", 1L, "spec_decode", 1L, "kv_transfer", 1L, "iteration", 1L,
        "request_failed", 1L, "triton_vllm_failed", 1L, "triton_load_failed", 1L, "ray_worker_died", 1L), matched);
    assertEquals(4, p.full.stats.size());
    assertEquals(3, p.full.stats.get(0).running);
    assertEquals(2, p.full.stats.get(0).waiting);
    assertEquals(0.015, p.full.stats.get(0).kvUsage, 1e-12);
    assertEquals(Map.of("a", 1.0, "b", 2.0), p.full.steps.get(0).extras);
    assertEquals(List.of("r1 failed with an internal error" + blanks + "during generation"), p.full.requests.stream().map(r -> r.requestId + " " + r.error).toList());
    // a crash keeps its detail's first 300 characters
    assertEquals(java.util.stream.Stream.of("7 Failed to start engine: " + words, "8 failed to load 'm' version 1: " + words,
        "9 Worker PID: 7 Worker exit type: SYSTEM_ERROR Worker exit detail: " + words).map(c -> c.substring(0, 2)
        + dev.tokentime.formats.spec.SpecParser.shortDetail(c.substring(2))).toList(),
        p.full.events.stream().filter(e -> e[1].equals("crash")).map(e -> e[0] + " " + e[2]).toList());
  }
}
