package dev.tokentime.formats.canonical;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.StepRecord;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * A tokentime-jsonl line for a table other than requests and tokens: {@code {"table":"steps",
 * ...}}, {@code {"table":"engine_stats", ...}} or {@code {"table":"engine_events", ...}}, with
 * the table's column names as fields. Numeric fields without a column go to the row's extras.
 * These rows belong to the file's run (steps and stats are per engine, not per request).
 */
final class CanonicalTableLine {
  static final Set<String> TABLES = Set.of("steps", "engine_stats", "engine_events");
  private static final Set<String> COMMON = Set.of("table", "run", "label", "clock", "instance", "ts_ns");

  private final ParseContext ctx;
  private final RecordSink sink;
  private final StepRecord step = new StepRecord();
  private final EngineStatsRecord stats = new EngineStatsRecord();
  private final Map<String, Integer> clocks = new HashMap<>();

  CanonicalTableLine(ParseContext ctx, RecordSink sink) {
    this.ctx = ctx;
    this.sink = sink;
  }

  /** Emits the line's row, or throws with the reason it cannot be used. */
  void emit(long lineNo, JsonNode n) throws CanonicalRecord.BadRecord {
    String table = n.path("table").asText();
    if (!TABLES.contains(table)) {
      throw new CanonicalRecord.BadRecord("table: expected steps, engine_stats or engine_events, got "
          + CanonicalRecord.quoteShort(table));
    }
    String run = n.hasNonNull("run") ? n.get("run").asText() : n.hasNonNull("label") ? n.get("label").asText() : null;
    if (run != null && !run.equals(ctx.defaultRun())) {
      throw new CanonicalRecord.BadRecord(table + " rows belong to the file's run (" + ctx.defaultRun()
          + "); this line says run " + CanonicalRecord.quoteShort(run) + " (use --run or another file)");
    }
    String clockKind = n.hasNonNull("clock") ? n.get("clock").asText() : "wall";
    if (!ClockSpec.KINDS.contains(clockKind)) {
      throw new CanonicalRecord.BadRecord("clock: expected wall, steady or client, got " + CanonicalRecord.quoteShort(clockKind));
    }
    int clockId = clocks.computeIfAbsent(clockKind,
        k -> sink.clock(new ClockSpec(k, "run " + ctx.defaultRun(), 1, null, false)));
    String instance = n.hasNonNull("instance") ? n.get("instance").asText() : null;
    long ts = n.hasNonNull("ts_ns") ? ns(n, "ts_ns") : RequestRecord.NONE;
    switch (table) {
      case "steps" -> {
        step.reset();
        step.lineNo = lineNo;
        step.instance = instance;
        step.tsNs = ts;
        step.clockId = clockId;
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
          var e = it.next();
          String f = e.getKey();
          if (COMMON.contains(f) || e.getValue().isNull()) {
            continue;
          }
          switch (f) {
            case "rank" -> step.rank = integer(n, f);
            case "epoch" -> step.epoch = integer(n, f);
            case "iter" -> step.iter = (long) integer(n, f);
            case "duration_ms" -> step.durationMs = number(n, f);
            case "running" -> step.running = integer(n, f);
            case "waiting" -> step.waiting = integer(n, f);
            case "ctx_requests" -> step.ctxRequests = integer(n, f);
            case "ctx_tokens" -> step.ctxTokens = integer(n, f);
            case "gen_requests" -> step.genRequests = integer(n, f);
            case "gen_tokens" -> step.genTokens = integer(n, f);
            case "paused" -> step.paused = integer(n, f);
            case "kv_usage" -> step.kvUsage = number(n, f);
            default -> step.extras.put(f, number(n, f));
          }
        }
        sink.step(step);
      }
      case "engine_stats" -> {
        stats.reset();
        stats.lineNo = lineNo;
        stats.instance = instance;
        stats.tsNs = ts;
        stats.clockId = clockId;
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
          var e = it.next();
          String f = e.getKey();
          if (COMMON.contains(f) || e.getValue().isNull()) {
            continue;
          }
          switch (f) {
            case "interval_s" -> stats.intervalS = number(n, f);
            case "prompt_tokens_per_s" -> stats.promptTokensPerS = number(n, f);
            case "gen_tokens_per_s" -> stats.genTokensPerS = number(n, f);
            case "running" -> stats.running = integer(n, f);
            case "waiting" -> stats.waiting = integer(n, f);
            case "swapped" -> stats.swapped = integer(n, f);
            case "preemptions" -> stats.preemptions = (long) integer(n, f);
            case "kv_usage" -> stats.kvUsage = number(n, f);
            case "prefix_hit_rate" -> stats.prefixHitRate = number(n, f);
            default -> stats.extras.put(f, number(n, f));
          }
        }
        sink.engineStats(stats);
      }
      default -> {
        String kind = n.path("kind").asText(null);
        if (kind == null) {
          throw new CanonicalRecord.BadRecord("an engine_events line needs kind");
        }
        sink.engineEvent(lineNo, instance, ts, clockId, kind, n.path("detail").asText(null));
      }
    }
    sink.record();
  }

  private static long ns(JsonNode n, String f) throws CanonicalRecord.BadRecord {
    JsonNode v = n.get(f);
    if (!v.canConvertToLong() || !v.isIntegralNumber() || v.asLong() < 0) {
      throw new CanonicalRecord.BadRecord(f + ": expected an integer (ns), got " + v);
    }
    return v.asLong();
  }

  private static int integer(JsonNode n, String f) throws CanonicalRecord.BadRecord {
    JsonNode v = n.get(f);
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      throw new CanonicalRecord.BadRecord(f + ": expected an integer, got " + v);
    }
    return v.asInt();
  }

  private static double number(JsonNode n, String f) throws CanonicalRecord.BadRecord {
    JsonNode v = n.get(f);
    if (!v.isNumber()) {
      throw new CanonicalRecord.BadRecord(f + ": expected a number, got " + v);
    }
    return v.asDouble();
  }
}
