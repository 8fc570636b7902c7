package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.testing.CollectingSink;
import dev.tokentime.testing.TestDb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AIPerf's raw export (profile_export_raw.jsonl, --export-level raw, 2026) was "cannot tell the
 * format", and a 2026 run's profile_export.jsonl has no inter-chunk list unless
 * --export-per-chunk-data was set: such a run had no chunk times (no ITL). The raw file's
 * per-response times are now its chunks: alone with its requests, beside the JSONL for the JSONL's.
 */
class AiperfRawFormatTest {
  static final Path RAW = Path.of("src/test/resources/constructed/aiperf-raw/profile_export_raw.jsonl");
  static final Path JSONL = AiperfRecordsCsvFormatTest.JSONL;
  /** The real run's first request: start, the role delta at request_ack_ns, TTFT 939.096292 ms. */
  static final String FIRST = "ea14b929-e9a0-4a6c-894a-22bcadaec734";
  static final long FIRST_START = 1789877457529026000L;

  @TempDir
  Path tmp;

  @Test
  void aloneItGivesTheRequestsAndTheirChunks() throws IOException {
    byte[] raw = Files.readAllBytes(RAW);
    assertEquals("aiperf-raw-jsonl", new PeerSniffTest().sniff("profile_export_raw.jsonl", raw));
    assertEquals("aiperf-jsonl", new PeerSniffTest().sniff("profile_export.jsonl", Files.readAllBytes(JSONL)));
    CollectingSink s = Parsing.parse(new AiperfRawFormat(), raw, "r");
    assertEquals(List.of(), s.rejects);
    assertEquals(5, s.records);
    CollectingSink j = Parsing.parse(new AiperfJsonlFormat(), Files.readAllBytes(JSONL), "r");
    // the same requests (by id, in another order), starting at the same instants
    Map<String, Long> starts = new TreeMap<>();
    j.requests.forEach(r -> starts.put(r.id(), r.arrivalNs()));
    Map<String, Long> rawStarts = new TreeMap<>();
    s.requests.forEach(r -> rawStarts.put(r.id(), r.arrivalNs()));
    assertEquals(starts, rawStarts);
    assertEquals("4bd7e5ae-a076-412c-87fa-e62dca400b9f", s.requests.get(0).id());
    CollectingSink.Req first = s.requests.stream().filter(r -> r.id().equals(FIRST)).findFirst().orElseThrow();
    assertEquals("ok", first.status());
    assertEquals(128, first.outputTokens(), "the server's usage");
    assertEquals("86400123456789", first.extras().get("start_perf_ns"));
    assertEquals("session_000000", first.extras().get("conversation_id"));
    assertEquals(651, s.tokens.size(), "128 content chunks, a usage chunk and [DONE] per request, one role delta");
    Map<ChunkKind, Long> kinds = s.tokens.stream().collect(Collectors.groupingBy(CollectingSink.Tok::kind,
        TreeMap::new, Collectors.counting()));
    assertEquals(Map.of(ChunkKind.CONTENT, 640L, ChunkKind.ROLE, 1L, ChunkKind.USAGE, 5L, ChunkKind.DONE, 5L), kinds);
    List<CollectingSink.Tok> firsts = s.tokens.stream().filter(t -> t.key() == first.key()).toList();
    // perf_ns placed at request_start_ns + (perf_ns - start_perf_ns): the role delta at
    // request_ack_ns, the first content chunk at AIPerf's TTFT
    assertEquals(new CollectingSink.Tok(first.key(), 0, 1789877457607411208L, -1, ChunkKind.ROLE), firsts.get(0));
    assertEquals(new CollectingSink.Tok(first.key(), 1, FIRST_START + 939_096_292L, -1, ChunkKind.CONTENT),
        firsts.get(1));
    // the last response is the request's end (request_end_ns)
    assertEquals(1789877461465803667L, firsts.get(firsts.size() - 1).tsNs());
    assertEquals(ChunkKind.DONE, firsts.get(firsts.size() - 1).kind());
  }

