package dev.tokentime.formats.vllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.Sample;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The vLLM formats claim their files, and neither canonical files nor other tools' JSON. */
class VllmSniffTest {
  static final FormatRegistry REGISTRY = FormatRegistry.standard();

  static String sniff(Path file) throws Exception {
    byte[] b = Files.readAllBytes(file);
    InputFormat f = REGISTRY.sniff(new Sample(file.getFileName().toString(), b, Math.min(b.length, 65536)));
    return f == null ? null : f.id();
  }

  static void assertNotVllm(String format) {
    org.junit.jupiter.api.Assertions.assertFalse(format != null && format.startsWith("vllm-") && !format.equals("vllm-bench-json"),
        "claimed by " + format);
  }

  static String sniff(String name, String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    InputFormat f = REGISTRY.sniff(new Sample(name, b, b.length));
    return f == null ? null : f.id();
  }

  @Test
  void realSamplesAndBundledSamples() throws Exception {
    for (String log : new String[] {"stats-lines.log", "request-lines.log", "access-lines.log", "iteration-lines.log"}) {
      assertEquals("vllm-log", sniff(Parse.REAL.resolve(log)), log);
    }
    assertEquals("vllm-prometheus", sniff(Parse.REAL.resolve("prometheus-exposition.txt")));
    assertEquals("vllm-request-metrics", sniff(Parse.REAL.resolve("requestoutput-metrics-repr.txt")));
    assertEquals("vllm-log", sniff(Path.of("sample-logs/vllm/server.log")));
    assertEquals("vllm-otlp-json", sniff(Path.of("sample-logs/vllm/spans.jsonl")));
    assertEquals("vllm-prometheus", sniff(Path.of("sample-logs/vllm/metrics.prom")));
  }

  @Test
  void canonicalFilesStayCanonical() throws Exception {
    assertEquals("tokentime-jsonl", sniff(Path.of("sample-logs/canonical/c1.jsonl")));
    assertEquals("tokentime-csv", sniff("r.csv", "request_id,run,arrival_ns,first_token_ns\nr1,c1,1,2\n"));
  }

  @Test
  void otherToolsJsonAndLogsAreNotClaimed() {
    // a genai-perf style export, an OTLP export of another service, a Prometheus answer of another exporter
    // (genai-perf's own format claims this one; no vLLM format may)
    // (Triton's metrics are triton-prometheus's, issue 21)
    assertNotVllm(sniff("profile_export.json", "{\"experiments\":[{\"requests\":[{\"timestamp\":1,\"response_timestamps\":[2]}]}]}"));
    assertNull(sniff("traces.json", "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"name\":\"GET /\",\"attributes\":[]}]}]}]}"));
    assertEquals("triton-prometheus", sniff("q.json", "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"__name__\":\"nv_inference_count\"},\"values\":[]}]}}"));
    assertEquals("triton-prometheus", sniff("metrics.txt", "# TYPE nv_inference_count counter\nnv_inference_count{model=\"m\"} 3\n"));
    assertNull(sniff("app.log", "2025-01-01 10:00:00 INFO starting worker\n2025-01-01 10:00:01 INFO done\n"));
    assertNull(sniff("r.jsonl", "{\"request_id\":\"r1\",\"metrics\":{\"latency\":3}}\n"));
  }
  /**
   * The CLI's own error in a server's log ("vllm: error: unrecognized arguments: …", argparse under
   * the bare prog name) is no Prometheus sample line: the log is vLLM's, its refusal a crash.
   */
  @Test
  void theClisErrorIsNoMetric() throws Exception {
    String log = "INFO 06-06 10:00:00 [__init__.py:43] Available plugins for group vllm.platform_plugins:\n"
        + "usage: vllm [-h] [-v] {chat,complete,serve,bench,collect-env,run-batch} ...\n"
        + "vllm: error: unrecognized arguments: --foo\n";
    assertEquals("vllm-log", sniff("server.log", log));
    assertEquals("vllm-prometheus", sniff("metrics.txt", "# TYPE vllm:num_requests_running gauge\n"
        + "vllm:num_requests_running{model_name=\"m\"} 1.0\n"));
  }
}
