package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.testing.CollectingSink;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** AIPerf's profile_export.jsonl on strings: both schema generations, phases, errors, bad lines. */
class AiperfJsonlFormatTest {
  final AiperfJsonlFormat format = new AiperfJsonlFormat();

  // the later schema (request_start_ns, benchmark_phase, was_cancelled), as AIPerf's docs show it
  static final String NEW_OK = "{\"metadata\":{\"session_num\":45,\"x_request_id\":\"7609a2e7\",\"x_correlation_id\":\"32ee\","
      + "\"conversation_id\":\"77aa\",\"turn_index\":0,\"request_start_ns\":1759813207532900363,\"request_ack_ns\":1759813207650730976,"
      + "\"request_end_ns\":1759813207547900363,\"worker_id\":\"worker_359d423a\",\"record_processor_id\":\"rp\","
      + "\"benchmark_phase\":\"profiling\",\"was_cancelled\":false,\"cancellation_time_ns\":null},"
      + "\"metrics\":{\"input_sequence_length\":{\"value\":550,\"unit\":\"tokens\"},\"time_to_first_token\":{\"value\":5.0,\"unit\":\"ms\"},"
      + "\"request_latency\":{\"value\":15.0,\"unit\":\"ms\"},\"inter_chunk_latency\":{\"value\":[4.0,6.0],\"unit\":\"ms\"},"
      + "\"output_sequence_length\":{\"value\":3,\"unit\":\"tokens\"},\"inter_token_latency\":{\"value\":5.0,\"unit\":\"ms\"}},\"error\":null}";
  static final String NEW_CANCELLED = "{\"metadata\":{\"session_num\":80,\"x_request_id\":\"c35e\",\"request_start_ns\":1759879161119147826,"
      + "\"request_ack_ns\":null,\"request_end_ns\":1759879161119772754,\"benchmark_phase\":\"profiling\",\"was_cancelled\":true,"
      + "\"cancellation_time_ns\":1759879161119772754},\"metrics\":{\"error_isl\":{\"value\":550,\"unit\":\"tokens\"}},"
      + "\"error\":{\"code\":499,\"type\":\"RequestCancellationError\",\"message\":\"Request was cancelled after 0.000 seconds\"}}";
  // the early-October-2025 schema (examples/artifacts/run1): timestamp_ns, credit_phase, ttft / ttst tags
  static final String OLD_OK = "{\"metadata\":{\"x_request_id\":\"1ed40a0d\",\"x_correlation_id\":\"dc5c\",\"conversation_id\":\"3c4b\","
      + "\"turn_index\":0,\"timestamp_ns\":1759522419159192408,\"worker_id\":\"worker_43e91c09\",\"record_processor_id\":\"rp\","
      + "\"credit_phase\":\"profiling\"},\"metrics\":{\"input_sequence_length\":{\"value\":550,\"unit\":\"tokens\"},"
      + "\"ttft\":{\"value\":1680.543782,\"unit\":\"ms\"},\"request_count\":{\"value\":1,\"unit\":\"requests\"},"
      + "\"request_latency\":{\"value\":1950.0,\"unit\":\"ms\"},\"min_request_timestamp\":{\"value\":1759522419159192408,\"unit\":\"ns\"},"
      + "\"output_token_count\":{\"value\":2,\"unit\":\"tokens\"},\"reasoning_token_count\":{\"value\":1,\"unit\":\"tokens\"},"
      + "\"ttst\":{\"value\":134.440792,\"unit\":\"ms\"},\"inter_chunk_latency\":{\"value\":[134.440792,135.015426],\"unit\":\"ms\"},"
      + "\"output_sequence_length\":{\"value\":3,\"unit\":\"tokens\"},\"max_response_timestamp\":{\"value\":1759522421109192408,\"unit\":\"ns\"},"
      + "\"inter_token_latency\":{\"value\":134.728109,\"unit\":\"ms\"}},\"error\":null}";
  static final String OLD_CANCELLED = "{\"metadata\":{\"x_request_id\":\"c087da26\",\"x_correlation_id\":\"51a3\",\"conversation_id\":\"82c5\","
      + "\"turn_index\":0,\"timestamp_ns\":1759522419154829652,\"worker_id\":\"worker_1d62deaa\",\"record_processor_id\":\"rp\","
      + "\"credit_phase\":\"profiling\"},\"metrics\":{\"error_request_count\":{\"value\":1,\"unit\":\"requests\"}},"
      + "\"error\":{\"code\":499,\"type\":\"RequestCancellationError\",\"message\":\"Request was cancelled after 0.000 seconds\"}}";

