package dev.tokentime.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tokentime.schema.CanonicalSchema;
import dev.tokentime.schema.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RecordColumns binds every column of CanonicalSchema's parser-filled tables to the record field holding it. */
class RecordColumnsTest {
  @Test
  void everyColumnButTheStoredOnesIsBoundInTableOrder() {
    for (RecordColumns<?> rc : List.of(RecordColumns.REQUESTS, RecordColumns.STEPS, RecordColumns.ENGINE_STATS)) {
      List<String> expected = new ArrayList<>();
      for (Column c : rc.table().columns()) {
        if (!rc.stored().contains(c.name())) {
          expected.add(c.name());
        }
      }
      assertEquals(expected, rc.all().stream().map(RecordColumns.Binding::name).toList(), rc.table().name());
      assertNull(rc.get("source_id"));
    }
    assertEquals(CanonicalSchema.REQUESTS.columns().size() - 2, RecordColumns.REQUESTS.all().size());
    assertNull(RecordColumns.REQUESTS.get("tokens_ns"));
  }

  @Test
  void stepsAndStatsColumnsReachTheirFields() {
    StepRecord s = new StepRecord();
    RecordColumns.STEPS.get("epoch").setLong(s, 3);
    RecordColumns.STEPS.get("gen_tokens").set(s, 17);
    RecordColumns.STEPS.get("kv_usage").set(s, 0.25);
    assertEquals(List.of(3, 17, 0.25), List.of(s.epoch, s.genTokens, s.kvUsage));
    EngineStatsRecord e = new EngineStatsRecord();
    RecordColumns.ENGINE_STATS.get("preemptions").set(e, 9L);
    RecordColumns.ENGINE_STATS.get("prefix_hit_rate").set(e, 0.5);
    RecordColumns.ENGINE_STATS.get("clock_id").setLong(e, 4);
    assertEquals(List.of(9L, 0.5, 4), List.of(e.preemptions, e.prefixHitRate, e.clockId));
    assertEquals(RecordColumns.Kind.DOUBLE_MAP, RecordColumns.ENGINE_STATS.get("extras").kind());
  }

  /** Each binding reads and writes its own field: a value set by name is found by name and in the field. */
  @Test
  void eachBindingHoldsItsOwnField() {
    RequestRecord r = new RequestRecord();
    long n = 1;
    for (RecordColumns.Binding<RequestRecord> c : RecordColumns.REQUESTS.all()) {
      n++;
      switch (c.kind()) {
        case LONG, INT, CLOCK -> c.setLong(r, n);
        case BIGINT -> c.set(r, n);
        case INTEGER -> c.set(r, (int) n);
        case DOUBLE -> c.set(r, n + 0.5);
        case TEXT -> c.set(r, c.name());
        case TEXT_MAP, DOUBLE_MAP -> r.extras.put("k", "v");
      }
    }
    n = 1;
    for (RecordColumns.Binding<RequestRecord> c : RecordColumns.REQUESTS.all()) {
      n++;
      Object got = switch (c.kind()) {
        case LONG, INT, CLOCK -> c.getLong(r);
        default -> c.get(r);
      };
      Object want = switch (c.kind()) {
        case LONG, INT, CLOCK, BIGINT -> n;
        case INTEGER -> (int) n;
        case DOUBLE -> n + 0.5;
        case TEXT -> c.name();
        case TEXT_MAP, DOUBLE_MAP -> Map.of("k", "v");
      };
      assertEquals(want, got, c.name());
    }
    assertEquals(List.of(8L, 9L, 10L, 11L, 12L, 13L),
        List.of(r.arrivalNs, r.queuedNs, r.scheduledNs, r.firstTokenNs, r.lastTokenNs, r.finishedNs));
    assertEquals(List.of("run", "request_id", "engine", "instance"), List.of(r.run, r.requestId, r.engine, r.instance));
    assertEquals(List.of(4L, 7), List.of(r.lineNo, r.clockId));
    assertEquals(List.of(14.5, 20.5), List.of(r.preQueueMs, r.tpotMs));
    assertEquals(List.of(21, 22, 23, 26), List.of(r.promptTokens, r.outputTokens, r.cachedTokens, r.httpStatus));
    assertEquals(List.of("status", "finish_reason", "error", "phase"), List.of(r.status, r.finishReason, r.error, r.phase));
    assertEquals(List.of(29L, 30L), List.of(r.firstIter, r.lastIter));
  }
}
