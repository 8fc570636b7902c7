package dev.tokentime.formats.vllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** vLLM files into a real database: rejects with line and reason, text kept out, accounting. */
class VllmIngestTest {
  @TempDir
  Path tmp;

  @Test
  void damagedLinesLandInRejectsWithoutTheirUserText() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path log = t.write("c1/server.log", ""
          + "INFO 05-21 00:19:05 [logger.py:43] Received request a: prompt: 'my secret', params: SamplingParams(max_tokens=5), lora_request: None.\n"
          + "INFO 05-21 00:19:05 [logger.py:43] Received request a: prompt: 'my secret again', params: SamplingParams(max_tokens=5), lora_request: None.\n"
          + "INFO 13-21 00:19:06 [logger.py:92] Generated response a (streaming delta): output: 'top secret', output_token_ids: [1], finish_reason: None\n"
          + "INFO 05-21 00:19:07 [loggers.py:1] Avg prompt throughput: 1.0 tokens/s, Running: 2 reqs, Waiting: 1 reqs, GPU KV cache usage: 5.0%\n");
      t.ingest(log);
      assertEquals(List.of(List.of(4L, 2L, 0L, 2L)),
          t.rows("SELECT lines, records, other_lines, rejected FROM sources"));
      List<List<Object>> rejects = t.rows("SELECT line_no, reason, excerpt FROM rejects ORDER BY line_no");
      assertEquals(2, rejects.size());
      assertEquals(2L, rejects.get(0).get(0));
      assertEquals("request id a repeats a request still in flight (a second received line); the first is kept",
          rejects.get(0).get(1));
      assertEquals(3L, rejects.get(1).get(0));
      assertEquals(true, ((String) rejects.get(1).get(1)).startsWith("not a valid time"));
      for (List<Object> r : rejects) {
        assertFalse(String.valueOf(r.get(2)).contains("secret"), String.valueOf(r.get(2)));
      }
      assertEquals(1L, t.count("SELECT count(*) FROM requests WHERE request_id = 'a'"));
      assertEquals(List.of(List.of(2, 1, 0.05)), t.rows("SELECT running, waiting, kv_usage FROM engine_stats"));
      assertEquals(List.of(List.of(1000000000L, "UTC", true)),
          t.rows("SELECT resolution_ns, tz, tz_assumed FROM clocks"));
    }
  }

  @Test
  void aStatsOnlyLogIsARunOfTheSummary() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of("src/test/resources/real-logs/vllm/stats-lines.log")));
      assertEquals(List.of(List.of("vllm", 43L)), t.rows("SELECT run, snapshots FROM engine_summary"));
    }
  }
}
