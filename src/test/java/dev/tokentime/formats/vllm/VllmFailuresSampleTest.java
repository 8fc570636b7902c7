package dev.tokentime.formats.vllm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sample-logs/vllm-failures: failures that only uvicorn's access lines tell. The numbers are the
 * hand count in sample-logs/README.md: an error no request line is next to is a failed request of
 * its own (at the last time before it), never pinned on the request that comes next; an error
 * right after a Received line is that request's; all of them count in the summary's failures.
 */
class VllmFailuresSampleTest {
  @TempDir
  Path tmp;

  @Test
  void accessLineErrorsAreFailedRequestsAndNeverAnotherRequests() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingestSample(new IngestOptions(List.of("sample-logs/vllm-failures"), null, null, false, false,
          false, null, 2025), "vllm-log", 16, 16, 0, 0);
      long t6 = java.time.Instant.parse("2025-06-03T10:00:06Z").toEpochMilli() * 1_000_000L;
      assertEquals(List.of(
          List.of("chatcmpl-bad3", "error", 400),
          List.of("chatcmpl-ok1", "ok", 200),
          List.of("chatcmpl-ok2", "ok", 200),
          List.of("http-404-line-8", "error", 404),
          List.of("http-500-line-6", "error", 500),
          List.of("http-500-line-7", "error", 500)),
          t.rows("SELECT request_id, status, http_status FROM requests ORDER BY request_id"));
      assertEquals(3L, t.count("SELECT count(*) FROM requests WHERE request_id LIKE 'http-%' AND arrival_ns = "
          + t6 + " AND finished_ns = " + t6));
      assertEquals(2L, t.count("SELECT output_tokens FROM requests WHERE request_id = 'chatcmpl-ok2'"),
          "the 404 before it is not its");
      assertEquals(List.of(List.of(6L, 2L, 4L)),
          t.rows("SELECT requests, ok_requests, failed_requests FROM run_summary WHERE run = 'vllm-failures'"));
      assertEquals(List.of(List.of(500, 2L), List.of(400, 1L), List.of(404, 1L)),
          t.rows("SELECT http_status, requests FROM request_failures ORDER BY requests DESC, http_status = 404, http_status"));
    }
  }
}
