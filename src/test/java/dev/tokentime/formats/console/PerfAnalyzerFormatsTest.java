package dev.tokentime.formats.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Triton perf_analyzer's own outputs (real-logs/console/perf-analyzer-*, real-logs/peers/
 * perf-analyzer; PROVENANCE.md there): its printed blocks and its -f CSV, each level a run, the
 * figures as printed (usec, infer/sec), read off the text by hand.
 */
class PerfAnalyzerFormatsTest {
  static final Path CONSOLE = Path.of("src/test/resources/real-logs/console");
  static final Path PEERS = Path.of("src/test/resources/real-logs/peers/perf-analyzer");

  record Read(String format, CollectingSink sink) {}

  static Read read(String name, byte[] bytes) throws IOException {
    InputFormat f = FormatRegistry.standard().sniff(new Sample(name, bytes, Math.min(bytes.length, 64 << 10)));
    assertTrue(f != null, name + " not claimed");
    CollectingSink sink = new CollectingSink();
    long lines = f.parse(new ByteArrayInputStream(bytes), new ParseContext("test-input", "r", false, null, null), sink);
    assertEquals(lines, sink.records + sink.other + sink.rejects.size(), "lines = records + other + rejected");
    return new Read(f.id(), sink);
  }

  static Read read(Path p) throws IOException {
    return read(p.getFileName().toString(), Files.readAllBytes(p));
  }

  static Read read(String name, String text) throws IOException {
    return read(name, text.getBytes(StandardCharsets.UTF_8));
  }

  static void counts(Read r, String format, long records, long other, int rejected) {
    assertEquals(format, r.format());
    assertEquals(List.of(records, other, (long) rejected), List.of(r.sink().records, r.sink().other, (long) r.sink().rejects.size()),
        "records, other, rejected: " + r.sink().rejects);
  }

  @Test
  void cApiBlockWithServerBreakdown() throws IOException {
    Read r = read(CONSOLE.resolve("perf-analyzer-c-api-doc.txt"));
    // 11 figure lines; the closing table repeats concurrency 1's block: an other line
    counts(r, "perf-analyzer-console", 11, 16, 0);
    List<String> m = r.sink().reported;
    for (String s : List.of("r 1.0 request_count value 353.0 requests", "r 1.0 throughput value 19.6095 infer/sec",
        "r 1.0 latency avg 50951.0 usec", "r 1.0 latency std 2265.0 usec", "r 1.0 latency p50 50833.0 usec",
        "r 1.0 latency p99 50985.0 usec", "r 1.0 server_inference_count value 353.0 inferences",
        "r 1.0 server_execution_count value 353.0 executions", "r 1.0 server_success_count value 353.0 requests",
        "r 1.0 server_request_latency avg 50841.0 usec", "r 1.0 server_overhead avg 20.0 usec",
        "r 1.0 server_queue avg 63.0 usec", "r 1.0 server_compute_input avg 35.0 usec",
        "r 1.0 server_compute_infer avg 50663.0 usec", "r 1.0 server_compute_output avg 59.0 usec")) {
      assertTrue(m.contains(s), s + " in " + m);
    }
    assertEquals(17, m.size());
    assertEquals("concurrency", r.sink().levels.get("r")[0]);
    assertEquals(1.0, r.sink().levels.get("r")[1]);
  }

  @Test
  void hashCommentedOpenAiBlock() throws IOException {
    Read r = read(CONSOLE.resolve("perf-analyzer-openai-doc.txt"));
    counts(r, "perf-analyzer-console", 8, 12, 0);
    List<String> m = r.sink().reported;
    assertTrue(m.contains("r 1.0 throughput value 4.94426 infer/sec"), m.toString());
    assertTrue(m.contains("r 1.0 http_time avg 200461.0 usec"), m.toString());
    assertTrue(m.contains("r 1.0 send_recv avg 169.0 usec"), m.toString());
    assertTrue(m.contains("r 1.0 response_wait avg 200292.0 usec"), m.toString());
  }

