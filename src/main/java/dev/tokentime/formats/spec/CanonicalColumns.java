package dev.tokentime.formats.spec;

import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.StepRecord;
import java.util.Map;
import java.util.Set;

/** The columns a spec may map values to, and how a number is put into each. */
final class CanonicalColumns {
  private CanonicalColumns() {}

  private static final Map<String, Set<String>> COLUMNS = Map.of(
      "engine_stats", Set.of("instance", "interval_s", "prompt_tokens_per_s", "gen_tokens_per_s",
          "running", "waiting", "swapped", "preemptions", "kv_usage", "prefix_hit_rate"),
      "steps", Set.of("instance", "rank", "iter", "duration_ms", "running", "waiting",
          "ctx_requests", "ctx_tokens", "gen_requests", "gen_tokens", "paused", "kv_usage"),
      "engine_events", Set.of("instance", "detail"),
      // requests kinds are interpreted by the format's Java; their columns are its business
      "requests", Set.of(),
      "none", Set.of());

  static boolean has(String table, String column) {
    Set<String> cols = COLUMNS.get(table);
    return cols != null && (cols.contains(column) || table.equals("requests") || table.equals("none"));
  }

  static boolean hasExact(String table, String column) {
    Set<String> cols = COLUMNS.get(table);
    return cols != null && cols.contains(column);
  }

  /** Puts a number into a numeric column of engine_stats; false when the column is not numeric. */
  static boolean set(EngineStatsRecord r, String column, double v) {
    switch (column) {
      case "interval_s" -> r.intervalS = v;
      case "prompt_tokens_per_s" -> r.promptTokensPerS = v;
      case "gen_tokens_per_s" -> r.genTokensPerS = v;
      case "running" -> r.running = toInt(v);
      case "waiting" -> r.waiting = toInt(v);
      case "swapped" -> r.swapped = toInt(v);
      case "preemptions" -> r.preemptions = (long) v;
      case "kv_usage" -> r.kvUsage = v;
      case "prefix_hit_rate" -> r.prefixHitRate = v;
      default -> {
        return false;
      }
    }
    return true;
  }

  static boolean set(StepRecord r, String column, double v) {
    switch (column) {
      case "rank" -> r.rank = toInt(v);
      case "iter" -> r.iter = (long) v;
      case "duration_ms" -> r.durationMs = v;
      case "running" -> r.running = toInt(v);
      case "waiting" -> r.waiting = toInt(v);
      case "ctx_requests" -> r.ctxRequests = toInt(v);
      case "ctx_tokens" -> r.ctxTokens = toInt(v);
      case "gen_requests" -> r.genRequests = toInt(v);
      case "gen_tokens" -> r.genTokens = toInt(v);
      case "paused" -> r.paused = toInt(v);
      case "kv_usage" -> r.kvUsage = v;
      default -> {
        return false;
      }
    }
    return true;
  }

  /** The value of a numeric column of a step, or null when it is empty or not numeric. */
  static Double get(StepRecord r, String column) {
    Number n = switch (column) {
      case "rank" -> r.rank;
      case "iter" -> r.iter;
      case "duration_ms" -> r.durationMs;
      case "running" -> r.running;
      case "waiting" -> r.waiting;
      case "ctx_requests" -> r.ctxRequests;
      case "ctx_tokens" -> r.ctxTokens;
      case "gen_requests" -> r.genRequests;
      case "gen_tokens" -> r.genTokens;
      case "paused" -> r.paused;
      case "kv_usage" -> r.kvUsage;
      default -> null;
    };
    return n == null ? null : n.doubleValue();
  }

  private static int toInt(double v) {
    if (v != Math.rint(v) || Math.abs(v) > Integer.MAX_VALUE) {
      throw new NumberFormatException("expected a whole number, got " + v);
    }
    return (int) v;
  }

  /** camelCase group name → snake_case column name (Java group names allow no underscore). */
  static String snake(String group) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < group.length(); i++) {
      char c = group.charAt(i);
      if (Character.isUpperCase(c)) {
        sb.append('_').append(Character.toLowerCase(c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
