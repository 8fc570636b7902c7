package dev.tokentime.formats.trtllm;

import dev.tokentime.testing.RecordingSink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.RequestRecord;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** triton-trace on strings: merging fragments by id, streamed responses, ensembles, bad input. */
class TritonTraceFormatTest {
  final TritonTraceFormat format = new TritonTraceFormat();

  static String ts(int id, String name, long ns) {
    return "{\"id\":" + id + ",\"timestamps\":[{\"name\":\"" + name + "\",\"ns\":" + ns + "}]}";
  }

  static String model(int id, String name, Integer parent) {
    return "{\"id\":" + id + ",\"model_name\":\"" + name + "\",\"model_version\":1,\"request_id\":\"req-" + id + "\""
        + (parent == null ? "" : ",\"parent_id\":" + parent) + "}";
  }

  @Test
  void theDocumentedTraceIsOneRequestFromTwelveFragments() throws IOException {
    RecordingSink s = Samples.parse(format, Samples.read("triton_trace_docs_example.json"));
    assertEquals(12, s.c.records);
    assertEquals(1, s.requests.size());
    RequestRecord r = s.requests.get(0);
    assertEquals("1", r.requestId);
    assertEquals(2356425054587444L, r.arrivalNs, "HTTP_RECV_START");
    assertEquals(2356425054791517L, r.queuedNs, "QUEUE_START");
    assertEquals(2356425054887198L, r.scheduledNs, "COMPUTE_START");
    assertEquals(2356425057712991L, r.finishedNs, "HTTP_SEND_END");
    assertEquals(List.of(2356425057587919L), s.tokenTimes(1), "its one INFER_RESPONSE_COMPLETE");
    assertEquals("2356425057540989", r.extras.get("compute_end_ns"));
    assertEquals("2356425057643164", r.extras.get("request_end_ns"));
    assertEquals("steady", s.c.clocks.get(r.clockId - 1).kind());
    assertEquals("triton", r.engine);
  }

  @Test
  void theOld2019FormatIsReadWithItsLowercaseNames() throws IOException {
    String tr2 = Samples.split("triton_trace_other_examples.txt").get("TR-2");
    RecordingSink s = Samples.parse(format, tr2);
    assertEquals(1, s.c.records, "the one complete object: a composing model whose ensemble is cut off");
    assertEquals(1, s.c.rejects.size(), "the truncated second object");
    RequestRecord r = s.requests.get(0);
    assertEquals("2", r.requestId);
    assertEquals(2198577174107855L, r.arrivalNs, "request handler start");
    assertEquals(2198577174110088L, r.queuedNs);
    assertEquals(2198577174191902L, r.scheduledNs);
    assertEquals(2198577174284459L, r.finishedNs, "request handler end");
    assertEquals("1", r.extras.get("parent_id"));
    assertEquals("nop_TYPE_INT32_-1", r.extras.get("model_name"));
  }

  @Test
  void streamedResponsesAreTokensAndAnUnclosedArrayIsNotAnError() throws IOException {
    String text = "[" + model(7, "tensorrt_llm", null) + ",\n"
        + ts(7, "HTTP_RECV_START", 1000) + ",\n" + ts(7, "REQUEST_START", 1100) + ",\n"
        + ts(7, "QUEUE_START", 1200) + ",\n" + ts(7, "COMPUTE_START", 1300) + ",\n"
        + ts(7, "INFER_RESPONSE_COMPLETE", 5000) + ",\n" + ts(7, "INFER_RESPONSE_COMPLETE", 6000) + ",\n"
        + ts(7, "INFER_RESPONSE_COMPLETE", 7500) + ",\n" + ts(7, "COMPUTE_END", 7400) + ",\n"
        + ts(7, "REQUEST_END", 7600) + ",\n";
    RecordingSink s = Samples.parse(format, text);
    assertEquals(10, s.c.records);
    assertEquals(List.of(), s.c.rejects, "Triton writes the closing bracket at shutdown only");
    RequestRecord r = s.requests.get(0);
    assertEquals(List.of(5000L, 6000L, 7500L), s.tokenTimes(1));
    assertEquals(7600L, r.finishedNs, "REQUEST_END when the response was not seen sent");
    assertEquals("req-7", r.extras.get("triton_request_id"));
  }

