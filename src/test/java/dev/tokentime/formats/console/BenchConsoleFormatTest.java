package dev.tokentime.formats.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Benchmark console summaries pasted in public issues and docs (src/test/resources/real-logs/
 * console, PROVENANCE.md there): each file is sniffed to its tool without --from, every line is
 * accounted for (a cut last line is a reject), and the figures read back are the ones printed,
 * under the names, statistics and units of the tool's own result file.
 */
class BenchConsoleFormatTest {
  static final Path DIR = Path.of("src/test/resources/real-logs/console");

  static CollectingSink parse(String file) throws IOException {
    byte[] bytes = Files.readAllBytes(DIR.resolve(file));
    InputFormat f = FormatRegistry.standard().sniff(new Sample(file, bytes, Math.min(bytes.length, 64 << 10)));
    CollectingSink sink = new CollectingSink();
    long lines = f.parse(new ByteArrayInputStream(bytes), new ParseContext("test-input", "r", false, null, null), sink);
    assertEquals(lines, sink.records + sink.other + sink.rejects.size(), "lines = records + other + rejected");
    // lines end at '\n' only: a progress bar's '\r' redraws within one line
    long newlines = new String(bytes, StandardCharsets.UTF_8).chars().filter(c -> c == '\n').count();
    assertEquals(newlines + (bytes.length > 0 && bytes[bytes.length - 1] != '\n' ? 1 : 0), lines, "every line read");
    sink.reported.add("format " + f.id());
    return sink;
  }

  @ParameterizedTest
  @CsvSource({
      // file, format, records, other, rejected
      "vllm-pr7062.txt, vllm-bench-console, 14, 3, 1",
      // vLLM-Omni's titled sections, a % figure, a duplicated figure (stop 50)
      "vllm-omni-bench-tts-two-blocks-text-audio-sections-2026.txt, vllm-bench-console, 60, 93, 0",
      "vllm-bench-018-ascend-md-indented-report-pr12616.md, vllm-bench-console, 19, 33, 0",
      "sglang-pr9428.txt, sglang-bench-console, 19, 10, 1",
      "sglang-issue8285.txt, sglang-bench-console, 19, 6, 1",
      "genai-perf-goodput-llm.txt, genai-perf-console, 8, 5, 0",
      "genai-perf-goodput-embeddings.txt, genai-perf-console, 3, 5, 0",
      "aiperf-custom-dataset-single-turn.txt, aiperf-console, 12, 28, 0",
      "aiperf-0.5-goodput-star-note-piotrm.txt, aiperf-console, 5, 10, 0",
      "llmperf-groq-70b-printed.txt, llmperf-console, 64, 8, 0",
      "genai-perf-markdown-blockquote-dynamo402.txt, genai-perf-console, 3, 15, 0",
      "benchmark-serving-2024-unit-after-two-runs-jetstream83.txt, vllm-bench-console, 26, 4, 0",
      "vllm-bench-pytest-log-prefix-midblock-ascend6235.txt, vllm-bench-console, 13, 4, 0",
      "aiperf-rows-without-header-aiperf535.txt, aiperf-console, 4, 5, 0",
      "genai-perf-2406-nanoseconds-pa437.txt, genai-perf-console, 2, 8, 0",
      "vllm-bench-console-backend-sglang-goodput-preamble-kvcached136.txt, vllm-bench-console, 17, 9, 0",
      "vllm-bench-console-one-success-max-conc-vllm24005.txt, vllm-bench-console, 3, 8, 0",
      "sglang-bench-console-prose-preamble-rate330-sgl8285.txt, sglang-bench-console, 19, 7, 0",
      "sglang-bench-console-unpadded-rate-1000000-sgl14194.txt, sglang-bench-console, 22, 7, 0",
      "sglang-bench-console-prose-header-lines-sgl9428.txt, sglang-bench-console, 19, 12, 0",
      "vllm-bench-console-hash-commented-two-blocks-vllmfork.txt, vllm-bench-console, 32, 19, 0",
      // AIPerf's GPU telemetry alone: no figure of a run (they made two runs of GPU figures)
      "aiperf-gpu-telemetry-3gpu-doc.txt, aiperf-console, 0, 51, 0",
      "aiperf-gpu-telemetry-amd-aiperf1265.txt, aiperf-console, 0, 10, 0",
      "benchmark-serving-2023-five-lines-vllm359.txt, vllm-bench-console, 5, 2, 0",
      "sglang-bench-console-title-without-rules-sgl30451.txt, sglang-bench-console, 17, 8, 0",
      "sglang-bench-console-block-tail-from-p95-e2e-sgl30047.log, sglang-bench-console, 18, 6, 0"})
  void sniffedAndEveryLineAccounted(String file, String format, long records, long other, int rejected) throws IOException {
    CollectingSink s = parse(file);
    assertTrue(s.reported.contains("format " + format), s.reported.get(s.reported.size() - 1));
    assertEquals(records, s.records, file + " records");
    assertEquals(other, s.other, file + " other lines");
    assertEquals(rejected, s.rejects.size(), file + " rejects: " + s.rejects);
  }

