package dev.tokentime.formats.trtllm;

import dev.tokentime.testing.RecordingSink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.StepRecord;
import java.io.IOException;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** trtllm-iter-stats on strings: each shape and version, epochs and ranks, bad input, accounting. */
class IterStatsFormatTest {
  final IterStatsFormat format = new IterStatsFormat();

  static String executor(int iter, int ctx, int gen, String ts) {
    return "{\"cpuMemUsage\":0,\"gpuMemUsage\":100,\"inflightBatchingStats\":{\"avgNumDecodedTokensPerIter\":1.0,"
        + "\"microBatchId\":0,\"numContextRequests\":" + ctx + ",\"numCtxTokens\":" + (ctx * 100)
        + ",\"numGenRequests\":" + gen + ",\"numPausedRequests\":0,\"numScheduledRequests\":" + (ctx + gen)
        + "},\"iter\":" + iter + ",\"iterLatencyMS\":10.5,\"kvCacheStats\":{\"maxNumBlocks\":100,"
        + "\"usedNumBlocks\":" + (ctx + gen) * 10 + ",\"freeNumBlocks\":" + (100 - (ctx + gen) * 10)
        + ",\"tokensPerBlock\":32},\"numActiveRequests\":" + (ctx + gen) + ",\"numQueuedRequests\":2,"
        + "\"timestamp\":\"" + ts + "\"}";
  }

  @Test
  void executorJsonLinesAreStepsOnTheHostsLocalClock() throws IOException {
    // the two complete records of issues #3376 (iter 0) and #6364 (iter 60)
    RecordingSink s = Samples.parse(format, Samples.read("iteration_stats_executor_complete.jsonl"));
    assertEquals(2, s.c.records);
    StepRecord a = s.steps.get(0);
    assertEquals(0L, a.iter);
    assertEquals(1_744_057_997_747_028_000L, a.tsNs, "04-07-2025 20:33:17.747028, UTC assumed");
    assertEquals(0.0, a.durationMs);
    assertEquals(1, a.running);
    assertEquals(7, a.waiting);
    assertEquals(1, a.ctxRequests);
    assertEquals(16000, a.ctxTokens);
    assertEquals(0, a.genRequests);
    assertEquals(0, a.paused);
    assertEquals(5495.0 / 7240, a.kvUsage, 1e-12);
    assertEquals(1.0, a.extras.get("scheduled_requests"));
    assertEquals(5495.0, a.extras.get("kv_blocks_used"));
    assertEquals(25330607135.0, a.extras.get("gpu_mem_bytes"));
    assertEquals(0.091039, a.extras.get("new_requests_queue_latency_ms"));
    assertEquals(0.0, a.extras.get("inflightBatchingStats.avgNumDecodedTokensPerIter"));
    StepRecord b = s.steps.get(1);
    assertEquals(60L, b.iter);
    assertEquals(1_753_462_474_140_189_000L, b.tsNs);
    assertEquals(13.021209, b.durationMs);
    assertEquals(1, b.genRequests);
    assertEquals(0, b.epoch);
    ClockSpec clock = s.c.clocks.get(a.clockId - 1);
    assertEquals("wall", clock.kind());
    assertEquals(1_000L, clock.resolutionNs());
    assertEquals("UTC", clock.tz());
    assertTrue(clock.tzAssumed());
  }

  @Test
  void theZoneGivenWithTzIsUsedAndNotAssumed() throws IOException {
    RecordingSink s = Samples.parse(format, Samples.read("iteration_stats_executor_complete.jsonl")
        .getBytes(java.nio.charset.StandardCharsets.UTF_8), ZoneId.of("America/Los_Angeles"));
    assertEquals(1_744_057_997_747_028_000L + 7 * 3_600_000_000_000L, s.steps.get(0).tsNs, "PDT is UTC-7");
    assertEquals(false, s.c.clocks.get(0).tzAssumed());
  }

