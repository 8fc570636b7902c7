package dev.tokentime.formats.trtllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TensorRT-LLM sources end to end in a real database file, through the core views. */
class TrtllmDatabaseTest {
  @TempDir
  Path tmp;

  static double d(Object v) {
    return ((Number) v).doubleValue();
  }

  @Test
  void requestLatencySplitsTheRealTritonRecordAsTensorRtLlmDoes() throws Exception {
    // arrival 76735247746000, first scheduled ...248284000, first token ...374300000, last ...6545324000 ns
    try (TestDb t = new TestDb(tmp)) {
      Path f = t.writeBytes("triton/response.json", Files.readAllBytes(Samples.REAL.resolve("request_perf_metrics_triton_llmapi.json")));
      t.ingest(f);
      List<Object> r = t.rows("SELECT pre_queue_ms, queue_ms, prefill_ms, ttft_ms, decode_ms, e2e_ms, timing_basis"
          + " FROM request_latency").get(0);
      assertEquals(0.0, d(r.get(0)), 1e-9, "the executor queues a request as it arrives");
      assertEquals(0.538, d(r.get(1)), 1e-9, "first_scheduled - arrival");
      assertEquals(126.016, d(r.get(2)), 1e-9, "first_token - first_scheduled");
      assertEquals(126.554, d(r.get(3)), 1e-9, "first_token - arrival");
      assertEquals(1171.024, d(r.get(4)), 1e-9, "last_token - first_token");
      assertEquals(1297.578, d(r.get(5)), 1e-9, "last_token - arrival");
      assertEquals("timestamps", r.get(6));
      assertEquals(0L, t.count("SELECT count(*) FROM checks WHERE violations > 0"), t.rows("SELECT * FROM checks").toString());
    }
  }

  @Test
  void requestLatencyOfAPerfMetricsPollByHand() throws Exception {
    // request 0: arrival 100.001, first scheduled 100.004, first token 100.104, last token 100.504 s
    try (TestDb t = new TestDb(tmp)) {
      Path f = t.write("serve/perf_metrics.json", "[" + PerfMetricsFormatTest.record(0, 100.0) + ","
          + PerfMetricsFormatTest.record(1, 100.5) + "]\n");
      t.ingest(f);
      List<Object> r = t.rows("SELECT queue_ms, prefill_ms, decode_ms, ttft_ms, e2e_ms FROM request_latency"
          + " WHERE request_id = '0'").get(0);
      assertEquals(3.0, d(r.get(0)), 1e-9);
      assertEquals(100.0, d(r.get(1)), 1e-9);
      assertEquals(400.0, d(r.get(2)), 1e-9);
      assertEquals(103.0, d(r.get(3)), 1e-9);
      assertEquals(503.0, d(r.get(4)), 1e-9);
      assertEquals(2L, t.count("SELECT count(*) FROM requests WHERE first_iter IS NOT NULL"));
    }
  }