  /**
   * AIPerf's stdout as a run leaves it: hundreds of its own log lines, then its tables at the end
   * (a real one: 680 lines, 90 KB). The head shows no format; the file was "cannot tell the
   * format" (exit 2). A console summary may come after anything: the file's last 64 KiB tell it.
   */
  @Test
  void aSummaryAfterALongLogIsFoundByItsTail(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
    StringBuilder log = new StringBuilder();
    for (int i = 0; log.length() < 100_000; i++) {
      log.append(String.format("2026-06-03 21:10:%02d.%03d INFO     Worker worker_%04d: sent credit %d for conversation %d%n",
          i % 60, i % 1000, i % 16, i, i * 7));
    }
    Path f = tmp.resolve("aiperf-stdout.log");
    Files.writeString(f, log + Files.readString(DIR.resolve("aiperf-custom-dataset-single-turn.txt")));
    try (dev.tokentime.testing.TestDb t = new dev.tokentime.testing.TestDb(tmp.resolve("db"))) {
      var r = t.ingest(f).files().get(0);
      assertEquals("aiperf-console", r.format());
      assertEquals(12, r.records());
      assertEquals(0, r.rejected());
      // after the tables, the command it ran, wrapped at the terminal's width ("… --concurrency" /
      // "2"): its load is the run's level (the run had none)
      assertEquals(List.of(List.of("concurrency", 2.0)), t.rows("SELECT level_kind, level FROM runs"));
    }
  }

  /**
   * A real `vllm bench serve` log whose run never finished (April 2026: its tqdm bar stops at
   * 793/1000, no newline, no result block). It was sniffed as a server log (its dataset loader's
   * INFO line) and its last line rejected as a control character, which said nothing of the run.
   * It is the bench's console now, and its last progress is a reject saying the run printed no
   * result; a sweep's log that holds a finished run before it keeps that run's figures.
   */
  @Test
  void aRunThatNeverFinishedIsARejectSayingSo(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
    byte[] unfinished = Files.readAllBytes(DIR.resolve("vllm-bench-serve-2026-unfinished-rate2.log"));
    byte[] finished = Files.readAllBytes(DIR.resolve("vllm-bench-serve-2026-rate8.log"));
    try (dev.tokentime.testing.TestDb t = new dev.tokentime.testing.TestDb(tmp.resolve("db"))) {
      var r = t.ingest(t.writeBytes("gpu/bench-short-rate2.log", unfinished)).files().get(0);
      assertEquals("vllm-bench-console", r.format());
      assertEquals(List.of(0L, 9L, 1L), List.of(r.records(), r.otherLines(), r.rejected()));
      assertEquals(List.of(List.of(10L, "the benchmark run printed no result block: it stopped at 793/1000 requests"
          + " (killed, crashed, or the log was copied before the run finished)")),
          t.rows("SELECT line_no, reason FROM rejects"));
    }
    // a finished run whose bar came first (tqdm writes to stderr unbuffered, a redirected stdout's
    // lines come later): no reject
    String text = new String(finished, StandardCharsets.UTF_8);
    String bar = java.util.Arrays.stream(text.split("\n")).filter(l -> l.contains("%|")).findFirst().orElseThrow();
    try (dev.tokentime.testing.TestDb t = new dev.tokentime.testing.TestDb(tmp.resolve("db3"))) {
      var r = t.ingest(t.write("gpu/buffered.log", bar + "\n" + text.replace(bar + "\n", ""))).files().get(0);
      assertEquals(0, r.rejected());
      assertEquals(List.of(List.of(8.0, 1000.0)), t.rows(
          "SELECT level, value FROM reported_metrics WHERE metric = 'completed'"));
    }
    byte[] both = new byte[finished.length + unfinished.length];
    System.arraycopy(finished, 0, both, 0, finished.length);
    System.arraycopy(unfinished, 0, both, finished.length, unfinished.length);
    try (dev.tokentime.testing.TestDb t = new dev.tokentime.testing.TestDb(tmp.resolve("db2"))) {
      var r = t.ingest(t.writeBytes("gpu/sweep.log", both)).files().get(0);
      assertEquals("vllm-bench-console", r.format());
      assertEquals(1, r.rejected());
      assertEquals(List.of(List.of(8.0, 1000.0)), t.rows(
          "SELECT level, value FROM reported_metrics WHERE metric = 'completed'"));
    }
  }

