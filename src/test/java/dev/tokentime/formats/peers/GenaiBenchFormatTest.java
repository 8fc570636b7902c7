package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import dev.tokentime.testing.RecordingSink;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * genai-bench's run files: the 2024 layout (seconds, no _time_unit) on the published fixture in
 * ToolOutputsTest; here the layout since September 2025 (_time_unit "ms", run_duration, an error
 * record) on a constructed file (constructed/genai-bench-ms, README there) and the refusals on strings.
 */
class GenaiBenchFormatTest {
  final GenaiBenchFormat format = new GenaiBenchFormat();
  static final Path MS = Path.of("src/test/resources/constructed/genai-bench-ms/D100_100_text-to-text_num_concurrency_4_time_16s.json");

  static RecordingSink read(byte[] b) throws IOException {
    RecordingSink s = new RecordingSink();
    long units = new GenaiBenchFormat().parse(new ByteArrayInputStream(b), new ParseContext("x.json", "dir", false, null, null), s);
    assertEquals(units, s.c.records + s.c.other + s.c.rejects.size(), s.c.rejects.toString());
    return s;
  }

  @Test
  void aMillisecondFileKeepsItsUnitAndItsErrorRecord() throws IOException {
    byte[] b = Files.readAllBytes(MS);
    InputFormat f = FormatRegistry.standard().sniff(new Sample(MS.getFileName().toString(), b, b.length));
    assertEquals("genai-bench-json", f.id());
    RecordingSink s = read(b);
    assertEquals(4, s.c.records, "the run's figures and its 3 requests");
    assertEquals(List.of(), s.c.rejects);
    assertEquals(4.0, s.c.levels.get("dir")[1]);
    RequestRecord ok = s.request("0");
    assertEquals(120.0, ok.ttftMs, 1e-9, "ms as written, not ms × 1000");
    assertEquals(2120.0, ok.e2eMs, 1e-9);
    assertEquals(10.0, ok.tpotMs, 1e-9);
    assertEquals(201, ok.outputTokens);
    assertEquals(179, ok.lineNo, "the line its record starts on");
    assertEquals(512, ok.promptTokens);
    assertEquals("40", ok.extras.get("reasoning_tokens"));
    RequestRecord err = s.request("1");
    assertEquals("error", err.status);
    assertEquals(429, err.httpStatus);
    assertEquals("error_code 429: Too Many Requests", err.error);
    assertNull(err.ttftMs);
    assertEquals(3180.0, s.request("2").e2eMs, 1e-9);
    List<String> r = s.c.reported;
    assertTrue(r.contains("dir 4.0 ttft mean 150.0 ms"), r.toString());
    assertTrue(r.contains("dir 4.0 run_duration value 16.0 s"), "run_duration is never converted: " + r);
    assertTrue(r.contains("dir 4.0 requests_per_second value 0.125 requests/s"), r.toString());
    assertTrue(r.contains("dir 4.0 error_count 429 1.0 requests"), r.toString());
    assertTrue(r.contains("dir 4.0 num_output_tokens sum 502.0 tokens"), r.toString());
    assertTrue(r.stream().noneMatch(x -> x.contains("audio_throughput")), "an all-null statistic is no figure");
    assertTrue(r.stream().noneMatch(x -> x.contains("num_concurrency") || x.contains("batch_size")), "the level, not a figure");
  }

