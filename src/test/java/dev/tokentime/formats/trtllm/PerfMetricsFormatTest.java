package dev.tokentime.formats.trtllm;

import dev.tokentime.testing.RecordingSink;
import static dev.tokentime.ingest.RequestRecord.NONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.RequestRecord;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** trtllm-perf-metrics on strings: every shape, the documented samples, bad input and accounting. */
class PerfMetricsFormatTest {
  final PerfMetricsFormat format = new PerfMetricsFormat();

  static String record(int id, double t0) {
    return "{\"request_id\":" + id + ",\"perf_metrics\":{\"first_iter\":" + (10 + id) + ",\"last_iter\":"
        + (20 + id) + ",\"timing_metrics\":{\"server_arrival_time\":" + t0 + ",\"arrival_time\":"
        + (t0 + 0.001) + ",\"first_scheduled_time\":" + (t0 + 0.004) + ",\"first_token_time\":"
        + (t0 + 0.104) + ",\"server_first_token_time\":" + (t0 + 0.105) + ",\"last_token_time\":"
        + (t0 + 0.504) + "},\"kv_cache_metrics\":{\"num_total_allocated_blocks\":3,"
        + "\"num_new_allocated_blocks\":3,\"num_reused_blocks\":0,\"num_missed_blocks\":0}}}";
  }

  @Test
  void aggregatedRecordIsARequestOnTheServersSteadyClock() throws IOException {
    // PM-ILL-1, the time_breakdown README's "Aggregated Format" (seconds)
    RecordingSink s = Samples.parse(format, Samples.split("request_perf_metrics_illustrative_docs.txt").get("PM-ILL-1"));
    assertEquals(1, s.c.records);
    assertEquals(0, s.c.other, "a pretty-printed document counts its objects, not its lines");
    RequestRecord r = s.request("0");
    assertEquals(1_002_000_000L, r.arrivalNs, "TTFT counts from the executor's arrival_time");
    assertEquals(1_002_000_000L, r.queuedNs, "the executor queues it as it arrives");
    assertEquals(1_005_000_000L, r.scheduledNs);
    assertEquals(1_025_000_000L, r.firstTokenNs);
    assertEquals(NONE, r.lastTokenNs, "not in this example");
    assertEquals("1000000000", r.extras.get("server_arrival_ns"), "HTTP arrival: pre-queue starts here");
    assertEquals("1027000000", r.extras.get("server_first_token_ns"), "post-processing ends here");
    assertEquals("steady", s.c.clocks.get(r.clockId - 1).kind());
    assertEquals(1_000L, s.c.clocks.get(r.clockId - 1).resolutionNs(), "timedelta seconds: microseconds");
    assertEquals("trtllm", r.engine);
    assertEquals("ok", r.status);
  }

  @Test
  void disaggregatedRecordTakesPrefillFromTheContextServerAndDecodeFromTheGenerationServer() throws IOException {
    RecordingSink s = Samples.parse(format, Samples.split("request_perf_metrics_illustrative_docs.txt").get("PM-ILL-2"));
    assertEquals(1, s.c.records);
    RequestRecord r = s.request("3");
    assertEquals(2_003_000_000L, r.arrivalNs);
    assertEquals(2_008_000_000L, r.scheduledNs);
    assertEquals(2_035_000_000L, r.firstTokenNs);
    Map<String, String> x = r.extras;
    assertEquals("2000000000", x.get("ctx.server_arrival_ns"));
    assertEquals("2038000000", x.get("ctx.server_first_token_ns"));
    assertEquals("2050000000", x.get("gen.server_arrival_ns"));
    assertEquals("2052000000", x.get("gen.arrival_ns"));
    assertEquals("2055000000", x.get("gen.first_scheduled_ns"));
    assertEquals("2080000000", x.get("gen.first_token_ns"));
    assertEquals("1995000000", x.get("disagg.server_arrival_ns"));
    assertEquals("2090000000", x.get("disagg.server_first_token_ns"));
    assertTrue(s.c.clocks.get(r.clockId - 1).scope().contains("/steady_clock_offset"));
  }

