package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestResult;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import dev.tokentime.testing.TestDb;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MLCommons' endpoints harness (MLPerf Inference v6.1's LLM runs over an HTTP endpoint): its
 * result_summary.json was "cannot tell the format"; now a run of the harness's figures under
 * LoadGen's names (real-logs/tools/mlperf-endpoints-v6.1-vr-nvl72-deepseek-r1, PROVENANCE.md).
 */
class MlperfEndpointsFormatTest {
  static final Path DIR = Path.of("src/test/resources/real-logs/tools/mlperf-endpoints-v6.1-vr-nvl72-deepseek-r1");
  static final Path INTERACTIVE = DIR.resolve("Interactive/performance/result_summary.json");
  static final Path OFFLINE = DIR.resolve("Offline/performance/result_summary.json");

  @TempDir
  Path tmp;

  static CollectingSink read(String text, String format) throws IOException {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    InputFormat f = FormatRegistry.standard().sniff(new Sample("result_summary.json", b, b.length));
    assertTrue(f != null, "claimed");
    assertEquals(format, f.id());
    CollectingSink s = new CollectingSink();
    long lines = f.parse(new ByteArrayInputStream(b), new ParseContext("result_summary.json", "r", false, null, null), s);
    assertEquals(lines, s.records + s.other + s.rejects.size());
    return s;
  }

  /** The Interactive scenario (poisson at 170 QPS): its 99 figures, the level from its load pattern. */
  @Test
  void aPoissonRunsSummaryIsItsFiguresAtItsTargetQps() throws IOException {
    CollectingSink s = read(Files.readString(INTERACTIVE), "mlperf-endpoints-json");
    assertEquals(List.of(1L, 0), List.of(s.records, s.rejects.size()));
    assertEquals(List.of("request_rate", 170.0), List.of(s.levels.get("r")[0], s.levels.get("r")[1]));
    assertEquals(99, s.reported.size());
    assertTrue(s.reported.containsAll(List.of("r 170.0 n_samples_completed value 330000.0 requests",
        "r 170.0 ttft p99 4.7531573E8 ns", "r 170.0 ttft mean 2.796078078504515E8 ns",
        "r 170.0 tpot p99.9 1.3076535691131499E7 ns", "r 170.0 e2el p99_early_stopping 1.96907292356E11 ns",
        "r 170.0 request_throughput value 168.44961107838623 samples/s",
        "r 170.0 output_throughput value 652750.1447708113 tokens/s",
        "r 170.0 output_sequence_lengths median 2152.0 tokens", "r 170.0 duration value 2.077965287526E12 ns")),
        s.reported.toString());
  }

  /** Offline (max_throughput): no level, and its empty ttft / tpot ({}) no figures. */
  @Test
  void anOfflineSummaryHasNoLevelAndNoFirstTokenFigures() throws IOException {
    CollectingSink s = read(Files.readString(OFFLINE), "mlperf-endpoints-json");
    assertEquals(List.of(1L, 0), List.of(s.records, s.rejects.size()));
    assertNull(s.levels.get("r")[1]);
    assertEquals(48, s.reported.size());
    assertTrue(s.reported.stream().noneMatch(x -> x.startsWith("r null ttft") || x.startsWith("r null tpot")));
    assertTrue(s.reported.contains("r null e2el p50 2.358455909982E12 ns"), s.reported.toString());
  }

  /**
   * The real summary edited: a concurrency pattern (its level), an early-stopping estimate with
   * too few samples (null: no figure), a percentile that is no number and a negative count
   * (a reject naming each; the other figures kept).
   */
  @Test
  void aBadFigureIsARejectNamingItAndTheOthersAreKept() throws IOException {
    String text = Files.readString(INTERACTIVE)
        .replace("\"type\": \"poisson\",\n      \"target_qps\": 170.0,\n      \"target_concurrency\": null",
            "\"type\": \"concurrency\",\n      \"target_qps\": null,\n      \"target_concurrency\": 512")
        .replace("\"99.9\": 2881509491.0,", "\"99.9\": null,")
        .replace("\"97.0\": 394744189.0,", "\"97.0\": \"394.7 ms\",")
        .replace("\"n_samples_failed\": 0,", "\"n_samples_failed\": -3,");
    CollectingSink s = read(text, "mlperf-endpoints-json");
    assertEquals(List.of(0L, 1), List.of(s.records, s.rejects.size()));
    assertEquals(List.of("concurrency", 512.0), List.of(s.levels.get("r")[0], s.levels.get("r")[1]));
    String reason = s.rejects.get(0).reason();
    assertTrue(reason.contains("n_samples_failed out of range: -3") && reason.contains(
        "ttft.percentiles.97.0: expected a number, got \"394.7 ms\""), reason);
    assertEquals(99 - 3, s.reported.size());
    assertTrue(s.reported.contains("r 512.0 ttft p99 4.7531573E8 ns"));
  }

