package dev.tokentime.formats.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sample-logs/trtllm/trtllm-log: a format that is a spec alone (parsers/trtllm-log.spec, no Java).
 * Expected numbers by hand (sample-logs/README.md): TTFT = Response started − Received on the
 * monotonic clock; the first Received line, which also carries a wall time, anchors the two clocks.
 */
class TrtllmLogSampleTest {
  @TempDir
  Path tmp;

  @Test
  void receivedAndStartedLinesGiveTtftOnTheirOwnClock() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingestSample(IngestOptions.of(List.of("sample-logs/trtllm/trtllm-log")), "trtllm-log", 17, 14, 3, 0);
      assertEquals(List.of(
          List.of("0fc748ec-5876-4503-8d77-18ebace6a3d4", 830.0),
          List.of("6cf19bd4-d226-4b46-a996-f1be2ca3164e", 775.873124),
          List.of("c1627587-927f-4717-bad4-7266c9960d32", 775.941735)),
          t.rows("SELECT request_id, round(ttft_ms, 6) FROM request_latency ORDER BY request_id"));
      assertEquals(List.of(List.of("steady", 1L)), t.rows("SELECT DISTINCT c.kind, c.resolution_ns FROM requests"
          + " JOIN clocks c USING (clock_id)"));
      assertEquals(List.of(List.of(1752102469_000_000_000L, 32142770581067L)),
          t.rows("SELECT ns_a, ns_b FROM clock_anchors"));
      // uvicorn's "Uvicorn running on …": the server ready
      assertEquals(List.of(List.of("config", 4L), List.of("crash", 1L), List.of("ready", 1L), List.of("version", 2L)),
          t.rows("SELECT kind, count(*) FROM engine_events GROUP BY kind ORDER BY kind"));
    }
  }

  /**
   * The C++ runtime refusing one request (constructed/trtllm-refused: the executor's own message,
   * with an issue's numbers): a failed request of its own at the last time the log gave, not a
   * crash (the executor answers that request with the error and goes on serving).
   */
  @Test
  void aRefusedRequestIsAFailedRequestNotACrash() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingestSample(IngestOptions.of(List.of("src/test/resources/constructed/trtllm-refused/triton-refused-requests.log")), "trtllm-log", 3, 3, 0, 0);
      assertEquals(List.of(
          List.of("refused-line-2", "error", "Encountered an error when fetching new request: Prompt length (200)"
              + " exceeds maximum input length (1).", "the last timed line before it"),
          List.of("refused-line-3", "error", "Cannot process new request: Prompt length (1251) exceeds maximum input"
              + " length (1024)", "the last timed line before it")),
          t.rows("SELECT request_id, status, error, extras['time_from'] FROM requests ORDER BY line_no"));
      assertEquals(List.of(List.of("ready", 1L)), t.rows("SELECT kind, count(*) FROM engine_events GROUP BY kind"));
      assertEquals(List.of(List.of(0L, 2L)), t.rows("SELECT ok_requests, failed_requests FROM run_summary"));
    }
  }

  /**
   * trtllm-serve answers the refused request with a 400 (constructed/trtllm-refused): that access
   * line is the refused request's status, not a second failed request (it was two).
   */
  @Test
  void aRefusedRequestsErrorResponseIsItsStatus() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of("src/test/resources/constructed/trtllm-refused/trtllm-serve-refused-400.log")));
      assertEquals(List.of(List.of("refused-line-4", "error", 400)),
          t.rows("SELECT request_id, status, http_status FROM requests"));
      assertEquals(List.of(List.of(0L, 1L)), t.rows("SELECT ok_requests, failed_requests FROM run_summary"));
    }
  }

  /**
   * A Received or Response started line cut inside its number ("at 3" of "at 32142.77058106") or
   * before it: a truncated reject, not an arrival at 3 s (the cut-lines review; Python writes its
   * float with a point and digits).
   */
  @Test
  void aRequestLineCutInsideItsTimeIsRejected() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      java.nio.file.Path f = t.write("cut/server.log", """
          [07/09/2025-23:07:49] [TRT-LLM] [I] Received request c1627587-927f-4717-bad4-7266c9960d32 at 3
          [07/09/2025-23:07:49] [TRT-LLM] [I] Received request 6cf19bd4-d226-4b46
          [07/09/2025-23:07:50] [TRT-LLM] [I] Response started c1627587-927f-4717-bad4-7266c9960d32 at 32143.5
          [07/09/2025-23:07:49] [TRT-LLM] [I] Received request 0fc748ec-5876-4503-8d77-18ebace6a3d4 at 321""");
      t.ingestSample(IngestOptions.of(List.of(f.toString())), "trtllm-log", 4, 1, 0, 3);
      assertEquals(List.of(1L, 2L, 4L), t.rows("SELECT line_no FROM rejects ORDER BY line_no").stream()
          .map(r -> r.get(0)).toList());
    }
  }

  /**
   * trtllm-serve's OpenAI server aborts the request of a streaming client that went away ("[TRT-LLM]
   * Address(host=…, port=…) is disconnected, abort N", PR #3214; a 1.3.0rc9 incident's line): the
   * request is cancelled; a request whose times are on the monotonic clock keeps them and is
   * cancelled without a time (the line's is on the log's clock). Hand-made lines of that shape.
   */
  /**
   * The version line as tensorrt_llm/__init__.py prints it ("TensorRT LLM", no hyphen, in 0.9 and
   * again from 1.1: `print(f"[TensorRT-LLM] TensorRT LLM version: {__version__}")`), first in a
   * 2026 LLM API run's output; it was an other line, and a log holding only it no trtllm-log.
   */
  @Test
  void theVersionLineOfEitherSpellingIsTheVersion() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      java.nio.file.Path f = t.write("llmapi/run.log", """
          [TensorRT-LLM] TensorRT LLM version: 1.3.0rc0
          [03/13/2026-02:56:20] [TRT-LLM] [I] Using LLM with PyTorch backend
          [TensorRT-LLM] TensorRT-LLM version: 0.16.0
          """);
      t.ingestSample(IngestOptions.of(List.of(f.toString())), "trtllm-log", 3, 2, 1, 0);
      assertEquals(List.of(List.of("version", "1.3.0rc0"), List.of("version", "0.16.0")),
          t.rows("SELECT kind, detail FROM engine_events ORDER BY line_no"));
    }
  }

  @Test
  void aClientThatWentAwayCancelsItsRequest() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      java.nio.file.Path f = t.write("serve/abort.log", """
          [04/30/2025-14:03:30] [TRT-LLM] [I] Received request 7 at 100.5
          [04/30/2025-14:03:31] [TRT-LLM] Address(host='127.0.0.1', port=60652) is disconnected, abort 2
          [04/30/2025-14:03:32] [TRT-LLM] [I] Address(host='127.0.0.1', port=60653) is disconnected, abort 7
          [04/30/2025-14:03:33] [TRT-LLM] Address(host='127.0.0.1', port=60654) is disconnected, abort 2
          """);
      // the same executor id again (ids start again with the server): rejected, the first kept (it
      // was written twice, and the file refused for lines that did not add up)
      t.ingestSample(IngestOptions.of(List.of(f.toString())), "trtllm-log", 4, 3, 0, 1);
      assertEquals(List.of(List.of("2", "cancelled", 1746021811_000_000_000L), List.of("7", "cancelled", -1L)),
          t.rows("SELECT request_id, status, coalesce(finished_ns, -1) FROM requests ORDER BY request_id"));
    }
  }

  /**
   * trtllm-serve's disaggregated proxy (TensorRT-LLM main, May 2026; the shape of a developer's
   * public notes, whose repository has no known licence: written here by hand): its module logger
   * tag after the level ("[serve   ]"), its ready lines, a request's error traceback and uvicorn's
   * 500 after it. The file was read as vllm-log and the 500 rejected ("no timestamp"); with
   * --from trtllm-log all its lines were other lines.
   */
  @Test
  void anErrorOnTheServersAccessLineIsAFailedRequest() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      java.nio.file.Path f = t.write("proxy/serve.log", """
          [05/19/2026-14:25:00] [TRT-LLM] [I] [serve   ] All servers are ready
          INFO:     Application startup complete.
          INFO:     127.0.0.1:44780 - "GET /health HTTP/1.1" 200 OK
          [05/19/2026-14:25:08] [TRT-LLM] [E] [serve   ] Internal server error:  Traceback (most recent call last):
            File "/opt/tensorrt_llm/serve/openai_disagg_service.py", line 511, in _verify_ctx_response
              raise ValueError(
          ValueError: Context server returned 4 choices, expecting 1.

          INFO:     127.0.0.1:44784 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error
          INFO:     127.0.0.1:44790 - "POST /v1/completions HTTP/1.1" 200 OK
          INFO:     127.0.0.1:44792 - "GET /v1/completions HTTP/1.1" 405 Method Not Allowed
          """);
      t.ingestSample(IngestOptions.of(List.of(f.toString())), "trtllm-log", 11, 3, 8, 0);
      assertEquals(List.of(List.of("http-500-line-9", "error", 500, 1779200708_000_000_000L,
          "HTTP 500 POST /v1/completions (access line only: no request line names it); the error logged right"
              + " before it: ValueError: Context server returned 4 choices, expecting 1.")),
          t.rows("SELECT request_id, status, http_status, arrival_ns, error FROM requests"));
      assertEquals(List.of(List.of("ready", "All servers are ready"), List.of("ready", "Application startup complete")),
          t.rows("SELECT kind, detail FROM engine_events ORDER BY line_no"));
    }
  }
}
