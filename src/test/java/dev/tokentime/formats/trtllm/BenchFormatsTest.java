package dev.tokentime.formats.trtllm;

import dev.tokentime.testing.RecordingSink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.RequestRecord;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** trtllm-bench's terminal report, --report_json and --request_json on strings. */
class BenchFormatsTest {
  final BenchReportFormat report = new BenchReportFormat();
  final BenchRequestsFormat requests = new BenchRequestsFormat();

  /** The shape of reporting.py's get_statistics_dict (streaming run), values made up. */
  static final String REPORT_JSON = """
      {
          "engine": {"model": "meta-llama/Llama-3.1-8B", "model_path": "None", "engine_dir": "None",
                     "version": "0.21.0rc0", "backend": "Pytorch", "dtype": "bfloat16"},
          "machine": null,
          "world_info": {"tp_size": 1, "pp_size": 1, "ep_size": null, "world_size": 1, "max_batch_size": 3840,
                         "max_num_tokens": 7680, "scheduling_policy": "GUARANTEED_NO_EVICT",
                         "kv_cache_percentage": 0.9, "issue_rate": 1.0e15},
          "request_info": {"num_requests": 4, "avg_num_concurrent_requests": 3.5, "avg_input_length": 128.0,
                           "avg_output_length": 64.0},
          "performance": {"total_latency_ms": 1200.5, "avg_request_latency_ms": 900.25,
                          "request_throughput_req_s": 3.33, "system_output_throughput_tok_s": 213.2,
                          "system_total_throughput_tok_s": 640.0, "output_throughput_per_user_tok_s": 71.1,
                          "output_throughput_per_gpu_tok_s": 213.2,
                          "request_latency_percentiles_ms": {"p50": 880.0, "p90": 990.0, "p95": 995.0,
                              "p99": 999.0, "minimum": 800.0, "maximum": 1000.0, "average": 900.25}},
          "streaming_metrics": {"token_output_speed_tok_s": 80.0, "avg_ttft_ms": 120.0, "avg_tpot_ms": 12.5,
                                "tpot_percentiles": {"p50": 12.0, "minimum": 10.0, "maximum": 15.0, "average": 12.5},
                                "ttft_percentiles": {"p50": 110.0, "minimum": 90.0, "maximum": 150.0, "average": 120.0},
                                "gen_tps_percentiles": {"p50": 79.0, "minimum": 66.0, "maximum": 100.0, "average": 80.0}},
          "dataset": {"isl_stats": {"average": 128.0, "minimum": 128, "maximum": 128}, "num_requests": 4}
      }
      """;

  @Test
  void theTerminalReportIsTheToolsOwnFigures() throws IOException {
    RecordingSink s = Samples.parse(report, Samples.split("trtllm_bench_reports.txt").get("BR-1"));
    assertEquals(0, s.c.rejects.size());
    List<String> r = s.c.reported;
    for (String want : List.of("dir null request_throughput value 86.5373 req/sec",
        "dir null total_output_throughput value 11076.77 tokens/sec",
        "dir null kv_memory_percentage value 90.0 %",
        "dir null issue_rate value 1.0526E15 req/sec",
        "dir null average_time_to_first_token_ttft value 162.6706 ms",
        "dir null tpot p50 7.6079 ms", "dir null ttft min 93.921 ms", "dir null gen_tps avg 137.1475 tps/user",
        "dir null request_latency p99 1137.6817 ms", "dir null dataset_seq_len_tokens avg 256.0 tokens")) {
      assertTrue(r.contains(want), want + " in " + r);
    }
    assertEquals(70, r.size());
    assertTrue(s.c.events.contains("6 version TensorRT-LLM Version: 0.21.0rc0"), s.c.events.toString());
    // 1.2's wording, a version that reads as a number (NVIDIA/TensorRT-LLM#9459, 2025-12): still the version
    RecordingSink v12 = Samples.parse(report, "TensorRT LLM Version:   1.2\nNumber of requests:             256\n");
    assertEquals(List.of("1 version TensorRT LLM Version: 1.2"), v12.c.events);
    assertEquals(List.of("dir null number_of_requests value 256.0 count"), v12.c.reported);
    assertTrue(s.c.events.contains("26 config Scheduling Policy: GUARANTEED_NO_EVICT"), s.c.events.toString());
  }

  @Test
  void everyVersionsReportReads() throws IOException {
    // BR-2: 0.17 TensorRT flow with the logger's lines around; BR-3 PyTorch; BR-4 multimodal; BR-5 late 2025
    Map<String, String> br = Samples.split("trtllm_bench_reports.txt");
    RecordingSink b2 = Samples.parse(report, br.get("BR-2"));
    assertTrue(b2.c.reported.contains("dir null token_throughput value 28390.4265 tokens/sec"), "0.17's label");
    assertEquals(14, b2.c.reported.size());
    RecordingSink b4 = Samples.parse(report, br.get("BR-4"));
    assertTrue(b4.c.reported.contains("dir null per_user_output_throughput value 38.1959 tokens/sec/user"));
    assertTrue(b4.c.reported.contains("dir null dataset_input_tokens max 1059.0 tokens"));
    RecordingSink b5 = Samples.parse(report, br.get("BR-5"));
    assertTrue(b5.c.reported.contains("dir null per_user_output_speed_1_tpot value 5.4656 tokens/sec/user"));
    assertTrue(b5.c.reported.contains("dir null ttft p99 106563.4497 ms"));
    for (String id : br.keySet()) {
      assertEquals(0, Samples.parse(report, br.get(id)).c.rejects.size(), id);
    }
  }