  @Test
  void theIssuesPastedSamples() throws IOException {
    Map<String, String> it = Samples.split("iteration_stats_executor_json.txt");
    RecordingSink s1 = Samples.parse(format, it.get("IT-1"));
    assertEquals(1, s1.c.records, "iter 0 is complete");
    assertEquals(1, s1.c.rejects.size(), "iter 1 is cut off");
    assertTrue(s1.c.rejects.get(0).reason().endsWith("nothing after this point could be read"),
        s1.c.rejects.toString());
    RecordingSink s2 = Samples.parse(format, it.get("IT-2"));
    assertEquals(1, s2.c.records, "pasted with its trailing comma");
    assertEquals(60L, s2.steps.get(0).iter);
    RecordingSink s3 = Samples.parse(format, it.get("IT-3"));
    assertEquals(0, s3.c.records);
    assertEquals(1, s3.c.rejects.size(), "PyTorch iter 587, cut off");
    for (String doc : new String[] {"IT-4", "IT-5"}) {
      RecordingSink d = Samples.parse(format, it.get(doc));
      assertEquals(0, d.c.records, doc);
      assertEquals(1, d.c.rejects.size(), doc + ": the documentation elides with ..., which is not JSON");
      assertTrue(d.c.rejects.get(0).reason().startsWith("not valid JSON"), d.c.rejects.toString());
    }
  }

  @Test
  void aPrettyPrintedMetricsPollAndConcatenatedPollsCountTheirObjects() throws IOException {
    String pretty = "[\n  " + executor(1, 1, 0, "01-02-2025 03:04:05.000001").replace(",\"", ",\n    \"")
        + ",\n  " + executor(2, 0, 1, "01-02-2025 03:04:05.010001") + "\n]\n"
        + "[" + executor(4, 0, 2, "01-02-2025 03:04:05.030001") + "]\n";
    RecordingSink s = Samples.parse(format, pretty);
    assertEquals(3, s.c.records);
    assertEquals(0, s.c.other);
    assertEquals(List.of(1L, 2L, 4L), s.steps.stream().map(x -> x.iter).toList());
  }

  /**
   * JSON lines whose first record was cut off (a tail of a poller's file; the cut-lines review):
   * the file was read as one document and its syntax error ended it at line 1, every later record
   * lost. The cut line is a reject and the rest are read; a pretty-printed document still streams.
   */
  @Test
  void aCutFirstLineOfJsonLinesCostsOnlyItself() throws IOException {
    String first = executor(1, 1, 0, "01-02-2025 03:04:05.000001");
    String text = first.substring(0, first.length() / 2) + "\n" + executor(2, 0, 1, "01-02-2025 03:04:05.010001") + "\n"
        + executor(3, 0, 1, "01-02-2025 03:04:05.020001") + "\n";
    RecordingSink s = Samples.parse(format, text);
    assertEquals(List.of(2L, 3L), s.steps.stream().map(x -> x.iter).toList());
    assertEquals(List.of(1L), s.c.rejects.stream().map(r -> r.lineNo()).toList());
    assertTrue(s.c.rejects.get(0).reason().startsWith("truncated"), s.c.rejects.get(0).reason());
  }

