package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.CollectingSink;
import dev.tokentime.testing.RecordingSink;
import dev.tokentime.testing.TestDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kubernetes-sigs/inference-perf's reports (real-logs/tools/inference-perf-*, PROVENANCE.md
 * there): a complete report set of the tool's own test corpus, whose summary the tool computed
 * from its per-request file, and a real run's stage report.
 */
class InferencePerfFormatTest {
  static final Path TWO_STAGE = ToolOutputsTest.DIR.resolve("inference-perf-0.5-two-stage-pr705");
  static final Path KUBECON = ToolOutputsTest.DIR.resolve("inference-perf-kubecon-2025-stage0");

  @TempDir
  Path tmp;

  /**
   * The stage report of 0.5 on holds more than the latencies, throughputs and lengths: the failed
   * requests' latency and prompt lengths and their count per error label, the prompt tokens'
   * cached split, request sizes, multi-modal payloads, token-count mismatches. They were dropped
   * without a word; now each is a reported_metrics row under the report's name, and the error
   * labels say what a stage's failed requests failed with (tool_run_counts).
   */
  @Test
  void everyFigureOfTheStageReportIsKept() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(TWO_STAGE.resolve("stage_0_lifecycle_metrics.json").toString())));
      assertEquals(List.of(
              List.of("error_count", "500 - Internal Server Error", 1.0, "requests"),
              List.of("failed_prompt_len", "mean", 100.0, "tokens"),
              List.of("failed_request_latency", "mean", 0.5, "s"),
              List.of("image_count", "mean", 0.0, "count"),
              List.of("prompt_tokens", "cached", 0.0, "tokens"),
              List.of("prompt_tokens", "uncached", 310.0, "tokens"),
              List.of("request_size_bytes", "mean", 2.0, "bytes"),
              List.of("token_count_mismatches", "value", 0.0, "requests")),
          t.rows("SELECT metric, stat, value, unit FROM reported_metrics WHERE metric IN ('error_count',"
              + " 'failed_prompt_len', 'failed_request_latency', 'image_count', 'request_size_bytes',"
              + " 'token_count_mismatches') AND stat IN ('mean', 'value', '500 - Internal Server Error')"
              + " OR metric = 'prompt_tokens' AND stat IN ('cached', 'uncached') ORDER BY metric, stat"));
      assertEquals(List.of(List.of(3L, 1L, "500 - Internal Server Error: 1")),
          t.rows("SELECT tool_ok_requests, tool_failed_requests, tool_errors FROM tool_run_counts"));
    }
    byte[] mm = Files.readAllBytes(Path.of("src/test/resources/constructed/inference-perf-multimodal/stage_0_lifecycle_metrics.json"));
    CollectingSink s = Parsing.parse(new InferencePerfFormat(), mm, "mm");
    assertEquals(List.of(), s.rejects);
    for (String want : new String[] {"image_pixels mean 2481962.6666666665 pixels", "image_aspect_ratio p99 ",
        "video_frames max 64.0 frames", "audio_seconds mean 20.0 s", "audio_bytes min 60000.0 bytes",
        "request_size_bytes p99.9 1796760.0000000005 bytes", "prompt_tokens total 601.0 tokens"}) {
      assertTrue(s.reported.stream().anyMatch(r -> r.contains(" " + want)), want + " in " + s.reported);
    }
  }

  @Test
  void theToolsOwnSummaryIsRecomputedFromItsPerRequestFile() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      // both files as one run: the summary's figures beside inference_perf_metrics
      t.ingest(new IngestOptions(List.of(TWO_STAGE.resolve("per_request_lifecycle_metrics.json").toString(),
          TWO_STAGE.resolve("summary_lifecycle_metrics.json").toString()), null, "two", false, false, false, null, null));
      List<List<Object>> rows = t.rows("SELECT m.metric, m.stat, m.value, c.value FROM reported_metrics AS m"
          + " JOIN inference_perf_metrics AS c USING (run, metric, stat) ORDER BY ALL");
      // 5 latency metrics x (mean, min, max, median, p90) + 4 throughputs
      assertEquals(29, rows.size(), rows.toString());
      for (List<Object> r : rows) {
        double want = ((Number) r.get(2)).doubleValue();
        double got = ((Number) r.get(3)).doubleValue();
        assertTrue(Math.abs(want - got) <= 1e-9 * Math.max(1, Math.abs(want)), r.toString());
      }
      // ITL is pooled over every token time: 39 gaps of 5 requests; the failed request counts
      // only in the time the throughputs divide by (12 s)
      assertEquals(List.of(List.of(0.41666666666666667)), t.rows("SELECT value FROM inference_perf_metrics"
          + " WHERE metric = 'requests_per_sec'"));
      assertEquals(List.of(List.of("error", 500, "HTTP Error 500: boom")),
          t.rows("SELECT status, http_status, error FROM requests WHERE status <> 'ok'"));
    }
  }

  @Test
  void aReportFolderIsItsStagesAndItsRequests() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      var result = t.ingest(IngestOptions.of(List.of(TWO_STAGE.toString(), KUBECON.toString())));
      // the summaries restate the stages beside them: left out
      assertEquals(2, result.skipped().size(), result.skipped().toString());
      // a stage is the folder's run and its stage; the requests of every stage the folder's run
      assertEquals(List.of(
          Arrays.asList("inference-perf-0.5-two-stage-pr705", null, null, 6L),
          Arrays.asList("inference-perf-0.5-two-stage-pr705/stage_0", "request_rate", 1.0, 0L),
          Arrays.asList("inference-perf-0.5-two-stage-pr705/stage_1", "request_rate", 1.0, 0L),
          Arrays.asList("inference-perf-kubecon-2025-stage0/stage_0", "request_rate", 1.0, 0L)),
          t.rows("SELECT u.run, u.level_kind, u.level, (SELECT count(*) FROM requests AS r WHERE r.run = u.run)"
              + " FROM runs AS u ORDER BY u.run"));
      // the real run's own figures, in seconds as the tool wrote them
      assertEquals(List.of(List.of(0.48048226445680486, "s"), List.of(1.0254654214024423, "requests/s")),
          t.rows("SELECT value, unit FROM reported_metrics WHERE run LIKE 'inference-perf-kubecon%'"
              + " AND ((metric = 'request_latency' AND stat = 'mean') OR metric = 'achieved_rate') ORDER BY metric DESC"));
      assertEquals(0L, t.count("SELECT count(*) FROM rejects"));
    }
  }

  @Test
  void recordLayoutsOfEveryVersion() throws Exception {
    // 0.2–0.4: info flat, output_token_times one per token (a chunk's tokens share its time);
    // 0.1: no info; 0.6: chunk_times in response_metrics; an error that is no HTTP status
    String text = """
        [{"start_time": 100.0, "end_time": 101.0, "request": "{}", "response": "", "error": null,
          "info": {"input_tokens": 10, "output_tokens": 5, "output_token_times": [100.25, 100.25, 100.5, 100.75, 100.75]}},
         {"start_time": 102.0, "end_time": 102.5, "request": "{}", "response": "", "error": null},
         {"start_time": 103.0, "end_time": 104.0, "request": "{}", "response": "", "error": null,
          "info": {"request_metrics": {"text": {"input_tokens": 7}}, "response_metrics": {"output_tokens": 3,
            "chunk_times": [103.5, 103.75], "output_token_times": [103.5, 103.5, 103.75]}}},
         {"start_time": 104.0, "end_time": 104.5, "request": "{}", "response": "", "error": null,
          "info": {"request_metrics": {"text": {"input_tokens": 7}}, "response_metrics": {"output_tokens": 2,
            "chunk_times": [104.25, 104.375], "output_token_times": [104.25, 104.375]}}},
         {"start_time": 105.0, "end_time": 106.0, "request": "{}", "response": "",
          "error": {"error_type": "ClientPayloadError", "error_msg": "Response payload is not completed"}, "info": null}]
        """;
    RecordingSink s = parse(text);
    assertEquals(5, s.c.records);
    // the first request's five token times are three chunks of 2, 1 and 2 tokens
    assertEquals(List.of(List.of(100_250_000_000L, 2L), List.of(100_500_000_000L, 1L), List.of(100_750_000_000L, 2L)),
        s.tokens.subList(0, 3).stream().map(x -> List.of(x[2], x[3])).toList());
    // 0.6 with a tokenizer: its per-token times give chunk_times' chunks their sizes
    assertEquals(List.of(List.of(103_500_000_000L, 2L), List.of(103_750_000_000L, 1L)),
        s.tokens.subList(3, 5).stream().map(x -> List.of(x[2], x[3])).toList());
    // without one (a time per chunk in both lists): chunks of unknown size
    assertEquals(List.of(List.of(104_250_000_000L, -1L), List.of(104_375_000_000L, -1L)),
        s.tokens.subList(5, 7).stream().map(x -> List.of(x[2], x[3])).toList());
    assertEquals(List.of(10, 7), List.of(s.request("0").promptTokens, s.request("2").promptTokens));
    assertEquals("ClientPayloadError: Response payload is not completed", s.request("4").error);
    assertEquals(null, s.request("4").httpStatus);
    // numbers that are not times, a file cut short
    s = parse("""
        [{"start_time": -1.0, "end_time": 2.0, "request": "{}", "response": "", "error": null},
         {"start_time": 1.0, "end_time": 2.0, "request": "{}", "response": "", "error": null,
          "info": {"output_tokens": 2, "output_token_times": [1.5, 1.25]}},
         {"start_time": 1.0, "end_time": 2.0, "request": "{}", "response": "", "err""");
    assertEquals(List.of("[0]: start_time: -1.0 is not a time in seconds", "[1]: chunk times go backwards: 1.25"),
        s.c.rejects.subList(0, 2).stream().map(CollectingSink.Rej::reason).toList());
    assertTrue(s.c.rejects.get(2).reason().contains("nothing after this point could be read"), s.c.rejects.toString());
  }

  @Test
  void inferencePerfsItlCountsTheZerosInsideAChunk() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("ip/per_request_lifecycle_metrics.json", """
          [{"start_time": 100.0, "end_time": 101.0, "request": "{}", "response": "", "error": null,
            "info": {"input_tokens": 10, "output_tokens": 5, "output_token_times": [100.25, 100.25, 100.5, 100.75, 100.75]}}]
          """));
      // gaps of the five token times: 0, 0.25, 0.25, 0 (mean 0.125); TTFT 0.25; TPOT 0.5/4; NTPOT 1/5
      assertEquals(List.of(List.of("inter_token_latency", 0.125), List.of("normalized_time_per_output_token", 0.2),
          List.of("time_per_output_token", 0.125), List.of("time_to_first_token", 0.25)),
          t.rows("SELECT metric, round(value, 9) FROM inference_perf_metrics WHERE stat = 'mean'"
              + " AND metric <> 'request_latency' ORDER BY metric"));
      assertNotNull(t.value("SELECT count(*) FROM token_gaps"));
    }
  }

  /**
   * The reviewed faults: the server-side Prometheus summaries are no client report, a first
   * prompt longer than the head still tells the per-request file, a stage keeps its prefix
   * (an adapter's stage is not the run's), and a summary is left out only beside its own stages.
   */
  @Test
  void reportFilesByTheirNames() throws Exception {
    String stage = Files.readString(TWO_STAGE.resolve("stage_0_lifecycle_metrics.json"));
    String longPrompt = "[{\"start_time\": 1.0, \"end_time\": 2.0, \"request\": \"" + "x".repeat(100_000)
        + "\", \"response\": \"\", \"info\": {\"input_tokens\": 3, \"output_tokens\": 1,"
        + " \"output_token_times\": [1.5]}, \"error\": null}]";
    try (TestDb t = new TestDb(tmp)) {
      var result = t.ingest(IngestOptions.of(List.of(
          t.write("r/summary_prometheus_metrics.json", "{\"load_summary\": {}, \"successes\": {\"count\": 1200}, \"failures\": {}}").toString(),
          t.write("r/adapter_a_stage_0_lifecycle_metrics.json", stage).toString(),
          t.write("r/summary_lifecycle_metrics.json", Files.readString(TWO_STAGE.resolve("summary_lifecycle_metrics.json"))).toString(),
          t.write("long/per_request_lifecycle_metrics.json", longPrompt).toString())));
      assertEquals(1, result.skipped().size(), result.skipped().toString());
      assertTrue(result.skipped().get(0).toString().contains("Prometheus"), result.skipped().toString());
      assertEquals(List.of(List.of("long"), List.of("r"), List.of("r/adapter_a_stage_0")),
          t.rows("SELECT run FROM runs ORDER BY run"));
    }
  }

  private static RecordingSink parse(String text) throws Exception {
    RecordingSink s = new RecordingSink();
    long units = new InferencePerfFormat().parse(new java.io.ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
        ToolOutputsTest.ctx("x/per_request_lifecycle_metrics.json"), s);
    assertEquals(units, s.c.records + s.c.other + s.c.rejects.size(), "every unit accounted");
    return s;
  }
}