  @Test
  void stepMetricsTokensGiveServerSideInterTokenLatency() throws Exception {
    String rec = "{\"request_id\":7,\"perf_metrics\":{\"timing_metrics\":{\"arrival_time\":10.0,"
        + "\"first_scheduled_time\":10.002,\"first_token_time\":10.05,\"last_token_time\":10.08}},"
        + "\"time_breakdown_metrics\":{\"step_metrics\":[{\"token_time\":10.06},{\"token_time\":10.075},"
        + "{\"token_time\":10.08}]}}\n";
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("s/perf.jsonl", rec));
      List<Object> r = t.rows("SELECT content_chunks, output_tokens, itl_mean_ms, itl_max_ms, tpot_ms FROM request_latency").get(0);
      assertEquals(4, ((Number) r.get(0)).intValue());
      assertEquals(4, ((Number) r.get(1)).intValue(), "one token per step");
      assertEquals(10.0, d(r.get(2)), 1e-9, "(10.08 - 10.05) / 3 s");
      assertEquals(15.0, d(r.get(3)), 1e-9);
      assertEquals(10.0, d(r.get(4)), 1e-9);
      assertEquals(List.of(10.0, 15.0, 5.0), t.rows("SELECT gap_ms FROM token_gaps ORDER BY seq").stream()
          .map(x -> d(x.get(0))).toList());
    }
  }

  @Test
  void iterationStatsGiveTheBatchSizeTimelineOfTheirCounts() throws Exception {
    // two attention-DP ranks, a step every 10 ms; batch = context + generation requests, ranks added
    int[][] counts = {{1, 0, 0, 1}, {1, 1, 1, 0}, {0, 2, 1, 1}, {1, 2, 0, 3}, {0, 3, 0, 2}, {0, 0, 0, 0}};
    StringBuilder text = new StringBuilder();
    List<Double> expected = new ArrayList<>();
    for (int i = 0; i < counts.length; i++) {
      int[] c = counts[i];
      for (int rank = 0; rank < 2; rank++) {
        text.append(String.format("{\"attentionDpRank\":%d,\"iter\":%d,\"iterLatencyMS\":9.5,\"numActiveRequests\":%d,"
            + "\"inflightBatchingStats\":{\"numContextRequests\":%d,\"numGenRequests\":%d,\"numCtxTokens\":0,"
            + "\"numPausedRequests\":0,\"numScheduledRequests\":%d},\"timestamp\":\"03-04-2025 05:06:07.%06d\"}\n",
            rank, i + 1, c[2 * rank] + c[2 * rank + 1], c[2 * rank], c[2 * rank + 1], c[2 * rank] + c[2 * rank + 1],
            i * 10_000));
      }
      if (i < counts.length - 1) { // the last step has no successor: it holds for no time
        expected.add((double) (c[0] + c[1] + c[2] + c[3]));
      }
    }
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("bs/iteration_stats.jsonl", text.toString()));
      assertEquals(12L, t.count("SELECT count(*) FROM steps"));
      List<Double> got = t.rows("SELECT batch_mean FROM batch_size_timeline_at(0.01) WHERE method = 'steps'"
          + " ORDER BY t_s").stream().map(r -> d(r.get(0))).toList();
      assertEquals(expected, got);
      assertEquals(List.of(1.0, 1.0, 1.0, 1.0, 1.0), t.rows("SELECT coverage FROM batch_size_timeline_at(0.01)"
          + " WHERE method = 'steps' ORDER BY t_s").stream().map(r -> d(r.get(0))).toList());
    }
  }

  @Test
  void everyRealSampleFileIngestsWithItsLinesAccountedFor() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      List<Path> files = new ArrayList<>();
      for (String f : new String[] {"iteration_stats_executor_complete.jsonl", "request_perf_metrics_triton_llmapi.json",
          "triton_trace_docs_example.json", "iteration_stats_legacy_batchmanager.log", "pyexecutor_print_iter_log.log",
          "trtllm_bench_reports.txt"}) {
        files.add(t.writeBytes("real/" + f, Files.readAllBytes(Samples.REAL.resolve(f))));
      }
      t.ingest(files.toArray(new Path[0]));
      assertEquals(0L, t.count("SELECT count(*) FROM check_source_lines"));
      List<List<Object>> rows = t.rows("SELECT regexp_extract(path, '[^/]+$'), format, records, other_lines, rejected"
          + " FROM sources ORDER BY 1");
      List<String> got = rows.stream().map(r -> r.get(0) + " " + r.get(1) + " " + r.get(2) + "/" + r.get(3) + "/" + r.get(4)).toList();
      assertEquals(List.of(
          "iteration_stats_executor_complete.jsonl trtllm-iter-stats 2/0/0",
          "iteration_stats_legacy_batchmanager.log trtllm-iter-stats 3/7/0",
          "pyexecutor_print_iter_log.log trtllm-iter-stats 2/2/0",
          "request_perf_metrics_triton_llmapi.json trtllm-perf-metrics 1/0/0",
          "triton_trace_docs_example.json triton-trace 12/0/0",
          "trtllm_bench_reports.txt trtllm-bench-report 171/132/0"), got);
      assertEquals(7L, t.count("SELECT count(*) FROM steps"));
      assertEquals(2L, t.count("SELECT count(*) FROM requests"));
      assertTrue(t.count("SELECT count(*) FROM reported_metrics") > 150);
    }
  }
}
