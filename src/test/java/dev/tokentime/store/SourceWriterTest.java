package dev.tokentime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.StepRecord;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every canonical table a parser can fill reaches DuckDB with its values, NULLs and maps intact. */
class SourceWriterTest {
  @TempDir
  Path tmp;

  @Test
  void writesStepsStatsEventsHistogramsReportedMetricsAndAnchors() throws Exception {
    try (TestDb t = new TestDb(tmp);
        IngestStore store = new IngestStore(t.db, Map.of())) {
      SourceWriter w = store.begin(new SourceInfo("/x/server.log", "test", "none", "r1", null, false), List.of());
      long lines = w.load(() -> {
      int wall = w.clock(new ClockSpec("wall", "host a", 1_000_000_000L, "UTC", true));
      int steady = w.clock(new ClockSpec("steady", "host a / pid 7", 1, null, false));
      StepRecord s = new StepRecord();
      s.lineNo = 3;
      s.instance = "gpu0";
      s.rank = 1;
      s.epoch = 2;
      s.iter = 40L;
      s.tsNs = 5_000;
      s.clockId = steady;
      s.durationMs = 12.5;
      s.running = 8;
      s.ctxRequests = 1;
      s.ctxTokens = 512;
      s.genRequests = 7;
      s.genTokens = 7;
      s.kvUsage = 0.25;
      s.extras.put("kv_blocks_free", 100.0);
      w.step(s);
      w.record();
      EngineStatsRecord e = new EngineStatsRecord();
      e.lineNo = 4;
      e.tsNs = 6_000_000_000L;
      e.clockId = wall;
      e.intervalS = 10.0;
      e.genTokensPerS = 812.3;
      e.running = 12;
      e.waiting = 3;
      e.preemptions = 2L;
      e.prefixHitRate = 0.5;
      w.engineStats(e);
      w.record();
      w.engineEvent(5, "gpu0", 7_000_000_000L, wall, "version", "vLLM 0.11.0");
      w.record();
      w.histogramBucket("vllm:time_to_first_token_seconds", Map.of("model_name", "m"), 1, 2, wall, 0.5, 42);
      w.reportedMetric("r1", 4.0, "time_to_first_token", "p99", 123.4, "ms");
      w.clockAnchor(steady, 5_000, wall, 6_000_000_000L, "iteration 40 in both");
      w.otherLine();
      w.otherLine();
      w.otherLine();
      return 6;
      });
      w.commit("abc", 100, lines);
      assertEquals(List.of(List.of(40L, 2, 1, 12.5, 8, 512, 0.25, "{kv_blocks_free=100.0}")),
          t.rows("SELECT iter, epoch, rank, duration_ms, running, ctx_tokens, kv_usage, extras::VARCHAR FROM steps"));
      assertEquals(List.of(List.of(true, 2)), t.rows("SELECT waiting IS NULL AND paused IS NULL, clock_id FROM steps"));
      assertEquals(List.of(List.of(12, 3, 812.3, 2L, 0.5, 1)),
          t.rows("SELECT running, waiting, gen_tokens_per_s, preemptions, prefix_hit_rate, clock_id FROM engine_stats"));
      assertEquals(List.of(List.of("version", "vLLM 0.11.0", 5L)), t.rows("SELECT kind, detail, line_no FROM engine_events"));
      assertEquals(List.of(List.of("m", 0.5, 42.0)),
          t.rows("SELECT labels['model_name'], le, count FROM metric_histograms"));
      assertEquals(List.of(List.of("r1", 123.4)), t.rows("SELECT run, value FROM reported_metrics"));
      assertEquals(List.of(List.of(2, 1, "iteration 40 in both")), t.rows("SELECT clock_a, clock_b, method FROM clock_anchors"));
      assertEquals(List.of(List.of("[1, 2]")), t.rows("SELECT clock_ids::VARCHAR FROM sources"));
      assertEquals(List.of(List.of("wall", 1_000_000_000L, "UTC", true), java.util.Arrays.asList("steady", 1L, null, false)),
          t.rows("SELECT kind, resolution_ns, tz, tz_assumed FROM clocks ORDER BY clock_id"));
    }
  }

  @Test
  void aLineCountThatDoesNotReconcileIsABug() throws Exception {
    try (TestDb t = new TestDb(tmp);
        IngestStore store = new IngestStore(t.db, Map.of())) {
      SourceWriter w = store.begin(new SourceInfo("/x", "test", "none", "r", null, false), List.of());
      w.otherLine();
      var e = assertThrows(IllegalStateException.class, () -> w.commit("s", 1, 2));
      assertEquals("line accounting of /x does not reconcile: 2 lines read, 0 records + 1 other + 0 rejected",
          e.getMessage());
      w.close();
    }
  }
}
