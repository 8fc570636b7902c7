package dev.tokentime.formats.vllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * vllm-otlp-json in both forms. The span follows the shape of a real vLLM 0.29.0 export (a test
 * fixture of ruqi1125/inferscope, cited in ../shared/formats/vllm.md §3): times as strings,
 * intValue as strings, latencies in seconds; its values are our own.
 */
class VllmOtlpJsonFormatTest {
  static final VllmOtlpJsonFormat OTLP = new VllmOtlpJsonFormat();

  static String span(String id, String start, String end, String extra) {
    return "{\"name\":\"llm_request\",\"startTimeUnixNano\":\"" + start + "\",\"endTimeUnixNano\":\"" + end + "\","
        + "\"attributes\":[{\"key\":\"gen_ai.latency.time_to_first_token\",\"value\":{\"doubleValue\":0.125}},"
        + "{\"key\":\"gen_ai.latency.e2e\",\"value\":{\"doubleValue\":0.5}},"
        + "{\"key\":\"gen_ai.latency.time_in_queue\",\"value\":{\"doubleValue\":5.0e-05}},"
        + "{\"key\":\"gen_ai.usage.prompt_tokens\",\"value\":{\"intValue\":\"14\"}},"
        + "{\"key\":\"gen_ai.usage.completion_tokens\",\"value\":{\"intValue\":\"8\"}},"
        + "{\"key\":\"gen_ai.latency.time_in_model_prefill\",\"value\":{\"doubleValue\":0.0625}},"
        + "{\"key\":\"gen_ai.latency.time_in_model_decode\",\"value\":{\"doubleValue\":0.375}},"
        + "{\"key\":\"gen_ai.response.finish_reasons\",\"value\":{\"stringValue\":\"[\\\"stop\\\"]\"}},"
        + extra
        + "{\"key\":\"gen_ai.request.id\",\"value\":{\"stringValue\":\"" + id + "\"}}]}";
  }

  static String export(String... spans) {
    return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"vllm-a\"}}]},"
        + "\"scopeSpans\":[{\"spans\":[" + String.join(",", spans) + "]}]}]}";
  }

  @Test
  void aSpanPerLineGivesRequestsWithTheirOwnDurations() throws Exception {
    Parse p = Parse.text(OTLP, export(span("req-1", "1790341371953418752", "1790341372455000000", ""))
        + "\n\n" + export(span("req-2", "1790341372000000000", "1790341372600000000", "")) + "\n",
        Parse.ctx(null, null, false, null));
    assertEquals(3, p.lines);
    assertEquals(2, p.sink.records);
    assertEquals(1, p.sink.other);
    RequestRecord r = p.full.request("req-1");
    assertEquals(1790341371953418752L, r.arrivalNs);
    assertEquals(1790341372455000000L, r.finishedNs);
    assertEquals(125.0, r.ttftMs);
    assertEquals(500.0, r.e2eMs);
    assertEquals(0.05, r.queueMs, 1e-12);
    assertEquals(62.5, r.prefillMs);
    assertEquals(375.0, r.decodeMs);
    assertEquals(r.arrivalNs + 125_000_000L, r.firstTokenNs);
    assertEquals(r.arrivalNs + 500_000_000L, r.lastTokenNs);
    assertEquals(14, r.promptTokens);
    assertEquals(8, r.outputTokens);
    assertEquals("stop", r.finishReason);
    assertEquals("ok", r.status);
    assertEquals("vllm-a", r.instance);
    assertEquals(1, p.sink.clocks.get(0).resolutionNs());
  }

  @Test
  void aPrettyPrintedDocumentCountsItsSpans() throws Exception {
    String doc = export(span("req-1", "1000000000", "2000000000", ""),
        "{\"name\":\"http_request\",\"startTimeUnixNano\":\"1\",\"endTimeUnixNano\":\"2\"}",
        span("req-3", "1000000000", "2000000000", "")).replace(",\"", ",\n  \"");
    Parse p = Parse.text(OTLP, doc, Parse.ctx(null, null, false, null));
    assertEquals(3, p.lines, "three spans");
    assertEquals(2, p.sink.records);
    assertEquals(1, p.sink.other);
    assertEquals(List.of("req-1", "req-3"), p.full.requests.stream().map(r -> r.requestId).toList());
  }

  @Test
  void badSpansAndLinesAreRejected() throws Exception {
    String noId = export("{\"name\":\"llm_request\",\"startTimeUnixNano\":\"1\",\"endTimeUnixNano\":\"2\",\"attributes\":[]}");
    String badNumber = export(span("req-5", "12x", "2", ""));
    String negative = export(span("req-6", "1000", "2000",
        "{\"key\":\"gen_ai.latency.time_in_model_inference\",\"value\":{\"doubleValue\":-1}},"));
    String truncated = export(span("req-7", "1", "2", "")).substring(0, 120);
    Parse p = Parse.text(OTLP, export(span("req-4", "1000", "2000", "")) + "\n" + noId + "\n" + badNumber + "\n"
        + negative + "\n" + truncated + "\n[1, 2]\n", Parse.ctx(null, null, false, null));
    assertEquals(6, p.lines);
    assertEquals(1, p.sink.records);
    assertEquals(List.of(2L, 3L, 4L, 5L, 6L), p.sink.rejects.stream().map(r -> r.lineNo()).toList());
    assertEquals("llm_request span without gen_ai.request.id", p.sink.rejects.get(0).reason());
    assertTrue(p.sink.rejects.get(1).reason().startsWith("startTimeUnixNano: expected integer nanoseconds"));
    assertTrue(p.sink.rejects.get(2).reason().startsWith("gen_ai.latency.time_in_model_inference: expected seconds"));
    assertTrue(p.sink.rejects.get(3).reason().startsWith("truncated JSON"), p.sink.rejects.get(3).reason());
    assertTrue(p.sink.rejects.get(4).reason().startsWith("not an OTLP"), p.sink.rejects.get(4).reason());
  }

  @Test
  void aDocumentThatBreaksOffKeepsTheSpansBeforeIt() throws Exception {
    String doc = export(span("req-1", "1000", "2000", ""), span("req-2", "1000", "2000", "")).replace(",\"", ",\n\"");
    String cut = doc.substring(0, doc.lastIndexOf("req-2") - 40);
    Parse p = Parse.text(OTLP, cut, Parse.ctx(null, null, false, null));
    assertEquals(1, p.sink.records);
    assertEquals(1, p.sink.rejects.size());
    assertTrue(p.sink.rejects.get(0).reason().startsWith("truncated JSON"), p.sink.rejects.get(0).reason());
  }
}
