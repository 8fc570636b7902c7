package dev.tokentime.formats.trtllm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.testing.PinnedExcerpts;
import dev.tokentime.testing.RecordingSink;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A TensorRT-LLM or Triton log that holds iteration stats keeps its other lines' meaning (they
 * are trtllm-log's kinds, taken in by trtllm-iter-stats' spec), and Triton's
 * {@code --log-format ISO8601} header is a prefix with its time. Made-up files of real lines
 * (constructed/triton-logs) and Triton's documented example (field/).
 */
class TritonLogShapesTest {
  static final PinnedExcerpts LOGS = new PinnedExcerpts(Path.of("src/test/resources/constructed/triton-logs"),
      "triton", Instant.parse("2026-09-30T00:00:00Z"));
  static final PinnedExcerpts FIELD = new PinnedExcerpts(Path.of("src/test/resources/real-logs/field"), "field",
      Instant.parse("2026-09-30T00:00:00Z"));

  @Test
  void theIso8601HeaderIsPeeledAndDated() throws IOException {
    PinnedExcerpts.Read r = LOGS.read("iso8601-ready-then-iteration-stats.log");
    assertEquals("trtllm-iter-stats 4 3 1 0", r.account(), "the stats line was an other line, the file unclaimed");
    RecordingSink s = r.sink();
    assertEquals(List.of("ready Started GRPCInferenceService at 0.0.0.0:8001 2024-07-17T23:01:28Z",
        "ready Started HTTPService at 0.0.0.0:8000 2024-07-17T23:01:28Z"),
        s.events.stream().map(e -> e[1] + " " + e[2] + " " + Instant.EPOCH.plusNanos(Long.parseLong(e[4]))).toList());
    assertEquals(List.of(392L, 99), List.of(s.steps.get(0).iter, s.steps.get(0).running));
    assertEquals("trtllm-log 7 0 7 0", FIELD.read("trt-triton-iso8601-doc-extension-logging.log").account(),
        "was: cannot tell the format");
  }

  @Test
  void aLogWithIterationStatsKeepsItsReadinessAndCrashes() throws IOException {
    PinnedExcerpts.Read r = LOGS.read("glog-iteration-stats-then-quoted-error.log");
    assertEquals("trtllm-iter-stats 5 4 1 0", r.account());
    assertEquals(List.of("1 ready", "2 ready",
        "5 crash Encountered an error in forwardAsync function: [TensorRT-LLM][ERROR] Assertion failed: x"),
        r.sink().events.stream().map(e -> e[0] + " " + e[1] + (e[1].equals("crash") ? " " + e[2] : "")).toList());
  }

  @Test
  void aServeLogWithItsIterationLogKeepsItsRequests() throws IOException {
    PinnedExcerpts.Read r = LOGS.read("serve-requests-and-iteration-log.log");
    assertEquals("trtllm-iter-stats 3 3 0 0", r.account(), "was trtllm-log's, its iteration line an other line");
    RecordingSink s = r.sink();
    assertEquals(1, s.steps.size());
    assertEquals(List.of("c1627587-927f-4717-bad4-7266c9960d32"), s.requests.stream().map(q -> q.requestId).toList());
    assertEquals(775_941_735L, s.requests.get(0).firstTokenNs - s.requests.get(0).arrivalNs);
  }
}