  @Test
  void requestRateLevelsAndAGarbledHeaderOfARunKilledWhileStabilising() throws IOException {
    Read r = read(CONSOLE.resolve("perf-analyzer-2406-request-rate-p75-killed-pa84.txt"));
    // two levels of 13 figure lines; the third's header carries the user's fence (```): cut
    counts(r, "perf-analyzer-console", 26, 29, 1);
    assertEquals(52, r.sink().rejects.get(0).lineNo());
    assertTrue(r.sink().rejects.get(0).reason().startsWith("a cut line: perf_analyzer's level"), r.sink().rejects.toString());
    assertEquals(List.of("r", "r#2"), List.copyOf(r.sink().levels.keySet()));
    assertEquals("request_rate", r.sink().levels.get("r#2")[0]);
    assertEquals(37500.0, r.sink().levels.get("r#2")[1]);
    List<String> m = r.sink().reported;
    for (String s : List.of("r 35000.0 request_count value 172873.0 requests", "r 35000.0 client_overhead avg 0.0 %",
        "r 35000.0 latency p75 960.0 usec", "r 35000.0 grpc_time avg 848.0 usec", "r 35000.0 marshal avg 3.0 usec",
        "r 35000.0 unmarshal avg 0.0 usec", "r#2 37500.0 throughput value 37502.1 infer/sec",
        "r#2 37500.0 latency p99 1326.0 usec", "r#2 37500.0 server_inference_count value 284736.0 inferences",
        "r#2 37500.0 server_success_count value 284737.0 requests", "r#2 37500.0 server_compute_infer avg 283.0 usec")) {
      assertTrue(m.contains(s), s + " in " + m);
    }
    assertFalse(m.stream().anyMatch(s -> s.startsWith("r#3")), "the killed level printed no figure: no run");
  }

  @Test
  void aCutFigureIsARejectAndTheClosingTableAloneMakesRuns() throws IOException {
    Read r = read("pa.log", "Request concurrency: 2\n  Client: \n    Request count: 64\n    p99 latency: 5917\n"
        + "\nInferences/Second vs. Client p95 Batch Latency\nConcurrency: 2, throughput: 7.10843 infer/sec, latency 586378 usec\n"
        + "Concurrency: 4, throughput: 7.2 infer/sec, latency 1140000 usec\n");
    counts(r, "perf-analyzer-console", 2, 5, 1);
    assertEquals(4, r.sink().rejects.get(0).lineNo());
    assertTrue(r.sink().rejects.get(0).reason().startsWith("a cut line"), r.sink().rejects.toString());
    // concurrency 2 has its block's run; concurrency 4, printed only in the table, is a run of its own
    assertEquals(List.of("r 2.0 request_count value 64.0 requests", "r#2 4.0 throughput value 7.2 infer/sec",
        "r#2 4.0 latency p95 1140000.0 usec"), r.sink().reported);
  }

  @Test
  void csvRowsAreRunsAtTheirLevels() throws IOException {
    Read r = read(PEERS.resolve("perf.csv"));
    counts(r, "perf-analyzer-csv", 4, 1, 0);
    List<String> m = r.sink().reported;
    assertEquals(4 * 12, m.size());
    for (String s : List.of("r 1.0 throughput value 69.2 infer/sec", "r 1.0 client_send avg 225.0 usec",
        "r 1.0 network_server_send_recv avg 2148.0 usec", "r 1.0 server_queue avg 64.0 usec",
        "r 1.0 server_compute_input avg 206.0 usec", "r 1.0 server_compute_infer avg 11781.0 usec",
        "r 1.0 server_compute_output avg 19.0 usec", "r 1.0 client_recv avg 0.0 usec", "r 1.0 latency p50 13891.0 usec",
        "r 1.0 latency p99 21018.0 usec", "r#2 3.0 server_queue avg 21673.0 usec", "r#3 4.0 client_recv avg 1.0 usec",
        "r#4 2.0 throughput value 87.2 infer/sec", "r#4 2.0 latency p99 34766.0 usec")) {
      assertTrue(m.contains(s), s + " in " + m);
    }
    assertEquals(4.0, r.sink().levels.get("r#3")[1]);
  }

