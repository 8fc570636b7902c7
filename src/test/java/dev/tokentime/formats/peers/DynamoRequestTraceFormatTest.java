package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestResult;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import dev.tokentime.testing.TestDb;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** NVIDIA Dynamo's request trace: the constructed sample's figures by hand, sniffing, bad lines. */
class DynamoRequestTraceFormatTest {
  static final Path SAMPLE = Path.of("src/test/resources/constructed/dynamo-request-trace/dynamo-request-trace.000000.jsonl");
  final DynamoRequestTraceFormat format = new DynamoRequestTraceFormat();

  @TempDir
  Path tmp;

  @Test
  void requestEndRecordsAreRequestsAndToolRecordsOtherLines() throws IOException {
    CollectingSink s = Parsing.parse(format, Files.readAllBytes(SAMPLE), "trace");
    assertEquals(3, s.records);
    assertEquals(1, s.other, "the harness's tool_end");
    assertEquals(List.of(), s.rejects);
    CollectingSink.Req a = s.requests.get(0);
    assertEquals("cmpl-123", a.id());
    assertEquals(1777312800000_000000L, a.arrivalNs(), "request_received_ms as ns");
    assertEquals(1777312800000_000000L + 82_400_000L, a.firstTokenNs(), "arrival + ttft_ms 82.4");
    assertEquals(512, a.outputTokens());
    assertEquals("ok", a.status());
    assertEquals("llm-call-42", a.extras().get("x_request_id"));
    assertEquals("0.875", a.extras().get("kv_hit_rate"));
    assertEquals("12.3", a.extras().get("prefill_wait_time_ms"));
    assertEquals("1", a.extras().get("decode_worker_id"));
    assertEquals("research-run-42:planner", a.extras().get("agent_context.parent_session_id"));
    assertEquals("wall", s.clocks.get(0).kind());
    assertEquals(1_000_000L, s.clocks.get(0).resolutionNs(), "whole ms receive times");
  }

