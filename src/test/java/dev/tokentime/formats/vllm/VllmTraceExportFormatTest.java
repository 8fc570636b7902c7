package dev.tokentime.formats.vllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.TestDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * vLLM's spans from Jaeger, Zipkin and Tempo: sample-logs/traces against the rows
 * expected/make_samples.py computed, one span written four ways giving one row, and rejects.
 */
class VllmTraceExportFormatTest {
  @TempDir
  Path tmp;

  static final String ATTRS_OTLP = "[{\"key\":\"gen_ai.request.id\",\"value\":{\"stringValue\":\"r-1\"}},"
      + "{\"key\":\"gen_ai.usage.prompt_tokens\",\"value\":{\"intValue\":\"12\"}},"
      + "{\"key\":\"gen_ai.usage.completion_tokens\",\"value\":{\"intValue\":\"7\"}},"
      + "{\"key\":\"gen_ai.latency.time_to_first_token\",\"value\":{\"doubleValue\":0.25}},"
      + "{\"key\":\"gen_ai.latency.e2e\",\"value\":{\"doubleValue\":1.5}},"
      + "{\"key\":\"gen_ai.latency.time_in_queue\",\"value\":{\"doubleValue\":0.01}},"
      + "{\"key\":\"gen_ai.response.finish_reasons\",\"value\":{\"stringValue\":\"[\\\"stop\\\"]\"}}]";

  @Test
  void oneSpanWrittenFourWaysGivesOneRow() throws Exception {
    String otlp = "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"vllm\"}}]},"
        + "\"scopeSpans\":[{\"spans\":[{\"name\":\"llm_request\",\"traceId\":\"t\",\"startTimeUnixNano\":\"1775656900000000000\","
        + "\"endTimeUnixNano\":\"1775656901500000000\",\"attributes\":" + ATTRS_OTLP + "}]}]}]}\n";
    String tempo = otlp.replace("resourceSpans", "batches").replace("scopeSpans", "instrumentationLibrarySpans");
    String jaeger = "{\"data\":[{\"traceID\":\"t\",\"spans\":[{\"traceID\":\"t\",\"operationName\":\"llm_request\","
        + "\"startTime\":1775656900000000,\"duration\":1500000,\"processID\":\"p1\",\"tags\":["
        + "{\"key\":\"gen_ai.request.id\",\"type\":\"string\",\"value\":\"r-1\"},"
        + "{\"key\":\"gen_ai.usage.prompt_tokens\",\"type\":\"int64\",\"value\":12},"
        + "{\"key\":\"gen_ai.usage.completion_tokens\",\"type\":\"int64\",\"value\":7},"
        + "{\"key\":\"gen_ai.latency.time_to_first_token\",\"type\":\"float64\",\"value\":0.25},"
        + "{\"key\":\"gen_ai.latency.e2e\",\"type\":\"float64\",\"value\":1.5},"
        + "{\"key\":\"gen_ai.latency.time_in_queue\",\"type\":\"float64\",\"value\":0.01},"
        + "{\"key\":\"gen_ai.response.finish_reasons\",\"type\":\"string\",\"value\":\"[\\\"stop\\\"]\"}]}],"
        + "\"processes\":{\"p1\":{\"serviceName\":\"vllm\"}}}]}\n";
    String zipkin = "[{\"traceId\":\"t\",\"id\":\"s\",\"name\":\"llm_request\",\"timestamp\":1775656900000000,"
        + "\"duration\":1500000,\"localEndpoint\":{\"serviceName\":\"vllm\"},\"tags\":{\"gen_ai.request.id\":\"r-1\","
        + "\"gen_ai.usage.prompt_tokens\":\"12\",\"gen_ai.usage.completion_tokens\":\"7\","
        + "\"gen_ai.latency.time_to_first_token\":\"0.25\",\"gen_ai.latency.e2e\":\"1.5\","
        + "\"gen_ai.latency.time_in_queue\":\"0.01\",\"gen_ai.response.finish_reasons\":\"[\\\"stop\\\"]\"}}]\n";
    String want = null;
    for (Object[] c : new Object[][] {{new VllmOtlpJsonFormat(), otlp}, {new VllmOtlpJsonFormat(), tempo},
        {new VllmTraceExportFormat(VllmTraceExportFormat.Store.JAEGER), jaeger},
        {new VllmTraceExportFormat(VllmTraceExportFormat.Store.ZIPKIN), zipkin}}) {
      Parse p = Parse.text((dev.tokentime.ingest.InputFormat) c[0], (String) c[1], Parse.ctx(null, null, false, null));
      assertEquals(List.of(), p.sink.rejects);
      assertEquals(1, p.full.requests.size(), (String) c[1]);
      RequestRecord r = p.full.requests.get(0);
      String got = r.requestId + " " + r.instance + " " + r.arrivalNs + " " + r.firstTokenNs + " " + r.lastTokenNs
          + " " + r.finishedNs + " " + r.ttftMs + " " + r.e2eMs + " " + r.queueMs + " " + r.promptTokens + " "
          + r.outputTokens + " " + r.finishReason + " " + r.status;
      if (want == null) {
        want = got;
        assertEquals("r-1 vllm 1775656900000000000 1775656900250000000 1775656901500000000 1775656901500000000"
            + " 250.0 1500.0 10.0 12 7 stop ok", got);
      }
      assertEquals(want, got, c[0].getClass().getSimpleName());
    }
  }