  @Test
  void interleavedTracesAndAnEnsembleAreMergedByIdAndParent() throws IOException {
    String text = "[" + String.join(",\n", List.of(
        model(1, "ensemble", null), ts(1, "REQUEST_START", 100), model(3, "ensemble", null),
        ts(3, "REQUEST_START", 150), model(2, "tensorrt_llm", 1), ts(2, "REQUEST_START", 200),
        ts(2, "QUEUE_START", 210), ts(2, "COMPUTE_START", 260), ts(1, "INFER_RESPONSE_COMPLETE", 900),
        ts(2, "COMPUTE_END", 1000), ts(2, "REQUEST_END", 1010), ts(1, "REQUEST_END", 1100),
        ts(3, "REQUEST_END", 1200))) + "]";
    RecordingSink s = Samples.parse(format, text);
    assertEquals(13, s.c.records);
    assertEquals(2, s.requests.size(), "the composing model is part of its ensemble's request");
    RequestRecord e = s.request("1");
    assertEquals("1", e.extras.get("tensorrt_llm.executions"));
    assertEquals("5.0E-5", e.extras.get("tensorrt_llm.queue_ms"), "50 ns in Triton's queue");
    assertEquals("7.4E-4", e.extras.get("tensorrt_llm.compute_ms"));
    assertEquals(List.of(900L), s.tokenTimes(1));
    assertEquals(1200L, s.request("3").finishedNs);
  }

  /**
   * A gRPC trace as Triton wrote one (triton-inference-server/server#4219, ~22.0x): its frontend's
   * stamps come after REQUEST_END. The trace was emitted at REQUEST_END and each of them rejected
   * as "more than 1024 fragments after its REQUEST_END"; now it waits for GRPC_SEND_END, and the
   * request runs from GRPC_WAITREAD_END to GRPC_SEND_END. An ensemble sent over HTTP still takes in
   * its composing model, which has no frontend stamps of its own.
   */
  @Test
  void aGrpcTracesFrontendStampsAfterRequestEndAreItsOwn() throws IOException {
    String text = "[" + String.join(",\n", List.of(
        model(5934, "rfb_face_detector", null), ts(5934, "REQUEST_START", 598657377333897L),
        ts(5934, "QUEUE_START", 598657377344487L), ts(5934, "COMPUTE_START", 598657377545935L),
        ts(5934, "COMPUTE_END", 598657386629374L), ts(5934, "REQUEST_END", 598657386923561L),
        ts(5934, "GRPC_WAITREAD_START", 598654540562539L), ts(5934, "GRPC_WAITREAD_END", 598657377000000L),
        ts(5934, "GRPC_SEND_START", 598657386950000L), ts(5934, "GRPC_SEND_END", 598657387000000L))) + "]";
    RecordingSink s = Samples.parse(format, text);
    assertEquals(List.of(), s.c.rejects);
    assertEquals(10, s.c.records);
    RequestRecord r = s.request("5934");
    assertEquals(List.of(598657377000000L, 598657387000000L), List.of(r.arrivalNs, r.finishedNs));
    String ensemble = "[" + String.join(",\n", List.of(
        model(1, "ensemble", null), ts(1, "HTTP_RECV_START", 50), ts(1, "REQUEST_START", 100),
        model(2, "tensorrt_llm", 1), ts(2, "REQUEST_START", 200), ts(2, "COMPUTE_START", 260),
        ts(2, "COMPUTE_END", 1000), ts(2, "REQUEST_END", 1010), ts(1, "REQUEST_END", 1100),
        ts(1, "HTTP_SEND_START", 1150), ts(1, "HTTP_SEND_END", 1200))) + "]";
    s = Samples.parse(format, ensemble);
    assertEquals(1, s.requests.size(), "the composing model is part of its ensemble's request");
    assertEquals("1", s.request("1").extras.get("tensorrt_llm.executions"));
  }

