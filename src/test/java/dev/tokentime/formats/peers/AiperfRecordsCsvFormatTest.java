package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tokentime.testing.CollectingSink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * AIPerf's per-record CSV (profile_export_records.csv, 2026) was "cannot tell the format": a run
 * written with --records csv had no requests. Its rows are now the records profile_export.jsonl
 * holds, read as those are.
 */
class AiperfRecordsCsvFormatTest {
  static final Path DIR = Path.of("src/test/resources/constructed/aiperf-records-csv");
  static final Path JSONL = Path.of("src/test/resources/real-logs/tools/aiperf-0.12-mlx-probe-c1/profile_export.jsonl");
  final AiperfRecordsCsvFormat format = new AiperfRecordsCsvFormat();

  @Test
  void itsRowsAreTheRequestsTheJsonlHolds() throws IOException {
    byte[] csv = Files.readAllBytes(DIR.resolve("profile_export_records.csv"));
    assertEquals("aiperf-records-csv", new PeerSniffTest().sniff("profile_export_records.csv", csv));
    CollectingSink s = Parsing.parse(format, csv, "r");
    assertEquals(List.of(), s.rejects);
    assertEquals(6, s.records, "5 requests of the real run and a failed one");
    assertEquals(2, s.other, "the header and the second line of the failed request's message");
    CollectingSink j = Parsing.parse(new AiperfJsonlFormat(), Files.readAllBytes(JSONL), "r");
    // the same requests, at the same times, with the same status (the CSV has no chunk lists)
    java.util.function.Function<CollectingSink.Req, String> key = r -> r.id() + " " + r.arrivalNs() + " " + r.status()
        + " " + r.outputTokens() + " " + r.extras().get("worker_id") + " " + r.extras().get("request_ack_ns");
    assertEquals(j.requests.stream().map(key).toList(), s.requests.subList(0, 5).stream().map(key).toList());
    CollectingSink.Req failed = s.requests.get(5);
    assertEquals("error", failed.status());
    assertEquals("9d1c2b7e-4f0a-4c55-8e1e-1f7c9a3b2d10", failed.id());
    assertEquals(0, s.tokens.size(), "no inter-chunk latencies without --export-per-chunk-data");
  }

  @Test
  void figuresAreStoredAsTheJsonlsToItsSixDigits(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
    try (dev.tokentime.testing.TestDb t = new dev.tokentime.testing.TestDb(tmp)) {
      t.ingestSample(dev.tokentime.app.IngestOptions.of(List.of(DIR.resolve("profile_export_records.csv").toString())),
          "aiperf-records-csv", 8, 6, 2, 0);
      assertEquals(List.of(
              List.of("ea14b929", "1789877461465803667", "939.096", "3936.71", "23.6033", "128", "512", "-", "-"),
              List.of("9d1c2b7e", "1789877461474903667", "-", "-", "-", "-", "-", "500",
                  "Internal Server Error\n{\"error\": \"CUDA out of memory\"}")),
          t.rows("SELECT left(request_id, 8), finished_ns::VARCHAR, coalesce(round(ttft_ms, 4)::VARCHAR, '-'),"
              + " coalesce(round(e2e_ms, 4)::VARCHAR, '-'), coalesce(round(tpot_ms, 4)::VARCHAR, '-'),"
              + " coalesce(output_tokens::VARCHAR, '-'), coalesce(prompt_tokens::VARCHAR, '-'),"
              + " coalesce(http_status::VARCHAR, '-'), coalesce(error, '-') FROM requests"
              + " WHERE request_id LIKE 'ea14%' OR request_id LIKE '9d1c%' ORDER BY arrival_ns"));
    }
  }

  @Test
  void besideTheJsonlItIsLeftOutAloneItIsRead() {
    assertEquals(AiperfRecordsCsvFormat.BESIDE_JSONL, format.leaveOut("profile_export_records.csv",
        Set.of("profile_export_records.csv", "profile_export.jsonl", "profile_export_aiperf.json")));
    assertEquals(AiperfRecordsCsvFormat.BESIDE_JSONL, format.leaveOut("profile_export_records.csv",
        Set.of("profile_export_records.csv", "profile_export.jsonl.gz")));
    assertNull(format.leaveOut("profile_export_records.csv", Set.of("profile_export_records.csv", "profile_export_aiperf.json")));
  }

  @Test
  void badRowsAreRejectedWithTheirLineAndReason() throws IOException {
    String head = "request_num,session_num,x_request_id,x_correlation_id,conversation_id,turn_index,benchmark_phase,"
        + "worker_id,record_processor_id,credit_issued_ns,request_start_ns,request_ack_ns,request_end_ns,was_cancelled,"
        + "cancellation_time_ns,error_code,error_message,request_latency (ms),time_to_first_token (ms),output_sequence_length (tokens)\r\n";
    String ok = ",1,a1,,s1,0,profiling,w,rp,,1789877457529026000,,1789877461465803667,False,,,,3936.71,939.096,128\r\n";
    String text = head + ok
        + ok.replace("a1", "a2").replace("False", "maybe")
        + ok.replace("a1", "a3").replace("939.096", "inf")
        + ok.replace("a1", "a4").replace("1789877457529026000", "1.78e18")
        + ok.replace("a1", "a5").replace(",128", "")
        + ok.replace("a1", "a6").replace("939.096", "-5")
        + ok.replace("a1", "a7").replace(",,,3936", ",500,\"cut inside\r\n");
    CollectingSink s = Parsing.parse(format, text.getBytes(StandardCharsets.UTF_8), "r");
    assertEquals(List.of("a1"), s.requests.stream().map(CollectingSink.Req::id).toList());
    assertEquals(List.of(
            "3: was_cancelled: expected True or False, got \"maybe\"",
            "4: time_to_first_token (ms): expected a number, got \"inf\"",
            "5: request_start_ns: expected a whole number, got \"1.78e18\"",
            "6: row has 19 fields but the header has 20",
            "7: timestamps decrease: metrics.time_to_first_token is negative",
            "8: cut inside a quoted cell (the file ends before the row does)"),
        s.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList());
  }
}
