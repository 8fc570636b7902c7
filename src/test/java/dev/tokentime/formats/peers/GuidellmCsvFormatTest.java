package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import dev.tokentime.testing.TestDb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GuideLLM's benchmarks.csv (0.4 and later). The CSV of a real report (guidellm-0.5-dev-qwen3-30b-sync)
 * as GuideLLM 0.5.0's CSV writer lays it out (constructed/guidellm-csv-0.5, README there): each of
 * its figures is the report's, under the report's name.
 */
class GuidellmCsvFormatTest {
  static final Path CSV = Path.of("src/test/resources/constructed/guidellm-csv-0.5/benchmarks.csv");
  static final Path JSON = Path.of(
      "src/test/resources/real-logs/tools/guidellm-0.5-dev-qwen3-30b-sync/Qwen_Qwen3-30B-A3B_tp4_quant-fp8_benchmarks.json");
  final GuidellmCsvFormat f = new GuidellmCsvFormat();

  @TempDir
  Path tmp;

  @Test
  void alonePeerReportedAndTheToolsCountsShowIt() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(CSV);
      // GuideLLM's TTFT mean and median, its request latency in s as ms, under its convention
      assertEquals(List.of(List.of("guidellm", "ttft_ms", "mean", 59.9928153188605),
          List.of("guidellm", "ttft_ms", "p50", 58.10093879699707)),
          t.rows("SELECT convention, metric, stat, reported_value FROM peer_reported"
              + " WHERE metric = 'ttft_ms' AND stat IN ('mean', 'p50') ORDER BY stat"));
      assertEquals(List.of(List.of("requests_successful", 19.0), List.of("requests_total", 19.0)),
          t.rows("SELECT metric, requests FROM tool_request_counts WHERE metric IN ('requests_successful', 'requests_total')"
              + " ORDER BY metric"));
    }
  }

  @Test
  void theCsvOfARealReportGivesTheReportsFigures() throws IOException {
    byte[] b = Files.readAllBytes(CSV);
    assertEquals("guidellm-csv", FormatRegistry.standard().sniff(new Sample("benchmarks.csv", b, Math.min(b.length, 65536))).id());
    CollectingSink csv = Parsing.parse(f, b, "r");
    // three header rows, one benchmark
    assertEquals(List.of(1L, 3L, 0), List.of(csv.records, csv.other, csv.rejects.size()));
    assertEquals(List.of("concurrency", 1.0), List.of(csv.levels.get("r")[0], csv.levels.get("r")[1]));
    for (String want : List.of("r 1.0 time_to_first_token_ms mean 59.9928153188605 ms",
        "r 1.0 time_to_first_token_ms median 58.10093879699707 ms",
        "r 1.0 time_to_first_token_ms std_dev 5.59919112092467 ms",
        "r 1.0 time_to_first_token_ms min 53.69377136230469 ms",
        "r 1.0 requests_per_second mean 0.024999999999999994 requests/s",
        "r 1.0 requests_successful value 19.0 requests",
        "r 1.0 requests_total value 19.0 requests")) {
      assertTrue(csv.reported.contains(want), want + " in " + csv.reported);
    }
    // 15 metrics with successful requests × (mean, median, std_dev, 11 of the list) + 4 counts
    assertEquals(15 * 14 + 4, csv.reported.size());
    CollectingSink json = Parsing.parse(new GuidellmFormat(), Files.readAllBytes(JSON), "r");
    List<String> missing = csv.reported.stream().filter(x -> !json.reported.contains(x)).toList();
    assertEquals(List.of(), missing);
  }

  @Test
  void eachRowIsABenchmarkAtTheLevelItsProfileCompleted() throws IOException {
    String profile = "\"{\"\"type_\"\": \"\"concurrent\"\", \"\"completed_strategies\"\": [{\"\"type_\"\": \"\"concurrent\"\", "
        + "\"\"streams\"\": 4}, {\"\"type_\"\": \"\"concurrent\"\", \"\"streams\"\": 8}]}\"";
    CollectingSink s = Parsing.parse(f, "Run Info,Run Info,Benchmark,Request Counts,Time to First Token,Time to First Token\r\n"
        + "Run Index,Profile,Strategy,Successful,Successful ms,Errored ms\r\n"
        + ",,,,Mean,Mean\r\n"
        + "0," + profile + ",concurrent,12,41.5,90.0\r\n"
        + "1," + profile + ",concurrent,20,55.25,\r\n"
        + "2," + profile + ",concurrent\r\n");
    assertEquals(List.of(2L, 3L, 1), List.of(s.records, s.other, s.rejects.size()));
    assertEquals("a cut row: 3 of the header's 6 cells", s.rejects.get(0).reason());
    assertEquals(List.of("dir 4.0 requests_successful value 12.0 requests", "dir 4.0 time_to_first_token_ms mean 41.5 ms",
        "dir#2 8.0 requests_successful value 20.0 requests", "dir#2 8.0 time_to_first_token_ms mean 55.25 ms"), s.reported);
    assertEquals(List.of("concurrency", 8.0), List.of(s.levels.get("dir#2")[0], s.levels.get("dir#2")[1]));
  }

  @Test
  void aLastRowCutInItsLastCellIsATruncatedReject() throws Exception {
    // the second benchmark's TTFT mean, 2100, cut to 21 at the end of the file (no line end after it)
    String text = "Run Info,Run Info,Benchmark,Request Counts,Time to First Token\r\n"
        + "Run Index,Profile,Strategy,Successful,Successful ms\r\n"
        + ",,,,Mean\r\n"
        + "0,,synchronous,12,41.5\r\n"
        + "1,,synchronous,20,21";
    try (TestDb t = new TestDb(tmp)) {
      Path file = t.write("run/benchmarks.csv", text);
      IngestResult.FileResult r = t.ingestSample(IngestOptions.of(List.of(file.toString())), "guidellm-csv", 5, 1, 3, 1);
      assertEquals(5L, r.firstRejects().get(0).lineNo());
      assertTrue(r.firstRejects().get(0).reason().startsWith("truncated last line"), r.firstRejects().toString());
      assertEquals(List.of(List.of(41.5)),
          t.rows("SELECT value FROM reported_metrics WHERE metric = 'time_to_first_token_ms' AND stat = 'mean'"));
    }
  }

  @Test
  void besideItsReportTheCsvIsLeftOut() {
    assertEquals("GuideLLM's CSV of the report beside it (benchmarks.json, which is read)",
        f.leaveOut("benchmarks.csv", Set.of("benchmarks.csv", "benchmarks.json")));
    assertNull(f.leaveOut("benchmarks.csv", Set.of("benchmarks.csv")));
  }

  @Test
  void the02CsvSaysWhatItIs() throws IOException {
    String text = "Type,Run Id,Id,Name,Start Time,End Time,Duration,Successful Requests,Successful Requests per second mean\n"
        + "generative_benchmark,r1,b1,synchronous,2025-06-16 10:00:00,2025-06-16 10:01:00,60.0,46,0.76\n";
    byte[] b = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals("guidellm-csv", FormatRegistry.standard().sniff(new Sample("benchmarks.csv", b, b.length)).id());
    CollectingSink s = Parsing.parse(f, text);
    assertEquals(List.of(0L, 1L, 1), List.of(s.records, s.other, s.rejects.size()));
    assertTrue(s.rejects.get(0).reason().startsWith("GuideLLM 0.2–0.3's CSV"), s.rejects.toString());
  }
}
