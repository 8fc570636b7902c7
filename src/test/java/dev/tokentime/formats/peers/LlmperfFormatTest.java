package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.CollectingSink;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** LLMPerf's individual_responses.json and summary.json on strings. */
class LlmperfFormatTest {
  final LlmperfFormat format = new LlmperfFormat();

  static final String OK = "{\"error_code\":null,\"error_msg\":\"\",\"inter_token_latency_s\":0.0058,\"ttft_s\":0.29,"
      + "\"end_to_end_latency_s\":0.89,\"request_output_throughput_token_per_s\":167.4,\"number_total_tokens\":700,"
      + "\"number_output_tokens\":150,\"number_input_tokens\":550}";

  @Test
  void individualResponsesAreRequestsWithTheirOwnDurations() throws IOException {
    String err = "{\"error_code\":429,\"error_msg\":\"Too Many Requests\",\"inter_token_latency_s\":0,\"ttft_s\":0,"
        + "\"end_to_end_latency_s\":0,\"request_output_throughput_token_per_s\":0,\"number_total_tokens\":550,"
        + "\"number_output_tokens\":0,\"number_input_tokens\":550}";
    CollectingSink s = Parsing.parse(format, "[\n" + OK + ",\n" + err + "\n]");
    assertEquals(2, s.records);
    assertEquals("ok", s.requests.get(0).status());
    assertEquals(150, s.requests.get(0).outputTokens());
    assertEquals("5.8", s.requests.get(0).extras().get("inter_token_latency_ms"));
    assertEquals("error", s.requests.get(1).status());
  }

  @Test
  void theSummaryIsReportedMetricsAndTheRunsConcurrency() throws IOException {
    String summary = "{\"version\":\"2023-08-31\",\"num_concurrent_requests\":5,\"results_ttft_s_quantiles_p50\":0.22,"
        + "\"results_ttft_s_stddev\":0.045,\"results_number_input_tokens_min\":\"550\","
        + "\"results_num_completed_requests_per_min\":176.7,\"results_error_code_frequency\":\"{}\",\"timestamp\":1704851704}";
    CollectingSink s = Parsing.parse(format, summary);
    assertEquals(1, s.records);
    assertEquals(5.0, s.levels.get("dir")[1]);
    assertTrue(s.reported.contains("dir 5.0 ttft_s p50 0.22 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 5.0 ttft_s stddev 0.045 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 5.0 number_input_tokens min 550.0 tokens"), "numbers written as text");
    assertTrue(s.reported.contains("dir 5.0 num_completed_requests_per_min value 176.7 requests/min"), s.reported.toString());
  }

  /**
   * Summaries a script gathered into one object keyed by concurrency (philschmid/llmperf-bench,
   * real-logs/tools/llmperf-bench-gathered-tgi201): one record and no figure before; now a run
   * each at its concurrency. An object with no LLMPerf figure is a reject, never a record of nothing.
   */
  @Test
  void gatheredSummariesAreARunEach() throws IOException {
    CollectingSink s = Parsing.parse(format, java.nio.file.Files.readString(java.nio.file.Path.of(
        "src/test/resources/real-logs/tools/llmperf-bench-gathered-tgi201/meta-llama_Meta-Llama-3-8B-Instruct_tp_1_results.json")));
    assertEquals(8, s.records);
    assertEquals(0, s.rejects.size(), s.rejects.toString());
    assertEquals(1.0, s.levels.get("dir")[1]);
    assertEquals(128.0, s.levels.get("dir#8")[1]);
    assertTrue(s.reported.contains("dir 1.0 ttft_s mean 0.15813857590983388 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir#8 128.0 ttft_s mean 17.327640365461036 s"), s.reported.toString());

    // an object with no LLMPerf figure is a reject that keeps nothing (its mean_input_tokens and
    // its concurrency as the run's level were kept)
    CollectingSink none = Parsing.parse(format, "{\"name\":\"x\",\"num_concurrent_requests\":4,\"mean_input_tokens\":750}");
    assertEquals(0, none.records);
    assertEquals(1, none.rejects.size());
    assertTrue(none.rejects.get(0).reason().startsWith("no LLMPerf figure"), none.rejects.toString());
    assertEquals(List.of(), none.reported);
    assertEquals(null, none.levels.get("dir"));

    // a gathered entry that is no summary is a reject of its own; the others and a "model" name beside them are read
    CollectingSink mixed = Parsing.parse(format, "{\"model\":\"m\",\"1\":{\"num_concurrent_requests\":1,"
        + "\"results_ttft_s_mean\":0.1},\"2\":{},\"4\":{\"num_concurrent_requests\":4,\"results_ttft_s_mean\":0.4}}");
    assertEquals(2, mixed.records);
    assertEquals(List.of("entry \"2\": no LLMPerf figure (results_…) in the object: not a summary.json"),
        mixed.rejects.stream().map(r -> r.reason()).toList());
    assertEquals(List.of("dir 1.0 num_concurrent_requests value 1.0 count", "dir 1.0 ttft_s mean 0.1 s",
        "dir#2 4.0 num_concurrent_requests value 4.0 count", "dir#2 4.0 ttft_s mean 0.4 s"), mixed.reported);
  }

