package dev.tokentime.formats.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.formats.console.PerfAnalyzerFormatsTest.Read;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GuideLLM's printed tables (0.4 and later): a run per benchmark row, the figures under the names,
 * statistics and units of its benchmarks.json. Both logs were "cannot tell the format" before.
 */
class GuidellmConsoleFormatTest {
  static final Path LOG05 = Path.of(
      "src/test/resources/real-logs/tools/guidellm-0.5-dev-qwen3-30b-sync/Qwen_Qwen3-30B-A3B_tp4_quant-fp8_bench.log");
  static final Path LLMD = PerfAnalyzerFormatsTest.CONSOLE.resolve("guidellm-2025-12-two-constant-rates-llmd-guide.txt");

  /** GuideLLM 0.5's log of a synchronous run: its latency, token and throughput tables, 28 figures. */
  @Test
  void a05SynchronousRunIsOneRunAtConcurrencyOne() throws IOException {
    Read r = PerfAnalyzerFormatsTest.read(LOG05);
    // the three tables read (token counts, latencies, throughput), every other line (the run summary,
    // the text table, the set-up output) other
    PerfAnalyzerFormatsTest.counts(r, "guidellm-console", 3, 110, 0);
    assertEquals("concurrency", r.sink().levels.get("r")[0]);
    assertEquals(1.0, r.sink().levels.get("r")[1]);
    assertEquals(28, r.sink().reported.size());
    assertTrue(r.sink().reported.containsAll(List.of(
        "r 1.0 request_latency median 40.0 s", "r 1.0 request_latency p95 40.4 s",
        "r 1.0 time_to_first_token_ms median 58.1 ms", "r 1.0 time_to_first_token_ms p95 72.8 ms",
        "r 1.0 inter_token_latency_ms median 39.1 ms", "r 1.0 time_per_output_token_ms p95 39.5 ms",
        "r 1.0 prompt_token_count p95 197.0 tokens", "r 1.0 request_streaming_iterations_count median 2052.0 count",
        "r 1.0 output_tokens_per_iteration p95 1.1 tokens", "r 1.0 request_concurrency mean 1.0 requests",
        "r 1.0 output_tokens_per_second mean 25.9 tokens/s", "r 1.0 tokens_per_second mean 28.2 tokens/s")),
        r.sink().reported.toString());
  }

  /**
   * An llm-d guide's run of two constant rates (December 2025, before the throughput table said
   * "(All Requests)"): a run per row, at the rates its resolved profile printed (rate=[1.0, 5.0]).
   */
  @Test
  void twoConstantRatesAreTwoRunsAtThePrintedRates() throws IOException {
    Read r = PerfAnalyzerFormatsTest.read(LLMD);
    PerfAnalyzerFormatsTest.counts(r, "guidellm-console", 6, 77, 0);
    assertEquals(List.of("request_rate", 1.0), List.of(r.sink().levels.get("r")[0], r.sink().levels.get("r")[1]));
    assertEquals(List.of("request_rate", 5.0), List.of(r.sink().levels.get("r#2")[0], r.sink().levels.get("r#2")[1]));
    assertTrue(r.sink().reported.containsAll(List.of(
        "r 1.0 time_to_first_token_ms p95 17.2 ms", "r#2 5.0 time_to_first_token_ms median 9.8 ms",
        "r#2 5.0 requests_per_second median 5.0 requests/s", "r#2 5.0 output_tokens_per_second median 457.4 tokens/s",
        "r#2 5.0 total_token_count p95 100.0 tokens")), r.sink().reported.toString());
    assertEquals(2 * 28, r.sink().reported.size());
  }

  /** Without the profile's list a constant row has no level; a synchronous one is at 1. */
  @Test
  void aRowWhoseRateWasNotPrintedHasNoLevel() throws IOException {
    String text = Files.readString(LLMD).replace("rate=[1.0, 5.0]", "").replace("'rate': [1.0, 5.0],", "");
    Read r = PerfAnalyzerFormatsTest.read("guidellm.log", text);
    PerfAnalyzerFormatsTest.counts(r, "guidellm-console", 6, 77, 0);
    assertNull(r.sink().levels.get("r#2")[1]);
  }

  /** A row cut short, or a figure that is no number, is a reject; the rows around it are read. */
  @Test
  void aCutRowIsARejectNotAFigure() throws IOException {
    String text = Files.readString(LLMD)
        .replace("| constant  | 0.1     | 0.1    | 9.8  | 14.4 | 2.2 | 2.3 | 2.3 | 2.6 |", "| constant  | 0.1     | 0.1    | 9.8  | 14")
        .replace("| constant  | 1.0 | 1.0  | 0.0   | 0.1  | 50.0  | 57.5  |", "| constant  | 1.0 | 1.0  | 0.0   | 0.1  | 5O.0  | 57.5  |");
    Read r = PerfAnalyzerFormatsTest.read("guidellm.log", text);
    PerfAnalyzerFormatsTest.counts(r, "guidellm-console", 4, 77, 2);
    assertTrue(r.sink().rejects.get(0).reason().startsWith("a cut line: GuideLLM's table row"), r.sink().rejects.toString());
    assertEquals("a cut line: GuideLLM's prompt_tokens_per_second median '5O.0' is no number",
        r.sink().rejects.get(1).reason());
    assertTrue(r.sink().reported.contains("r 1.0 time_to_first_token_ms median 14.9 ms"));
    assertTrue(r.sink().reported.stream().noneMatch(x -> x.startsWith("r#2 5.0 time_to_first_token_ms")));
  }

  /**
   * The layout of GuideLLM's main branch (August 2026, constructed): a TTFOT group, "--" where a
   * statistic has no value (no figure, no reject), the throughput table with Concurrency first and
   * each Per Sec as its mean.
   */
  @Test
  void theNewestLayoutWithTtfotAndNoValueCells() throws IOException {
    Read r = PerfAnalyzerFormatsTest.read(Path.of("src/test/resources/constructed/guidellm-console-2026/console.txt"));
    PerfAnalyzerFormatsTest.counts(r, "guidellm-console", 4, 22, 0);
    List<String> m = r.sink().reported;
    assertTrue(m.containsAll(List.of("r 1.0 time_to_first_token_ms p95 643.0 ms",
        "r#2 null time_to_first_output_token_ms median 412.9 ms", "r#2 null time_per_output_token_ms p95 29.3 ms",
        "r 1.0 request_concurrency median 1.0 requests", "r#2 null requests_per_second mean 2.6 requests/s",
        "r#2 null tokens_per_second mean 1020.3 tokens/s")), m.toString());
    assertTrue(m.stream().noneMatch(x -> x.startsWith("r 1.0 time_to_first_output_token_ms")), m.toString());
    assertEquals(8 + 10 + 6 + 6, m.size());
  }
}