  @Test
  void csvOfRequestRateWithNewerColumnsGpuMetricsAndCutRows() throws IOException {
    String header = "Request Rate,Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,Server Compute Input,"
        + "Server Compute Infer,Server Compute Output,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency,"
        + "Avg latency,request/response,response wait,Avg GPU Utilization\n";
    Read r = read("out.csv", header
        + "10,9.8,12,300,40,5,900,3,1,1300,1500,1600,1700,1270,20,1250,gpu_uuid_0:0.33;gpu_uuid_1:0.5;,\n"
        + "20,19.5,12,300,40\n"
        + "30,29.1,12,300,40,5,900,3,1,1300,1500,1600,1700,x,20,1250,gpu_uuid_0:0.5;,\n"
        + "1e400,29.1,12,300,40,5,900,3,1,1300,1500,1600,1700,1270,20,1250,gpu_uuid_0:0.5;,\n");
    counts(r, "perf-analyzer-csv", 1, 1, 3);
    assertEquals("Request Rate: 1e400 is no finite number", r.sink().rejects.get(2).reason());
    assertEquals("a cut row: 5 of the header's 17 cells", r.sink().rejects.get(0).reason());
    assertEquals("Avg latency: 'x' is no number", r.sink().rejects.get(1).reason());
    assertEquals("request_rate", r.sink().levels.get("r")[0]);
    List<String> m = r.sink().reported;
    assertEquals(15, m.size(), "the GPU column's per-GPU pairs are not figures read");
    assertTrue(m.containsAll(List.of("r 10.0 latency avg 1270.0 usec", "r 10.0 request_response avg 20.0 usec",
        "r 10.0 response_wait avg 1250.0 usec")), m.toString());
  }

  @Test
  void anEnsemblesComposingModelsAreNotTheRunsServerFigures() throws IOException {
    // constructed after perf_analyzer's ensemble print (its report_writer): the sub-models'
    // server figures follow "Composing models:"; only the ensemble's own are the run's
    String sub = "      Inference count: 100\n      Execution count: 50\n      Successful request count: 100\n"
        + "      Avg request latency: 46000 usec (overhead 1 usec + queue 2 usec + compute input 3 usec"
        + " + compute infer 45990 usec + compute output 4 usec)\n";
    Read r = read("pa.log", "Request concurrency: 1\n  Client: \n    Request count: 100\n    Throughput: 20 infer/sec\n"
        + "  Server: \n    Inference count: 100\n    Execution count: 100\n    Successful request count: 100\n"
        + "    Avg request latency: 48000 usec (overhead 10 usec + queue 20 usec + compute 47970 usec)\n\n"
        + "  Composing models: \n  preprocess, version: 1\n" + sub + "\n  tensorrt_llm, version: 1\n" + sub
        + "\nRequest concurrency: 2\n  Client: \n    Request count: 7\n");
    counts(r, "perf-analyzer-console", 7, 19, 0);
    assertEquals(List.of("r 1.0 request_count value 100.0 requests", "r 1.0 throughput value 20.0 infer/sec",
        "r 1.0 server_inference_count value 100.0 inferences", "r 1.0 server_execution_count value 100.0 executions",
        "r 1.0 server_success_count value 100.0 requests", "r 1.0 server_request_latency avg 48000.0 usec",
        "r 1.0 server_overhead avg 10.0 usec", "r 1.0 server_queue avg 20.0 usec", "r 1.0 server_compute avg 47970.0 usec",
        "r#2 2.0 request_count value 7.0 requests"), r.sink().reported);
  }

