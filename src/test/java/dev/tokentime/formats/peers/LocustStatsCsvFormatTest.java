package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestResult;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
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
 * Locust's statistics CSV as Fireworks' llm_bench left it (a real run, values read off the file
 * by hand): the HTTP row's figures in ms, the METRIC events' figures in the unit llm_bench fires
 * them in, the Aggregated row without the response times it pools over ms and other units.
 */
class LocustStatsCsvFormatTest {
  static final Path DIR = Path.of("src/test/resources/real-logs/tools/locust-llm-bench-2026-rerank-c20");
  final LocustStatsCsvFormat f = new LocustStatsCsvFormat();

  @TempDir
  Path tmp;

  @Test
  void peerReportedShowsLlmBenchsFiguresUnderItsConvention() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(DIR.resolve("batch_20_stats.csv"));
      assertEquals(List.of(
          List.of("ttft_ms", "mean", "time_to_first_token mean", 72.60249397698422),
          List.of("ttft_ms", "p50", "time_to_first_token median", 74.0),
          List.of("ttft_ms", "p90", "time_to_first_token p90", 91.0),
          List.of("ttft_ms", "p99", "time_to_first_token p99", 140.0),
          List.of("e2e_ms", "mean", "total_latency mean", 72.65452065833756),
          List.of("e2e_ms", "p50", "total_latency median", 74.0),
          List.of("e2e_ms", "p90", "total_latency p90", 91.0),
          List.of("e2e_ms", "p99", "total_latency p99", 140.0)),
          t.rows("SELECT metric, stat, tool_metric, reported_value FROM peer_reported WHERE convention = 'llm-bench'"));
      // reported only: peer_comparison has its rows where it reported, no computed value
      assertEquals(List.of(List.of(8L, 0L)), t.rows("SELECT count(*), count(convention_value) FROM peer_comparison"
          + " WHERE convention = 'llm-bench'"));
    }
  }

  @Test
  void aColumnOfALaterLocustIsLeftUnreadAndTheRestRead() throws Exception {
    // the real file with a column this reader does not know after Failures/s: before, each row met
    // the unknown column's null statistic and the file was refused as an internal error
    String real = Files.readString(DIR.resolve("batch_20_stats.csv"));
    String text = real.replaceAll("(?m)^((?:[^,\r\n]*,){11})", "$17,").replace("Failures/s,7,", "Failures/s,Foo,");
    assertTrue(text.startsWith("Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,"
        + "Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,Foo,50%"), text);
    assertTrue(text.contains(",Aggregated,4854,0,68,69.23754194740445,51.647541811689734,243.8819999806583,"
        + "3820.790482076638,32.4036758663703,0.0,7,69,"), text);
    try (TestDb t = new TestDb(tmp)) {
      Path file = t.write("run/extra_stats.csv", text);
      t.ingestSample(dev.tokentime.app.IngestOptions.of(List.of(file.toString())), "locust-stats-csv", 5, 4, 1, 0);
      assertEquals(List.of(List.of("POST /inference/v1/rerank", 240.0, "ms"), List.of("time_to_first_token", 240.0, "ms"),
          List.of("total_latency", 240.0, "ms")),
          t.rows("SELECT metric, value, unit FROM reported_metrics WHERE stat = 'p100' ORDER BY metric"));
      // the unknown column's 7 is no figure: the rows' figures are the real file's, no more
      assertEquals(0L, t.count("SELECT count(*) FROM reported_metrics WHERE value = 7"));
    }
  }

  @Test
  void aHeaderNotLocustsRejectsItsRowsWithAReason() throws IOException {
    CollectingSink s = Parsing.parse(f, "Kind,Label,Hits,Misses\nPOST,/x,3,0\n");
    assertEquals(List.of(0L, 0L, 2), List.of(s.records, s.other, s.rejects.size()));
    assertEquals(List.of("not Locust's statistics header (Type,Name,Request Count,Failure Count,Median Response Time,…)"),
        s.rejects.stream().map(r -> r.reason()).distinct().toList());
    assertEquals(List.of(), s.reported);
  }

  @Test
  void aLastRowCutInItsLastCellIsATruncatedReject() throws Exception {
    // the real file cut two bytes into the Aggregated row's 100% cell: "…,240,240" as "…,240,24"
    String real = Files.readString(DIR.resolve("batch_20_stats.csv"));
    String cut = real.substring(0, real.length() - "0\r\n".length());
    assertTrue(cut.endsWith(",210,240,24"), cut);
    try (TestDb t = new TestDb(tmp)) {
      Path file = t.write("run/cut_stats.csv", cut);
      IngestResult.FileResult r = t.ingestSample(dev.tokentime.app.IngestOptions.of(List.of(file.toString())),
          "locust-stats-csv", 5, 3, 1, 1);
      assertEquals(5L, r.firstRejects().get(0).lineNo());
      assertTrue(r.firstRejects().get(0).reason().startsWith("truncated last line"), r.firstRejects().toString());
      assertEquals(0L, t.count("SELECT count(*) FROM reported_metrics WHERE metric = 'Aggregated'"));
      assertEquals(3L, t.count("SELECT count(*) FROM reported_metrics WHERE stat = 'p100'"));
    }
  }

  @Test
  void llmBenchsOwnFiguresInTheirUnits() throws IOException {
    CollectingSink s = Parsing.parse(f, "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,"
        + "Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,50%\n"
        + "METRIC,response_time,4,0,2.1,2.2,2.0,2.5,128,0.4,0.0,2\n"
        + "METRIC,num_tokens,4,0,128,128.0,128,128,128,0.4,0.0,128\n"
        + "METRIC,my_score,4,0,7,7.5,7,9,0,0.4,0.0,7\n");
    assertTrue(s.reported.contains("dir null response_time mean 2.2 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir null num_tokens p50 128.0 tokens"), s.reported.toString());
    assertTrue(s.reported.contains("dir null my_score mean 7.5 null"), s.reported.toString());
  }

  @Test
  void llmBenchsRerankRunAtBatch20() throws IOException {
    byte[] b = Files.readAllBytes(DIR.resolve("batch_20_stats.csv"));
    InputFormat sniffed = FormatRegistry.standard().sniff(new Sample("batch_20_stats.csv", b, b.length));
    assertEquals("locust-stats-csv", sniffed.id());
    CollectingSink s = Parsing.parse(f, b, "r");
    assertEquals(List.of(4L, 1L, 0), List.of(s.records, s.other, s.rejects.size()));
    List<String> m = s.reported;
    for (String want : List.of(
        "r null POST /inference/v1/rerank count 1618.0 requests",
        "r null POST /inference/v1/rerank failures 0.0 requests",
        "r null POST /inference/v1/rerank median 58.0 ms",
        "r null POST /inference/v1/rerank mean 62.4556112068916 ms",
        "r null POST /inference/v1/rerank min 51.647541811689734 ms",
        "r null POST /inference/v1/rerank max 241.85495800338686 ms",
        "r null POST /inference/v1/rerank mean_content_size 11462.371446229914 bytes",
        "r null POST /inference/v1/rerank rate 10.8012252887901 requests/s",
        "r null POST /inference/v1/rerank p99 130.0 ms",
        "r null POST /inference/v1/rerank p99.9 210.0 ms",
        "r null time_to_first_token mean 72.60249397698422 ms",
        "r null time_to_first_token p95 94.0 ms",
        "r null total_latency max 243.8819999806583 ms",
        "r null Aggregated count 4854.0 requests",
        "r null Aggregated rate 32.4036758663703 requests/s")) {
      assertTrue(m.contains(want), want + " in " + m);
    }
    // 22 columns: the HTTP row 20 figures, each METRIC row 19 (no content size), the Aggregated
    // row 5 (count, failures, content size, rate, failure rate: its times pool the METRIC events)
    assertEquals(20 + 19 + 19 + 5, m.size());
    assertTrue(m.stream().noneMatch(x -> x.startsWith("r null Aggregated median")), m.toString());
    assertTrue(m.stream().noneMatch(x -> x.startsWith("r null time_to_first_token mean_content_size")), m.toString());
    assertEquals(null, s.levels.get("r")[1]);
  }

  @Test
  void theHistoryBesideTheStatisticsIsLeftOutAndAloneSaysWhatItIs() throws IOException {
    assertEquals("Locust's stats history beside batch_20_stats.csv, which is read",
        f.leaveOut("batch_20_stats_history.csv", Set.of("batch_20_stats.csv", "batch_20_stats_history.csv")));
    assertNull(f.leaveOut("batch_20_stats_history.csv", Set.of("batch_20_stats_history.csv")));
    byte[] b = Files.readAllBytes(DIR.resolve("batch_20_stats_history.csv"));
    assertEquals("locust-stats-csv", FormatRegistry.standard().sniff(new Sample("h.csv", b, Math.min(b.length, 65536))).id());
    CollectingSink s = Parsing.parse(f, b, "r");
    assertEquals(List.of(0L, 141L, 1), List.of(s.records, s.other, s.rejects.size()));
    assertTrue(s.rejects.get(0).reason().startsWith("Locust's statistics history"), s.rejects.toString());
    assertEquals(List.of(), s.reported);
  }

  @Test
  void aPlainHttpTestKeepsItsAggregatedTimesAndCutRowsAreRejects() throws IOException {
    CollectingSink s = Parsing.parse(f, "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,"
        + "Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,50%,99%,100%\n"
        + "POST,/v1/completions,10,1,1200,1250.5,900,2100,512,0.5,0.05,1200,2100,2100\n"
        + "GET,/health,0,0,0,0,0,0,0,0,0,N/A,N/A,N/A\n"
        + "POST,/v1/chat/completions,3,0,40\n"
        + ",Aggregated,13,1,1100,1200.0,900,2100,500,0.6,0.05,1100,2100,2100\n");
    assertEquals(List.of(3L, 1L, 1), List.of(s.records, s.other, s.rejects.size()));
    assertEquals("a cut row: 5 of the header's 14 cells", s.rejects.get(0).reason());
    assertTrue(s.reported.contains("dir null Aggregated p99 2100.0 ms"), s.reported.toString());
    assertTrue(s.reported.contains("dir null POST /v1/completions failures 1.0 requests"), s.reported.toString());
    assertTrue(s.reported.stream().noneMatch(x -> x.contains("/health p50")), s.reported.toString());
  }

  @Test
  void locust0xQuotedHeaderAndItsTotalRow() throws IOException {
    String text = "\"Method\",\"Name\",\"# requests\",\"# failures\",\"Median response time\",\"Average response time\","
        + "\"Min response time\",\"Max response time\",\"Average Content Size\",\"Requests/s\"\n"
        + "\"POST\",\"/generate\",5,0,1200,1250,1000,1500,300,0.42\n"
        + "\"None\",\"Total\",5,0,1200,1250,1000,1500,300,0.42\n";
    byte[] b = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals("locust-stats-csv", FormatRegistry.standard().sniff(new Sample("x_requests.csv", b, b.length)).id());
    CollectingSink s = Parsing.parse(f, text);
    assertEquals(List.of(2L, 1L, 0), List.of(s.records, s.other, s.rejects.size()));
    assertTrue(s.reported.contains("dir null POST /generate mean 1250.0 ms"), s.reported.toString());
    assertTrue(s.reported.contains("dir null Aggregated median 1200.0 ms"), s.reported.toString());
    assertEquals(16, s.reported.size());
  }

  @Test
  void otherCsvIsNotClaimed() {
    byte[] b = "Type,Name,Count\nPOST,/x,3\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    InputFormat sniffed = FormatRegistry.standard().sniff(new Sample("stats.csv", b, b.length));
    assertTrue(sniffed == null || !sniffed.id().equals("locust-stats-csv"));
  }
}