  @Test
  void besideTheJsonlItGivesTheChunksOfTheJsonlsRequests() throws Exception {
    Path dir = tmp.resolve("in/probe");
    Files.createDirectories(dir);
    Files.copy(JSONL, dir.resolve("profile_export.jsonl"));
    Files.copy(RAW, dir.resolve("profile_export_raw.jsonl"));
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      IngestResult r = t.ingest(IngestOptions.of(List.of(dir.toString())));
      assertEquals(List.of(), r.failedChecks());
      assertEquals(List.of(), r.skipped());
      assertEquals(0L, t.count("SELECT count(*) FROM rejects"));
      // the JSONL's 5 requests, no stub left, and the raw file's chunks on them
      assertEquals(List.of(List.of("aiperf-jsonl", 5L), List.of("aiperf-raw-jsonl", 0L)),
          t.rows("SELECT s.format, count(q.request_key) FROM sources s LEFT JOIN requests q USING (source_id)"
              + " GROUP BY s.format ORDER BY s.format"));
      assertEquals(651L, t.count("SELECT count(*) FROM tokens"));
      assertEquals(List.of(List.of(FIRST, 939.096292, 939.096292, 131L)),
          t.rows("SELECT q.request_id, q.ttft_ms, round((min(k.ts_ns) FILTER (WHERE k.chunk_kind = 'content')"
              + " - q.arrival_ns) / 1e6, 6), count(*) FROM requests q JOIN tokens k USING (request_key)"
              + " WHERE q.request_id = '" + FIRST + "' GROUP BY q.request_id, q.ttft_ms, q.arrival_ns"));
      // AIPerf's own figures of the run (profile_export_aiperf.json), from the raw chunk times
      Map<String, Double> icl = new TreeMap<>();
      for (List<Object> row : t.rows("SELECT metric || ' ' || stat, value FROM aiperf_metrics"
          + " WHERE metric IN ('inter_chunk_latency', 'time_to_second_token') AND stat IN ('avg', 'max')")) {
        icl.put((String) row.get(0), ((Number) row.get(1)).doubleValue());
      }
      assertEquals(23.901183661417324, icl.get("inter_chunk_latency avg"), 1e-9);
      assertEquals(36.304167, icl.get("inter_chunk_latency max"), 1e-9);
      assertEquals(23.5210752, icl.get("time_to_second_token avg"), 1e-9);
      // read again in place of the first reading: the stored requests are found in the namespace
      // the two files share, so the chunks meet them again and no stub is left
      IngestResult again = t.ingest(new IngestOptions(List.of(dir.toString()), null, null, true, false, false,
          null, null, null).withJobs(1));
      assertEquals(List.of(), again.failedChecks());
      assertEquals(List.of(List.of("aiperf-jsonl", 5L), List.of("aiperf-raw-jsonl", 0L)),
          t.rows("SELECT s.format, count(q.request_key) FROM sources s LEFT JOIN requests q USING (source_id)"
              + " GROUP BY s.format ORDER BY s.format"));
      assertEquals(651L, t.count("SELECT count(*) FROM tokens"));
    }
  }

  @Test
  void besideTheRecordsCsvAloneItGivesTheChunksOfTheCsvsRequests() throws Exception {
    Path dir = tmp.resolve("in/csv-run");
    Files.createDirectories(dir);
    Files.copy(AiperfRecordsCsvFormatTest.DIR.resolve("profile_export_records.csv"),
        dir.resolve("profile_export_records.csv"));
    Files.copy(RAW, dir.resolve("profile_export_raw.jsonl"));
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      IngestResult r = t.ingest(IngestOptions.of(List.of(dir.toString())));
      assertEquals(List.of(), r.failedChecks());
      // the CSV's 6 requests (5 of the run, a failed one), each counted once
      assertEquals(List.of(List.of("aiperf-raw-jsonl", 0L), List.of("aiperf-records-csv", 6L)),
          t.rows("SELECT s.format, count(q.request_key) FROM sources s LEFT JOIN requests q USING (source_id)"
              + " GROUP BY s.format ORDER BY s.format"));
      assertEquals(651L, t.count("SELECT count(*) FROM tokens"));
    }
  }

  @Test
  void whichFileGivesWhatDependsOnTheFolder() {
    Set<String> both = Set.of("profile_export.jsonl", "profile_export_raw.jsonl", "profile_export_aiperf.json");
    AiperfRawFormat raw = new AiperfRawFormat();
    AiperfJsonlFormat jsonl = new AiperfJsonlFormat();
    assertEquals("aiperf", raw.inFolder("profile_export_raw.jsonl", both).idNamespace());
    assertEquals("aiperf", jsonl.inFolder("profile_export.jsonl", both).idNamespace());
    assertEquals("aiperf", raw.inFolder("profile_export_raw.jsonl",
        Set.of("profile_export_raw.jsonl", "profile_export.jsonl.gz")).idNamespace());
    Set<String> rawAlone = Set.of("profile_export_raw.jsonl", "profile_export_aiperf.json");
    assertSame(raw, raw.inFolder("profile_export_raw.jsonl", rawAlone));
    assertNull(raw.idNamespace());
    assertSame(jsonl, jsonl.inFolder("profile_export.jsonl", Set.of("profile_export.jsonl")));
    assertNull(jsonl.idNamespace());
    assertEquals("aiperf", raw.inFolder("profile_export_raw.jsonl",
        Set.of("profile_export_raw.jsonl", "profile_export_records.csv")).idNamespace());
    assertEquals("aiperf", new AiperfRecordsCsvFormat().inFolder("profile_export_records.csv",
        Set.of("profile_export_raw.jsonl", "profile_export_records.csv")).idNamespace());
    assertEquals(List.of("aiperf-jsonl", "aiperf-records-csv", "aiperf-raw-jsonl"),
        dev.tokentime.ingest.FormatRegistry.standard().namespaceFormats().get("aiperf"));
  }

  @Test
  void aFailedRequestIsAnErrorWithTheServersStatus() throws IOException {
    String meta = "{\"metadata\":{\"session_num\":7,\"x_request_id\":\"f1\",\"request_start_ns\":1789877457529026000,"
        + "\"request_end_ns\":1789877457531026000,\"worker_id\":\"w\",\"record_processor_id\":\"rp\","
        + "\"benchmark_phase\":\"profiling\",\"was_cancelled\":false},\"start_perf_ns\":1000,";
    String text = meta + "\"status\":500,\"responses\":[],\"error\":{\"code\":500,\"type\":\"Internal Server Error\","
        + "\"message\":\"CUDA out of memory\"}}\n"
        + meta.replace("f1", "f2") + "\"status\":200,\"responses\":[{\"perf_ns\":2000,\"packets\":[{\"name\":\"data\","
        + "\"value\":\"{\\\"error\\\":{\\\"message\\\":\\\"overloaded\\\"}}\"}]}]}\n";
    CollectingSink s = Parsing.parse(new AiperfRawFormat(), text);
    assertEquals(List.of(), s.rejects);
    assertEquals(List.of("f1 error", "f2 error"), s.requests.stream().map(r -> r.id() + " " + r.status()).toList());
    assertEquals(List.of(new CollectingSink.Tok(s.requests.get(1).key(), 0, 1789877457529027000L, -1, ChunkKind.ERROR)),
        s.tokens);
  }

  @Test
  void badRecordsAreRejectedWithTheirLineAndReason() throws IOException {
    String ok = "{\"metadata\":{\"session_num\":0,\"x_request_id\":\"a1\",\"request_start_ns\":1789877457529026000,"
        + "\"request_end_ns\":1789877457531026000,\"benchmark_phase\":\"profiling\"},\"start_perf_ns\":1000,"
        + "\"status\":200,\"responses\":[{\"perf_ns\":2000,\"packets\":[{\"name\":\"data\",\"value\":\"[DONE]\"}]}]}";
    String text = String.join("\n", ok,
        ok.replace("a1", "a2").replace("\"start_perf_ns\":1000,", ""),
        ok.replace("a1", "a3").replace("\"perf_ns\":2000", "\"perf_ns\":500"),
        ok.replace("a1", "a4").replace("\"perf_ns\":2000", "\"perf_ns\":\"2000\""),
        ok.replace("a1", "a5").replace("\"status\":200", "\"status\":700"),
        ok.replace("a1", "a6").replace("\"value\":\"[DONE]\"", "\"value\":\"{not json\""),
        ok.replace("a1", "a7").replace("\"packets\":[{\"name\":\"data\",\"value\":\"[DONE]\"}]", "\"x\":1"),
        ok.replace("a1", "a8").replace("\"request_start_ns\":1789877457529026000,", ""),
        ok.replace("a1", "a9").replace("\"perf_ns\":2000", "\"perf_ns\":4000000000000000000"),
        ok.substring(0, 80)) + "\n";
    CollectingSink s = Parsing.parse(new AiperfRawFormat(), text);
    assertEquals(1, s.records);
    assertEquals(List.of(
            "2 start_perf_ns is missing",
            "3 timestamps decrease: responses[0].perf_ns (500) is before start_perf_ns (1000)",
            "4 responses[0].perf_ns: expected a perf_counter reading in ns, got \"2000\"",
            "5 status: expected an HTTP status, got \"700\"",
            "6 responses[0]: the response is not valid JSON",
            "7 responses[0]: neither an SSE message (packets), a text nor a binary response",
            "8 metadata.request_start_ns is missing: the responses have no wall-clock time",
            "9 responses[0].perf_ns - start_perf_ns out of range: 3.999999999999999E12 ms (a duration is 0 to 30 days)",
            "10 truncated JSON: the line ends inside the record"),
        s.rejects.stream().map(r -> r.lineNo() + " " + cut(r.reason())).toList());
  }

  /** A reason without the JSON parser's own account of what it met. */
  private static String cut(String reason) {
    int at = reason.indexOf(" (");
    return reason.contains("not valid JSON") ? reason.substring(0, at) : reason;
  }
}