  @Test
  void readsTheLaterSchemaAndRebuildsTheChunks() throws IOException {
    CollectingSink s = Parsing.parse(format, NEW_OK + "\n" + NEW_CANCELLED + "\n");
    assertEquals(2, s.requests.size());
    CollectingSink.Req ok = s.requests.get(0);
    assertEquals("7609a2e7", ok.id());
    assertEquals("ok", ok.status());
    assertEquals(3, ok.outputTokens());
    long start = 1759813207532900363L;
    assertEquals(List.of(start + 5_000_000, start + 9_000_000, start + 15_000_000),
        s.tokens.stream().map(CollectingSink.Tok::tsNs).toList(), "start + TTFT, then each gap");
    assertEquals(List.of(1, 1, 1), s.tokens.stream().map(CollectingSink.Tok::nTokens).toList(), "3 tokens in 3 chunks");
    assertEquals("cancelled", s.requests.get(1).status());
    assertEquals(3, s.tokens.size(), "a cancelled record has no chunks");
  }

  @Test
  void readsTheEarlyOctober2025Schema() throws IOException {
    CollectingSink s = Parsing.parse(format, OLD_CANCELLED + "\n" + OLD_OK + "\n");
    assertEquals("cancelled", s.requests.get(0).status());
    assertEquals(1759522419154829652L, s.requests.get(0).arrivalNs());
    CollectingSink.Req ok = s.requests.get(1);
    assertEquals("ok", ok.status());
    assertEquals(1759522419159192408L, ok.arrivalNs());
    assertEquals(1759522419159192408L + 1_680_543_782L, s.tokens.get(0).tsNs(), "ttft tag");
    assertEquals(1759522419159192408L + 1_680_543_782L + 134_440_792L, s.tokens.get(1).tsNs());
    assertEquals(ChunkKind.CONTENT, s.tokens.get(2).kind());
    assertEquals("1", ok.extras().get("reasoning_token_count"));
    assertEquals("134.440792", ok.extras().get("ttst"));
  }

  @Test
  void warmupRecordsAreMarkedAndErrorsKeepTheirMessage() throws IOException {
    String warm = NEW_OK.replace("\"profiling\"", "\"warmup\"").replace("7609a2e7", "w1");
    String err = NEW_CANCELLED.replace("\"was_cancelled\":true", "\"was_cancelled\":false").replace("c35e", "e1")
        .replace("{\"code\":499,\"type\":\"RequestCancellationError\",\"message\":\"Request was cancelled after 0.000 seconds\"}",
            "{\"code\":500,\"type\":\"InternalServerError\",\"message\":\"Server encountered an internal error\"}");
    CollectingSink s = Parsing.parse(format, warm + "\n\n" + err + "\n");
    assertEquals(1, s.other, "the blank line");
    assertEquals("error", s.requests.get(1).status());
    assertEquals(2, s.records);
  }