  @Test
  void bareRequestPerfMetricsKeepsKvCacheAndSpeculativeDecodingAsExtras() throws IOException {
    RecordingSink s = Samples.parse(format, Samples.split("request_perf_metrics_illustrative_docs.txt").get("PM-ILL-3"));
    RequestRecord r = s.request("#0");
    assertEquals(1_234_567_890_123_000_000L, r.arrivalNs, "seconds read as decimals: no binary rounding");
    assertEquals(1_234_567_890_135_000_000L, r.scheduledNs);
    assertEquals(1_234_567_890_150_000_000L, r.firstTokenNs);
    assertEquals(1_234_567_890_300_000_000L, r.lastTokenNs);
    assertEquals("1234567890140000000", r.extras.get("kv_cache_transfer_start_ns"));
    assertEquals("1234567890145000000", r.extras.get("kv_cache_transfer_end_ns"));
    assertEquals("2048576", r.extras.get("kv_cache_size"));
    assertEquals("90", r.extras.get("kv_cache.num_reused_blocks"));
    assertEquals("0.85", r.extras.get("spec_decoding.acceptance_rate"));
    assertEquals("50", r.extras.get("spec_decoding.total_draft_tokens"));
  }

  @Test
  void tritonLlmApiOutputsAreNanosecondsWrittenAsStrings() throws IOException {
    // the only real per-request capture: tensorrtllm_backend docs/llmapi.md
    RecordingSink s = Samples.parse(format, Samples.read("request_perf_metrics_triton_llmapi.json"));
    assertEquals(1, s.c.records);
    assertEquals(0, s.c.other, "one object: one record, whatever its lines");
    RequestRecord r = s.request("#0");
    assertEquals(76_735_247_746_000L, r.arrivalNs);
    assertEquals(76_735_248_284_000L, r.scheduledNs, "0.538 ms after arrival");
    assertEquals(76_735_374_300_000L, r.firstTokenNs, "126.554 ms after arrival");
    assertEquals(76_736_545_324_000L, r.lastTokenNs, "1297.578 ms after arrival");
    assertEquals("tensorrt_llm", r.extras.get("model_name"));
    assertEquals("0.0", r.extras.get("kv_cache_hit_rate"));
    assertFalse(r.extras.containsKey("text_output"), "output text is not kept without --keep-text");
    assertEquals("triton-trtllm", r.engine);
    assertTrue(s.c.clocks.get(r.clockId - 1).scope().startsWith("Triton TensorRT-LLM backend"));
  }

  @Test
  void pollsAppendedAsArraysJsonLinesAndAPastedTrailingCommaAreAllRecords() throws IOException {
    String text = "[" + record(0, 100.0) + "," + record(1, 100.5) + "]\n"
        + "[]\n"
        + "[" + record(2, 101.0) + "]\n"
        + record(3, 102.0) + ",\n"
        + "\n";
    RecordingSink s = Samples.parse(format, text);
    assertEquals(4, s.c.records);
    assertEquals(2, s.c.other, "the empty poll and the blank line");
    RequestRecord r = s.request("1");
    assertEquals(100_501_000_000L, r.arrivalNs);
    assertEquals(100_504_000_000L, r.scheduledNs);
    assertEquals(100_604_000_000L, r.firstTokenNs);
    assertEquals(101_004_000_000L, r.lastTokenNs);
    assertEquals(11L, r.firstIter);
    assertEquals(21L, r.lastIter);
    assertEquals("3", r.extras.get("kv_cache.num_total_allocated_blocks"));
    assertEquals(1, s.c.clocks.size(), "one server, one steady clock");
  }

  @Test
  void stepMetricsGiveOneTokenPerGenerationStep() throws IOException {
    String text = "{\"request_id\":7,\"perf_metrics\":{\"first_iter\":3,\"last_iter\":6,\"timing_metrics\":"
        + "{\"arrival_time\":10.0,\"first_scheduled_time\":10.002,\"first_token_time\":10.05,\"last_token_time\":10.08}},"
        + "\"time_breakdown_metrics\":{\"ctx_chunk_metrics\":[{\"forward_start_time\":10.002}],"
        + "\"ctx_gpu_forward_time\":0.04,\"step_metrics\":["
        + "{\"iter\":3,\"token_time\":10.05},{\"iter\":4,\"token_time\":10.06},"
        + "{\"iter\":5,\"prev_batch_token_time\":10.07},{\"iter\":6,\"token_time\":10.08}]}}\n";
    RecordingSink s = Samples.parse(format, text);
    RequestRecord r = s.request("7");
    assertEquals(List.of(10_050_000_000L, 10_060_000_000L, 10_070_000_000L, 10_080_000_000L),
        s.tokenTimes(1), "the first step is the first token; prev_batch_token_time stands in");
    assertEquals(4, s.tokens.stream().filter(t -> t[3] == 1).count(), "one token per step without drafts");
    assertEquals(List.of(1L), s.ended);
    assertEquals("1", r.extras.get("ctx_chunks"));
    assertEquals("4", r.extras.get("steps"));
  }

