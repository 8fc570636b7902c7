package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.app.IngestResult;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import dev.tokentime.testing.TestDb;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MLPerf Inference LoadGen's mlperf_log_summary.txt and mlperf_log_detail.txt, as submitted to
 * mlcommons/inference_results_v4.1 (peers-extra/mlperf-loadgen, PROVENANCE.md there): "format not
 * recognised" before; now the run's level (a Server run's target QPS) and its figures, TTFT, TPOT
 * and latency statistics in LoadGen's ns, under the names the other tools' same figures have.
 */
class MlperfLoadgenFormatTest {
  static final Path DIR = Path.of("src/test/resources/real-logs/peers-extra/mlperf-loadgen");
  static final String B200_SERVER = "b200-llama2-70b-99.9-server";

  static CollectingSink read(String file, String expectedFormat) throws IOException {
    byte[] b = Files.readAllBytes(DIR.resolve(file));
    String name = Path.of(file).getFileName().toString();
    var f = FormatRegistry.standard().sniff(new Sample(name, b, b.length));
    assertEquals(expectedFormat, f == null ? null : f.id(), file);
    return Parsing.parse(f, b, "r");
  }

  static CollectingSink parseSummary(String text) throws IOException {
    return Parsing.parse(new MlperfLoadgenFormat(MlperfLoadgenFormat.Kind.SUMMARY),
        text.getBytes(StandardCharsets.UTF_8), "r");
  }

