package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.testing.CollectingSink;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * genai-perf's profile_export.json on strings: genai-perf's own SSE pre-processing cases
 * (real-logs/peers/genai-perf/sse-preprocessing-head), the other response shapes, and bad input.
 */
class GenaiPerfExportFormatTest {
  static final ObjectMapper JSON = new ObjectMapper();
  final GenaiPerfExportFormat format = new GenaiPerfExportFormat();
  static final JsonNode CASES = read();

  static JsonNode read() {
    try {
      return JSON.readTree(Path.of("src/test/resources/real-logs/peers/genai-perf/sse-preprocessing-head/cases.json")
          .toFile()).get("cases");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** One experiment with one request per outputs list, response i at timestamp i (as genai-perf's tests). */
  static String export(JsonNode... outputs) throws IOException {
    ObjectNode doc = JSON.createObjectNode();
    doc.put("service_kind", "openai");
    doc.put("endpoint", "v1/chat/completions");
    ObjectNode exp = doc.putArray("experiments").addObject();
    exp.putObject("experiment").put("mode", "concurrency").put("value", 1);
    ArrayNode reqs = exp.putArray("requests");
    for (JsonNode o : outputs) {
      ObjectNode r = reqs.addObject();
      r.put("timestamp", 0);
      r.putObject("request_inputs").put("payload", "{}");
      ArrayNode ts = r.putArray("response_timestamps");
      for (int i = 0; i < o.size(); i++) {
        ts.add(i);
      }
      r.set("response_outputs", o);
    }
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(doc);
  }

  static List<ChunkKind> kinds(CollectingSink s, long key) {
    return s.tokens.stream().filter(t -> t.key() == key).map(CollectingSink.Tok::kind).toList();
  }

  static List<Long> contentTimes(CollectingSink s, long key) {
    return s.tokens.stream().filter(t -> t.key() == key && t.kind() == ChunkKind.CONTENT)
        .map(CollectingSink.Tok::tsNs).toList();
  }

  @Test
  void mergedEventsInOneResponseAreOneContentChunk() throws IOException {
    for (JsonNode c : CASES.get("merged_sse_responses")) {
      CollectingSink s = Parsing.parse(format, export(c.get("res_outputs")));
      assertEquals(List.of(ChunkKind.CONTENT, ChunkKind.DONE), kinds(s, 1), c.get("service_format").asText());
    }
  }

  @Test
  void splinteredEventsAreGluedBack() throws IOException {
    for (JsonNode c : CASES.get("splintered_sse_responses")) {
      CollectingSink s = Parsing.parse(format, export(c.get("res_outputs")));
      List<Long> content = contentTimes(s, 1);
      assertEquals(c.get("expected_responses").size(), content.size(), "content responses: " + kinds(s, 1));
      assertEquals(0L, content.get(0), "a glued event keeps the time of its first fragment");
      assertEquals(c.get("res_outputs").size(), kinds(s, 1).size(), "every response keeps its row");
    }
    CollectingSink s = Parsing.parse(format, export(CASES.get("splintered_sse_responses").get(0).get("res_outputs")));
    assertEquals(List.of(ChunkKind.CONTENT, ChunkKind.EMPTY, ChunkKind.CONTENT, ChunkKind.CONTENT, ChunkKind.DONE),
        kinds(s, 1));
  }

  @Test
  void commentsAndEventLinesAreNotData() throws IOException {
    JsonNode c = CASES.get("non_data_sse_fields");
    CollectingSink s = Parsing.parse(format, export(c.get("res_outputs")));
    assertEquals(c.get("expected_remaining_timestamps").asInt(), contentTimes(s, 1).size());
    assertEquals(List.of(2L, 5L), contentTimes(s, 1));
    assertEquals(ChunkKind.DONE, kinds(s, 1).get(7));
  }

  @Test
  void anErrorEventFailsTheRequest() throws IOException {
    for (JsonNode c : CASES.get("sse_error_event")) {
      CollectingSink s = Parsing.parse(format, export(c.get("res_outputs")));
      long failed = s.requests.stream().filter(r -> "error".equals(r.status())).count();
      assertEquals(c.get("expected_failed_count").asLong(), failed);
      assertTrue(kinds(s, 1).contains(ChunkKind.ERROR), kinds(s, 1).toString());
    }
  }

  @Test
  void anErrorObjectInTheStreamFailsTheRequest() throws IOException {
    CollectingSink s = Parsing.parse(format, export(JSON.readTree("""
        [{"response":"data: {\\"object\\":\\"chat.completion.chunk\\",\\"choices\\":[{\\"delta\\":{\\"content\\":\\"a\\"}}]}\\n\\n"},
         {"response":"data: {\\"error\\":{\\"message\\":\\"CUDA out of memory\\",\\"code\\":500}}\\n\\n"}]""")));
    assertEquals(List.of(ChunkKind.CONTENT, ChunkKind.ERROR), kinds(s, 1));
    assertEquals("error", s.requests.get(0).status());
  }

  @Test
  void aNonStreamingResponseIsOneContentChunkWithItsUsage() throws IOException {
    CollectingSink s = Parsing.parse(format, export(CASES.get("non_sse_single_response").get("res_outputs")));
    assertEquals(List.of(ChunkKind.CONTENT), kinds(s, 1));
    assertEquals(977, s.requests.get(0).outputTokens(), "usage.completion_tokens");
  }

  @Test
  void roleOnlyEmptyAndDoneChunksAreNotContent() throws IOException {
    CollectingSink s = Parsing.parse(format, export(JSON.readTree("""
        [{"response":"data: {\\"object\\":\\"chat.completion.chunk\\",\\"choices\\":[{\\"delta\\":{\\"role\\":\\"assistant\\"}}]}\\n\\n"},
         {"response":"data: {\\"object\\":\\"chat.completion.chunk\\",\\"choices\\":[{\\"delta\\":{\\"reasoning_content\\":\\"hmm\\"}}]}\\n\\n"},
         {"response":"data: {\\"object\\":\\"chat.completion.chunk\\",\\"choices\\":[{\\"delta\\":{\\"content\\":\\"\\"}}]}\\n\\n"},
         {"response":"data: {\\"object\\":\\"chat.completion.chunk\\",\\"choices\\":[{\\"delta\\":{\\"content\\":\\"hi\\"}}]}\\n\\n"},
         {"response":"data: {\\"choices\\":[],\\"usage\\":{\\"completion_tokens\\":2,\\"prompt_tokens\\":5}}\\n\\n"},
         {"response":"data: [DONE]\\n\\n"}]""")));
    assertEquals(List.of(ChunkKind.ROLE, ChunkKind.REASONING, ChunkKind.EMPTY, ChunkKind.CONTENT, ChunkKind.USAGE,
        ChunkKind.DONE), kinds(s, 1));
    assertEquals(2, s.requests.get(0).outputTokens());
    assertEquals("openai", s.requests.get(0).extras().get("service_kind"));
  }

  @Test
  void tritonAndCApiShapes() throws IOException {
    String doc = """
        {"service_kind":"triton_c_api","experiments":[{"experiment":{"mode":"request_rate","value":2.5},"requests":[
          {"timestamp":100,"request_inputs":{"input_ids":[1,2,3]},"response_timestamps":[110,120,130],
           "response_outputs":[{"output_ids":[7]},{"output_ids":[8,9]},{"output_ids":null}]}]}]}""";
    CollectingSink s = Parsing.parse(format, doc);
    assertEquals(List.of(1, 2, 0), s.tokens.stream().map(CollectingSink.Tok::nTokens).toList());
    assertEquals(List.of(ChunkKind.CONTENT, ChunkKind.CONTENT, ChunkKind.EMPTY), kinds(s, 1));
    assertEquals(3, s.requests.get(0).outputTokens());
    assertEquals("request_rate", s.levels.get("dir")[0]);
    assertEquals(2.5, s.levels.get("dir")[1]);
  }

  @Test
  void severalExperimentsAreSeveralRuns() throws IOException {
    String doc = """
        {"experiments":[
          {"experiment":{"mode":"concurrency","value":1},"requests":[{"timestamp":1,"response_timestamps":[2],"response_outputs":[{"text_output":"a"}]}]},
          {"experiment":{"mode":"concurrency","value":4},"requests":[{"timestamp":1,"response_timestamps":[3],"response_outputs":[{"text_output":"b"}]}]}]}""";
    CollectingSink s = Parsing.parse(format, doc);
    assertEquals(List.of("dir", "dir#2"), s.requests.stream().map(CollectingSink.Req::run).toList());
    assertEquals(4.0, s.levels.get("dir#2")[1]);
    assertEquals(2, s.records);
    assertEquals(1, s.other, "the document itself");
  }

  /**
   * perf_analyzer's export before response_outputs existed (real-logs/tools/perf-analyzer-2023-
   * decoupled-docs-example: the example its docs gave of the format, 2023): each request with
   * responses was a reject ("response_outputs has 0 entries but response_timestamps has 3"). Its
   * response times are now the request's chunks, content of unknown size, so the first-token
   * latency is response_timestamps[0] - timestamp as perf_analyzer's own LLM scripts computed it.
   */
  @Test
  void anExportWithoutResponseOutputsKeepsItsResponseTimes() throws IOException {
    String doc = java.nio.file.Files.readString(Path.of(
        "src/test/resources/real-logs/tools/perf-analyzer-2023-decoupled-docs-example/decoupled_output_file.json"));
    CollectingSink s = Parsing.parse(format, doc);
    assertEquals(List.of(), s.rejects);
    assertEquals(3, s.records);
    assertEquals(List.of("ok", "error", "ok"), s.requests.stream().map(CollectingSink.Req::status).toList());
    assertEquals(List.of(1L, 5L, 6L), s.requests.stream().map(CollectingSink.Req::arrivalNs).toList());
    CollectingSink.Req first = s.requests.get(0);
    CollectingSink.Req third = s.requests.get(2);
    assertEquals(List.of(2L, 3L, 4L), contentTimes(s, first.key()));
    assertEquals(List.of(7L, 8L, 9L), contentTimes(s, third.key()));
    assertEquals(List.of(ChunkKind.CONTENT, ChunkKind.CONTENT, ChunkKind.CONTENT), kinds(s, third.key()));
    assertTrue(s.tokens.stream().allMatch(t -> t.nTokens() == -1), "a response of unknown size");
    // the docs' calculate_avg_first_token_latency.py: mean of response_timestamps[0] - timestamp
    assertEquals(1L, contentTimes(s, first.key()).get(0) - first.arrivalNs());
    assertEquals(1L, contentTimes(s, third.key()).get(0) - third.arrivalNs());
    // an export that names its outputs still has one per response time
    String listed = doc.replace("\"response_timestamps\": [\n                        2,",
        "\"response_outputs\": [{\"text_output\": \"a\"}],\n\"response_timestamps\": [\n                        2,");
    assertTrue(!listed.equals(doc), "the edit applies");
    CollectingSink m = Parsing.parse(format, listed);
    assertEquals(1, m.rejects.size(), m.rejects.toString());
    assertTrue(m.rejects.get(0).reason().contains("response_outputs has 1 entries but response_timestamps has 3"),
        m.rejects.get(0).reason());
  }

  @Test
  void badRequestsAreRejectedWithTheirLineAndReason() throws IOException {
    String doc = """
        {"experiments":[{"experiment":{"mode":"concurrency","value":1},"requests":[
        {"timestamp":"soon","response_timestamps":[2],"response_outputs":[{"text_output":"a"}]},
        {"timestamp":5,"response_timestamps":[4],"response_outputs":[{"text_output":"a"}]},
        {"timestamp":5,"response_timestamps":[6,7],"response_outputs":[{"text_output":"a"}]},
        {"timestamp":5,"response_timestamps":[6],"response_outputs":[{"response":"data: {not json\\n\\n"}]},
        17,
        {"timestamp":5,"response_timestamps":[6],"response_outputs":[{"text_output":"fine"}]}
        ]}]}""";
    CollectingSink s = Parsing.parse(format, doc);
    assertEquals(5, s.rejects.size(), s.rejects.toString());
    assertEquals(1, s.records);
    assertEquals(2, s.rejects.get(0).lineNo());
    assertTrue(s.rejects.get(0).reason().contains("timestamp: expected an integer"), s.rejects.get(0).reason());
    assertTrue(s.rejects.get(1).reason().contains("timestamps decrease"), s.rejects.get(1).reason());
    assertTrue(s.rejects.get(2).reason().contains("response_outputs has 1 entries but response_timestamps has 2"),
        s.rejects.get(2).reason());
    assertTrue(s.rejects.get(3).reason().contains("not valid JSON"), s.rejects.get(3).reason());
    assertTrue(s.rejects.get(4).reason().contains("expected an object"), s.rejects.get(4).reason());
    assertEquals(6, s.rejects.get(4).lineNo());
  }

  @Test
  void aTruncatedFileKeepsWhatCameBeforeAndRejectsTheRest() throws IOException {
    String doc = """
        {"experiments":[{"experiment":{"mode":"concurrency","value":1},"requests":[
        {"timestamp":1,"response_timestamps":[2],"response_outputs":[{"text_output":"a"}]},
        {"timestamp":1,"response_timestamps":[2,3""";
    CollectingSink s = Parsing.parse(format, doc);
    assertEquals(1, s.requests.size());
    assertEquals(1, s.rejects.size());
    assertEquals(3, s.rejects.get(0).lineNo());
    assertTrue(s.rejects.get(0).reason().startsWith("truncated JSON"), s.rejects.get(0).reason());
  }

  @Test
  void invalidUtf8AndNonObjectsAreRejected() throws IOException {
    CollectingSink s = Parsing.parse(format, Parsing.withInvalidUtf8("""
        {"experiments":[{"requests":[{"timestamp":1,"response_timestamps":[2],"response_outputs":[{"text_output":"@@"}]}]}]}"""),
        "dir");
    assertEquals(1, s.rejects.size());
    assertTrue(s.rejects.get(0).reason().startsWith("invalid UTF-8"), s.rejects.get(0).reason());
    CollectingSink t = Parsing.parse(format, "[1, 2]");
    assertTrue(t.rejects.get(0).reason().contains("expected a JSON object"), t.rejects.toString());
  }
}