  @Test
  void samplesGiveTheRowsMakeSamplesWrote() throws Exception {
    JsonNode want = new ObjectMapper().readTree(Path.of("sample-logs/traces/expected/expected.json").toFile());
    try (TestDb t = new TestDb(tmp)) {
      IngestResult r = t.ingest(IngestOptions.of(List.of("sample-logs/traces")));
      assertEquals(0, r.rejected());
      for (var it = want.get("units").fields(); it.hasNext(); ) {
        var e = it.next();
        IngestResult.FileResult f = r.files().stream().filter(x -> x.format().equals(e.getKey())).findFirst().orElseThrow();
        assertEquals(e.getValue().get(0).asLong(), f.lines(), e.getKey());
        assertEquals(e.getValue().get(2).asLong(), f.otherLines(), e.getKey());
      }
      for (var it = want.get("requests").fields(); it.hasNext(); ) {
        var e = it.next();
        JsonNode q = e.getValue();
        List<Object> row = t.rows("SELECT s.format, r.arrival_ns, r.finished_ns, r.first_token_ns, r.queue_ms, r.ttft_ms,"
            + " r.prefill_ms, r.decode_ms, r.e2e_ms, r.prompt_tokens, r.output_tokens, r.finish_reason, r.status,"
            + " r.instance, c.resolution_ns FROM requests r JOIN sources s USING (source_id)"
            + " JOIN clocks c ON c.clock_id = r.clock_id WHERE request_id = '" + e.getKey() + "'").get(0);
        String id = e.getKey();
        assertEquals(q.get("format").asText(), row.get(0), id);
        assertEquals(q.get("arrival_ns").asLong(), ((Number) row.get(1)).longValue(), id);
        assertEquals(q.get("finished_ns").asLong(), ((Number) row.get(2)).longValue(), id);
        assertEquals(q.get("first_token_ns").asLong(), ((Number) row.get(3)).longValue(), id);
        String[] ms = {"queue_ms", "ttft_ms", "prefill_ms", "decode_ms", "e2e_ms"};
        for (int i = 0; i < ms.length; i++) {
          assertEquals(q.get(ms[i]).asDouble(), ((Number) row.get(4 + i)).doubleValue(), 1e-9, id + " " + ms[i]);
        }
        assertEquals(q.get("prompt_tokens").asInt(), ((Number) row.get(9)).intValue(), id);
        assertEquals(q.get("output_tokens").asInt(), ((Number) row.get(10)).intValue(), id);
        assertEquals(q.get("finish_reason").asText(), row.get(11), id);
        assertEquals(q.get("status").asText(), row.get(12), id);
        assertEquals(q.get("instance").asText(), row.get(13), id);
        assertEquals(q.get("format").asText().equals("vllm-otlp-json") ? 1L : 1000L, ((Number) row.get(14)).longValue(), id);
      }
    }
  }

  @Test
  void sniffedWithoutFrom() throws Exception {
    FormatRegistry reg = FormatRegistry.standard();
    for (String[] c : new String[][] {{"jaeger.json", "vllm-jaeger-json"}, {"zipkin.json", "vllm-zipkin-json"},
        {"tempo.json", "vllm-otlp-json"}}) {
      byte[] b = Files.readAllBytes(Path.of("sample-logs/traces", c[0]));
      assertEquals(c[1], reg.sniff(new Sample(c[0], b, b.length)).id());
    }
  }

  @Test
  void badSpansAreRejectedAndTheRestKept() throws Exception {
    String doc = "[\n"
        + "{\"traceId\":\"a\",\"name\":\"llm_request\",\"timestamp\":\"soon\",\"duration\":5,\"tags\":{\"gen_ai.request.id\":\"x\"}},\n"
        + "{\"traceId\":\"b\",\"name\":\"llm_request\",\"timestamp\":1775656900000000,\"duration\":-5,\"tags\":{\"gen_ai.request.id\":\"y\"}},\n"
        + "{\"traceId\":\"c\",\"name\":\"llm_request\",\"timestamp\":1775656900000000,\"duration\":5,\"tags\":{\"gen_ai.request.id\":\"z\",\"gen_ai.latency.e2e\":\"-1\"}},\n"
        + "{\"traceId\":\"d\",\"name\":\"llm_request\",\"timestamp\":1775656900000000,\"duration\":5,\"tags\":{\"gen_ai.request.id\":\"ok\"}},\n"
        + "{\"traceId\":\"e\",\"name\":\"llm_req";
    Parse p = Parse.text(new VllmTraceExportFormat(VllmTraceExportFormat.Store.ZIPKIN), doc,
        Parse.ctx(null, null, false, null));
    assertEquals(1, p.full.requests.size());
    assertEquals("ok", p.full.requests.get(0).requestId);
    assertEquals(4, p.sink.rejects.size(), p.sink.rejects.toString());
    assertTrue(p.sink.rejects.get(0).reason().contains("integer microseconds"), p.sink.rejects.get(0).reason());
    assertTrue(p.sink.rejects.get(1).reason().contains("negative"), p.sink.rejects.get(1).reason());
    assertTrue(p.sink.rejects.get(2).reason().contains("gen_ai.latency.e2e"), p.sink.rejects.get(2).reason());
    assertTrue(p.sink.rejects.get(3).reason().contains("truncated"), p.sink.rejects.get(3).reason());
  }
}
