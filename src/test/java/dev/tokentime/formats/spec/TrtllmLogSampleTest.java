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
      t.ingestSample(IngestOptions.of(List.of("sample-logs/trtllm/trtllm-log")), "trtllm-log", 17, 13, 4, 0);
      assertEquals(List.of(
          List.of("0fc748ec-5876-4503-8d77-18ebace6a3d4", 830.0),
          List.of("6cf19bd4-d226-4b46-a996-f1be2ca3164e", 775.873124),
          List.of("c1627587-927f-4717-bad4-7266c9960d32", 775.941735)),
          t.rows("SELECT request_id, round(ttft_ms, 6) FROM request_latency ORDER BY request_id"));
      assertEquals(List.of(List.of("steady", 1L)), t.rows("SELECT DISTINCT c.kind, c.resolution_ns FROM requests"
          + " JOIN clocks c USING (clock_id)"));
      assertEquals(List.of(List.of(1752102469_000_000_000L, 32142770581067L)),
          t.rows("SELECT ns_a, ns_b FROM clock_anchors"));
      assertEquals(List.of(List.of("config", 4L), List.of("crash", 1L), List.of("version", 2L)),
          t.rows("SELECT kind, count(*) FROM engine_events GROUP BY kind ORDER BY kind"));
    }
  }
}