  @Test
  void aLevelNoRunCanHaveIsARejectAndStartsNoRun() throws IOException {
    Read r = read("pa.log", "Request concurrency: 0\n  Client: \n    Request count: 5\n    Throughput: 2 infer/sec\n"
        + "\nInferences/Second vs. Client Average Batch Latency\nConcurrency: 2.5, throughput: 7 infer/sec, latency 100 usec\n"
        + "Concurrency: 3, throughput: 7 infer/sec, latency 100 usec\n");
    counts(r, "perf-analyzer-console", 1, 5, 2);
    assertEquals("perf_analyzer's level 0: concurrency must be a whole number of requests, 1 or more",
        r.sink().rejects.get(0).reason());
    assertEquals(7, r.sink().rejects.get(1).lineNo());
    assertEquals(List.of("r"), List.copyOf(r.sink().levels.keySet()));
    assertEquals(3.0, r.sink().levels.get("r")[1]);
    assertEquals(List.of("r 3.0 throughput value 7.0 infer/sec", "r 3.0 latency avg 100.0 usec"), r.sink().reported);

    String header = "Concurrency,Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,Server Compute Input,"
        + "Server Compute Infer,Server Compute Output,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency\n";
    Read c = read("out.csv", header + "0,10,1,2,3,4,5,6,7,8,9,10,11\n2.5,10,1,2,3,4,5,6,7,8,9,10,11\n"
        + "99999999999,10,1,2,3,4,5,6,7,8,9,10,11\n4,10,1,2,3,4,5,6,7,8,9,10,11\n");
    counts(c, "perf-analyzer-csv", 1, 1, 3);
    assertEquals(List.of("Concurrency 0: concurrency must be a whole number of requests, 1 or more",
        "Concurrency 2.5: concurrency must be a whole number of requests, 1 or more",
        "Concurrency 99999999999: concurrency of at most 10,000,000"),
        c.sink().rejects.stream().map(x -> x.reason()).toList());
    assertEquals(List.of("r"), List.copyOf(c.sink().levels.keySet()));
    assertEquals(4.0, c.sink().levels.get("r")[1]);
  }

  /**
   * A count no run has (digits past 10^12: 1e26 read as a double) is a reject naming it, as in
   * every console summary (Checked.countFigureProblem); the block's other figures are kept.
   * Made-up values.
   */
  @Test
  void aCountPastAnyRunsIsARejectNamingIt() throws IOException {
    Read r = read("pa.log", "Request concurrency: 1\n  Client: \n    Request count: 100000000000000000000000000\n"
        + "    Throughput: 2 infer/sec\n  Server: \n    Inference count: 12\n    Execution count: 1000000000001\n");
    assertEquals(List.of("3: request_count out of range: 100000000000000000000000000 (a count of requests or tokens, 0 to 10^12)",
        "7: server_execution_count out of range: 1000000000001 (a count of requests or tokens, 0 to 10^12)"),
        r.sink().rejects.stream().map(x -> x.lineNo() + ": " + x.reason()).toList());
    assertEquals(List.of("r 1.0 throughput value 2.0 infer/sec", "r 1.0 server_inference_count value 12.0 inferences"),
        r.sink().reported);
  }

  @Test
  void aLineWithOneBadNumberStoresNone() throws IOException {
    Read r = read("pa.log", "Request concurrency: 1\n  Client: \n    Request count: 5\n"
        + "    Avg latency: 5 usec (standard deviation 1e999 usec)\n"
        + "    Avg HTTP time: 40 usec (send/recv 10 usec + response wait 1e999 usec)\n"
        + "\nInferences/Second vs. Client Average Batch Latency\nConcurrency: 3, throughput: 7 infer/sec, latency 1e999 usec\n");
    counts(r, "perf-analyzer-console", 1, 4, 3);
    assertEquals("latency std: Infinity is no finite number", r.sink().rejects.get(0).reason());
    assertEquals(List.of("r 1.0 request_count value 5.0 requests"), r.sink().reported);
    assertEquals(List.of("r"), List.copyOf(r.sink().levels.keySet()), "the rejected table row starts no run");
  }

  @Test
  void othersCsvAndLinesAreNotClaimed() {
    FormatRegistry reg = FormatRegistry.standard();
    for (String text : List.of("Concurrency,Inferences/Second\n1,2\n", "Concurrency: 4, throughput: 83 infer/sec, latency 48064 usec\n",
        "Request concurrency: 4\nsomething else\n")) {
      byte[] b = text.getBytes(StandardCharsets.UTF_8);
      InputFormat f = reg.sniff(new Sample("x.txt", b, b.length));
      assertNull(f == null ? null : f.id(), text);
    }
  }
}
