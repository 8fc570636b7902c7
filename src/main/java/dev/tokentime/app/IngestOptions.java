package dev.tokentime.app;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

/**
 * What the user asked of an ingest.
 *
 * @param inputs files, directories, globs, or - for stdin
 * @param from the format to read with, or null to sniff each file
 * @param run the run of records that name none, or null for the file's parent directory
 * @param replace re-ingest files already in the database
 * @param strict any rejected line fails the ingest (exit 2); the file's rows are rolled back
 * @param keepText keep prompt and output text
 * @param zone time zone of local-time logs, or null
 * @param year year of logs whose timestamps omit it, or null
 * @param at when snapshots without timestamps (a /metrics scrape) were taken, or null
 * @param jobs files read at once; 0 = one per core, at most 4
 * @param levelKind with level: --level's kind (concurrency or request_rate) for the run of records
 *     that name none, or null
 * @param level --level's value, or null
 */
public record IngestOptions(List<String> inputs, String from, String run, boolean replace,
    boolean strict, boolean keepText, ZoneId zone, Integer year, Instant at, int jobs,
    String levelKind, Double level) {

  public IngestOptions(List<String> inputs, String from, String run, boolean replace,
      boolean strict, boolean keepText, ZoneId zone, Integer year, Instant at, int jobs) {
    this(inputs, from, run, replace, strict, keepText, zone, year, at, jobs, null, null);
  }

  /** The same options with the level of the run of records that name none (--level). */
  public IngestOptions withLevel(String kind, Double value) {
    return new IngestOptions(inputs, from, run, replace, strict, keepText, zone, year, at, jobs, kind, value);
  }

  /**
   * Parses --level: {@code concurrency=16}, {@code rate=8} (also {@code request_rate=8}); the
   * value a positive number, a whole one for concurrency. Returns {kind, value}.
   */
  public static Object[] parseLevel(String text) {
    int eq = text.indexOf('=');
    String kind = eq < 0 ? "" : text.substring(0, eq).strip().toLowerCase(java.util.Locale.ROOT);
    kind = switch (kind) {
      case "concurrency", "c" -> "concurrency";
      case "rate", "request_rate", "request-rate", "qps", "rps" -> "request_rate";
      default -> throw new dev.tokentime.BadInputException("--level: expected concurrency=N or rate=R (requests/s), got "
          + text);
    };
    double v;
    try {
      v = Double.parseDouble(text.substring(eq + 1).strip());
    } catch (NumberFormatException e) {
      throw new dev.tokentime.BadInputException("--level: " + text.substring(eq + 1).strip() + " is not a number");
    }
    String problem = dev.tokentime.ingest.Checked.levelProblem(kind, v);
    if (problem != null) {
      throw new dev.tokentime.BadInputException("--level: " + problem + ", got " + text);
    }
    return new Object[] {kind, v};
  }

  public IngestOptions(List<String> inputs, String from, String run, boolean replace,
      boolean strict, boolean keepText, ZoneId zone, Integer year, Instant at) {
    this(inputs, from, run, replace, strict, keepText, zone, year, at, 0);
  }

  /** The same options with {@code jobs} files read at once. */
  public IngestOptions withJobs(int n) {
    return new IngestOptions(inputs, from, run, replace, strict, keepText, zone, year, at, n, levelKind, level);
  }

  public IngestOptions(List<String> inputs, String from, String run, boolean replace,
      boolean strict, boolean keepText, ZoneId zone, Integer year) {
    this(inputs, from, run, replace, strict, keepText, zone, year, null);
  }

  public static IngestOptions of(List<String> inputs) {
    return new IngestOptions(inputs, null, null, false, false, false, null, null, null);
  }
}
