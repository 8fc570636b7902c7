package dev.tokentime.analysis;

import dev.tokentime.BadInputException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which requests an analysis counts, beyond the warm-up the sources marked: a time window and a
 * warm-up per run. It lives in DuckDB session variables that the views read (_request_scope), so
 * the same settings hold in tokentime's commands and in any DuckDB client that sets them.
 *
 * @param sinceNs arrival at or after this instant (ns on the runs' clock), or null
 * @param untilNs arrival before this instant, or null
 * @param sinceRelNs arrival at or after the run's first arrival + this, or null
 * @param untilRelNs arrival before the run's first arrival + this, or null
 * @param warmupRequests the first N requests of each run (by arrival) are warm-up, or null
 * @param warmupNs requests arriving in the first T ns of each run are warm-up, or null
 */
public record AnalysisWindow(Long sinceNs, Long untilNs, Long sinceRelNs, Long untilRelNs,
    Integer warmupRequests, Long warmupNs) {

  public static final AnalysisWindow NONE = new AnalysisWindow(null, null, null, null, null, null);

  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|ms|s|m|h)");

  /**
   * From the command line: since/until are an ISO-8601 instant (2026-01-01T00:00:05Z, absolute)
   * or a duration after each run's first arrival (30s, 1.5m, 500ms); warm-up seconds likewise a
   * duration.
   */
  public static AnalysisWindow parse(String since, String until, Integer warmupRequests,
      String warmup) {
    Long sinceAbs = null;
    Long untilAbs = null;
    Long sinceRel = null;
    Long untilRel = null;
    if (since != null) {
      if (isDuration(since)) {
        sinceRel = durationNs(since, "--since");
      } else {
        sinceAbs = instantNs(since, "--since");
      }
    }
    if (until != null) {
      if (isDuration(until)) {
        untilRel = durationNs(until, "--until");
      } else {
        untilAbs = instantNs(until, "--until");
      }
    }
    if (warmupRequests != null && warmupRequests < 0) {
      throw new BadInputException("--warmup-requests must be 0 or more");
    }
    Long warmupNs = warmup == null ? null : durationNs(warmup, "--warmup");
    return new AnalysisWindow(sinceAbs, untilAbs, sinceRel, untilRel, warmupRequests, warmupNs);
  }

  public boolean isEmpty() {
    return equals(NONE);
  }

  /** Sets (or clears) the session variables the views read. */
  public void apply(Connection conn) throws SQLException {
    try (Statement st = conn.createStatement()) {
      set(st, "tt_since_ns", sinceNs);
      set(st, "tt_until_ns", untilNs);
      set(st, "tt_since_rel_ns", sinceRelNs);
      set(st, "tt_until_rel_ns", untilRelNs);
      set(st, "tt_warmup_requests", warmupRequests == null ? null : warmupRequests.longValue());
      set(st, "tt_warmup_ns", warmupNs);
    }
  }

  private static void set(Statement st, String name, Long value) throws SQLException {
    if (value == null) {
      st.execute("RESET VARIABLE " + name);
    } else {
      st.execute("SET VARIABLE " + name + " = " + value + "::BIGINT");
    }
  }

  /** One line saying what the window is, for summaries and reports; empty when none. */
  public String describe() {
    List<String> parts = new ArrayList<>();
    if (warmupRequests != null) {
      parts.add("first " + warmupRequests + " requests of each run are warm-up");
    }
    if (warmupNs != null) {
      parts.add("requests in the first " + seconds(warmupNs) + " of each run are warm-up");
    }
    if (sinceNs != null) {
      parts.add("arrivals from " + Instant.ofEpochSecond(0, sinceNs));
    }
    if (untilNs != null) {
      parts.add("arrivals before " + Instant.ofEpochSecond(0, untilNs));
    }
    if (sinceRelNs != null) {
      parts.add("arrivals from +" + seconds(sinceRelNs) + " into each run");
    }
    if (untilRelNs != null) {
      parts.add("arrivals before +" + seconds(untilRelNs) + " into each run");
    }
    return String.join("; ", parts);
  }

  private static String seconds(long ns) {
    return String.format(Locale.ROOT, "%.3f s", ns / 1e9).replaceAll("\\.?0+ s$", " s");
  }

  static boolean isDuration(String s) {
    return DURATION.matcher(s.strip()).matches();
  }

  /** Ten years in ns: the longest duration the window options take. */
  static final double MAX_DURATION_NS = 10.0 * 365 * 86_400 * 1e9;

  static long durationNs(String s, String option) {
    Matcher m = DURATION.matcher(s.strip());
    if (!m.matches()) {
      throw new BadInputException(option + " expects a duration like 30s, 1.5m or 500ms, got " + s);
    }
    double v = Double.parseDouble(m.group(1));
    double unit = switch (m.group(2)) {
      case "ns" -> 1;
      case "us" -> 1e3;
      case "ms" -> 1e6;
      case "s" -> 1e9;
      case "m" -> 60e9;
      default -> 3600e9;
    };
    // the views add it to a run's start in INT64 ns: 9223372036s overflowed there ("Overflow in
    // addition of INT64"); no run lasts ten years
    if (!(v * unit <= MAX_DURATION_NS)) {
      throw new BadInputException(option + " " + s.strip() + " is longer than ten years; give a duration "
          + "after the run's start (30s, 1.5m, 2h) or an instant (2026-01-01T00:00:05Z)");
    }
    return Math.round(v * unit);
  }

  static long instantNs(String s, String option) {
    try {
      Instant i = s.endsWith("Z") ? Instant.parse(s) : OffsetDateTime.parse(s).toInstant();
      return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano());
    } catch (DateTimeParseException | ArithmeticException e) {
      throw new BadInputException(option + " expects an ISO-8601 instant with a zone "
          + "(2026-01-01T00:00:05Z) or a duration after the run's start (30s), got " + s);
    }
  }
}
