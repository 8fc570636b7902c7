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

/** EvalScope perf's printed tables (real-logs/console, PROVENANCE.md there). */
class EvalscopeConsoleFormatTest {
  static final Path DIR = Path.of("src/test/resources/real-logs/console");
  final EvalscopeConsoleFormat format = new EvalscopeConsoleFormat();

  CollectingSink parse(String text) throws IOException {
    CollectingSink s = new CollectingSink();
    long units = format.parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
        new ParseContext("test-input", "dir", false, null, null), s);
    assertEquals(units, s.records + s.other + s.rejects.size(), "lines = records + other + rejects");
    return s;
  }

  String sniff(String name, String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    InputFormat f = FormatRegistry.standard().sniff(new Sample(name, b, Math.min(b.length, 64 << 10)));
    return f == null ? null : f.id();
  }

  /** 0.17: tabulate's grid, a row per percentile; the JSON glued after the progress bar is other lines. */
  @Test
  void theGridTablesOf017() throws IOException {
    String log = Files.readString(DIR.resolve("evalscope-0.17-console-json-table-dcu.log"));
    assertEquals("evalscope-console", sniff("evalscope-0.17-console-json-table-dcu.log", log));
    CollectingSink s = parse(log);
    assertEquals(List.of(), s.rejects);
    assertEquals(15 + 10, s.records);
    assertEquals(64.0, s.levels.get("dir")[1]);
    // every figure carries the level, the row before the concurrency's and the percentiles' too
    assertTrue(s.reported.contains("dir 64.0 duration value 84.7137 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 64.0 ttft avg 0.5247 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 64.0 package_latency avg 0.0528 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 64.0 itl p99 0.0608 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 64.0 latency p66 70.8161 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 64.0 request_total_throughput p10 18.8919 tokens/s"), s.reported.toString());
    assertEquals(15 + 10 * 8, s.reported.size());
  }

  /** 1.x as EvalScope's docs print it: box drawing, sections, a row per metric. */
  @Test
  void theBoxTablesOf1x() throws IOException {
    String doc = Files.readString(DIR.resolve("evalscope-doc-2026-box-tables-c200.txt"));
    assertEquals("evalscope-console", sniff("evalscope-doc-2026-box-tables-c200.txt", doc));
    CollectingSink s = parse(doc);
    assertEquals(List.of(), s.rejects);
    assertEquals(200.0, s.levels.get("dir")[1]);
    assertTrue(s.reported.contains("dir 200.0 total_requests value 400.0 requests"), s.reported.toString());
    assertTrue(s.reported.contains("dir 200.0 failed_requests value 0.0 requests"), s.reported.toString());
    assertTrue(s.reported.contains("dir 200.0 ttft avg 717.63 ms"), s.reported.toString());
    assertTrue(s.reported.contains("dir 200.0 output_throughput value 10692.45 tokens/s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 200.0 ttft p75 1082.24 ms"), s.reported.toString());
    assertTrue(s.reported.contains("dir 200.0 request_decode_throughput p99 60.24 tokens/s"), s.reported.toString());
    // the request rate's -1 (not paced) is no figure
    assertTrue(s.reported.stream().noneMatch(r -> r.contains("request_rate")), s.reported.toString());
    // 14 figures of 12 summary rows (Total / Success / Failed holds three), 9 metrics × 9 percentiles
    assertEquals(14 + 81, s.reported.size());
  }

  /**
   * The review's hostile table: a negative duration, 2.5 clients, a TTFT of 1e300 ms and Java's
   * "5f" are each a reject naming it, never a figure; the run has no level.
   */
  @Test
  void figuresOutOfRangeImpossibleLevelsAndNonDecimalsAreRejects() throws IOException {
    CollectingSink s = parse("Benchmarking summary:\n+---+\n| Key | Value |\n| Test Duration (s) | -38.31 |\n"
        + "| Concurrency | 2.5 |\n| TTFT (ms) | 1e300 |\n| Avg Latency (s) | 5f |\n| Success Requests | 40 |\n"
        + "| Request Rate (req/s) | 2e7 |\n+---+\nPercentile results:\n| Percentiles | TTFT (ms) | Latency (s) |\n"
        + "| 50% | 12.5 | 1.5 |\n| 99% | 20.0 | -3.0 |\n");
    assertEquals(List.of("Test Duration (s) out of range: -38.31 (a latency, count or throughput is not negative); not kept",
        "Concurrency: concurrency must be a whole number of requests, 1 or more; not kept",
        "TTFT (ms) out of range: 1.0E300 ms (a duration is 0 to 30 days); not kept",
        "Avg Latency (s): expected a number, got \"5f\"",
        "Request Rate (req/s): a request rate of at most 10,000,000; not kept",
        "Latency (s) p99 out of range: -3.0 (a latency, count or throughput is not negative); the row not kept"),
        s.rejects.stream().map(r -> r.reason()).toList());
    assertEquals(null, s.levels.get("dir"));
    assertEquals(List.of("dir null succeed_requests value 40.0 requests", "dir null ttft p50 12.5 ms",
        "dir null latency p50 1.5 s"), s.reported);
  }

  @Test
  void aRatePacedRunIsAtItsRate() throws IOException {
    CollectingSink s = parse("Benchmarking summary:\n│ Concurrency │ 64 │\n│ Request Rate (req/s) │ 4.00 │\n"
        + "│ Avg Latency (s) │ 1.50 │\n");
    assertEquals("request_rate", s.levels.get("dir")[0]);
    assertEquals(List.of("dir 4.0 concurrency value 64.0 ", "dir 4.0 request_rate value 4.0 requests/s",
        "dir 4.0 latency avg 1.5 s"), s.reported);
  }

  @Test
  void aCutRowIsARejectAndASecondSummaryIsTheNextRun() throws IOException {
    CollectingSink s = parse("Benchmarking summary:\n| Number of concurrency | 4 |\n| Average latency (s) | 1.5 |\n"
        + "log line\nBenchmarking summary:\n| Number of concurrency | 8 |\n| Average latency (s) | 2.\n"
        + "Percentile results:\n| Percentiles | TTFT (s) |\n| 50% | 0.2 |\n| 99% |\n");
    assertEquals(List.of("dir 4.0 concurrency value 4.0 ", "dir 4.0 latency avg 1.5 s", "dir#2 8.0 concurrency value 8.0 ",
        "dir#2 8.0 ttft p50 0.2 s"), s.reported);
    assertEquals(List.of("a cut table row: no closing bar", "row has 1 cells but the header has 2"),
        s.rejects.stream().map(r -> r.reason()).toList());
  }
}