  @Test
  void refusalsSayWhy() throws IOException {
    // a unit genai-bench never writes: nothing of the file can be placed
    CollectingSink unit = Parsing.parse(format, "{\"aggregated_metrics\":{\"num_concurrency\":1,\"stats\":{\"ttft\":{\"mean\":1}}},"
        + "\"individual_request_metrics\":[{\"ttft\":1}],\"_time_unit\":\"us\"}");
    assertEquals(0, unit.records);
    assertEquals(List.of("_time_unit: expected \"s\" or \"ms\", got \"us\"; no latency of the file can be read"),
        unit.rejects.stream().map(x -> x.reason()).toList());

    // a bad request is a reject naming its index; the run and the other request are kept
    CollectingSink bad = Parsing.parse(format, "{\"aggregated_metrics\":{\"num_concurrency\":2,\"num_requests\":2},"
        + "\"individual_request_metrics\":[{\"ttft\":-0.1,\"e2e_latency\":1},{\"ttft\":0.1,\"e2e_latency\":1,\"num_output_tokens\":\"ten\"},"
        + "{\"ttft\":0.1,\"e2e_latency\":1,\"num_output_tokens\":10}]}");
    assertEquals(2, bad.records);
    assertEquals(List.of("individual_request_metrics[0]: ttft: negative duration -0.1",
        "individual_request_metrics[1]: num_output_tokens: expected a token count, got \"ten\""),
        bad.rejects.stream().map(x -> x.reason()).toList());
    assertEquals(List.of("dir 2.0 num_requests value 2.0 requests"), bad.reported);

    // a figure out of range keeps none of the run's figures; the requests are still read
    CollectingSink range = Parsing.parse(format, "{\"aggregated_metrics\":{\"num_concurrency\":1,\"run_duration\":-3,"
        + "\"num_requests\":1},\"individual_request_metrics\":[{\"ttft\":0.1,\"e2e_latency\":1}]}");
    assertEquals(1, range.records);
    assertEquals(List.of(), range.reported);
    assertTrue(range.rejects.get(0).reason().startsWith("aggregated_metrics: run_duration out of range: -3.0"), range.rejects.toString());

    // a file cut in its records, of the layout before run_duration (seconds, no _time_unit): the
    // run and the records before the cut are kept, the cut a reject
    CollectingSink cut = Parsing.parse(format, "{\"aggregated_metrics\":{\"num_concurrency\":1,\"num_requests\":3},"
        + "\"individual_request_metrics\":[{\"ttft\":0.1,\"e2e_latency\":1},\n{\"ttft\":0.2,");
    assertEquals(2, cut.records);
    assertEquals(List.of("truncated JSON: the input ends inside a value (after 1 request records); nothing after this point could be read"),
        cut.rejects.stream().map(x -> x.reason()).toList());
    assertEquals(2, cut.rejects.get(0).lineNo());
    // of a layout with run_duration the unit may be ms, said after the records: nothing can be placed
    CollectingSink cut25 = Parsing.parse(format, "{\"aggregated_metrics\":{\"num_concurrency\":1,\"run_duration\":9.5},"
        + "\"individual_request_metrics\":[{\"ttft\":0.1,\"e2e_latency\":1},{\"ttft\":0.2,");
    assertEquals(0, cut25.records);
    assertEquals(1, cut25.rejects.size());
    assertTrue(cut25.rejects.get(0).reason().endsWith("genai-bench writes the unit of its times (_time_unit) after the records,"
        + " so none of the run's figures or requests can be read"), cut25.rejects.toString());

    // invalid UTF-8 inside a record: the run and the record before it kept, the break a reject
    CollectingSink utf = Parsing.parse(format, Parsing.withInvalidUtf8("{\"aggregated_metrics\":{\"num_concurrency\":1},"
        + "\"individual_request_metrics\":[{\"ttft\":0.1},\n{\"error_code\":500,\"error_message\":\"@@\"}]}"), "dir");
    assertEquals(2, utf.records);
    assertEquals(1, utf.rejects.size());
    assertTrue(utf.rejects.get(0).reason().contains("UTF-8"), utf.rejects.toString());
    CollectingSink array = Parsing.parse(format, "[{\"aggregated_metrics\":{}}]");
    assertEquals(List.of("not a genai-bench run file: expected a JSON object"), array.rejects.stream().map(x -> x.reason()).toList());

    // a second document appended is a reject; the first is read
    CollectingSink twice = Parsing.parse(format, "{\"aggregated_metrics\":{\"num_concurrency\":1,\"num_requests\":0}}\n{}");
    assertEquals(1, twice.records);
    assertTrue(twice.rejects.get(0).reason().startsWith("more JSON after the run object"), twice.rejects.toString());
  }

  @Test
  void theExperimentsMetadataIsNamedNotRead() throws IOException {
    String meta = "{\"cmd\":\"genai-bench benchmark\",\"benchmark_version\":\"0.0.2\",\"api_backend\":\"openai\","
        + "\"num_concurrency\":[1,2],\"traffic_scenario\":[\"D(100,100)\"]}";
    byte[] b = meta.getBytes(StandardCharsets.UTF_8);
    assertEquals("genai-bench-json", FormatRegistry.standard().sniff(new Sample("experiment_metadata.json", b, b.length)).id());
    CollectingSink s = Parsing.parse(format, meta);
    assertEquals(0, s.records);
    assertEquals(List.of(GenaiBenchFormat.METADATA_NOT_READ), s.rejects.stream().map(x -> x.reason()).toList());
    assertEquals(GenaiBenchFormat.METADATA_NOT_READ, format.leaveOut("experiment_metadata.json",
        Set.of("experiment_metadata.json", "D100_100_text-to-text_num_concurrency_1_time_60s.json")));
    assertNull(format.leaveOut("experiment_metadata.json", Set.of("experiment_metadata.json")), "alone it is read");
    // a generic object is no genai-bench file
    byte[] other = "{\"aggregated\":{\"mean\":1},\"stats\":{}}".getBytes(StandardCharsets.UTF_8);
    assertEquals(0, format.sniff(new Sample("results.json", other, other.length)));
  }
}