  /** Two records run together on one line (a lost newline) are no record: readTree read only the first. */
  /**
   * --export-http-trace's trace_data and the engine's spec_decode_acceptance (AIPerf 2026) were
   * dropped unsaid: a 200 had no http_status. Now the response's status is the request's, the rest
   * is in extras; a bad value rejects the record naming it.
   */
  @Test
  void httpTraceAndSpecDecodeAcceptanceAreKept(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
    java.nio.file.Path file = java.nio.file.Path.of("src/test/resources/constructed/aiperf-http-trace/profile_export.jsonl");
    try (dev.tokentime.testing.TestDb t = new dev.tokentime.testing.TestDb(tmp)) {
      t.ingestSample(dev.tokentime.app.IngestOptions.of(List.of(file.toString())), "aiperf-jsonl", 3, 3, 0, 0);
      assertEquals(List.of(
              List.of("4bd7e5ae", "ok", 200, "547692500", "3", "78", "{\"0\":12,\"1\":9,\"2\":14,\"3\":15}"),
              List.of("5b0c8a1e", "error", 503, "2600000", "1", "-", "-"),
              List.of("ea14b929", "ok", 200, "937334376", "3", "-", "-")),
          t.rows("SELECT left(request_id, 8), status, http_status, extras['trace_data.waiting_ns'],"
              + " extras['trace_data.response_chunks_count'],"
              + " coalesce(extras['spec_decode_acceptance.num_accepted_draft_tokens'], '-'),"
              + " coalesce(extras['spec_decode_acceptance.acceptance_histogram'], '-') FROM requests ORDER BY 1"));
      assertEquals(List.of(List.of("aiohttp", "OK", "{\"content-type\":\"text/event-stream; charset=utf-8\",\"transfer-encoding\":\"chunked\"}", 0L)),
          t.rows("SELECT extras['trace_data.trace_type'], extras['trace_data.response_reason'],"
              + " extras['trace_data.response_headers'], count(*) FILTER (WHERE extras['trace_data.response_chunks'] IS NOT NULL)"
              + " FROM requests WHERE request_id LIKE 'ea14%' GROUP BY ALL"));
    }
    // the server's status, not AIPerf's 499, for a request AIPerf cancelled after the 200
    String traced = NEW_CANCELLED.replace(",\"error\":", ",\"trace_data\":{\"trace_type\":\"aiohttp\","
        + "\"request_send_start_ns\":1759879161119147826,\"response_status_code\":200,\"waiting_ns\":400000},\"error\":");
    CollectingSink ok = Parsing.parse(format, traced + "\n");
    assertEquals("cancelled", ok.requests.get(0).status());
    assertEquals("400000", ok.requests.get(0).extras().get("trace_data.waiting_ns"));
    String[] bad = {
        traced.replace("\"response_status_code\":200", "\"response_status_code\":\"OK\""),
        traced.replace("\"waiting_ns\":400000", "\"waiting_ns\":-400000"),
        traced.replace("\"request_send_start_ns\":1759879161119147826", "\"request_send_start_ns\":1.5"),
        traced.replace("\"trace_data\":{", "\"spec_decode_acceptance\":{\"num_draft_tokens\":-3},\"trace_data\":{"),
        traced.replace("\"trace_data\":{", "\"spec_decode_acceptance\":{\"draft_acceptance_rate\":\"high\"},\"trace_data\":{")};
    CollectingSink s = Parsing.parse(format, String.join("\n", bad) + "\n");
    assertEquals(List.of(
            "1: trace_data.response_status_code: expected an HTTP status, got \"OK\"",
            "2: trace_data.waiting_ns: expected a whole number of at least 0, got \"-400000\"",
            "3: trace_data.request_send_start_ns: expected a whole number of at least 0, got \"1.5\"",
            "4: spec_decode_acceptance.num_draft_tokens: expected a count, got \"-3\"",
            "5: spec_decode_acceptance.draft_acceptance_rate: expected a finite number of at least 0, got \"high\""),
        s.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList());
    assertEquals(0, s.requests.size());
  }