  @Test
  void badFragmentsAreRejectedAndIncompleteTracesNamed() throws IOException {
    String text = "[" + String.join(",\n", List.of(
        ts(1, "REQUEST_START", 100),
        "{\"timestamps\":[{\"name\":\"REQUEST_START\",\"ns\":5}]}",
        "{\"id\":2,\"timestamps\":[{\"name\":\"REQUEST_START\",\"ns\":\"soon\"}]}",
        ts(3, "REQUEST_START", 300), ts(3, "QUEUE_START", 250), ts(3, "REQUEST_END", 400),
        "7",
        "{\"id\":4,\"activity\":\"TENSOR_QUEUE_INPUT\",\"tensor\":{\"name\":\"x\"}}",
        ts(1, "QUEUE_START", 120))) + "]";
    RecordingSink s = Samples.parse(format, text);
    assertEquals(0, s.c.records);
    assertEquals(1, s.c.other, "a TENSORS activity record");
    List<String> reasons = s.c.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList();
    assertEquals(8, reasons.size(), reasons.toString());
    assertTrue(reasons.contains("2: trace fragment without an id"), reasons.toString());
    assertTrue(reasons.contains("3: trace 2: timestamps.ns: expected a number, got \"soon\""), reasons.toString());
    assertTrue(reasons.contains("7: expected a trace fragment object"), reasons.toString());
    assertTrue(reasons.stream().filter(r -> r.startsWith("4: timestamps decrease in trace 3: QUEUE_START is before arrival"))
        .count() == 3, reasons.toString());
    assertTrue(reasons.contains("1: trace 1: no REQUEST_END before the end of the file (fragment 2 of 2)"), reasons.toString());
  }

  @Test
  void stampsAfterRequestEndAreMergedWithinTheGraceWindow() throws IOException {
    StringBuilder text = new StringBuilder("[");
    text.append(ts(1, "HTTP_RECV_START", 10)).append(",").append(ts(1, "REQUEST_START", 20)).append(",")
        .append(ts(1, "REQUEST_END", 90)).append(",");
    for (int i = 0; i < 5; i++) { // another request's fragments in between
      text.append(ts(100 + i, "REQUEST_START", 100)).append(",").append(ts(100 + i, "REQUEST_END", 200)).append(",");
    }
    text.append(ts(1, "HTTP_SEND_START", 95)).append(",").append(ts(1, "HTTP_SEND_END", 99)).append("]");
    RecordingSink s = Samples.parse(format, text.toString());
    assertEquals(15, s.c.records);
    assertEquals(99L, s.request("1").finishedNs, "HTTP_SEND_END, after REQUEST_END");
  }

  @Test
  void openTracesAreBoundedTheOldestIsDroppedWithAReason() throws IOException {
    String text = "[" + String.join(",\n", List.of(
        ts(1, "REQUEST_START", 100), ts(2, "REQUEST_START", 110), ts(3, "REQUEST_START", 120),
        ts(2, "REQUEST_END", 200), ts(3, "REQUEST_END", 210))) + "]";
    RecordingSink s = Samples.parse(new TritonTraceFormat(2), text);
    assertEquals(4, s.c.records);
    assertEquals(List.of("2", "3"), s.requests.stream().map(r -> r.requestId).toList());
    assertEquals(1, s.c.rejects.size());
    assertEquals("trace 1: more than 2 traces open at once; dropped before its REQUEST_END",
        s.c.rejects.get(0).reason());
  }

  @Test
  void invalidUtf8EndsTheDocumentThereAndKeepsWhatCameBefore() throws IOException {
    String text = "[" + String.join(",\n", List.of(ts(1, "REQUEST_START", 100), ts(1, "REQUEST_END", 200),
        "{\"id\":2,\"model_name\":\"@@\"}", ts(2, "REQUEST_START", 300))) + "]";
    RecordingSink s = Samples.parse(format, Samples.withInvalidUtf8(text), null);
    assertEquals(2, s.c.records, "trace 1 was complete before the bad bytes");
    assertEquals(1, s.c.rejects.size());
    assertEquals(3, s.c.rejects.get(0).lineNo());
    assertTrue(s.c.rejects.get(0).reason().startsWith("invalid UTF-8"), s.c.rejects.get(0).reason());
  }
}