  @Test
  void legacyBatchManagerLines() throws IOException {
    Map<String, String> lg = Samples.split("iteration_stats_legacy_batchmanager.log");
    RecordingSink s1 = Samples.parse(format, lg.get("LG-1"));
    assertEquals(1, s1.c.records);
    StepRecord a = s1.steps.get(0);
    assertEquals(90L, a.iter);
    assertEquals(1_702_479_314_000_000_000L, a.tsNs, "12-13-2023 14:55:14");
    assertEquals(1_000_000_000L, s1.c.clocks.get(a.clockId - 1).resolutionNs(), "whole seconds");
    assertEquals(249, a.running);
    assertEquals(8, a.ctxRequests);
    assertEquals(231, a.genRequests);
    assertEquals(6904, a.ctxTokens);
    assertEquals(1.0, a.kvUsage, "2448 of 2448 blocks used");
    assertEquals(239.0, a.extras.get("scheduled_requests"));
    assertEquals(256.0, a.extras.get("max_active_requests"));
    assertEquals(540173600.0, a.extras.get("gpu_mem_bytes"));

    RecordingSink s2 = Samples.parse(format, lg.get("LG-2"));
    assertEquals(1, s2.c.records, "the terminal-wrapped object is joined");
    assertEquals(4, s2.c.other, "its four continuation lines");
    StepRecord b = s2.steps.get(0);
    assertEquals(0L, b.iter);
    assertEquals(1_702_870_537_000_000_000L, b.tsNs);
    assertEquals(1, b.ctxRequests);
    assertEquals(2048, b.ctxTokens);
    assertEquals(1.0 / 513, b.kvUsage, 1e-12);
    assertEquals(480.0, b.extras.get("kv_blocks_free"), "\"Free KV cache \" + \"blocks\" across the wrap");
    assertEquals(1.0, b.extras.get("kv_blocks_used"), "\"Used KV cache\" + \" blocks\" across the wrap");

    RecordingSink s3 = Samples.parse(format, lg.get("LG-3"));
    assertEquals(200L, s3.steps.get(0).iter);
    assertEquals(1, s3.steps.get(0).running);
    assertNull(s3.steps.get(0).ctxRequests, "the reduced key set has no batch counts");
  }

  @Test
  void theSchedulerModeOfA2026RecordIsKept() throws IOException {
    // the shape of tensorrt_llm/executor's _materialize_frame (2026): schedulerMode tells whether
    // iterLatencyMS spans one loop or about two; statsSequence / statsDroppedFrames count the frames
    String text = "{\"timestamp\": \"12-01-2026 10:00:00.123456\", \"iter\": 5, \"iterLatencyMS\": 20.5,"
        + " \"numActiveRequests\": 4, \"inflightBatchingStats\": {\"numContextRequests\": 1, \"numGenRequests\": 3},"
        + " \"schedulerMode\": \"overlap\", \"statsSequence\": 7, \"statsDroppedFrames\": 2,"
        + " \"hostStepTimeMS\": 10.1, \"attentionDpRank\": 0}\n"
        + "{\"timestamp\": \"12-01-2026 10:00:00.150000\", \"iter\": 6, \"iterLatencyMS\": 9.5,"
        + " \"schedulerMode\": \"non_overlap\", \"attentionDpRank\": 0}\n";
    RecordingSink s = Samples.parse(format, text);
    assertEquals(0, s.c.rejects.size());
    StepRecord a = s.steps.get(0);
    assertEquals(1.0, a.extras.get("overlap_scheduler"));
    assertEquals(10.1, a.extras.get("host_step_ms"));
    assertEquals(2.0, a.extras.get("statsDroppedFrames"));
    assertEquals(20.5, a.durationMs);
    assertEquals(0.0, s.steps.get(1).extras.get("overlap_scheduler"));
  }

  @Test
  void aStatesValueLoggedAsATensorIsItsNumber() throws IOException {
    // Nvbugs 6487036/6487040: 'num_generation_tokens': tensor(256) in the states (was a reject of the line)
    String text = java.nio.file.Files.readString(java.nio.file.Path.of(
        "src/test/resources/constructed/trtllm-iter-tensor/tensor-states.log"));
    RecordingSink s = Samples.parse(format, text);
    assertEquals(0, s.c.rejects.size(), s.c.rejects.toString());
    assertEquals(2, s.steps.size());
    StepRecord a = s.steps.get(0);
    assertEquals(258L, a.iter);
    assertEquals(256, a.genTokens);
    assertEquals(1, a.genRequests);
    assertEquals(7.426261901855469, a.durationMs);
    assertEquals(7.326848030090332, a.extras.get("prev_device_step_ms"));
    assertEquals(256, s.steps.get(1).genTokens);
  }

