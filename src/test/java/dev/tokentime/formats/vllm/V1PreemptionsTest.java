package dev.tokentime.formats.vllm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * vLLM V1's stats line prints "Preemptions: N" only when N > 0, N being the preemptions since its
 * previous line (v1/metrics/loggers.py: _reset zeroes the count each interval). Stored as the
 * cumulative preemptions column, two lines with 5 then 3 read as a counter that fell, and a stall
 * during the second interval was never attributed to a preemption. The lines here are built from
 * that logger's format string (no real log with the field was found); the request's lines are the
 * shape `tokentime generate --form vllm-log` writes.
 */
class V1PreemptionsTest {
  @TempDir
  Path tmp;

  private static final String HEAD = " (APIServer pid=1) INFO 01-01 00:00:";

  /** One request: 10 tokens 100 ms apart, a 3 s gap, 5 more; two stats lines, the second in the gap. */
  private static String log(String secondPreemptions) {
    List<String> lines = new ArrayList<>();
    lines.add("2026-01-01T00:00:00.000000Z" + HEAD + "00 [logger.py:43] Received request cmpl-1: params:"
        + " SamplingParams(n=1, temperature=0.7, max_tokens=15), lora_request: None.");
    lines.add("2026-01-01T00:00:00.000500Z" + HEAD + "00 [async_llm.py:346] Added request cmpl-1.");
    double t = 0.2;
    for (int i = 0; i < 15; i++) {
      if (i == 10) {
        lines.add(String.format("2026-01-01T00:00:%09.6fZ%s%02d [loggers.py:271] Engine 000: Avg prompt"
            + " throughput: 0.0 tokens/s, Avg generation throughput: 1.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs,"
            + secondPreemptions + " GPU KV cache usage: 99.5%%, Prefix cache hit rate: 0.0%%", t + 1.5, HEAD, (int) (t + 1.5)));
        t += 3.0;
      }
      lines.add(String.format("2026-01-01T00:00:%09.6fZ%s%02d [logger.py:71] Generated response cmpl-1 (streaming"
          + " delta): output: 'tok%d', output_token_ids: [%d], finish_reason: %s", t, HEAD, (int) t, i, 1000 + i,
          i == 14 ? "length" : "None"));
      t += 0.1;
    }
    lines.add(1, "2026-01-01T00:00:00.100000Z" + HEAD + "00 [loggers.py:271] Engine 000: Avg prompt throughput:"
        + " 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, Preemptions: 5,"
        + " GPU KV cache usage: 99.9%, Prefix cache hit rate: 0.0%");
    return String.join("\n", lines) + "\n";
  }

  @Test
  void aV1PreemptionsCountIsTheIntervalsAndAStallDuringItIsAPreemption() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      var r = t.ingest(t.write("r/server.log", log(" Preemptions: 3,"))).files().get(0);
      assertEquals(0, r.rejected());
      assertEquals(Arrays.asList(Arrays.asList(null, 5.0), Arrays.asList(null, 3.0)),
          t.rows("SELECT preemptions, extras['preemptions_interval'] FROM engine_stats ORDER BY ts_ns"));
      t.db.execute("SET VARIABLE tt_stall_ms = 1000");
      assertEquals(List.of(List.of(3100L, true)),
          t.rows("SELECT round(gap_ms)::BIGINT, preempted FROM itl_stalls"));
    }
  }

  @Test
  void aStallWithNoPreemptionInItsIntervalIsNone() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      t.ingest(t.write("r/server.log", log("")));
      t.db.execute("SET VARIABLE tt_stall_ms = 1000");
      assertEquals(List.of(List.of(3100L, false)),
          t.rows("SELECT round(gap_ms)::BIGINT, preempted FROM itl_stalls"));
    }
  }
}
