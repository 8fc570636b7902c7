package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.store.SourceWriter;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A load-test tool's result block printed into a server's log (a CI job, one {@code &> run.log}
 * for server and bench) is read with the log: the server's lines by the log's format, the block's
 * figures as the tool's console format reads them alone, every line accounted once, and
 * {@code --explain} counting as the ingest does.
 */
class EmbeddedBlockTest {
  static final Path MIXED = Path.of("src/test/resources/constructed/mixed-logs/vllm-server-log-then-bench-block.log");
  static final Path CI = Path.of("src/test/resources/real-logs/field/sgl-ci-server-lines-then-bench-block-tail-sgl30047.log");
  static final Path GENAI_PERF = Path.of("src/test/resources/constructed/mixed-logs/vllm-server-log-then-genai-perf-table.log");
  static final Path AIPERF = Path.of("src/test/resources/constructed/mixed-logs/sglang-server-log-then-aiperf-table.log");
  static final Path LLMPERF = Path.of("src/test/resources/constructed/mixed-logs/vllm-server-log-then-llmperf-summary.log");

  @TempDir
  Path tmp;

  @Test
  void aBenchBlockInAServerLogIsReadWithIt() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      IngestResult.FileResult f = t.ingest(MIXED).files().get(0);
      // the server's 5 lines as alone (4 records, 1 other); the block's 18 as alone (14 figures,
      // 3 other, its cut last line rejected)
      assertEquals(List.of("vllm-log", 23L, 18L, 4L, 1L),
          List.of(f.format(), f.lines(), f.records(), f.otherLines(), f.rejected()));
      assertEquals(new SourceWriter.Embedded("vllm-bench-console", 14, 1), f.embedded());
      assertEquals(4L, t.count("SELECT count(*) FROM engine_stats"));
      assertEquals(14L, t.count("SELECT count(*) FROM reported_metrics"));
      assertEquals(List.of(List.of("request_throughput", 7.79, "requests/s"), List.of("ttft", 157.75, "ms")),
          t.rows("SELECT metric, value, unit FROM reported_metrics WHERE (metric, stat) IN "
              + "(('request_throughput', 'value'), ('ttft', 'mean')) ORDER BY metric"));
      assertEquals(23 - 18 - 4, t.count("SELECT count(*) FROM rejects"));
    }
  }

  @Test
  void aCiLogsServerLinesAndItsBlocksTailAreBothRead() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      IngestResult.FileResult f = t.ingest(CI).files().get(0);
      assertEquals(List.of("sglang-log", 32L, 20L, 12L, 0L),
          List.of(f.format(), f.lines(), f.records(), f.otherLines(), f.rejected()));
      assertEquals(2L, t.count("SELECT count(*) FROM steps"));
      assertEquals(List.of(List.of("e2e_latency", "p95", 46912.26), List.of("e2e_latency", "p99", 49681.91)),
          t.rows("SELECT metric, stat, value FROM reported_metrics WHERE metric = 'e2e_latency' ORDER BY stat"));
    }
  }

  /**
   * The same block at the end of a long server log compressed by rotation (its bytes past the first
   * 64 KiB): a gzip file has no positions to read its tail at, so the block was not found and its
   * lines were the log's other lines; its decompressed content's last 64 KiB now tell it, as a
   * plain file's do.
   */
  @Test
  void aBenchBlockPastTheHeadOfAGzippedLogIsFound() throws Exception {
    StringBuilder log = new StringBuilder();
    for (int i = 0; log.length() < 200_000; i++) {
      log.append(String.format("INFO 08-12 10:%02d:%02d [loggers.py:127] Engine 000: Avg prompt throughput: 0.0 tokens/s,"
          + " Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.0%%,"
          + " Prefix cache hit rate: 0.0%%%n", i / 60 % 60, i % 60));
    }
    byte[] text = (log + java.nio.file.Files.readString(MIXED)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    Path plain = tmp.resolve("plain/server.log");
    Path gz = tmp.resolve("gz/server.log.gz");
    java.nio.file.Files.createDirectories(plain.getParent());
    java.nio.file.Files.createDirectories(gz.getParent());
    java.nio.file.Files.write(plain, text);
    try (var out = new java.util.zip.GZIPOutputStream(java.nio.file.Files.newOutputStream(gz))) {
      out.write(text);
    }
    for (Path file : List.of(plain, gz)) {
      try (TestDb t = new TestDb(tmp.resolve("db-" + file.getParent().getFileName()))) {
        IngestResult.FileResult f = t.ingest(file).files().get(0);
        assertEquals("vllm-log", f.format(), file.toString());
        assertEquals(new SourceWriter.Embedded("vllm-bench-console", 14, 1), f.embedded(), file.toString());
        assertEquals(14L, t.count("SELECT count(*) FROM reported_metrics"), file.toString());
      }
    }
  }

  /** genai-perf's table in a vLLM server's log: the server's 12 lines as alone (4 records), the table's 13 (8 rows). */
  @Test
  void aGenaiPerfTableInAServerLogIsReadWithIt() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      IngestResult.FileResult f = t.ingest(GENAI_PERF).files().get(0);
      assertEquals(List.of("vllm-log", 25L, 4L + 8L, 8L + 5L, 0L),
          List.of(f.format(), f.lines(), f.records(), f.otherLines(), f.rejected()));
      assertEquals(new SourceWriter.Embedded("genai-perf-console", 8, 0), f.embedded());
      assertEquals(2L, t.count("SELECT count(*) FROM engine_stats"));
      assertEquals(33L, t.count("SELECT count(*) FROM reported_metrics"));
      assertEquals(List.of(List.of("request_latency", "avg", 6740.76, "ms"), List.of("request_latency", "p99", 8929.88, "ms")),
          t.rows("SELECT metric, stat, value, unit FROM reported_metrics WHERE metric = 'request_latency'"
              + " AND stat IN ('avg', 'p99') ORDER BY stat"));
    }
  }

  /**
   * AIPerf's table in an SGLang server's log: the wrapped names joined, its duration a figure, its
   * CLI command (wrapped over three lines) the run's level; its export paths the log's other lines.
   */
  @Test
  void anAiperfTableInAServerLogIsReadWithIt() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      IngestResult.FileResult f = t.ingest(AIPERF).files().get(0);
      assertEquals(List.of("sglang-log", 46L, 4L + 12L, 2L + 28L, 0L),
          List.of(f.format(), f.lines(), f.records(), f.otherLines(), f.rejected()));
      assertEquals(new SourceWriter.Embedded("aiperf-console", 12, 0), f.embedded());
      assertEquals(4L, t.count("SELECT count(*) FROM steps"));
      assertEquals(60L, t.count("SELECT count(*) FROM reported_metrics"));
      assertEquals(List.of(List.of("benchmark_duration", "avg", 15.81), List.of("output_token_throughput_per_user", "avg", 284.54)),
          t.rows("SELECT metric, stat, value FROM reported_metrics WHERE metric IN ('benchmark_duration',"
              + " 'output_token_throughput_per_user') AND stat = 'avg' ORDER BY metric"));
      assertEquals(List.of(List.of("concurrency", 2.0)), t.rows("SELECT level_kind, level FROM runs"));
    }
  }

  /** LLMPerf's printout in a vLLM server's log: 60 statistics and 4 run figures, its names and header other lines. */
  @Test
  void anLlmperfSummaryInAServerLogIsReadWithIt() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      IngestResult.FileResult f = t.ingest(LLMPERF).files().get(0);
      assertEquals(List.of("vllm-log", 77L, 5L + 64L, 8L, 0L),
          List.of(f.format(), f.lines(), f.records(), f.otherLines(), f.rejected()));
      assertEquals(new SourceWriter.Embedded("llmperf-console", 64, 0), f.embedded());
      assertEquals(5L, t.count("SELECT count(*) FROM engine_stats"));
      assertEquals(List.of(List.of("num_completed_requests", "value", 150.0), List.of("ttft_s", "p50", 0.2218883791938424)),
          t.rows("SELECT metric, stat, value FROM reported_metrics WHERE (metric, stat) IN "
              + "(('num_completed_requests', 'value'), ('ttft_s', 'p50')) ORDER BY metric"));
    }
  }

  /** The server's own lines among a block's (its header, a process tag) stay its other lines, never the block's rejects. */
  @Test
  void theServersLinesInsideABlockAreItsOwn() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path f = t.write("ci/run.log", ""
          + "[2026-07-04 05:01:10 TP0] Decode batch, #running-req: 1, #full token: 70400, full token usage: 0.15,"
          + " gen throughput (token/s): 6.97, #queue-req: 0\n"
          + "P95 E2E Latency (ms):                    46912.26\n"
          + "---------------Time to First Token----------------\n"
          + "Mean TTFT (ms):                          18206.82\n"
          + "[2026-07-04 05:01:11] Cache flushed successfully!\n"
          + "Median TTFT (ms):                        19107.86\n"
          + "[2026-07-04 05:01:23] Shutting down gracefully\n");
      IngestResult.FileResult r = t.ingest(f).files().get(0);
      assertEquals(List.of("sglang-log", 7L, 4L, 3L, 0L), List.of(r.format(), r.lines(), r.records(), r.otherLines(), r.rejected()));
      assertEquals(List.of(List.of("e2e_latency", "p95"), List.of("ttft", "mean"), List.of("ttft", "median")),
          t.rows("SELECT metric, stat FROM reported_metrics ORDER BY metric, stat"));
    }
  }

  /**
   * A line printed among the block's rows that is neither a line of the block (not even a cut one)
   * nor the server's own: a line of the log no kind reads, its other line as anywhere else in it;
   * a figure cut short inside the block stays a reject.
   */
  @Test
  void aStrayLineInsideABlockIsAnOtherLineOfTheLog() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path f = t.write("ci/run.log", ""
          + "[2026-07-04 05:01:10 TP0] Decode batch, #running-req: 1, #full token: 70400, full token usage: 0.15,"
          + " gen throughput (token/s): 6.97, #queue-req: 0\n"
          + "============ Serving Benchmark Result ============\n"
          + "Backend:                                 sglang\n"
          + "Successful requests:                     100\n"
          + "Waiting for the profiler to flush...\n"
          + "Benchmark duration (s):                  10.00\n"
          + "Mean TT\n"
          + "Median TTFT (ms):                        19107.86\n"
          + "==================================================\n");
      IngestResult.FileResult r = t.ingest(f).files().get(0);
      // 1 server line and 3 figures; the title, Backend, the rule and the stray line other; the cut line rejected
      assertEquals(List.of("sglang-log", 9L, 4L, 4L, 1L), List.of(r.format(), r.lines(), r.records(), r.otherLines(), r.rejected()));
      assertEquals(List.of(List.of(7L, "not a 'label: value' line inside the benchmark result (a cut line?)")),
          t.rows("SELECT line_no, reason FROM rejects"));
      assertEquals(new SourceWriter.Embedded("sglang-bench-console", 3, 1), r.embedded());
    }
  }

  /** Two CI logs of a sweep in one folder, each with its block: two runs, each at its own level. */
  @Test
  void eachCiLogOfASweepIsARunOfItsOwn() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      for (int c : new int[] {16, 32}) {
        t.write("ci/c" + c + ".log", ""
            + "[2026-07-04 05:01:10 TP0] Decode batch, #running-req: " + c + ", #full token: 70400, full token usage: 0.15,"
            + " gen throughput (token/s): 6.97, #queue-req: 0\n"
            + "============ Serving Benchmark Result ============\n"
            + "Backend:                                 sglang\n"
            + "Max request concurrency:                 " + c + "\n"
            + "Successful requests:                     100\n"
            + "Benchmark duration (s):                  10.00\n"
            + "==================================================\n");
      }
      t.ingest(tmp.resolve("ci"));
      assertEquals(List.of(List.of("ci/c16", 16.0), List.of("ci/c32", 32.0)),
          t.rows("SELECT run, level FROM runs ORDER BY run"));
    }
  }

  @Test
  void explainCountsTheBlockAsTheIngestDoes() throws Exception {
    for (Path p : List.of(MIXED, CI, GENAI_PERF, AIPERF, LLMPERF)) {
      ExplainService.Result e = new ExplainService(FormatRegistry.standard())
          .explain(IngestOptions.of(List.of(p.toString()))).get(0);
      try (TestDb t = new TestDb(tmp.resolve(p.getFileName().toString()))) {
        IngestResult.FileResult f = t.ingest(p).files().get(0);
        assertEquals(List.of(f.lines(), f.records(), f.otherLines(), f.rejected()),
            List.of(e.stats().lines, e.records(), e.stats().other, e.stats().rejected), p.toString());
        assertEquals(f.embedded(), new SourceWriter.Embedded(e.stats().embeddedFormat, e.stats().embeddedRecords,
            e.stats().embeddedRejected), p.toString());
      }
    }
  }
}
