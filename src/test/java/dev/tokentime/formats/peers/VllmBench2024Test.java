package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A results file of 2024's benchmark_serving.py, in the shape of dstackai/benchmarks'
 * {@code nvidia-vllm-16.0qps-…-20241109-150547.json} (tokenizer_id and best_of, ttfts and itls,
 * no start_times and no latencies; 379 of its 1000 "completed" requests have output 0, no ITLs and
 * TTFT 0.0). Three requests, small enough to check by hand:
 *
 * <pre>
 *   request  ttft   itls          output   vLLM's TTFT  tokentime's TTFT  TPOT (rebuilt)
 *   0        0.1 s  0.02, 0.04    3        100 ms       100 ms            (160 - 100) / 2 = 30 ms
 *   1        0.0    —             0        0 (default)  none: no chunk    —
 *   2        0.3 s  0.05          2        300 ms       300 ms            (350 - 300) / 1 = 50 ms
 * </pre>
 *
 * vLLM's mean TTFT is (100 + 0 + 300) / 3 = 133.33 ms, as the file reports; tokentime's is 200 ms.
 * The file reports a mean TPOT of 45 ms where the rebuild gives 40: that version ended a
 * request's latency at the stream's end, which the file does not carry.
 */
class VllmBench2024Test {
  static final String FILE = "{\"date\":\"20241109-150547\",\"backend\":\"vllm\",\"model_id\":\"m\",\"tokenizer_id\":\"m\","
      + "\"best_of\":1,\"num_prompts\":3,\"request_rate\":16.0,\"duration\":2.0,\"completed\":3,"
      + "\"total_input_tokens\":30,\"total_output_tokens\":5,\"request_throughput\":1.5,\"output_throughput\":2.5,"
      + "\"input_lens\":[10,10,10],\"output_lens\":[3,0,2],\"ttfts\":[0.1,0.0,0.3],\"itls\":[[0.02,0.04],[],[0.05]],"
      + "\"generated_texts\":[\"a b c\",\"\",\"d e\"],\"errors\":[\"\",\"\",\"\"],"
      + "\"mean_ttft_ms\":133.33333333333334,\"mean_tpot_ms\":45.0}";

  @TempDir
  Path tmp;

  @Test
  void aRequestWithoutAChunkHasNoFirstTokenButCountsInVllmsFigureAtItsDefault() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      t.ingest(t.write("bench/vllm-2024.json", FILE));
      assertEquals(List.of(List.of("0", 3L), List.of("1", 0L), List.of("2", 2L)),
          t.rows("SELECT r.request_id, count(k.seq) FROM requests r LEFT JOIN tokens k USING (request_key)"
              + " GROUP BY ALL ORDER BY 1"), "no phantom chunk for request 1");
      assertNull(t.value("SELECT ttft_ms FROM request_latency WHERE request_id = '1'"));
      assertEquals(200.0, ((Number) t.value("SELECT mean FROM metric_stats WHERE metric = 'ttft_ms'")).doubleValue(), 1e-6);
      assertEquals(133.333333, ((Number) t.value("SELECT value FROM vllm_bench_metrics WHERE metric = 'ttft'"
          + " AND stat = 'mean'")).doubleValue(), 1e-5);
      assertEquals(40.0, ((Number) t.value("SELECT value FROM vllm_bench_metrics WHERE metric = 'tpot'"
          + " AND stat = 'mean'")).doubleValue(), 1e-6);
      // TTFT reproduces the tool (its difference from tokentime's is the definition, in why);
      // TPOT cannot, and the row says why
      List<List<Object>> rows = t.rows("SELECT metric, reported_value - convention_value, not_reproducible, why"
          + " FROM peer_comparison WHERE convention = 'vllm' AND stat = 'mean' AND metric IN ('ttft_ms', 'tpot_ms')"
          + " ORDER BY metric DESC");
      assertEquals("ttft_ms", rows.get(0).get(0));
      assertEquals(0.0, ((Number) rows.get(0).get(1)).doubleValue(), 1e-6);
      assertNull(rows.get(0).get(2));
      assertTrue(rows.get(0).get(3).toString().contains("without any chunk adds its default TTFT, 0"), rows.get(0).toString());
      assertEquals("tpot_ms", rows.get(1).get(0));
      assertEquals(5.0, ((Number) rows.get(1).get(1)).doubleValue(), 1e-6);
      assertTrue(rows.get(1).get(2).toString().startsWith("the results file has no per-request latencies"),
          rows.get(1).toString());
    }
  }

  /**
   * dstackai's 1000 qps run (2024-11-16): 17 of 1000 requests "completed", none with a chunk, so
   * no ITL and no TPOT sample; the file's 0.0 for their statistics is numpy's mean of an empty
   * list (`or 0`), a placeholder, as for a run with none completed. Its TTFT of 0 stays: the 17
   * count at vLLM's default TTFT.
   */
  @Test
  void itlAndTpotOfARunWithoutAGapArePlaceholders() throws Exception {
    String file = "{\"date\":\"20241116-152727\",\"backend\":\"vllm\",\"model_id\":\"m\",\"tokenizer_id\":\"m\","
        + "\"best_of\":1,\"num_prompts\":2,\"request_rate\":1000.0,\"duration\":2.0,\"completed\":2,"
        + "\"total_input_tokens\":20,\"total_output_tokens\":0,\"request_throughput\":1.0,\"output_throughput\":0.0,"
        + "\"input_lens\":[10,10],\"output_lens\":[0,0],\"ttfts\":[0.0,0.0],\"itls\":[[],[]],"
        + "\"generated_texts\":[\"\",\"\"],\"errors\":[\"\",\"\"],"
        + "\"mean_ttft_ms\":0.0,\"p99_ttft_ms\":0.0,\"mean_tpot_ms\":0.0,\"p99_tpot_ms\":0.0,\"mean_itl_ms\":0.0,\"p99_itl_ms\":0.0}";
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      t.ingest(t.write("bench/vllm-1000qps.json", file));
      assertEquals(List.of(List.of("ttft", "mean"), List.of("ttft", "p99")),
          t.rows("SELECT metric, stat FROM reported_metrics WHERE unit = 'ms' ORDER BY ALL"));
    }
    // each output in one chunk of several tokens (--stream-interval): no ITL sample, but TPOT,
    // (latency - ttft) / (output_len - 1), is a figure and is kept
    String oneChunk = file.replace("\"output_lens\":[0,0]", "\"output_lens\":[4,5]").replace("\"mean_tpot_ms\":0.0", "\"mean_tpot_ms\":23.68");
    try (TestDb t = new TestDb(tmp.resolve("db2"))) {
      t.ingest(t.write("bench/vllm-one-chunk.json", oneChunk));
      assertEquals(List.of(List.of("tpot", "mean", 23.68), List.of("tpot", "p99", 0.0)),
          t.rows("SELECT metric, stat, value FROM reported_metrics WHERE metric IN ('tpot', 'itl') ORDER BY ALL"));
    }
  }
}