  /**
   * A real `vllm bench serve` log of 68 KB (vllm-tpu, April 2026): the vLLM library's start-up
   * lines, a tqdm bar of 62 KB (1,000 frames joined by carriage returns), then the block, which
   * starts past the head's 64 KiB. The head looked like a server log with no request in it
   * (vllm-log, 60): the file was stored as 0 records and its figures lost. The tail's bench block
   * (85) is surer, as it is where the head holds both.
   */
  @Test
  void aBlockPastTheHeadBeatsAHeadOfStartUpLines(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
    Path f = DIR.resolve("vllm-bench-tpu-2026-block-after-64k-rate1.log");
    byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(f), 64 << 10);
    assertTrue(!new String(head, StandardCharsets.UTF_8).contains("Serving Benchmark Result"), "the block is past the head");
    try (dev.tokentime.testing.TestDb t = new dev.tokentime.testing.TestDb(tmp.resolve("db"))) {
      var r = t.ingest(t.writeBytes("tpu/bench-long-rate1.log", Files.readAllBytes(f))).files().get(0);
      assertEquals("vllm-bench-console", r.format());
      assertEquals(List.of(20L, 29L, 0L), List.of(r.records(), r.otherLines(), r.rejected()));
      assertEquals(List.of(List.of("request_rate", 1.0)), t.rows("SELECT level_kind, level FROM runs"));
      assertEquals(List.of(List.of("completed", "value", 1000.0), List.of("duration", "value", 3794.56),
          List.of("ttft", "mean", 1385581.1), List.of("ttft", "p99", 2741976.67)),
          t.rows("SELECT metric, stat, value FROM reported_metrics WHERE (metric, stat) IN (('completed', 'value'),"
              + " ('duration', 'value'), ('ttft', 'mean'), ('ttft', 'p99')) ORDER BY metric, stat"));
    }
  }

  /**
   * AIPerf's console with GPU telemetry after the run's tables (a real 0.12 run's, then the
   * telemetry summary of AIPerf's docs): one run, its figures as before; the GPUs' tables (power,
   * clocks, temperatures per GPU) are no figures of the run and start no run.
   */
  @Test
  void gpuTelemetryTablesAreNotTheRunsFigures(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
    Path run = Files.createDirectories(tmp.resolve("c1"));
    Path f = run.resolve("profile_export_console.txt");
    Files.writeString(f, Files.readString(Path.of("src/test/resources/real-logs/tools/aiperf-0.12-mlx-probe-c1/profile_export_console.txt"))
        + "\n" + Files.readString(DIR.resolve("aiperf-gpu-telemetry-3gpu-doc.txt")));
    try (dev.tokentime.testing.TestDb t = new dev.tokentime.testing.TestDb(tmp.resolve("db"))) {
      var r = t.ingest(f).files().get(0);
      assertEquals(29, r.records());
      assertEquals(0, r.rejected());
      assertEquals(List.of(List.of("c1")), t.rows("SELECT run FROM runs"));
      assertEquals(0L, t.count("SELECT count(*) FROM reported_metrics WHERE metric LIKE '%gpu%' OR metric LIKE '%temperature%'"));
    }
  }

  /**
   * benchmark_serving.py's summary of June 2023 to early 2024: five lines, the rate on the
   * Namespace line before them ("format not recognised" before). Its "Average latency" is the mean
   * E2E latency; the two per-token averages are the latency over all tokens and over output tokens.
   */
  @Test
  void theFiveLinesOf2023AreARun() throws IOException {
    List<String> r = parse("benchmark-serving-2023-five-lines-vllm359.txt").reported;
    assertTrue(r.contains("format vllm-bench-console"), r.toString());
    for (String want : List.of("r 200.0 duration value 166.88 s", "r 200.0 request_throughput value 5.99 requests/s",
        "r 200.0 e2el mean 67590.0 ms", "r 200.0 latency_per_token mean 210.0 ms",
        "r 200.0 latency_per_output_token mean 1100.0 ms")) {
      assertTrue(r.contains(want), want + " in " + r);
    }
  }

  /**
   * 2023's lines as a loop over rates prints them (two runs back to back, each after its
   * Namespace line), a line cut before its unit, and a lone "Total time: … s" before a later
   * block (it started a block of its own, and the real block's header became a reject).
   */
  @Test
  void the2023LinesEndAtTheNextRunAndNeedTheirUnits(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
    String two = """
        Namespace(backend='vllm', request_rate=2.0, seed=0)
        Total time: 10.00 s
        Throughput: 1.00 requests/s
        Average latency: 1.50 s
        Namespace(backend='vllm', request_rate=4.0, seed=0)
        Total time: 12.00 s
        Throughput: 2.00 requests/s
        Average latency: 67.59
        """;
    CollectingSink s = new CollectingSink();
    long n = new BenchConsoleFormat(BenchConsoleFormat.Tool.VLLM).parse(new ByteArrayInputStream(two.getBytes(StandardCharsets.UTF_8)),
        new ParseContext("test-input", "r", false, null, null), s);
    assertEquals(n, s.records + s.other + s.rejects.size());
    assertEquals(List.of("r 2.0 duration value 10.0 s", "r 2.0 request_throughput value 1.0 requests/s",
        "r 2.0 e2el mean 1500.0 ms", "r#2 4.0 duration value 12.0 s", "r#2 4.0 request_throughput value 2.0 requests/s"),
        s.reported);
    assertEquals(List.of("8: Average latency: no unit after the value (a cut line?)"),
        s.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList());

    String stray = "Total time: 3.21 s\n" + Files.readString(DIR.resolve("vllm-bench-console-one-success-max-conc-vllm24005.txt"));
    CollectingSink t = new CollectingSink();
    new BenchConsoleFormat(BenchConsoleFormat.Tool.VLLM).parse(new ByteArrayInputStream(stray.getBytes(StandardCharsets.UTF_8)),
        new ParseContext("test-input", "r", false, null, null), t);
    assertEquals(List.of(), t.rejects);
    assertTrue(t.reported.stream().noneMatch(r -> r.contains("3.21")), t.reported.toString());
    assertEquals(1, t.reported.stream().filter(r -> r.contains(" duration value ")).count(), t.reported.toString());
  }

  /**
   * A figure no run can have (a negative TTFT, a duration of 300 years, an acceptance rate of
   * 250 %) is a reject naming it; the block's other figures are kept. Made-up values (the
   * hostile-values review): no real console prints them.
   */
  @Test
  void aFigureOutOfRangeIsARejectNamingIt() throws IOException {
    String block = """
        ============ Serving Benchmark Result ============
        Successful requests:                     10
        Benchmark duration (s):                  9.5e9
        Mean TTFT (ms):                          -12.50
        Median TTFT (ms):                        11.00
        Acceptance rate (%):                     250.0
        ==================================================
        """;
    CollectingSink s = new CollectingSink();
    long n = new BenchConsoleFormat(BenchConsoleFormat.Tool.VLLM).parse(new ByteArrayInputStream(block.getBytes(StandardCharsets.UTF_8)),
        new ParseContext("test-input", "r", false, null, null), s);
    assertEquals(n, s.records + s.other + s.rejects.size());
    assertEquals(List.of("3: Benchmark duration (s) out of range: 9.5E9 s (a duration is 0 to 30 days)",
        "4: Mean TTFT (ms) out of range: -12.5 (a latency, count or throughput is not negative)",
        "6: Acceptance rate (%) out of range: 250.0 % (a percentage, 0 to 100)"),
        s.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList());
    assertEquals(List.of("r null completed value 10.0 count", "r null ttft median 11.0 ms"), s.reported);
  }

  /**
   * A count (requests, tokens) is a whole number of at most 10^12: "Request count: 1e26" or a
   * fractional "Total input tokens" is a reject naming it, where a mean ("Peak concurrent
   * requests" printed as 61.00, SGLang's Little's-law "Concurrency: 3.12") stays. Made-up values:
   * no real console prints them.
   */
  /** genai-perf's and AIPerf's console tables are range-checked as their JSON is: a row whole or not at all. */
  @Test
  void aToolTablesFigureOutOfRangeRejectsItsRow() throws IOException {
    String table = java.nio.file.Files.readString(java.nio.file.Path.of(
        "src/test/resources/real-logs/console/genai-perf-goodput-llm.txt"), StandardCharsets.UTF_8)
        .replace("   109.61 │", " 4.0e12 │");
    CollectingSink s = new CollectingSink();
    long n = new BenchConsoleFormat(BenchConsoleFormat.Tool.GENAI_PERF).parse(new ByteArrayInputStream(
        table.getBytes(StandardCharsets.UTF_8)), new ParseContext("test-input", "r", false, null, null), s);
    assertEquals(n, s.records + s.other + s.rejects.size());
    assertEquals(List.of("5: time_to_first_token p99 out of range: 4.0E12 ms (a duration is within 30 days)"),
        s.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList());
    assertTrue(s.reported.stream().noneMatch(r -> r.contains("time_to_first_token")), s.reported.toString());
    assertTrue(s.reported.contains("r null inter_token_latency avg 19.32 ms"), s.reported.toString());
  }

  @Test
  void aCountOutOfRangeOrNotWholeIsARejectNamingIt() throws IOException {
    String block = """
        ============ Serving Benchmark Result ============
        Successful requests:                     1e26
        Request count:                           1e26
        Failed requests:                         0
        Total input tokens:                      2560.5
        Total generated tokens:                  2560
        Peak concurrent requests:                61.00
        Concurrency:                             3.12
        ==================================================
        """;
    CollectingSink s = new CollectingSink();
    long n = new BenchConsoleFormat(BenchConsoleFormat.Tool.VLLM).parse(new ByteArrayInputStream(block.getBytes(StandardCharsets.UTF_8)),
        new ParseContext("test-input", "r", false, null, null), s);
    assertEquals(n, s.records + s.other + s.rejects.size());
    assertEquals(List.of(
        "2: Successful requests out of range: 100000000000000000000000000 (a count of requests or tokens, 0 to 10^12)",
        "3: Request count out of range: 100000000000000000000000000 (a count of requests or tokens, 0 to 10^12)",
        "5: Total input tokens: 2560.5 is no whole number (a count of requests or tokens)"),
        s.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList());
    assertEquals(List.of("r null failed value 0.0 count", "r null total_output_tokens value 2560.0 tokens",
        "r null max_concurrent_requests value 61.0 count", "r null concurrency value 3.12 count"), s.reported);

    // LLMPerf's printed run figures, read straight into the run's figures, are checked the same way
    String llmperf = "Results for token benchmark for m queried with the openai api.\n"
        + "Number Of Errored Requests: 0\n"
        + "Number Of Completed Requests: 1e26\n"
        + "Completed Requests Per Minute: 176.5\n";
    CollectingSink l = new CollectingSink();
    n = new BenchConsoleFormat(BenchConsoleFormat.Tool.LLMPERF).parse(new ByteArrayInputStream(llmperf.getBytes(StandardCharsets.UTF_8)),
        new ParseContext("test-input", "r", false, null, null), l);
    assertEquals(n, l.records + l.other + l.rejects.size());
    assertEquals(List.of("3: Number Of Completed Requests out of range: 100000000000000000000000000 (a count of"
        + " requests or tokens, 0 to 10^12)"), l.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList());
    assertEquals(List.of("r null number_errors value 0.0 count",
        "r null num_completed_requests_per_min value 176.5 requests/min"), l.reported);
  }

  /**
   * Six non-streaming runs whose every ITL statistic is 0.00 (no gap between chunks, the tool's
   * `np.mean(itls or 0)`): placeholders, no ITL figures, as the result JSON's empty itls say; the
   * runs' other figures kept at their rates.
   */
  @Test
  void itlStatisticsAllZeroArePlaceholders() throws IOException {
    CollectingSink s = parse("sglang-bench-console-six-rates-no-itl-dlora.md");
    assertEquals(List.of(), s.rejects);
    assertTrue(s.reported.stream().noneMatch(r -> r.contains(" itl ")), s.reported.toString());
    assertTrue(s.reported.contains("r 2.0 ttft mean 2074.09 ms"), s.reported.toString());
    assertEquals(List.of("r 2.0", "r#2 4.0", "r#3 8.0", "r#4 16.0", "r#5 32.0", "r#6 64.0"), s.reported.stream()
        .filter(r -> r.contains(" completed value 996.0 ")).map(r -> r.substring(0, r.indexOf(" completed"))).toList());
    assertEquals(6, s.reported.stream().filter(r -> r.contains(" ttft p99 ")).count());
  }

  /** Two blocks a script keeps as comments ("# Mean TTFT (ms): …"): both runs read (none was). */
  @Test
  void blocksBehindACommentSignAreRead() throws IOException {
    List<String> r = parse("vllm-bench-console-hash-commented-two-blocks-vllmfork.txt").reported;
    assertTrue(r.contains("r 32.0 ttft mean 7279.56 ms"), r.toString());
    assertTrue(r.contains("r#2 32.0 ttft mean 6535.45 ms"), r.toString());
    assertTrue(r.contains("r#2 32.0 ttft p99 10709.26 ms"), r.toString());
  }

  @Test
  void vllmBlockCutInItsTpotSection() throws IOException {
    CollectingSink s = parse("vllm-pr7062.txt");
    List<String> r = s.reported;
    assertTrue(r.contains("r null completed value 1000.0 count"), r.toString());
    assertTrue(r.contains("r null duration value 128.37 s"), r.toString());
    assertTrue(r.contains("r null ttft mean 157.75 ms"), r.toString());
    assertTrue(r.contains("r null ttft median 118.73 ms"), r.toString());
    assertTrue(r.contains("r null ttft p95 400.04 ms"), r.toString());
    assertTrue(r.contains("r null tpot median 223.08 ms"), r.toString());
    assertTrue(r.contains("r null input_throughput value 1666.99 tokens/s"), r.toString());
    assertEquals(18, s.rejects.get(0).lineNo(), "the cut 'P90 TPO' line");
  }

  /**
   * vllm bench serve of 2026 prints the run's rate before its block ("Traffic request rate: 8.0")
   * and "Request rate configured (RPS)" inside: the run's level, on every figure of the block, as
   * its result JSON gives it.
   */
  @Test
  void vllm2026RateAnnouncedBeforeTheBlock() throws IOException {
    CollectingSink s = parse("vllm-bench-serve-2026-rate8.log");
    assertEquals("request_rate", s.levels.get("r")[0]);
    assertEquals(8.0, s.levels.get("r")[1]);
    assertTrue(s.reported.contains("r 8.0 request_rate value 8.0 requests/s"), s.reported.toString());
    assertTrue(s.reported.contains("r 8.0 max_concurrent_requests value 1000.0 count"), s.reported.toString());
    assertTrue(s.reported.stream().filter(r -> !r.startsWith("format ")).allMatch(r -> r.startsWith("r 8.0 ")),
        s.reported.toString());
    assertEquals(0, s.rejects.size(), s.rejects.toString());
  }

  /** "Median TPOT (ms): -0.00" (a rounded tiny negative in a real SGLang-derived block) is zero. */
  /**
   * vllm bench serve with a speculator (0.22.1, real): the Speculative Decoding section under its
   * result JSON's names, the per-position heading an other line, each position a figure.
   */
  @Test
  void vllmSpeculativeDecodingSectionUnderItsJsonNames() throws IOException {
    CollectingSink s = parse("vllm-bench-0221-spec-decoding-speculators613.txt");
    assertEquals(List.of(), s.rejects, "the heading 'Per-position acceptance (%):' is no cut line");
    List<String> r = s.reported;
    for (String f : List.of("spec_decode_acceptance_rate value 47.16 %", "spec_decode_acceptance_length value 4.77 tokens",
        "spec_decode_num_drafts value 446819.0 count", "spec_decode_draft_tokens value 3574552.0 tokens",
        "spec_decode_accepted_tokens value 1685779.0 tokens",
        "spec_decode_per_position_acceptance_rates position_0 82.27 %",
        "spec_decode_per_position_acceptance_rates position_7 26.34 %")) {
      assertTrue(r.stream().anyMatch(x -> x.endsWith(" " + f)), f + " in " + r);
    }
  }

  /**
   * Blocks pasted without their "Serving Benchmark Result" header (real): read from their first
   * figure or section rule; a markdown fence ends a block its rule never closed.
   */
  @Test
  void headerlessBlocksAreReadFromTheirFirstFigureOrSection() throws IOException {
    CollectingSink s = parse("vllm-bench-headerless-block-uccl740.txt");
    assertEquals(List.of(), s.rejects);
    assertEquals("concurrency", s.levels.get("r")[0]);
    assertEquals(256.0, s.levels.get("r")[1]);
    for (String f : List.of("r 256.0 completed value 1000.0 count", "r 256.0 ttft p95 719.47 ms",
        "r 256.0 tpot p99 115.22 ms", "r 256.0 request_rate value 10.0 requests/s")) {
      assertTrue(s.reported.contains(f), f + " in " + s.reported);
    }
    CollectingSink spec = parse("vllm-bench-headerless-spec-decoding-pr48892.txt");
    assertEquals(List.of(), spec.rejects);
    assertTrue(spec.reported.contains("r null spec_decode_acceptance_rate value 83.39 %"), spec.reported.toString());
    assertTrue(spec.reported.contains("r#2 null spec_decode_per_position_acceptance_rates position_7 23.65 %"),
        spec.reported.toString());
    byte[] b = Files.readAllBytes(DIR.resolve("vllm-bench-headerless-block-uccl740.txt"));
    assertEquals(70, new BenchConsoleFormat(BenchConsoleFormat.Tool.VLLM).sniff(
        new dev.tokentime.ingest.Sample("x.txt", b, b.length)), "recognised without the header");
  }

  /**
   * Summaries behind what carried them (real): a markdown blockquote's "> " and pytest's log
   * capture prefix come off as wrappers do; before, neither file gave a figure, and no note.
   */
  @Test
  void summariesQuotedOrReLoggedAreRead() throws IOException {
    CollectingSink quoted = parse("genai-perf-markdown-blockquote-dynamo402.txt");
    for (String f : List.of("r null time_to_first_token avg 1385.48 ms", "r null time_to_first_token p75 1134.94 ms",
        "r null request_latency p75 4082.48 ms")) {
      assertTrue(quoted.reported.contains(f), f + " in " + quoted.reported);
    }
    CollectingSink logged = parse("vllm-bench-pytest-log-prefix-midblock-ascend6235.txt");
    assertEquals(40.0, logged.levels.get("r")[1], "Maximum request concurrency, before the first figure read");
    for (String f : List.of("r 40.0 duration value 32.27 s", "r 40.0 ttft p99 182.7 ms",
        "r 40.0 max_output_tokens_per_s value 1809.0 tokens/s")) {
      assertTrue(logged.reported.contains(f), f + " in " + logged.reported);
    }
  }

  /**
   * benchmark_serving.py's output until March 2024 (real, JetStream's fork): no block, the unit
   * after the number; two runs one after the other. Before: 21 of 27 figures rejected ("expected
   * a number, got '294.101467 s'") and the other 6 put in one run.
   */
  @Test
  void theEarlyUnitAfterFormIsReadRunByRun() throws IOException {
    CollectingSink s = parse("benchmark-serving-2024-unit-after-two-runs-jetstream83.txt");
    assertEquals(List.of(), s.rejects);
    for (String f : List.of("r null completed value 1780.0 count", "r null duration value 294.101467 s",
        "r null request_throughput value 6.05 requests/s", "r null output_throughput value 1412.49 tokens/s",
        "r null ttft mean 114960.78 ms", "r null tpot p99 132710.43 ms",
        "r#2 null completed value 100.0 count", "r#2 null ttft mean 1274.09 ms", "r#2 null tpot p99 358.49 ms")) {
      assertTrue(s.reported.contains(f), f + " in " + s.reported);
    }
    assertEquals(26, s.reported.stream().filter(x -> !x.startsWith("format")).count());
  }

  /** AIPerf rows pasted without their table's header (real) take AIPerf's columns; before, each was a reject. */
  @Test
  void tableRowsWithoutTheirHeaderTakeTheToolsColumns() throws IOException {
    CollectingSink s = parse("aiperf-rows-without-header-aiperf535.txt");
    for (String f : List.of("r null output_token_throughput avg 5388.43 tokens/sec", "r null input_sequence_length std 0.0 tokens",
        "r null request_count avg 100.0 requests", "r null input_sequence_length p50 512.0 tokens")) {
      assertTrue(s.reported.contains(f), f + " in " + s.reported);
    }
  }

  /** genai-perf of 24.06 printed latencies in ns with thousands separators: stored as printed, unit ns. */
  @Test
  void aNanosecondTableKeepsItsUnit() throws IOException {
    CollectingSink s = parse("genai-perf-2406-nanoseconds-pa437.txt");
    assertTrue(s.reported.contains("r null request_latency avg 4.11062343E9 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r null num_output_token p99 412.0 "), s.reported.toString());
  }

  @Test
  void aPrintedNegativeZeroIsZero() {
    assertEquals("0.0", String.valueOf(BenchConsoleFormat.number("-0.00")));
    assertEquals("-1.5", String.valueOf(BenchConsoleFormat.number("-1.50")));
  }

  @Test
  void sglangBlockWithLevelAndLittlesLawConcurrency() throws IOException {
    CollectingSink s = parse("sglang-issue8285.txt");
    List<String> r = s.reported;
    assertTrue(r.contains("r 330.0 e2e_latency mean 26530.12 ms"), r.toString());
    assertTrue(r.contains("r 330.0 concurrency value 315.98 count"), r.toString());
    assertTrue(r.contains("r 330.0 total_output_tokens_retokenized value 675679.0 tokens"), r.toString());
    assertTrue(r.contains("r 330.0 itl median 22.82 ms"), r.toString());
    assertEquals(330.0, s.levels.get("r")[1], "Max request concurrency 330 is the run's level");
    assertTrue(s.rejects.get(0).reason().contains("P95 ITL (ms): no value"), s.rejects.toString());
  }

  @Test
  void genaiPerfTableWithThousandsSeparatorsAndNa() throws IOException {
    List<String> r = parse("genai-perf-goodput-llm.txt").reported;
    assertTrue(r.contains("r null request_latency avg 6740.76 ms"), r.toString());
    assertTrue(r.contains("r null time_to_first_token p75 73.07 ms"), r.toString());
    assertTrue(r.contains("r null request_goodput avg 0.12 requests/sec"), r.toString());
    assertTrue(r.contains("r null output_token_throughput avg 51.2 tokens/sec"), r.toString());
    assertTrue(r.stream().noneMatch(x -> x.contains("request_throughput min")), "N/A is no figure");
  }

  @Test
  void aiperfTableWithWrappedNames() throws IOException {
    List<String> r = parse("aiperf-custom-dataset-single-turn.txt").reported;
    assertTrue(r.contains("r null time_to_first_output_token p50 13.93 ms"), r.toString());
    assertTrue(r.contains("r null output_token_throughput_per_user std 3.98 tokens/sec/user"), r.toString());
    assertTrue(r.contains("r null output_sequence_length max 2106.0 tokens"), r.toString());
    assertTrue(r.contains("r null request_count avg 10.0 requests"), r.toString());
    assertTrue(r.contains("r null benchmark_duration avg 15.81 sec"), r.toString());
  }

  /** A note after a row's border ("│ … │  ⭐") is no cell: the row and the names after it stay whole. */
  @Test
  void aNoteBesideATableRowIsNoCell() throws IOException {
    List<String> r = parse("aiperf-0.5-goodput-star-note-piotrm.txt").reported;
    assertTrue(r.contains("r null goodput avg 7.43 requests/sec"), r.toString());
    assertTrue(r.contains("r null request_throughput avg 26.67 requests/sec"), r.toString());
    assertTrue(r.contains("r null time_to_first_token p99 1109.7 ms"), r.toString());
    assertTrue(r.stream().noneMatch(x -> x.contains("requests_sec")), r.toString());
  }

  @Test
  void llmperfPrintedSummaryEqualsItsSummaryJson() throws IOException {
    // the printed figures are those of the run's summary.json (llmperf-leaderboard groq_70b)
    List<String> r = parse("llmperf-groq-70b-printed.txt").reported;
    assertTrue(r.contains("r null ttft_s p50 0.2218883791938424 s"), r.toString());
    assertTrue(r.contains("r null inter_token_latency_s mean 0.005384122478382455 s"), r.toString());
    assertTrue(r.contains("r null num_completed_requests value 150.0 count"), r.toString());
    assertTrue(r.contains("r null mean_output_throughput_token_per_s value 441.84737788500206 tokens/s"), r.toString());
    assertTrue(r.contains("r null request_output_throughput_token_per_s stddev 15.697887254302277 tokens/s"), r.toString());
  }

  @Test
  void twoBlocksInOneFileAreTwoRuns() throws IOException {
    String block = "============ Serving Benchmark Result ============\n"
        + "Successful requests:                     10\n"
        + "Mean TTFT (ms):                          %s\n"
        + "==================================================\n";
    byte[] bytes = (String.format(block, "1.5") + "progress 100%\n" + String.format(block, "2.5"))
        .getBytes(StandardCharsets.UTF_8);
    CollectingSink sink = new CollectingSink();
    long n = new BenchConsoleFormat(BenchConsoleFormat.Tool.VLLM).parse(new ByteArrayInputStream(bytes),
        new ParseContext("x", "c8", false, null, null), sink);
    assertEquals(9, n);
    assertEquals(n, sink.records + sink.other + sink.rejects.size());
    assertTrue(sink.reported.contains("c8 null ttft mean 1.5 ms"), sink.reported.toString());
    assertTrue(sink.reported.contains("c8#2 null ttft mean 2.5 ms"), sink.reported.toString());
  }

  /**
   * vLLM-Omni's block (real, 2026): its titled sections are the same run's, the continuity rate a
   * figure in %, the real-time factor's statistics one metric, the peak printed twice one figure.
   */
  @Test
  void anOmniBlocksSectionsAreOneRun() throws Exception {
    CollectingSink s = parse("vllm-omni-bench-tts-two-blocks-text-audio-sections-2026.txt");
    assertEquals(List.of(), s.rejects);
    // "run level metric stat value unit": the first run's (concurrency 1)
    String run = s.reported.get(0).split(" ")[0];
    List<String> first = s.reported.stream().filter(r -> r.startsWith(run + " "))
        .map(r -> r.substring(r.indexOf(' ', run.length() + 1) + 1))
        .filter(r -> r.startsWith("audio_rtf ") || r.startsWith("streaming_continuity_ok_rate ")
            || r.startsWith("max_concurrent_requests "))
        .sorted().toList();
    assertEquals(List.of("audio_rtf mean 0.21 null", "audio_rtf median 0.21 null", "audio_rtf p99 0.29 null",
        "max_concurrent_requests value 3.0 count", "streaming_continuity_ok_rate value 0.0 %"), first);
  }

  /**
   * SGLang's block whose title lost its rules of '=' (real, sgl-project/sglang#30451, after the
   * client's bar and two server access lines): the title alone starts the block, so every figure,
   * "Max request concurrency" too (a figure, as under the ruled title), is read at its level.
   */
  @Test
  void aTitleWithoutItsRulesStartsTheBlock() throws IOException {
    CollectingSink s = parse("sglang-bench-console-title-without-rules-sgl30451.txt");
    assertEquals(List.of(), s.rejects);
    assertEquals("concurrency", s.levels.get("r")[0]);
    assertEquals(40.0, s.levels.get("r")[1]);
    for (String f : List.of("r 40.0 max_concurrency value 40.0 count", "r 40.0 completed value 40.0 count",
        "r 40.0 duration value 48.97 s", "r 40.0 total_output_tokens_retokenized value 35576.0 tokens",
        "r 40.0 request_throughput value 0.82 requests/s", "r 40.0 max_output_tokens_per_s value 1687.0 tokens/s",
        "r 40.0 concurrency value 35.6 count", "r 40.0 accept_length value 3.4 tokens",
        "r 40.0 e2e_latency mean 43580.33 ms", "r 40.0 e2e_latency median 43964.78 ms")) {
      assertTrue(s.reported.contains(f), f + " in " + s.reported);
    }
    // the same title flush left (PRs #31659, #31880 print it so)
    byte[] b = Files.readString(DIR.resolve("sglang-bench-console-title-without-rules-sgl30451.txt"))
        .replace(" Serving Benchmark Result\n", "Serving Benchmark Result\n").getBytes(StandardCharsets.UTF_8);
    assertEquals("sglang-bench-console", FormatRegistry.standard().sniff(new Sample("x.txt", b, b.length)).id());
  }

  /**
   * Only the end of SGLang's block (real, an NPU CI log in sgl-project/sglang#30047): it starts at
   * "P95 E2E Latency (ms):", before any section's rule. Sniffed below a headed block, every
   * statistic read, the harness's "[METRIC]" lines after the rule other lines.
   */
  @Test
  void aBlocksTailIsReadFromItsFirstStatistic() throws IOException {
    CollectingSink s = parse("sglang-bench-console-block-tail-from-p95-e2e-sgl30047.log");
    assertEquals(List.of(), s.rejects);
    for (String f : List.of("r null e2e_latency p95 46912.26 ms", "r null e2e_latency p99 49681.91 ms",
        "r null ttft mean 18206.82 ms", "r null ttft p90 19287.29 ms", "r null tpot p99 30.92 ms",
        "r null itl median 21.71 ms", "r null itl max 6441.86 ms")) {
      assertTrue(s.reported.contains(f), f + " in " + s.reported);
    }
    byte[] b = Files.readAllBytes(DIR.resolve("sglang-bench-console-block-tail-from-p95-e2e-sgl30047.log"));
    assertEquals(65, new BenchConsoleFormat(BenchConsoleFormat.Tool.SGLANG).sniff(new Sample("x.log", b, b.length)),
        "a tail is less sure than a headed block or a first figure");
    assertEquals(0, new BenchConsoleFormat(BenchConsoleFormat.Tool.VLLM).sniff(new Sample("x.log", b, b.length)));
  }

  /** A block whose closing rule a paste lost: the next block's header starts the next run, never a section. */
  @Test
  void theNextBlocksHeaderEndsABlockWithoutItsRule() throws Exception {
    byte[] bytes = Files.readAllBytes(Path.of("src/test/resources/constructed/console/sglang-two-blocks-first-rule-missing.txt"));
    CollectingSink s = new CollectingSink();
    FormatRegistry.standard().byId("sglang-bench-console").parse(new ByteArrayInputStream(bytes),
        new ParseContext("test-input", "r", false, null, null), s);
    assertEquals(List.of(), s.rejects);
    List<String> levels = s.reported.stream().filter(r -> r.contains(" max_concurrency value ")).toList();
    assertEquals(2, levels.size(), levels.toString());
    assertTrue(levels.get(0).contains(" 8.0 ") && levels.get(1).contains(" 16.0 "), levels.toString());
    assertTrue(!levels.get(0).split(" ")[0].equals(levels.get(1).split(" ")[0]), "two runs: " + levels);
  }
  /**
   * vllm bench serve's queue-inclusive sections (2026) name their figures as its JSON does, and a
   * new throughput's unit is its own: one name per figure whichever file a run's figures come from.
   */
  @Test
  void newVllmFiguresAreNamedAsTheJsonNamesThem() throws Exception {
    Path dir = Path.of("src/test/resources/constructed/console");
    CollectingSink console = new CollectingSink();
    FormatRegistry.standard().byId("vllm-bench-console").parse(Files.newInputStream(dir.resolve("vllm-2026-block-with-queue-sections.txt")),
        new ParseContext("test-input", "r", false, null, null), console);
    CollectingSink json = new CollectingSink();
    FormatRegistry.standard().byId("vllm-bench-json").parse(Files.newInputStream(dir.resolve("vllm-2026-result-new-keys.json")),
        new ParseContext("test-input", "r", false, null, null), json);
    for (CollectingSink s : List.of(console, json)) {
      assertEquals(List.of(), s.rejects);
      assertTrue(s.reported.stream().anyMatch(r -> r.contains(" e2el_including_client_queue mean ")), s.reported.toString());
      assertTrue(s.reported.stream().noneMatch(r -> r.contains("e2el_incl_client_queue")), s.reported.toString());
    }
    assertTrue(json.reported.stream().anyMatch(r -> r.contains(" diffusion_committed_throughput value ") && r.endsWith(" tokens/s")),
        json.reported.stream().filter(r -> r.contains("diffusion")).toList().toString());
  }
}