  @Test
  void tritonsQuotedAndEscapedFormOfNewerLogs() throws IOException {
    String line = "I0831 18:57:08.685678 1 model_instance_state.cc:969] \"{\\\"Active Request Count\\\":99,"
        + "\\\"Iteration Counter\\\":5,\\\"Timestamp\\\":\\\"08-31-2024 18:57:08\\\",\\\"Scheduled Requests\\\":8,"
        + "\\\"Context Requests\\\":0,\\\"Generation Requests\\\":8,\\\"Waiting Requests\\\":91}\"\n"
        + "I0831 18:57:08.700000 1 http_server.cc:4000] HTTP request: 2 /v2/models/ensemble/generate\n";
    RecordingSink s = Samples.parse(format, line);
    assertEquals(1, s.c.records);
    assertEquals(1, s.c.other);
    StepRecord a = s.steps.get(0);
    assertEquals(5L, a.iter);
    assertEquals(1_725_130_628_000_000_000L, a.tsNs);
    assertEquals(99, a.running);
    assertEquals(91, a.waiting);
    assertEquals(8, a.genRequests);
  }

  @Test
  void trtllmBenchIterationLogIsPythonDicts() throws IOException {
    String line = "{'cpuMemUsage': 0, 'gpuMemUsage': 40560164864, 'inflightBatchingStats': {'avgNumDecodedTokensPerIter': 0.0,"
        + " 'microBatchId': 0, 'numContextRequests': 0, 'numCtxTokens': 0, 'numGenRequests': 3, 'numPausedRequests': 0,"
        + " 'numScheduledRequests': 3}, 'iter': 12, 'iterLatencyMS': 3.3152103424072266, 'kvCacheStats': {'maxNumBlocks': 10,"
        + " 'usedNumBlocks': 4}, 'numActiveRequests': 3, 'numQueuedRequests': 0, 'specDecodingStats': None,"
        + " 'staticBatchingStats': None, 'timestamp': '07-25-2025 16:54:34.140189', 'enabled': True}\n";
    RecordingSink s = Samples.parse(format, line + line.replace("'iter': 12", "'iter': 13"));
    assertEquals(2, s.c.records, s.c.rejects.toString());
    StepRecord a = s.steps.get(0);
    assertEquals(12L, a.iter);
    assertEquals(3, a.genRequests);
    assertEquals(0.4, a.kvUsage, 1e-12);
    assertEquals(3.3152103424072266, a.durationMs);
    assertEquals(1.0, a.extras.get("enabled"), "True");
  }

  @Test
  void printIterLogVariants() throws IOException {
    Map<String, String> pl = Samples.split("pyexecutor_print_iter_log.log");
    StepRecord a = Samples.parse(format, pl.get("PL-1")).steps.get(0);
    assertEquals(198L, a.iter);
    assertEquals(0, a.rank);
    assertEquals(1_745_834_204_000_000_000L, a.tsNs, "timestamp = 2025-04-28 09:56:44");
    assertEquals(5.060911178588867, a.durationMs, 1e-12, "elapsed_time in seconds");
    assertEquals(0, a.ctxRequests);
    assertEquals(16, a.genTokens, "padded for CUDA graphs");
    assertNull(a.genRequests, "format (a) does not say how many requests decode");
    StepRecord b = Samples.parse(format, pl.get("PL-2")).steps.get(0);
    assertEquals(10.0, b.extras.get("scheduled_requests"));
    assertEquals(10, b.genRequests, "num_scheduled_requests - num_ctx_requests: 10 real of the 16");

    String c = "[10/02/2025-11:00:00] [TRT-LLM] [I] iter = 5, global_rank = 0, rank = 0, currank_total_requests = 3/3,"
        + " host_step_time = 12.5ms, prev_device_step_time = N/A, timestamp = 2025-10-02 11:00:00,"
        + " num_scheduled_requests: 3, states = {'num_ctx_requests': 1, 'num_ctx_tokens': 512, 'num_generation_tokens': 2}\n";
    String d = "[TRT-LLM] [I] [_torch][RANK 1] iter = 7, global_rank = 1, rank = 1, num_scheduled_requests = 4,"
        + " kv_cache_util = 0.25, currank_total_requests = 4/8, host_step_time = 9.0ms, prev_device_step_time = 8.5ms,"
        + " timestamp = 2026-01-15 08:00:01, states = {'num_ctx_requests': 0, 'num_ctx_tokens': 0,"
        + " 'num_generation_tokens': 4, 'cached_kv_tokens': 128}, num_active = 4, num_fetched = 0, num_dummy = 0,"
        + " num_unscheduled = 0\n";
    RecordingSink s = Samples.parse(format, c + d + "[10/02/2025-11:00:01] [TRT-LLM] [I] Some other message\n");
    assertEquals(2, s.c.records);
    assertEquals(1, s.c.other);
    StepRecord x = s.steps.get(0);
    assertEquals(12.5, x.durationMs);
    assertEquals(1, x.ctxRequests);
    assertEquals(2, x.genRequests);
    assertEquals(512, x.ctxTokens);
    assertEquals(1_759_402_800_000_000_000L, x.tsNs);
    StepRecord y = s.steps.get(1);
    assertEquals(1, y.rank);
    assertEquals(0.25, y.kvUsage);
    assertEquals(4, y.running);
    assertEquals(4, y.genRequests);
    assertEquals(8.5, y.extras.get("prev_device_step_ms"));
    assertEquals(128.0, y.extras.get("cached_kv_tokens"));
    assertEquals(1_768_464_001_000_000_000L, y.tsNs);
  }