  @Test
  void decodingStatisticsAreCountsAndRatiosNotTheLatencysMilliseconds() throws IOException {
    // reporting.py prints them after "-- Request Latency Breakdown (ms)", under headers naming no unit
    String text = java.nio.file.Files.readString(java.nio.file.Path.of(
        "src/test/resources/constructed/trtllm-bench-decoding/report.txt"));
    RecordingSink s = Samples.parse(report, text);
    assertEquals(0, s.c.rejects.size());
    List<String> r = s.c.reported;
    for (String want : List.of("dir null request_latency p50 2100.5 ms", "dir null num_draft_tokens min 3.0 tokens",
        "dir null num_accepted_draft_tokens avg 90.0 tokens", "dir null draft_acceptance_rate p50 0.6 ratio",
        "dir null acceptance_length p99 2.99 tokens")) {
      assertTrue(r.contains(want), want + " in " + r);
    }
    assertTrue(r.stream().noneMatch(x -> x.contains("draft") && x.endsWith(" ms")), r.toString());
    assertTrue(s.c.events.contains("16 config Machine: NVIDIA H100 80GB HBM3, memory 79.65 GB, 2.62 GHz"),
        s.c.events.toString());
    assertTrue(s.c.events.stream().anyMatch(e -> e.endsWith("config Decoding mode: Eagle3")), s.c.events.toString());
  }

  @Test
  void theReportJsonsMachineAndDecodingFiguresHaveUnits() throws IOException {
    // get_statistics_dict (reporting.py @ 0249976): "machine" from nvidia-smi, "decoding_stats" with speculation
    String json = "{\"machine\": {\"name\": \"NVIDIA H100 80GB HBM3\", \"memory.total\": 79.65, \"clocks.mem\": 2.62},"
        + " \"decoding_stats\": {\"mode\": \"Eagle3\", \"draft_acceptance_rate_percentiles\": {\"p50\": 0.6},"
        + " \"acceptance_length_percentiles\": {\"average\": 2.5}}}";
    RecordingSink s = Samples.parse(report, json);
    List<String> r = s.c.reported;
    for (String want : List.of("dir null memory.total value 79.65 GB", "dir null clocks.mem value 2.62 GHz",
        "dir null draft_acceptance_rate p50 0.6 ratio", "dir null acceptance_length avg 2.5 tokens")) {
      assertTrue(r.contains(want), want + " in " + r);
    }
  }

  /**
   * One run's terminal report and --report_json name a figure alike (before: the text's [DT]/[ADT]
   * blocks were draft_tokens/accepted_draft_tokens, the JSON's num_draft_tokens/num_accepted_draft_tokens;
   * the JSON's dataset.num_requests a second num_requests beside request_info's, and its isl_stats
   * not the text's dataset_input_tokens).
   */
  @Test
  void theTextAndJsonReportsOfOneRunNameTheirFiguresAlike() throws IOException {
    java.nio.file.Path dir = java.nio.file.Path.of("src/test/resources/constructed/trtllm-bench-decoding");
    RecordingSink text = Samples.parse(report, java.nio.file.Files.readString(dir.resolve("report.txt")));
    RecordingSink json = Samples.parse(report, java.nio.file.Files.readString(dir.resolve("report.json")));
    java.util.function.Predicate<String> decoding = r -> r.matches("dir null (num_draft_tokens|num_accepted_draft_tokens"
        + "|draft_acceptance_rate|acceptance_length) .*");
    List<String> fromText = text.c.reported.stream().filter(decoding).sorted().toList();
    assertEquals(28, fromText.size(), text.c.reported.toString());
    assertEquals(fromText, json.c.reported.stream().filter(decoding).sorted().toList());
    assertEquals(List.of("dir null num_requests value 64.0 "),
        json.c.reported.stream().filter(r -> r.startsWith("dir null num_requests ")).toList(), "request_info's, once");
    assertTrue(json.c.reported.contains("dir null dataset_num_requests value 64.0 "), json.c.reported.toString());
    assertTrue(json.c.reported.contains("dir null dataset_seq_len_tokens max 768.0 tokens"), json.c.reported.toString());
    RecordingSink dataset = Samples.parse(report, "= DATASET DETAILS\nNumber of Sequences:  64\n");
    assertEquals(List.of("dir null dataset_num_requests value 64.0 count"), dataset.c.reported);
  }