  /**
   * aiperf_metrics gives AIPerf's error-adjusted companions (2026) where a run has successes and
   * failures: each failure an unbounded sample, numpy's "nearest" percentiles, count over both; the
   * statistics the failures reach are no figure. A real AIPerf 0.8 run, 10 of 20 requests failed.
   */
  @Test
  void aiperfMetricsGiveTheErrorAdjustedCompanions(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
    try (dev.tokentime.testing.TestDb t = new dev.tokentime.testing.TestDb(tmp)) {
      t.ingest(java.nio.file.Path.of("src/test/resources/real-logs/tools/aiperf-databloom-llama32/profile_export.jsonl"),
          java.nio.file.Path.of("src/test/resources/real-logs/tools/aiperf-0.12-mlx-probe-c1/profile_export.jsonl"));
      assertEquals(List.of(
              List.of("adj_request_latency", "count", 20.0, "count"),
              List.of("adj_request_latency", "min", 332.579, "ms"),
              List.of("adj_request_latency", "p1", 332.579, "ms"),
              List.of("adj_request_latency", "p10", 358.676, "ms"),
              List.of("adj_request_latency", "p25", 585.651, "ms"),
              List.of("adj_request_latency", "p5", 333.139, "ms")),
          t.rows("SELECT metric, stat, round(value, 3), unit FROM aiperf_metrics"
              + " WHERE run = 'aiperf-databloom-llama32' AND metric = 'adj_request_latency' ORDER BY stat"));
      assertEquals(List.of(List.of("adj_inter_token_latency", 20.0), List.of("adj_time_to_first_token", 20.0)),
          t.rows("SELECT metric, value FROM aiperf_metrics WHERE run = 'aiperf-databloom-llama32'"
              + " AND metric IN ('adj_time_to_first_token', 'adj_inter_token_latency') AND stat = 'count' ORDER BY 1"));
      assertEquals(0L, t.count("SELECT count(*) FROM aiperf_metrics WHERE run = 'aiperf-0.12-mlx-probe-c1'"
          + " AND metric LIKE 'adj%'"), "no failure: no companion");
    }
  }

  @Test
  void moreAfterTheObjectIsAReject() throws IOException {
    CollectingSink s = Parsing.parse(format, NEW_OK + NEW_CANCELLED + "\n" + NEW_CANCELLED + " \n");
    assertEquals(List.of("c35e"), s.requests.stream().map(r -> r.id().substring(0, 4)).toList(), "the last line only");
    assertEquals(List.of("1: more after the JSON object (one record a line); not read"),
        s.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList());
  }

  @Test
  void badLinesAreRejectedWithTheirLineAndReason() throws IOException {
    String wrongType = NEW_OK.replace("\"value\":5.0,\"unit\":\"ms\"}", "\"value\":\"fast\",\"unit\":\"ms\"}");
    String truncated = NEW_OK.substring(0, NEW_OK.length() / 2);
    String negativeGap = NEW_OK.replace("[4.0,6.0]", "[4.0,-6.0]").replace("7609a2e7", "neg");
    String noMeta = "{\"metrics\":{}}";
    byte[] utf8 = Parsing.withInvalidUtf8(NEW_OK.replace("worker_359d423a", "worker_@@").replace("7609a2e7", "u8"));
    String text = NEW_OK + "\n" + NEW_OK + "\n" + wrongType + "\n" + truncated + "\n" + negativeGap + "\n" + noMeta + "\n";
    byte[] head = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] all = new byte[head.length + utf8.length];
    System.arraycopy(head, 0, all, 0, head.length);
    System.arraycopy(utf8, 0, all, head.length, utf8.length);
    CollectingSink s = Parsing.parse(format, all, "dir");
    assertEquals(1, s.records);
    List<String> reasons = s.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList();
    assertEquals(6, reasons.size(), reasons.toString());
    assertTrue(reasons.get(0).startsWith("2: duplicate"), reasons.get(0));
    assertTrue(reasons.get(1).startsWith("3: metrics.time_to_first_token: expected a number"), reasons.get(1));
    assertTrue(reasons.get(2).startsWith("4: truncated JSON"), reasons.get(2));
    assertTrue(reasons.get(3).startsWith("5: inter_chunk_latency[1]: negative gap"), reasons.get(3));
    assertTrue(reasons.get(4).startsWith("6: metadata is missing"), reasons.get(4));
    assertTrue(reasons.get(5).startsWith("7: invalid UTF-8"), reasons.get(5));
    // a count past an int was clamped to 2147483647 with no reject (the cut-lines review)
    CollectingSink huge = Parsing.parse(format, NEW_OK.replace("\"value\":550,", "\"value\":99999999999999999999999,") + "\n");
    assertEquals(List.of("metrics.input_sequence_length: expected a token count"),
        huge.rejects.stream().map(r -> r.reason().substring(0, r.reason().indexOf(", got"))).toList());
  }
}
