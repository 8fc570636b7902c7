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
 */
public record IngestOptions(List<String> inputs, String from, String run, boolean replace,
    boolean strict, boolean keepText, ZoneId zone, Integer year, Instant at, int jobs) {

  public IngestOptions(List<String> inputs, String from, String run, boolean replace,
      boolean strict, boolean keepText, ZoneId zone, Integer year, Instant at) {
    this(inputs, from, run, replace, strict, keepText, zone, year, at, 0);
  }

  /** The same options with {@code jobs} files read at once. */
  public IngestOptions withJobs(int n) {
    return new IngestOptions(inputs, from, run, replace, strict, keepText, zone, year, at, n);
  }

  public IngestOptions(List<String> inputs, String from, String run, boolean replace,
      boolean strict, boolean keepText, ZoneId zone, Integer year) {
    this(inputs, from, run, replace, strict, keepText, zone, year, null);
  }

  public static IngestOptions of(List<String> inputs) {
    return new IngestOptions(inputs, null, null, false, false, false, null, null, null);
  }
}