  @Test
  void theLoggerPrefixTimesALineWithoutItsOwn() throws IOException {
    String line = "[04/28/2025-09:56:45] [TRT-LLM] [I] iter = 3, global_rank = 0, rank = 0, elapsed_time = 0.01s,"
        + " states = {'num_ctx_requests': 0, 'num_ctx_tokens': 0, 'num_generation_tokens': 1}\n";
    StepRecord a = Samples.parse(format, line).steps.get(0);
    assertEquals(1_745_834_205_000_000_000L, a.tsNs);
  }

  @Test
  void restartsBumpTheEpochPerRankAndAreRecorded() throws IOException {
    StringBuilder text = new StringBuilder();
    int[][] recs = {{0, 5}, {1, 5}, {0, 6}, {1, 6}, {0, 2}, {1, 3}, {0, 3}};
    for (int[] r : recs) {
      text.append(executor(r[1], 0, 1, "01-02-2025 03:04:05.000001")
          .replace("\"iter\":", "\"attentionDpRank\":" + r[0] + ",\"iter\":")).append('\n');
    }
    RecordingSink s = Samples.parse(format, text.toString());
    assertEquals(List.of(0, 1, 0, 1, 0, 1, 0), s.steps.stream().map(x -> x.rank).toList());
    assertEquals(List.of(0, 0, 0, 0, 1, 1, 1), s.steps.stream().map(x -> x.epoch).toList());
    assertEquals(2, s.c.events.size(), s.c.events.toString());
    assertTrue(s.c.events.get(0).contains("restart iteration counter went back from 6 to 2 (rank 0): epoch 1"),
        s.c.events.toString());
  }

  /**
   * TLLM_METRICS_ALL_RANKS=1 (NVIDIA/TensorRT-LLM#13221, 2026): rank 0 gathers each rank's
   * IterationStats and tags it "rank": N, one record per (iteration, rank). Each rank is a lane of
   * its own (before: all in one lane, rank NULL, and a lagging rank's lower iteration read as a
   * restart); an attentionDpRank that differs is kept aside.
   */
  @Test
  void theGatheredRecordsRankIsTheirLane() throws IOException {
    StringBuilder text = new StringBuilder();
    int[][] recs = {{0, 7}, {1, 6}, {0, 8}, {1, 7}};
    for (int[] r : recs) {
      text.append(executor(r[1], 0, 1, "01-02-2025 03:04:05.000001")
          .replace("\"iter\":", "\"rank\":" + r[0] + ",\"attentionDpRank\":0,\"iter\":")).append('\n');
    }
    RecordingSink s = Samples.parse(format, text.toString());
    assertEquals(List.of(0, 1, 0, 1), s.steps.stream().map(x -> x.rank).toList());
    assertEquals(List.of(0, 0, 0, 0), s.steps.stream().map(x -> x.epoch).toList());
    assertEquals(List.of(), s.c.events, "no restart: rank 1 is a lane of its own");
    assertNull(s.steps.get(0).extras.get("attention_dp_rank"), "rank 0, attentionDpRank 0: one number");
    assertEquals(0.0, s.steps.get(1).extras.get("attention_dp_rank"));
    assertNull(s.steps.get(1).extras.get("rank"), "a lane, not an extra");
  }

