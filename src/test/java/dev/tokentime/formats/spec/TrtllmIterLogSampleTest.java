package dev.tokentime.formats.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sample-logs/trtllm/pytorch-iter-log: the PyTorch executor's print_iter_log lines, read by
 * parsers/trtllm-iter-stats.spec alone (items, no Java). Expected numbers by hand
 * (sample-logs/README.md): seven iterations, rank 0, 1 s timestamps; generation requests are the
 * scheduled ones less the context ones (0, 2, 2, 3, 3, 2, 1: 13), while num_generation_tokens
 * carries CUDA-graph padding (0, 2, 2, 4, 4, 2, 1: 15).
 */
class TrtllmIterLogSampleTest {
  @TempDir
  Path tmp;

  @Test
  void printIterLogLinesAreStepsWithTheirOwnTimeAndRealGenerationRequests() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingestSample(IngestOptions.of(List.of("sample-logs/trtllm/pytorch-iter-log")), "trtllm-iter-stats", 16, 8, 8, 0);
      assertEquals(List.of(
          List.of(0L, 1759402870_000_000_000L, 41.8, 2, 1024, 0, 0),
          List.of(1L, 1759402870_000_000_000L, 9.2, 0, 0, 2, 2),
          List.of(2L, 1759402870_000_000_000L, 9.0, 1, 480, 2, 2),
          List.of(3L, 1759402871_000_000_000L, 8.9, 0, 0, 3, 4),
          List.of(4L, 1759402871_000_000_000L, 8.8, 0, 0, 3, 4),
          List.of(5L, 1759402871_000_000_000L, 8.7, 0, 0, 2, 2),
          List.of(6L, 1759402872_000_000_000L, 8.5, 0, 0, 1, 1)),
          t.rows("SELECT iter, ts_ns, duration_ms, ctx_requests, ctx_tokens, gen_requests, gen_tokens"
              + " FROM steps ORDER BY iter"));
      assertEquals(List.of(List.of(13L, 15L, 0L, 7L)), t.rows("SELECT sum(gen_requests)::BIGINT, sum(gen_tokens)::BIGINT,"
          + " max(epoch)::BIGINT, count(*) FILTER (WHERE rank = 0) FROM steps"));
      assertEquals(List.of(List.of("[40.9, 8.7, 12.6, 8.6, 8.6, 8.4]", "[2.0, 2.0, 3.0, 3.0, 3.0, 2.0, 1.0]")),
          t.rows("SELECT (list(extras['prev_device_step_ms'] ORDER BY iter) FILTER (WHERE iter > 0))::VARCHAR,"
              + " list(extras['scheduled_requests'] ORDER BY iter)::VARCHAR FROM steps"), "prev_device_step_time = N/A: none");
      assertEquals(List.of(List.of("wall", 1_000_000_000L, "UTC", true,
          "TensorRT-LLM host local time, run pytorch-iter-log")),
          t.rows("SELECT kind, resolution_ns, tz, tz_assumed, scope FROM clocks"));
      // the TensorRT-LLM views take them in: batch = context + generation requests per iteration
      assertEquals(List.of(List.of(7L, 16L)), t.rows("SELECT count(*), sum(batch)::BIGINT FROM _trtllm_steps"));
    }
  }
}
