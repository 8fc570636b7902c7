package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.CollectingSink;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * vllm bench serve's results as vllm/benchmarks/serve.py writes them since its client-queue
 * change (vllm PR #54136, 2026-08): per-request {@code latencies} and {@code queue_times} are kept
 * even without --save-detailed, and a pooling run's result has latencies without ttfts
 * (src/test/resources/constructed/vllm-bench-2026, README there). Each was one reject, "per-request
 * arrays without ttfts", and no request.
 */
class VllmBench2026Test {
  static final Path DIR = Path.of("src/test/resources/constructed/vllm-bench-2026");

  @TempDir
  Path tmp;

  @Test
  void resultsWithoutTtftsAreRequestsAndTheQueueStatisticsAreReproduced() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(DIR.toString())));
      assertEquals(0L, t.count("SELECT count(*) FROM rejects"));
      // a run without --save-detailed: 8 requests from latencies, the one at latency 0.0 the failure
      // the file counts (failed: 1); no TTFT, no chunk; the client queue time of each
      String plain = "vllm-bench-2026/openai-4.0qps-concurrency2-Qwen3-0.6B-20261201-101500";
      assertEquals(List.of(List.of(8L, 1L, 0L, 7L)), t.rows("SELECT count(*), count(*) FILTER (WHERE status = 'error'),"
          + " count(ttft_ms), count(e2e_ms) FROM requests WHERE run = '" + plain + "'"));
      // with --save-detailed the same: the failed request's latency 0.0 is no E2E (it was 0 ms)
      assertEquals(List.of(List.of(8L, 1L, 7L, 7L)), t.rows("SELECT count(*), count(*) FILTER (WHERE status = 'error'),"
          + " count(ttft_ms), count(e2e_ms) FROM requests WHERE run = 'vllm-bench-2026/detailed-openai-4.0qps-concurrency2-"
          + "Qwen3-0.6B-20261201-101500'"));
      assertEquals(List.of(List.of("error", "406.726")), t.rows("SELECT status, printf('%.3f',"
          + " CAST(extras['client_queue_ms'] AS DOUBLE)) FROM requests WHERE run = '" + plain + "' AND request_id = '5'"));
      // the tool's E2EL, client-queue and queue-inclusive statistics, recomputed from the requests,
      // in the plain run and in the same run saved with --save-detailed (3 metrics x 5 statistics
      // each), and the pooling run's 4 E2EL statistics
      assertEquals(List.of(List.of(34L, 0L)), t.rows("SELECT count(*), count(*) FILTER (WHERE abs(v.value - r.value) > 1e-6)"
          + " FROM reported_metrics r JOIN vllm_bench_metrics v USING (run, metric, stat)"
          + " WHERE r.metric IN ('e2el', 'client_queue_time', 'e2el_including_client_queue')"));
      assertEquals(List.of(List.of(480.3906)), t.rows("SELECT round(value, 4) FROM vllm_bench_metrics WHERE run = '" + plain
          + "' AND metric = 'e2el_including_client_queue' AND stat = 'mean'"));
      // a pooling run: 5 requests without tokens, its E2EL statistics reproduced
      String pooling = "vllm-bench-2026/openai-embeddings-infqps-bge-m3-20261201-102000";
      assertEquals(List.of(List.of(5L, 5L)), t.rows("SELECT count(*), count(*) FILTER (WHERE extras['output_kind'] = 'none')"
          + " FROM requests WHERE run = '" + pooling + "'"));
      assertEquals(List.of(List.of(4L, 0L)), t.rows("SELECT count(*), count(*) FILTER (WHERE abs(v.value - r.value) > 1e-6)"
          + " FROM reported_metrics r JOIN vllm_bench_metrics v USING (run, metric, stat) WHERE run = '" + pooling
          + "' AND metric = 'e2el'"));
      assertEquals(List.of(List.of("inputs/s")), t.rows("SELECT unit FROM reported_metrics WHERE run = '" + pooling
          + "' AND metric = 'input_sequence_throughput'"));
    }
  }

  /** Without errors, a failed count the zero latencies do not match cannot say which failed: one reject, the figures kept. */
  @Test
  void arraysThatCannotTellTheirFailuresAreOneReject() throws Exception {
    CollectingSink s = Parsing.parse(new VllmBenchFormat(), "{\"backend\":\"openai\",\"max_concurrency\":2,\"completed\":2,"
        + "\"failed\":1,\"latencies\":[0.2,0.3,0.4],\"queue_times\":[0.0,0.1,0.2],\"mean_e2el_ms\":250.0}\n");
    assertEquals(List.of("per-request arrays without errors or ttfts (no --save-detailed): cannot tell which of the 3"
        + " requests failed (the result says 1 failed, 0 have latency 0.0)"),
        s.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertEquals(0, s.requests.size());
    assertTrue(s.reported.contains("dir 2.0 e2el mean 250.0 ms"), s.reported.toString());
  }

  /** The probe requests' latency (--probe-request-rate) under the console's names: probe_e2el, its statistic. */
  @Test
  void probeFiguresAreTheProbesE2elStatistics() throws Exception {
    CollectingSink s = Parsing.parse(new VllmBenchFormat(), "{\"backend\":\"openai\",\"max_concurrency\":2,\"completed\":2,"
        + "\"probe_completed\":5,\"probe_failed\":0,\"probe_median_e2el_ms\":100.0,\"probe_p99_e2el_ms\":120.0,"
        + "\"probe_max_e2el_ms\":130.0}\n");
    for (String f : List.of("probe_e2el median 100.0 ms", "probe_e2el p99 120.0 ms", "probe_e2el max 130.0 ms",
        "probe_completed value 5.0 count", "probe_failed value 0.0 count")) {
      assertTrue(s.reported.contains("dir 2.0 " + f), f + " in " + s.reported);
    }
  }

  /**
   * vllm-bench, the Rust client (constructed/vllm-bench-rust-2026, README there): its keys are
   * sorted, so with --save-detailed the arrays come before every figure and the file was "cannot
   * tell the format"; its failed_requests (written without --save-detailed) were unread, and its
   * steady_state figures too.
   */
  @Test
  void theRustClientsResults() throws Exception {
    Path dir = Path.of("src/test/resources/constructed/vllm-bench-rust-2026");
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(dir.toString())));
      assertEquals(0L, t.count("SELECT count(*) FROM rejects"));
      assertEquals(List.of(List.of("vllm-bench-json", 3L)), t.rows("SELECT format, count(*) FROM sources GROUP BY format"));
      String plain = "vllm-bench-rust-2026/openai-infqps-concurrency4-Qwen3-0.6B-20261203-141500";
      String detailed = "vllm-bench-rust-2026/detailed-openai-infqps-concurrency4-Qwen3-0.6B-20261203-141500";
      // the plain file's one failed request, from failed_requests; the detailed file's own 30, once each
      assertEquals(List.of(List.of(plain, "3", "error", "connection reset", 128)), t.rows("SELECT run, request_id, status,"
          + " error, prompt_tokens FROM requests WHERE run = '" + plain + "'"));
      assertEquals(List.of(List.of(30L, 1L)), t.rows("SELECT count(*), count(*) FILTER (WHERE status = 'error')"
          + " FROM requests WHERE run = '" + detailed + "'"));
      // every figure vllm_bench_metrics computes reproduces the file's (ttft, tpot, itl, the peak)
      assertEquals(List.of(List.of(21L, 0L)), t.rows("SELECT count(*), count(*) FILTER (WHERE abs(v.value - r.value) > 1e-6)"
          + " FROM reported_metrics r JOIN vllm_bench_metrics v USING (run, metric, stat) WHERE run = '" + detailed + "'"));
      assertEquals(List.of(List.of("steady_state_duration", "value", 0.06, "s"), List.of("steady_state_request_throughput",
          "value", 16.6667, "requests/s"), List.of("steady_state_ttft", "p99", 84.1, "ms")),
          t.rows("SELECT metric, stat, round(value, 4), unit FROM reported_metrics WHERE run = '" + plain + "' AND"
              + " (metric IN ('steady_state_duration', 'steady_state_request_throughput') OR metric = 'steady_state_ttft'"
              + " AND stat = 'p99') ORDER BY metric"));
      // a multi-turn run: its failed turn named by conversation and turn, each turn's figures
      String multi = "vllm-bench-rust-2026/openai-chat-multiturn-Qwen3-0.6B-20261204-090000";
      assertEquals(List.of(List.of("conv-1:1", "error", "timeout", 30000.0, "conv-1")), t.rows("SELECT request_id, status,"
          + " error, e2e_ms, extras['session_id'] FROM requests WHERE run = '" + multi + "'"));
      assertEquals(List.of(List.of("conversations_failed", "value", 1.0, "count"), List.of("turn_1_failed", "value", 1.0, "count"),
          List.of("turn_1_ttft", "mean", 120.0, "ms")), t.rows("SELECT metric, stat, round(value, 4), unit FROM reported_metrics"
              + " WHERE run = '" + multi + "' AND (metric IN ('conversations_failed', 'turn_1_failed')"
              + " OR metric = 'turn_1_ttft' AND stat = 'mean') ORDER BY metric"));
    }
  }
}