  @Test
  void badRecordsAreRejectedWithTheirLineAndReason() throws IOException {
    String wrongType = record(1, 5.0).replace("\"arrival_time\":5.001", "\"arrival_time\":\"soon\"");
    String decreasing = record(2, 6.0).replace("\"first_token_time\":6.104", "\"first_token_time\":6.002");
    String text = record(0, 4.0) + "\n"
        + wrongType + "\n"
        + decreasing + "\n"
        + record(0, 7.0) + "\n"
        + "{\"request_id\":9,\"perf_metrics\":{\"timing_metrics\":{\"arrival_time\":1.0\n"
        + "42\n"
        + "{\"request_id\":10,\"something\":1}\n"
        + "{\"request_id\":11,\"perf_metrics\":{\"first_iter\":\"x\",\"timing_metrics\":{}}}\n"
        + record(4, 8.0) + "\n";
    RecordingSink s = Samples.parse(format, text);
    assertEquals(2, s.c.records, s.c.rejects.toString());
    List<String> reasons = s.c.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList();
    assertEquals(7, reasons.size(), reasons.toString());
    assertTrue(reasons.get(0).startsWith("2: perf_metrics.timing_metrics.arrival_time: expected a number"), reasons.get(0));
    assertTrue(reasons.get(1).startsWith("3: timestamps decrease: perf_metrics.timing_metrics.first_token_time is before"), reasons.get(1));
    assertTrue(reasons.get(2).startsWith("4: duplicate"), reasons.get(2));
    assertTrue(reasons.get(3).startsWith("5: truncated JSON"), reasons.get(3));
    assertTrue(reasons.get(4).startsWith("6: expected a perf-metrics object, got a number"), reasons.get(4));
    assertTrue(reasons.get(5).startsWith("7: not a perf-metrics record"), reasons.get(5));
    assertTrue(reasons.get(6).startsWith("8: perf_metrics.first_iter: expected a number"), reasons.get(6));
  }

  @Test
  void invalidUtf8RejectsItsLineOnly() throws IOException {
    String text = record(0, 1.0) + "\n" + record(1, 2.0).replace("\"request_id\":1", "\"request_id\":\"@@\"") + "\n"
        + record(2, 3.0) + "\n";
    RecordingSink s = Samples.parse(format, Samples.withInvalidUtf8(text), null);
    assertEquals(2, s.c.records);
    assertEquals(1, s.c.rejects.size());
    assertEquals(2, s.c.rejects.get(0).lineNo());
    assertTrue(s.c.rejects.get(0).reason().startsWith("invalid UTF-8"), s.c.rejects.get(0).reason());
  }

  @Test
  void aTruncatedPrettyDocumentKeepsWhatCameBefore() throws IOException {
    String text = "[\n  " + record(0, 1.0) + ",\n  " + record(1, 2.0).substring(0, 80);
    RecordingSink s = Samples.parse(format, text);
    assertEquals(1, s.c.records);
    assertEquals(1, s.c.rejects.size());
    assertEquals(3, s.c.rejects.get(0).lineNo());
    assertTrue(s.c.rejects.get(0).reason().contains("nothing after this point could be read"));
  }

  @Test
  void statusWordsOfNewerDumpsMapToTheCanonicalStatus() throws IOException {
    String text = record(0, 1.0).replace("{\"request_id\":0,", "{\"request_id\":0,\"status\":\"error: oom\",") + "\n"
        + record(1, 2.0).replace("{\"request_id\":1,", "{\"request_id\":1,\"status\":\"cancelled\",") + "\n";
    RecordingSink s = Samples.parse(format, text);
    assertEquals("error", s.request("0").status);
    assertEquals("error: oom", s.request("0").error);
    assertEquals("cancelled", s.request("1").status);
    assertNull(s.request("1").error);
  }

  @Test
  void aPollTooBigToHoldAsALineIsStreamed() throws IOException {
    StringBuilder poll = new StringBuilder("[");
    int n = 3000; // about 1.4 MB on one line
    for (int i = 0; i < n; i++) {
      poll.append(i == 0 ? "" : ",").append(record(i, 100.0 + i));
    }
    poll.append("]\n");
    assertTrue(poll.length() > 1 << 20);
    RecordingSink s = Samples.parse(format, poll.toString());
    assertEquals(n, s.c.records);
    assertEquals(100_000_000_000L + 1_000_000L, s.request("0").arrivalNs);
  }
}
