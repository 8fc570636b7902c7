package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * EvalScope perf's benchmark_summary.json and benchmark_percentile.json, both generations of keys
 * (src/test/resources/constructed/evalscope-perf, README.md there).
 */
class EvalscopePerfFormatTest {
  static final Path DIR = Path.of("src/test/resources/constructed/evalscope-perf");
  final EvalscopePerfFormat format = new EvalscopePerfFormat();
  final FormatRegistry registry = FormatRegistry.standard();

  String sniff(String name, byte[] bytes) {
    InputFormat f = registry.sniff(new Sample(name, bytes, Math.min(bytes.length, 64 << 10)));
    return f == null ? null : f.id();
  }

  CollectingSink read(String file) throws IOException {
    return Parsing.parse(format, Files.readString(DIR.resolve(file)));
  }

  @Test
  void bothGenerationsOfTheToolsFilesAreClaimedByTheirKeys() throws IOException {
    for (String f : List.of("v1.6-parallel_20_number_500/benchmark_summary.json",
        "v1.6-parallel_20_number_500/benchmark_percentile.json",
        "v1.10-parallel_200_number_400/benchmark_summary.json",
        "v1.10-parallel_200_number_400/benchmark_percentile.json")) {
      assertEquals("evalscope-perf", sniff("x.json", Files.readAllBytes(DIR.resolve(f))), f);
    }
    // another tool's summary with a "Number of concurrency" key (and no EvalScope duration) is not claimed
    assertNull(sniff("report.json", "{\"Model\":\"m\",\"Number of concurrency\":64,\"Duration time (s)\":33.36}"
        .getBytes(StandardCharsets.UTF_8)));
    assertNull(sniff("rows.json", "[{\"Percentiles\":\"10%\",\"foo\":1}]".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void theOldSummaryIsInSecondsAndItsRunIsAtItsConcurrency() throws IOException {
    CollectingSink s = read("v1.6-parallel_20_number_500/benchmark_summary.json");
    assertEquals(1, s.records);
    assertEquals(List.of(), s.rejects);
    assertEquals(20.0, s.levels.get("dir")[1]);
    assertTrue(s.reported.contains("dir 20.0 duration value 71.6469 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 20.0 ttft avg 0.1547 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 20.0 tpot avg 0.0213 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 20.0 output_throughput value 893.269 tokens/s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 20.0 succeed_requests value 500.0 requests"), s.reported.toString());
    // "Request rate (req/s)": -1 is "not paced by a rate": no figure
    assertTrue(s.reported.stream().noneMatch(r -> r.contains("request_rate")), s.reported.toString());
    assertEquals(14, s.reported.size());
  }

  /** A real 0.17 summary (real-logs/tools/evalscope-0.17-blog-qwen3-235b-c10): chunks were "packages" then. */
  @Test
  void aPublishedSummaryIsReadWhole() throws IOException {
    CollectingSink s = Parsing.parse(format, Files.readString(Path.of(
        "src/test/resources/real-logs/tools/evalscope-0.17-blog-qwen3-235b-c10/benchmark_summary.json")));
    assertEquals(1, s.records);
    assertEquals(List.of(), s.rejects);
    assertEquals("concurrency", s.levels.get("dir")[0]);
    assertEquals(10.0, s.levels.get("dir")[1]);
    assertEquals(15, s.reported.size());
    assertTrue(s.reported.contains("dir 10.0 duration value 78.9037 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 10.0 ttft avg 1.1695 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 10.0 total_throughput value 536.8313 tokens/s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 10.0 package_latency avg 0.0374 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 10.0 packages_per_request avg 1021.95 "), s.reported.toString());
  }

  @Test
  void theNewSummaryIsInMsUnderTheSameNames() throws IOException {
    CollectingSink s = read("v1.10-parallel_200_number_400/benchmark_summary.json");
    assertEquals(1, s.records);
    assertEquals(200.0, s.levels.get("dir")[1]);
    assertTrue(s.reported.contains("dir 200.0 duration value 38.31 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 200.0 ttft avg 717.63 ms"), s.reported.toString());
    assertTrue(s.reported.contains("dir 200.0 itl avg 17.64 ms"), s.reported.toString());
    assertTrue(s.reported.contains("dir 200.0 latency avg 18.78 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 200.0 request_throughput value 10.44 requests/s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 200.0 stream_requests value 400.0 requests"), s.reported.toString());
  }

  @Test
  void aRatePacedRunIsAtItsRate() throws IOException {
    CollectingSink s = Parsing.parse(format,
        "{\"Test Duration (s)\": 10.0, \"Concurrency\": 64, \"Request Rate (req/s)\": 4.0, \"Success Requests\": 40}");
    assertEquals("request_rate", s.levels.get("dir")[0]);
    assertEquals(4.0, s.levels.get("dir")[1]);
    assertTrue(s.reported.contains("dir 4.0 concurrency value 64.0 "), s.reported.toString());
  }

  /**
   * A run whose requests all failed: EvalScope writes -1 for every average (the summary as issue
   * #1231 shows it, https://github.com/modelscope/evalscope/issues/1231): the counts are kept, no -1.
   */
  @Test
  void theToolsMinusOnePlaceholdersAreNotFigures() throws IOException {
    CollectingSink s = Parsing.parse(format, "{\n  \"Time taken for tests (s)\": 0.0,\n  \"Number of concurrency\": 10,\n"
        + "  \"Request rate (req/s)\": -1,\n  \"Total requests\": 30,\n  \"Succeed requests\": 0,\n  \"Failed requests\": 30,\n"
        + "  \"Output token throughput (tok/s)\": -1,\n  \"Average latency (s)\": -1,\n"
        + "  \"Average time to first token (s)\": -1\n}");
    assertEquals(List.of("dir 10.0 duration value 0.0 s", "dir 10.0 concurrency value 10.0 ",
        "dir 10.0 total_requests value 30.0 requests", "dir 10.0 succeed_requests value 0.0 requests",
        "dir 10.0 failed_requests value 30.0 requests"), s.reported);
  }

  /** A figure out of its range, or a level no run has, is a reject naming it; the others are kept. */
  @Test
  void figuresOutOfRangeAndImpossibleLevelsAreRejects() throws IOException {
    CollectingSink s = Parsing.parse(format, "{\"Test Duration (s)\": -38.31, \"Concurrency\": 2.5,"
        + " \"Avg TTFT (ms)\": 1e300, \"Avg Latency (s)\": 1e400, \"Success Requests\": 40}");
    assertEquals(List.of("dir null succeed_requests value 40.0 requests"), s.reported);
    assertEquals(null, s.levels.get("dir"), "2.5 clients is no run's level");
    assertEquals(List.of("Test Duration (s) out of range: -38.31 (a latency, count or throughput is not negative); not kept",
        "Concurrency: concurrency must be a whole number of requests, 1 or more; not kept",
        "Avg TTFT (ms) out of range: 1.0E300 ms (a duration is 0 to 30 days); not kept",
        "Avg Latency (s): Infinity is no finite number; not kept"),
        s.rejects.stream().map(r -> r.reason()).toList());
    assertEquals(1, s.records);

    CollectingSink rate = Parsing.parse(format, "{\"Test Duration (s)\": 10.0, \"Concurrency\": 64,"
        + " \"Request Rate (req/s)\": 1e12}");
    assertEquals("concurrency", rate.levels.get("dir")[0], "the rate no run has is no level; the concurrency is");
    assertEquals(List.of("Request Rate (req/s): a request rate of at most 10,000,000; not kept"),
        rate.rejects.stream().map(r -> r.reason()).toList());

    CollectingSink rows = Parsing.parse(format, "[{\"Percentiles\": \"50%\", \"TTFT (ms)\": 12.5},"
        + " {\"Percentiles\": \"99%\", \"TTFT (ms)\": 12.5, \"Latency (s)\": -3.0}]");
    assertEquals(List.of("dir null ttft p50 12.5 ms"), rows.reported, "the bad row keeps none of its figures");
    assertEquals(List.of("[1]: Latency (s) p99 out of range: -3.0 (a latency, count or throughput is not negative);"
        + " the row not kept"), rows.rejects.stream().map(r -> r.reason()).toList());
  }

  @Test
  void percentileRowsAreStatisticsOfEachColumn() throws IOException {
    CollectingSink old = read("v1.6-parallel_20_number_500/benchmark_percentile.json");
    assertEquals(3, old.records);
    assertEquals(List.of(), old.rejects);
    assertTrue(old.reported.contains("dir null ttft p10 0.0611 s"), old.reported.toString());
    assertTrue(old.reported.contains("dir null latency p99 3.0857 s"), old.reported.toString());
    assertTrue(old.reported.contains("dir null request_output_throughput p50 44.9738 tokens/s"), old.reported.toString());
    assertEquals(24, old.reported.size());

    CollectingSink now = read("v1.10-parallel_200_number_400/benchmark_percentile.json");
    assertEquals(9, now.records);
    assertTrue(now.reported.contains("dir null ttft p75 1082.24 ms"), now.reported.toString());
    assertTrue(now.reported.contains("dir null tpot p1 16.61 ms"), now.reported.toString());
    assertTrue(now.reported.contains("dir null request_decode_throughput p99 60.24 tokens/s"), now.reported.toString());
    assertEquals(81, now.reported.size());

    // the min (1.10) and max (1.8) rows; NaN (no request gave the figure) is no figure
    CollectingSink mm = Parsing.parse(format, "[{\"Percentiles\": \"min\", \"TTFT (ms)\": 12.5, \"ITL (ms)\": NaN},"
        + "{\"Percentiles\": \"max\", \"TTFT (ms)\": 99.0}]");
    assertEquals(List.of("dir null ttft min 12.5 ms", "dir null ttft max 99.0 ms"), mm.reported);
  }

  @Test
  void brokenFilesAreRejectsWithAReason() throws IOException {
    // cut mid-file
    String whole = Files.readString(DIR.resolve("v1.6-parallel_20_number_500/benchmark_percentile.json"));
    CollectingSink cut = Parsing.parse(format, whole.substring(0, whole.indexOf("\"Percentiles\": \"99%\"") + 10));
    assertEquals(2, cut.records);
    assertEquals(1, cut.rejects.size());
    assertTrue(cut.rejects.get(0).reason().contains("nothing after this point could be read"), cut.rejects.toString());

    CollectingSink cutSummary = Parsing.parse(format, "{\n    \"Test Duration (s)\": 38.31,\n    \"Concurrency\": 2");
    assertEquals(0, cutSummary.records);
    assertEquals(1, cutSummary.rejects.size());

    // a row without its label, a label that is no percentile
    CollectingSink bad = Parsing.parse(format, "[{\"TTFT (s)\": 0.1}, {\"Percentiles\": \"p50\", \"TTFT (s)\": 0.2},"
        + " {\"Percentiles\": \"50%\", \"TTFT (s)\": 0.3}]");
    assertEquals(1, bad.records);
    assertEquals(List.of("[0]: no \"Percentiles\" label in the row",
        "[1]: \"Percentiles\": expected a percentage, min or max, got \"p50\""),
        bad.rejects.stream().map(r -> r.reason()).toList());

    CollectingSink empty = Parsing.parse(format, "{\"Result DB path\": \"outputs/x/benchmark_data.db\"}");
    assertEquals(1, empty.rejects.size());
    assertTrue(empty.rejects.get(0).reason().startsWith("no EvalScope figure"), empty.rejects.toString());
  }

  @Test
  void theSqliteDatabaseIsNamedAsNotRead() throws IOException {
    byte[] db = new byte[200];
    byte[] magic = "SQLite format 3\0".getBytes(StandardCharsets.ISO_8859_1);
    System.arraycopy(magic, 0, db, 0, magic.length);
    assertEquals("evalscope-perf", sniff("benchmark_data.db", db));
    CollectingSink s = Parsing.parse(format, db, "dir");
    assertEquals(1, s.rejects.size());
    assertTrue(s.rejects.get(0).reason().startsWith("EvalScope's per-request SQLite database"), s.rejects.toString());
  }
}