  @Test
  void nonFiniteNumbersAreRejected() throws IOException {
    CollectingSink s = Parsing.parse(format, "[" + OK.replace("\"ttft_s\":0.29", "\"ttft_s\":NaN") + "]");
    assertEquals(1, s.rejects.size());
    assertTrue(s.rejects.get(0).reason().contains("ttft_s: not a finite number"), s.rejects.toString());
  }

  @Test
  void badElementsAreRejectedAndATruncatedArrayKeepsItsHead() throws IOException {
    String wrong = OK.replace("\"ttft_s\":0.29", "\"ttft_s\":\"fast\"");
    String negative = OK.replace("\"ttft_s\":0.29", "\"ttft_s\":-1");
    CollectingSink s = Parsing.parse(format, "[\n" + OK + ",\n" + wrong + ",\n" + negative + ",\n\"x\",\n" + OK.substring(0, 50));
    assertEquals(1, s.records);
    assertEquals(4, s.rejects.size(), s.rejects.toString());
    assertTrue(s.rejects.get(0).reason().contains("ttft_s: expected a number of seconds"), s.rejects.get(0).reason());
    assertEquals(3, s.rejects.get(0).lineNo());
    assertTrue(s.rejects.get(1).reason().contains("negative duration"), s.rejects.get(1).reason());
    assertTrue(s.rejects.get(2).reason().contains("expected an object"), s.rejects.get(2).reason());
    assertTrue(s.rejects.get(3).reason().startsWith("truncated JSON"), s.rejects.get(3).reason());
    CollectingSink u = Parsing.parse(format, Parsing.withInvalidUtf8("[" + OK.replace("\"\"", "\"@@\"") + "]"), "dir");
    assertTrue(u.rejects.get(0).reason().startsWith("invalid UTF-8"), u.rejects.toString());
  }