  /** The submission's layout: each scenario a run of its own, and peer_comparison shows its figures in ms. */
  @Test
  void aSubmissionsScenariosAreRunsBesideEachOther() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      IngestResult r = t.ingest(DIR);
      assertEquals(List.of("mlperf-endpoints-console", "mlperf-endpoints-json", "mlperf-endpoints-json"),
          r.files().stream().map(IngestResult.FileResult::format).sorted().toList());
      assertEquals(List.of(List.of("mlperf-endpoints-v6.1-vr-nvl72-deepseek-r1/Interactive"),
          List.of("mlperf-endpoints-v6.1-vr-nvl72-deepseek-r1/Offline")), t.rows("SELECT run FROM runs ORDER BY run"));
      assertEquals(475.31573, ((Number) t.value("SELECT reported_value FROM peer_comparison WHERE convention = 'mlperf'"
          + " AND metric = 'ttft_ms' AND stat = 'p99'")).doubleValue(), 1e-9);
    }
  }

  static final Path REPORT = DIR.resolve("Offline/report.txt");

  /**
   * The report the harness prints beside the summary (report.txt, "cannot tell the format"
   * before): its 48 figures, under the JSON's names and units (ms and seconds as ns), each the
   * JSON's to the printed two decimals.
   */
  @Test
  void theReportTxtIsTheSummarysFiguresToTwoDecimals() throws IOException {
    CollectingSink c = read(Files.readString(REPORT), "mlperf-endpoints-console");
    assertEquals(List.of(48L, 95L, 0), List.of(c.records, c.other, c.rejects.size()));
    assertTrue(c.reported.containsAll(List.of("r null e2el p99 4.79836464E12 ns", "r null e2el p99.9_early_stopping 5.00527624E12 ns",
        "r null request_throughput value 312.23 samples/s", "r null duration value 5.1244E12 ns",
        "r null n_samples_completed value 1600000.0 requests", "r null output_sequence_lengths std 4229.43 tokens")),
        c.reported.toString());
    CollectingSink j = read(Files.readString(OFFLINE), "mlperf-endpoints-json");
    java.util.Map<String, Double> json = new java.util.HashMap<>();
    for (String x : j.reported) {
      String[] f = x.split(" ");
      json.put(f[2] + " " + f[3], Double.parseDouble(f[4]));
    }
    for (String x : c.reported) {
      String[] f = x.split(" ");
      double half = f[5].equals("ns") ? (f[2].equals("duration") ? 5e6 : 5e3) : 0.005;
      assertEquals(json.get(f[2] + " " + f[3]), Double.parseDouble(f[4]), half + 1e-9, x);
    }
  }

  /**
   * The report edited: a poisson pattern (the level), an estimate of too few samples and figures
   * printed N/A (no figure), a cut figure (a reject).
   */
  @Test
  void aReportsLevelAndACutFigure() throws IOException {
    String text = Files.readString(REPORT)
        .replace("load_pattern: type=max_throughput, target_qps=None,", "load_pattern: type=poisson, target_qps=170.0,")
        .replace("    99.9: 5005276.24 ms\n", "    99.9: N/A\n")
        .replace("  Std Dev.: 1380599.46 ms\n", "  Std Dev.: 1380599.4\n")
        .replace("QPS: 312.23\n", "QPS: N/A\n")
        .replace("  Min: 125.00 tokens\n", "  Min: N/A tokens\n");
    CollectingSink c = read(text, "mlperf-endpoints-console");
    // N/A (the harness's print of no value): other lines, no figure
    assertEquals(List.of(44L, 98L, 1), List.of(c.records, c.other, c.rejects.size()));
    assertEquals(List.of("request_rate", 170.0), List.of(c.levels.get("r")[0], c.levels.get("r")[1]));
    assertTrue(c.rejects.get(0).reason().startsWith("a cut line: the report's e2el line 'Std Dev.: 1380599.4'"),
        c.rejects.toString());
    assertTrue(c.reported.stream().noneMatch(x -> x.contains("p99.9_early_stopping")));
  }

  /** The report and the summary of one scenario are one run; peer_comparison takes the JSON's figure. */
  @Test
  void theReportBesideItsSummaryIsTheSameRun() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(DIR.resolve("Offline"));
      assertEquals(1L, t.count("SELECT count(*) FROM runs"));
      assertEquals(2L, t.count("SELECT count(DISTINCT source_id) FROM reported_metrics"));
      assertEquals(4798364.638562, ((Number) t.value("SELECT reported_value FROM peer_comparison WHERE metric = 'e2e_ms'"
          + " AND stat = 'p99'")).doubleValue(), 1e-6);
    }
  }
}