  @Test
  void badInputIsRejectedWithItsLineAndReason() throws IOException {
    String text = "[TensorRT-LLM][INFO] " + executor(1, 1, 0, "01-02-2025 03:04:05") + "\n"
        + "[TensorRT-LLM][INFO] " + executor(2, 0, 1, "01-02-2025 03:04:05").replace("\"iter\":2", "\"iter\":\"two\"") + "\n"
        + "[TensorRT-LLM][INFO] " + executor(3, 0, 1, "yesterday") + "\n"
        + "[TensorRT-LLM][INFO] " + executor(4, 0, 1, "01-02-2025 03:04:05").substring(0, 60) + "\n"
        + "[TensorRT-LLM][INFO] ready\n"
        + "[TensorRT-LLM][INFO] " + executor(5, 0, 1, "01-02-2025 03:04:05").replace("\"numGenRequests\":1", "\"numGenRequests\":-1") + "\n"
        + "[TensorRT-LLM][INFO] " + executor(6, 0, 1, "01-02-2025 03:04:05").replace("\"iter\":6,", "\"iter\":@@,") + "\n"
        + "iter = x, global_rank = 0, states = {}\n";
    RecordingSink s = Samples.parse(format, Samples.withInvalidUtf8(text), null);
    assertEquals(1, s.c.records, s.c.rejects.toString());
    List<String> reasons = s.c.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList();
    assertEquals(5, reasons.size(), reasons.toString());
    assertTrue(reasons.get(0).startsWith("2: iter: expected a number"), reasons.get(0));
    assertTrue(reasons.get(1).startsWith("3: timestamp: not a time of a known shape"), reasons.get(1));
    assertTrue(reasons.get(2).startsWith("4: truncated stats object"), reasons.get(2));
    assertTrue(reasons.get(3).startsWith("6: inflightBatchingStats.numGenRequests: expected a count"), reasons.get(3));
    assertTrue(reasons.get(4).startsWith("7: invalid UTF-8"), reasons.get(4));
    assertEquals(2, s.c.other, "'ready' and the print_iter_log look-alike without a number");
  }

  /**
   * An executor record whose timestamp is "" (the stats class of 2026 defaults it to empty) was
   * rejected as "not a time of a known shape"; now it is read as a record without the key is: a
   * step without a time of its own, at its log line's time where a header gives one.
   */
  @Test
  void anEmptyTimestampIsNoTime() throws IOException {
    String noKey = executor(2, 0, 1, "x").replace(",\"timestamp\":\"x\"", "");
    RecordingSink bare = Samples.parse(format, executor(1, 1, 0, "") + "\n" + noKey + "\n");
    assertEquals(List.of(), bare.c.rejects);
    assertEquals(List.of(1L, 2L), bare.steps.stream().map(st -> st.iter).toList());
    assertEquals(List.of(dev.tokentime.ingest.RequestRecord.NONE, dev.tokentime.ingest.RequestRecord.NONE),
        bare.steps.stream().map(st -> st.tsNs).toList());
    RecordingSink headed = Samples.parse(format, "[12/01/2026-10:00:00] [TRT-LLM] [I] " + executor(1, 1, 0, "") + "\n"
        + "[12/01/2026-10:00:01] [TRT-LLM] [I] " + noKey + "\n");
    assertEquals(List.of(), headed.c.rejects);
    assertEquals(List.of(1_796_119_200_000_000_000L, 1_796_119_201_000_000_000L),
        headed.steps.stream().map(st -> st.tsNs).toList());
    assertEquals(10.5, headed.steps.get(0).durationMs);
  }
}