  /** NVIDIA's B200 llama2-70b-99.9 Server run (TensorRT-LLM): the summary's every figure, at target_qps 39.6. */
  @Test
  void aServerSummary() throws IOException {
    CollectingSink s = read(B200_SERVER + "/mlperf_log_summary.txt", "mlperf-summary");
    assertEquals(List.of(), s.rejects);
    assertEquals(41, s.records, "figure lines; the token block's repeat of completed tokens per second is another line");
    assertEquals(39, s.other);
    assertEquals("request_rate", s.levels.get("r")[0]);
    assertEquals(39.6, s.levels.get("r")[1]);
    assertTrue(s.reported.contains("r 39.6 ttft p99 3.57223316E8 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 ttft p99.9 4.39807726E8 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 ttft mean 2.08804128E8 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 tpot p99 1.51920554E8 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 tpot min 2.844303E7 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 e2el p50 3.0843907648E10 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 request_throughput value 39.25 samples/s"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 output_throughput value 10755.59 tokens/s"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 scheduled_request_rate value 39.57 samples/s"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 result_valid value 1.0 bool"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 perf_constraints_met value 1.0 bool"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 ttft_latency_limit value 2.0E9 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 min_duration value 2400000.0 ms"), s.reported.toString());
    assertEquals(1, s.reported.stream().filter(r -> r.contains(" output_throughput ")).count(), "printed twice, kept once");
  }

  /** The same run's :::MLLOG lines (an excerpt): the same names, LoadGen's unrounded values. */
  @Test
  void theSameRunsDetailLog() throws IOException {
    CollectingSink s = read(B200_SERVER + "/mlperf_log_detail.txt", "mlperf-detail");
    assertEquals(List.of(), s.rejects);
    assertEquals(44, s.records);
    assertEquals(20, s.other, "the build, names, seeds, messages, scenario and mode, result_token_throughput");
    assertEquals(39.6, s.levels.get("r")[1]);
    assertTrue(s.reported.contains("r 39.6 ttft p99 3.57223316E8 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 tpot p99.9 1.61987165E8 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 tpot mean 1.31536562E8 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 e2el max 1.50184151471E11 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 request_throughput value 39.2526 samples/s"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 output_throughput value 10755.6 tokens/s"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 output_throughput_with_loadgen_overhead value 10841.6 tokens/s"),
        s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 query_count value 98304.0 queries"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 early_stopping_met value 1.0 bool"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 tpot_latency_limit value 2.0E8 ns"), s.reported.toString());
    assertTrue(s.reported.stream().noneMatch(r -> r.contains("E-9")), "result_token_throughput is no per-second figure");
  }

  /** An Offline run: every sample in one query, so no level; its samples and tokens per second. */
  @Test
  void anOfflineSummaryHasNoLevel() throws IOException {
    CollectingSink s = read("b200-llama2-70b-99-offline/mlperf_log_summary.txt", "mlperf-summary");
    assertEquals(List.of(), s.rejects);
    assertNull(s.levels.get("r")[0]);
    assertTrue(s.reported.contains("r null request_throughput value 41.1075 samples/s"), s.reported.toString());
    assertTrue(s.reported.contains("r null output_throughput value 11264.4 tokens/s"), s.reported.toString());
    assertTrue(s.reported.contains("r null samples_per_query value 100320.0 samples"), s.reported.toString());
    assertTrue(s.reported.contains("r null e2el p99 2.962717005873E12 ns"), s.reported.toString());
    assertTrue(s.reported.stream().noneMatch(r -> r.contains(" ttft ")), "LoadGen prints no TTFT for Offline");
  }

  /** AMD's MI300X run (a vLLM SUT, "PySUT"): TTFT p99 1660.37 ms at target_qps 76. */
  @Test
  void aVllmSutsSummary() throws IOException {
    CollectingSink s = read("mi300x-llama2-70b-99-server/mlperf_log_summary.txt", "mlperf-summary");
    assertEquals(List.of(), s.rejects);
    assertTrue(s.reported.contains("r 76.0 ttft p99 1.660370476E9 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 76.0 output_throughput value 22020.92 tokens/s"), s.reported.toString());
  }

  /**
   * AMD's MI355X llama2-70b-99.9 Interactive run (inference_results_v6.1, a LoadGen of 2026): its
   * summary says "Scenario : Server" and prints the TPOT's min, max and mean as "Time per Output
   * Token" (before: three rejects, "a cut line"); its warning about sample concatenation is text.
   */
  @Test
  void aLoadgenOf2026PrintsTimePerOutputToken() throws IOException {
    CollectingSink s = read("mi355x-llama2-70b-99.9-interactive/mlperf_log_summary.txt", "mlperf-summary");
    assertEquals(List.of(), s.rejects);
    assertEquals(260.0, s.levels.get("r")[1]);
    assertTrue(s.reported.contains("r 260.0 tpot min 913788.0 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 260.0 tpot mean 3.2731002E7 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 260.0 tpot p99 3.6747857E7 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 260.0 ttft p99 4.19720124E8 ns"), s.reported.toString());
    assertTrue(s.reported.contains("r 260.0 tpot_latency_limit value 4.0E7 ns"), s.reported.toString());
  }

  /**
   * An INVALID run (its verdict lines as LoadGen prints a missed latency constraint), a negative,
   * a NaN and a cut figure (the B200 summary edited): each bad line a reject naming its figure,
   * the rest kept; a statistic under an unknown label is an other line.
   */
  @Test
  void invalidRunsAndBadFigures() throws IOException {
    String body = Files.readString(DIR.resolve(B200_SERVER + "/mlperf_log_summary.txt"));
    CollectingSink s = parseSummary(body.replace("Result is : VALID", "Result is : INVALID")
        .replace("Performance constraints satisfied : Yes", "Performance constraints satisfied : NO")
        .replace("Mean First Token latency (ns)               : 208804128", "Mean First Token latency (ns)               : -208804128")
        .replace("99.00 percentile time to output token (ns)   : 151920554", "99.00 percentile time to output token (ns)   : NaN")
        .replace("97.00 percentile latency (ns)   : 93882996647", "97.00 percentile late")
        // a statistic under a label this reader does not know: not read, not a reject
        .replace("Min First Token latency (ns)                : 28333390", "Min Queue latency (ns)   : 28333390"));
    assertEquals(List.of(
            "line 29: a cut line: LoadGen's '97.00 percentile late' does not read whole (<label> : <number>)",
            "line 36: ttft mean out of range: -2.08804128E8 (a latency, count or throughput is not negative)",
            "line 51: tpot p99: NaN is no finite number"),
        s.rejects.stream().map(r -> "line " + r.lineNo() + ": " + r.reason()).toList());
    assertTrue(s.reported.contains("r 39.6 result_valid value 0.0 bool"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 perf_constraints_met value 0.0 bool"), s.reported.toString());
    assertTrue(s.reported.contains("r 39.6 ttft p99 3.57223316E8 ns"), s.reported.toString());
    assertTrue(s.reported.stream().noneMatch(r -> r.contains("ttft mean") || r.contains("tpot p99 ")
        || r.contains("ttft min")), s.reported.toString());
  }

  /** A :::MLLOG line cut mid-JSON, and a number where a string belongs: rejects naming the key. */
  @Test
  void cutAndMistypedDetailLines() throws IOException {
    String body = Files.readString(DIR.resolve(B200_SERVER + "/mlperf_log_detail.txt"));
    String cut = body.replace("{\"key\": \"result_first_token_99.00_percentile_latency_ns\", \"value\": 357223316, \"time_ms\"",
        "{\"key\": \"result_first_token_99.00_percentile_latency_ns\", \"value\": 3572")
        .replace("\"key\": \"result_mean_latency_ns\", \"value\": 35975781094,", "\"key\": \"result_mean_latency_ns\", \"value\": \"fast\",");
    CollectingSink s = Parsing.parse(new MlperfLoadgenFormat(MlperfLoadgenFormat.Kind.DETAIL),
        cut.getBytes(StandardCharsets.UTF_8), "r");
    assertEquals(List.of("LoadGen's result_mean_latency_ns: \"fast\" is no number",
            "a :::MLLOG line that is not one whole JSON object (a cut line?)"),
        s.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertTrue(s.reported.stream().noneMatch(r -> r.contains("ttft p99 ") || r.contains("e2el mean")), s.reported.toString());
  }

  /**
   * The summary LoadGen copies to a harness's console after a server's log lines: the server's
   * log format, surer of its lines, keeps the file (a vLLM 0.11 log line before the block, made up
   * in the shape of sample-logs/vllm); alone at a file's start it is LoadGen's, at 95.
   */
  @Test
  void aSummaryAfterAServersLinesIsNotClaimedOverThem() throws IOException {
    String summary = Files.readString(DIR.resolve(B200_SERVER + "/mlperf_log_summary.txt"));
    assertEquals(95, new MlperfLoadgenFormat(MlperfLoadgenFormat.Kind.SUMMARY)
        .sniff(new Sample("x.txt", summary.getBytes(StandardCharsets.UTF_8), summary.length())));
    String log = "INFO 08-12 10:00:00 [api_server.py:1880] vLLM API server version 0.11.0\n" + summary;
    byte[] b = log.getBytes(StandardCharsets.UTF_8);
    assertEquals(55, new MlperfLoadgenFormat(MlperfLoadgenFormat.Kind.SUMMARY).sniff(new Sample("run.log", b, b.length)));
    assertEquals("vllm-log", FormatRegistry.standard().sniff(new Sample("run.log", b, b.length)).id());
  }

  /** MLPerf Training's :::MLLOG lines are another tool's: not claimed as LoadGen's. */
  @Test
  void trainingLogsAreNotLoadgens() {
    String training = ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1593990655127, \"event_type\": \"POINT_IN_TIME\","
        + " \"key\": \"submission_benchmark\", \"value\": \"bert\", \"metadata\": {\"file\": \"run.py\", \"lineno\": 40}}\n";
    byte[] b = training.getBytes(StandardCharsets.UTF_8);
    var f = FormatRegistry.standard().sniff(new Sample("result_0.txt", b, b.length));
    assertTrue(f == null || !f.id().startsWith("mlperf"), String.valueOf(f == null ? null : f.id()));
  }

  @TempDir
  Path tmp;

  /**
   * A target of more digits than the summary prints (22.2082812 in the detail log, 22.2083 in the
   * summary; the B200 run's two files edited so): one run at one level, no file refused for a
   * "conflicting" level. Before, the second file's figures were all rejects.
   */
  @Test
  void aTargetQpsPrintedToSixDigitsIsTheDetailsLevel() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path run = tmp.resolve("sweep/run_1");
      Files.createDirectories(run);
      Files.writeString(run.resolve("mlperf_log_summary.txt"), Files.readString(DIR.resolve(B200_SERVER)
          .resolve("mlperf_log_summary.txt")).replace("target_qps : 39.6", "target_qps : 22.2083"));
      Files.writeString(run.resolve("mlperf_log_detail.txt"), Files.readString(DIR.resolve(B200_SERVER)
          .resolve("mlperf_log_detail.txt")).replace("\"effective_target_qps\", \"value\": 39.6,",
              "\"effective_target_qps\", \"value\": 22.2082812,"));
      IngestResult r = t.ingest(IngestOptions.of(List.of(run.toString())));
      assertEquals(List.of(0L, 0L), r.files().stream().map(IngestResult.FileResult::rejected).toList());
      assertEquals(List.of(List.of("request_rate", 22.2083)), t.rows("SELECT level_kind, level FROM runs"));
    }
  }

  /**
   * The run folder's other LoadGen files (its accuracy log: token ids per sample; its trace) are
   * skipped, saying what they are: before, "format not recognised" with their first line.
   */
  @Test
  void theAccuracyLogAndTraceAreSkippedSayingWhatTheyAre() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path run = tmp.resolve("Server/performance/run_1");
      Files.createDirectories(run);
      Files.copy(DIR.resolve(B200_SERVER).resolve("mlperf_log_summary.txt"), run.resolve("mlperf_log_summary.txt"));
      // LoadGen's shapes (loadgen/logging.cc): one object per sample with its output as hex bytes
      Files.writeString(run.resolve("mlperf_log_accuracy.json"),
          "[\n{\"seq_id\" : 0, \"qsl_idx\" : 1234, \"data\" : \"0A000000\", \"token_count\" : 1}\n]\n");
      Files.writeString(run.resolve("mlperf_log_trace.json"), "");
      IngestResult r = t.ingest(IngestOptions.of(List.of(run.toString())));
      assertEquals(1, r.files().size());
      List<String> why = r.skipped().stream().map(IngestResult.Skipped::reason).sorted().toList();
      assertEquals(2, why.size(), why.toString());
      assertTrue(why.get(0).contains("MLPerf LoadGen's accuracy log") || why.get(1).contains("MLPerf LoadGen's accuracy log"),
          why.toString());
    }
  }

  /**
   * The run folder as submitted (summary and detail side by side): one run, its level, and
   * peer_comparison's row of LoadGen's TTFT p99 in ms (the detail's figure before the rounded summary's).
   */
  @Test
  void bothFilesOfARunInOneDatabase() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path run = tmp.resolve("llama2-70b-99.9/Server/performance/run_1");
      Files.createDirectories(run);
      for (String f : List.of("mlperf_log_summary.txt", "mlperf_log_detail.txt")) {
        Files.copy(DIR.resolve(B200_SERVER).resolve(f), run.resolve(f));
      }
      IngestResult r = t.ingest(IngestOptions.of(List.of(run.toString())));
      // the ingest's accounting of each file, as the parser tests count it
      assertEquals(java.util.Set.of(List.of("mlperf-detail", 64L, 44L, 20L, 0L), List.of("mlperf-summary", 80L, 41L, 39L, 0L)),
          r.files().stream().map(f -> List.<Object>of(f.format(), f.lines(), f.records(), f.otherLines(), f.rejected()))
              .collect(java.util.stream.Collectors.toSet()));
      assertEquals(List.of(List.of("request_rate", 39.6)), t.rows("SELECT level_kind, level FROM runs"));
      assertEquals(List.of(List.of("mlperf", "ttft p99", 357.223316)), t.rows(
          "SELECT convention, tool_metric, round(reported_value, 6) FROM peer_comparison"
              + " WHERE metric = 'ttft_ms' AND stat = 'p99'"));
      assertEquals(List.of(List.of(39.2526)), t.rows(
          "SELECT reported_value FROM peer_comparison WHERE metric = 'requests_per_s'"));
    }
  }
}