  /**
   * Response objects without their array's brackets, as a post pastes them ("{…},\n{…}", real) or
   * one a line: each is a request. Before, the first object was taken for a summary with no
   * figures and the rest was never read, with nothing rejected.
   */
  @Test
  void responseObjectsWithoutTheirArrayAreEachARequest() throws IOException {
    byte[] pasted = java.nio.file.Files.readAllBytes(java.nio.file.Path.of(
        "src/test/resources/real-logs/tools/llmperf-2026-pasted-elements/individual_responses_pasted.json"));
    CollectingSink s = Parsing.parse(format, new String(pasted, java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(2, s.requests.size(), s.rejects.toString());
    assertEquals(java.util.List.of("10.06342902851646", "11.119221556918532"),
        s.requests.stream().map(r -> r.extras().get("inter_token_latency_ms")).toList());
    assertEquals(java.util.List.of(105, 97), s.requests.stream().map(CollectingSink.Req::outputTokens).toList());
    assertEquals(java.util.List.of(1L, 12L), s.requests.stream().map(CollectingSink.Req::lineNo).toList());
    assertEquals(90, format.sniff(new dev.tokentime.ingest.Sample("x.json", pasted, pasted.length)));

    CollectingSink lines = Parsing.parse(format, OK + "\n" + OK + "\n");
    assertEquals(2, lines.requests.size(), "one object a line");
    assertEquals(0, lines.rejects.size());
  }

  @Test
  void moreJsonAfterTheFilesValueIsRejectedNotPassedOver() throws IOException {
    CollectingSink s = Parsing.parse(format, "{\"results_ttft_s_mean\": 0.1}\n{\"x\": 1}\n");
    assertEquals(1, s.rejects.size());
    assertEquals("more JSON after the summary object (an LLMPerf file holds one); not read", s.rejects.get(0).reason());
    assertEquals(2, s.rejects.get(0).lineNo());
    CollectingSink a = Parsing.parse(format, "[" + OK + "]\n[" + OK + "]\n");
    assertEquals(1, a.requests.size());
    assertEquals(1, a.rejects.size(), "the second array");
  }

  /**
   * A summary whose statistics pandas could not compute: the sample std of the one successful
   * request is NaN, which json.dump writes as is (src/test/resources/constructed/llmperf-2024-one-success,
   * README there). They were stored as NaN figures; now each is a reject naming it, the others kept.
   */
  @Test
  void aSummarysNanStatisticsAreRejectsNamingThem() throws Exception {
    java.nio.file.Path file = java.nio.file.Path.of("src/test/resources/constructed/llmperf-2024-one-success/"
        + "meta-llama-Llama-3-1-8B-Instruct_550_150_summary.json");
    CollectingSink s = Parsing.parse(format, java.nio.file.Files.readAllBytes(file), "dir");
    assertEquals(List.of("inter_token_latency_s stddev: NaN is no finite number; not kept",
        "ttft_s stddev: NaN is no finite number; not kept", "end_to_end_latency_s stddev: NaN is no finite number; not kept",
        "request_output_throughput_token_per_s stddev: NaN is no finite number; not kept",
        "number_input_tokens stddev: NaN is no finite number; not kept",
        "number_output_tokens stddev: NaN is no finite number; not kept"),
        s.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertEquals(List.of(19L, 29L, 39L, 49L, 59L, 69L), s.rejects.stream().map(CollectingSink.Rej::lineNo).toList(),
        "each at its key's line");
    assertEquals(1, s.records);
    assertTrue(s.reported.contains("dir 2.0 ttft_s mean 0.41234 s"), s.reported.toString());
    assertTrue(s.reported.stream().noneMatch(r -> r.contains("NaN")), s.reported.toString());
    CollectingSink counts = Parsing.parse(format, "{\"num_concurrent_requests\":1,\"results_num_completed_requests\":12.5,"
        + "\"results_end_to_end_latency_s_mean\":-3.0,\"results_ttft_s_mean\":0.4}");
    assertEquals(List.of("num_completed_requests: 12.5 is no whole number (a count of requests or tokens); not kept",
        "end_to_end_latency_s mean out of range: -3.0 (a latency, count or throughput is not negative); not kept"),
        counts.rejects.stream().map(CollectingSink.Rej::reason).toList());
  }

  /**
   * A fork's summary (SaharaaQuestLab/llmperf: constructed/llmperf-fork-per-sec, README there):
   * overall_test_time (s) and num_completed_requests_per_sec (requests/s) were stored as counts.
   */
  @Test
  void aForksPerSecondFiguresHaveTheirUnits() throws Exception {
    java.nio.file.Path file = java.nio.file.Path.of("src/test/resources/constructed/llmperf-fork-per-sec/"
        + "meta-llama-Llama-3-1-8B-Instruct_550_150_summary.json");
    CollectingSink s = Parsing.parse(format, java.nio.file.Files.readAllBytes(file), "dir");
    assertEquals(List.of(), s.rejects);
    assertTrue(s.reported.contains("dir 1.0 overall_test_time value 6.2 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 1.0 num_completed_requests_per_sec value 0.48387096774193544 requests/s"),
        s.reported.toString());
    assertTrue(s.reported.contains("dir 1.0 num_requests_started value 3.0 count"), s.reported.toString());
  }

  /**
   * A fork's per-request request_time (Jounce-IO/llmperf, the code of ray-project/llmperf PR #79:
   * req_config.sample_time, s since the test's start) was unread; now extras, checked as the
   * durations are (made-up values in that writer's shape).
   */
  @Test
  void aForksRequestTimeIsKept() throws IOException {
    CollectingSink s = Parsing.parse(format, "[" + OK.replace("}", ",\"request_time\":1.25}") + ","
        + OK.replace("}", ",\"request_time\":-2}") + "]");
    assertEquals("1.25", s.requests.get(0).extras().get("request_time_s"));
    assertEquals(List.of("[1]: request_time: negative duration -2"),
        s.rejects.stream().map(CollectingSink.Rej::reason).toList());
  }
}