  @Test
  void ingestGivesTheHandCheckedFiguresFromAGzipSegment() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path gz = t.writeBytes("frontend/dynamo-request-trace.000000.jsonl.gz", gzip(Files.readAllBytes(SAMPLE)));
      IngestResult r = t.ingest(gz);
      IngestResult.FileResult f = r.files().get(0);
      assertEquals("dynamo-request-trace", f.format());
      assertEquals("gzip", f.compression());
      assertEquals(List.of(4L, 3L, 1L, 0L), List.of(f.lines(), f.records(), f.otherLines(), f.rejected()));
      // cmpl-123: ttft 82.4; e2e = total_time_ms 1000.1; scheduled = arrival + 12.3, so
      // prefill = 82.4 - 12.3 = 70.1 (the record's prefill_time_ms); tpot = avg_itl_ms 1.8
      // cmpl-124: ttft 123.75; e2e 2123.75; prefill 123.75 - 3.5 = 120.25; tpot 20.0; finish 'length'
      // req-7: no ttft; finished at event_time_unix_ms: 1777312801450 - 1777312801200 = 250 ms;
      //        prompt tokens from replay.input_length 3
      assertEquals(List.of(
              "cmpl-123|82.4|1000.1|70.1|1.8|4096|512|3584|ok",
              "cmpl-124|123.75|2123.75|120.25|20.0|2048|101|0|ok",
              "req-7|-|250.0|-|-|3|7|-|ok"),
          t.rows("SELECT concat_ws('|', r.request_id, coalesce(round(l.ttft_ms, 6)::VARCHAR, '-'),"
              + " coalesce(round((r.finished_ns - r.arrival_ns) / 1e6, 6)::VARCHAR, '-'),"
              + " coalesce(round(l.prefill_ms, 6)::VARCHAR, '-'), coalesce(r.tpot_ms::VARCHAR, '-'),"
              + " r.prompt_tokens::VARCHAR, r.output_tokens::VARCHAR, coalesce(r.cached_tokens::VARCHAR, '-'), r.status)"
              + " FROM requests r JOIN request_latency l USING (request_key) ORDER BY r.request_id").stream()
              .map(row -> (String) row.get(0)).toList());
      assertEquals("length", t.value("SELECT finish_reason FROM requests WHERE request_id = 'cmpl-124'"));
      assertEquals(2L, t.count("SELECT count(*) FROM requests WHERE scheduled_ns - arrival_ns IN (12300000, 3500000)"));
    }
  }

  @Test
  void sniffsOnlyByItsSchemaString() throws IOException {
    FormatRegistry registry = FormatRegistry.standard();
    byte[] bytes = Files.readAllBytes(SAMPLE);
    InputFormat f = registry.sniff(new Sample("dynamo-request-trace.000000.jsonl", bytes, bytes.length));
    assertEquals("dynamo-request-trace", f.id());
    String wrapped = "{\"timestamp\":12,\"event\":{\"schema\":\"dynamo.request.trace.v1\",\"event_type\":\"request_end\","
        + "\"event_time_unix_ms\":1777312801000,\"request\":{\"request_id\":\"w\",\"request_received_ms\":1777312800000}}}\n";
    assertEquals(93, format.sniff(new Sample("t.jsonl", wrapped.getBytes(StandardCharsets.UTF_8), wrapped.length())),
        "the recorder's envelope");
    String spaced = "{\"schema\": \"dynamo.request.trace.v1\", \"event_type\": \"request_end\"}\n";
    assertEquals(93, format.sniff(new Sample("t.jsonl", spaced.getBytes(StandardCharsets.UTF_8), spaced.length())),
        "a copy through jq or Python's json, spaced");
    String other = "{\"schema\":\"something.else.v1\",\"event_type\":\"request_end\",\"request\":{\"request_id\":\"x\"}}\n";
    assertEquals(0, format.sniff(new Sample("t.jsonl", other.getBytes(StandardCharsets.UTF_8), other.length())));
    String aiperf = AiperfJsonlFormatTest.NEW_OK + "\n";
    assertEquals(0, format.sniff(new Sample("t.jsonl", aiperf.getBytes(StandardCharsets.UTF_8), aiperf.length())));
    InputFormat a = registry.sniff(new Sample("profile_export.jsonl", aiperf.getBytes(StandardCharsets.UTF_8), aiperf.length()));
    assertEquals("aiperf-jsonl", a.id());
  }

  @Test
  void badLinesAreRejectedWithTheirLineAndReason() throws IOException {
    List<String> lines = Files.readAllLines(SAMPLE);
    String ok = lines.get(0);
    String cut = ok.substring(0, ok.length() / 2);
    String wrapped = "{\"timestamp\":12,\"event\":" + lines.get(3).replace("req-7", "w1") + "}";
    String noSchema = "{\"verification\":\"trace-s3-uploader\"}";
    String noId = lines.get(3).replace("\"request_id\":\"req-7\",", "");
    String negative = lines.get(2).replace("\"ttft_ms\":123.75", "\"ttft_ms\":-1.0").replace("cmpl-124", "neg");
    String shorter = lines.get(2).replace("\"total_time_ms\":2123.75", "\"total_time_ms\":100.0").replace("cmpl-124", "short");
    String hitRate = lines.get(2).replace("\"kv_hit_rate\":0.0", "\"kv_hit_rate\":1.5").replace("cmpl-124", "hit");
    String text = String.join("\n", ok, cut, wrapped, noSchema, noId, negative, shorter, hitRate, ok) + "\n";
    CollectingSink s = Parsing.parse(format, text);
    assertEquals(2, s.records, "the first line and the wrapped one");
    assertEquals("w1", s.requests.get(1).id());
    assertEquals("12", s.requests.get(1).extras().get("trace_timestamp_ms"));
    List<String> reasons = s.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList();
    assertEquals(7, reasons.size(), reasons.toString());
    assertTrue(reasons.get(0).startsWith("2: truncated JSON"), reasons.get(0));
    assertTrue(reasons.get(1).startsWith("4: not a dynamo.request.trace.v1 record"), reasons.get(1));
    assertTrue(reasons.get(2).startsWith("5: request.request_id is missing"), reasons.get(2));
    assertTrue(reasons.get(3).startsWith("6: request.ttft_ms out of range"), reasons.get(3));
    assertTrue(reasons.get(4).startsWith("7: timestamps decrease: total_time_ms"), reasons.get(4));
    assertTrue(reasons.get(5).startsWith("8: request.kv_hit_rate out of range"), reasons.get(5));
    assertTrue(reasons.get(6).startsWith("9: duplicate"), reasons.get(6));
  }

  /** readTree reads the first value only: text or a second object after it makes no record. */
  @Test
  void moreAfterTheObjectIsAReject() throws IOException {
    String ok = Files.readAllLines(SAMPLE).get(0);
    String text = ok.replace("cmpl-123", "t1") + " trailing garbage\n" + ok.replace("cmpl-123", "t2") + " {}\n"
        + ok + "  \n";
    CollectingSink s = Parsing.parse(format, text);
    assertEquals(1, s.records, "the last line: blanks after the object are no content");
    assertEquals("cmpl-123", s.requests.get(0).id());
    List<String> reasons = s.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList();
    assertEquals(2, reasons.size(), reasons.toString());
    assertTrue(reasons.get(0).startsWith("1: "), reasons.get(0));
    assertEquals("2: more after the JSON object (one record a line); not read", reasons.get(1));
  }

  static byte[] gzip(byte[] b) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(out)) {
      z.write(b);
    }
    return out.toByteArray();
  }
}