  @Test
  void theReportJsonIsOneRecordOfFigures() throws IOException {
    RecordingSink s = Samples.parse(report, REPORT_JSON);
    assertEquals(1, s.c.records);
    List<String> r = s.c.reported;
    for (String want : List.of("dir null request_throughput_req_s value 3.33 req/s",
        "dir null total_latency_ms value 1200.5 ms", "dir null request_latency p99 999.0 ms",
        "dir null request_latency avg 900.25 ms", "dir null tpot p50 12.0 ms", "dir null ttft min 90.0 ms",
        "dir null gen_tps max 100.0 tokens/s", "dir null avg_ttft_ms value 120.0 ms",
        "dir null kv_cache_percentage value 0.9 ", "dir null dataset_input_tokens avg 128.0 tokens")) {
      assertTrue(r.contains(want), want + " in " + r);
    }
    assertTrue(s.c.events.contains("1 version engine.version: 0.21.0rc0"), s.c.events.toString());
  }

  @Test
  void aBrokenReportJsonIsOneReject() throws IOException {
    RecordingSink s = Samples.parse(report, REPORT_JSON.substring(0, 200));
    assertEquals(1, s.c.rejects.size());
    assertTrue(s.c.rejects.get(0).reason().startsWith("truncated JSON"), s.c.rejects.toString());
  }

  static final String REQUEST = "{\"id\": 3, \"num_input_tokens\": 128, \"error_tokens\": 0, \"start_timestamp\": 1000000,"
      + " \"first_token_timestamp\": 51000000, \"end_timestamp\": 251000000, \"decode_iteration\": 63,"
      + " \"num_output_tokens\": 5, \"num_generated_tokens\": 4, \"generation_time\": 200000000,"
      + " \"time_to_first_token\": 50000000, \"intertoken_latency\": 50000000.0, \"end_to_end_latency\": 250000000,"
      + " \"total_token_throughput\": 2e-08, \"output_token_throughput\": 2e-08, \"output\": \"secret text\","
      + " \"output_tokens\": 5}";

  @Test
  void requestJsonRecordsAreRequestsOnTheBenchmarksClock() throws IOException {
    String failed = REQUEST.replace("\"id\": 3", "\"id\": 4").replace("\"error_tokens\": 0", "\"error_tokens\": 2");
    RecordingSink s = Samples.parse(requests, "[" + REQUEST + ", " + failed + "]");
    assertEquals(2, s.c.records);
    RequestRecord r = s.request("3");
    assertEquals(1_000_000L, r.arrivalNs);
    assertEquals(51_000_000L, r.firstTokenNs);
    assertEquals(251_000_000L, r.lastTokenNs);
    assertEquals(128, r.promptTokens);
    assertEquals(5, r.outputTokens);
    assertEquals(50.0, r.ttftMs);
    assertEquals(250.0, r.e2eMs);
    assertEquals(50.0, r.tpotMs);
    assertEquals(200.0, r.decodeMs);
    assertEquals("63", r.extras.get("decode_iteration"));
    assertNull(r.extras.get("output"), "no text without --keep-text");
    assertEquals("client", s.c.clocks.get(r.clockId - 1).kind());
    assertEquals("error", s.request("4").status);
  }

  @Test
  void badRequestRecordsAreRejected() throws IOException {
    String decreasing = REQUEST.replace("\"end_timestamp\": 251000000", "\"end_timestamp\": 2000");
    String noEnd = REQUEST.replace("\"id\": 3", "\"id\": 5").replace("\"end_timestamp\": 251000000", "\"end_timestamp\": -1");
    String wrong = REQUEST.replace("\"id\": 3", "\"id\": 6").replace("\"num_input_tokens\": 128", "\"num_input_tokens\": \"many\"");
    RecordingSink s = Samples.parse(requests, "[" + REQUEST + ", " + REQUEST + ", " + decreasing + ", " + noEnd + ", " + wrong + "]");
    assertEquals(1, s.c.records);
    List<String> reasons = s.c.rejects.stream().map(x -> x.reason()).toList();
    assertEquals(4, reasons.size(), reasons.toString());
    assertTrue(reasons.get(0).startsWith("duplicate"), reasons.get(0));
    assertTrue(reasons.get(1).startsWith("[2]: timestamps decrease"), reasons.get(1));
    assertTrue(reasons.get(2).startsWith("[3]: start_timestamp and end_timestamp are required"), reasons.get(2));
    assertTrue(reasons.get(3).startsWith("[4]: num_input_tokens: expected a number"), reasons.get(3));
  }

  @Test
  void aReportLineWithInvalidUtf8IsRejectedAlone() throws IOException {
    String text = "= PERFORMANCE OVERVIEW\nRequest Throughput (req/sec):   1.5\nModel:   caf@@\nTotal Latency (ms):  10.0\n";
    RecordingSink s = Samples.parse(report, Samples.withInvalidUtf8(text), null);
    assertEquals(2, s.c.records);
    assertEquals(1, s.c.rejects.size());
    assertEquals(3, s.c.rejects.get(0).lineNo());
    assertEquals("invalid UTF-8", s.c.rejects.get(0).reason());
  }
}
