package dev.tokentime.cli;

import dev.tokentime.BadInputException;
import dev.tokentime.app.IngestOptions;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.List;
import picocli.CommandLine.Option;

/** How input files are read: shared by ingest and analyze. */
final class InputOptions {
  @Option(names = "--from", paramLabel = "FORMAT",
      description = "Read every input as this format instead of sniffing it (tokentime formats lists them).")
  String from;

  @Option(names = "--run", paramLabel = "NAME",
      description = "Run of records that name none (default: the file's parent directory).")
  String run;

  @Option(names = "--level", paramLabel = "KIND=N",
      description = "Level of the run of records that name none: concurrency=16 or rate=8 (requests/s). "
          + "Without it a level comes from the files themselves, else from names like c16, conc16, "
          + "concurrency=16, rate-8, qps8 or rps-2.5 in the run's, the file's or its directories' names.")
  String level;

  @Option(names = "--replace",
      description = "Re-ingest files already in the database (same content or same path), e.g. with a corrected --tz.")
  boolean replace;

  @Option(names = "--strict",
      description = "Fail (exit 2) on the first file with a rejected line, printing the first reasons; that file is rolled back. "
          + "A file found in a folder whose format is not recognised fails too, before anything is stored.")
  boolean strict;

  @Option(names = "--keep-text",
      description = "Keep prompt and output text (dropped by default: production logs carry user data).")
  boolean keepText;

  @Option(names = "--tz", paramLabel = "ZONE",
      description = "Time zone of logs written in local time, e.g. Europe/Berlin (default: UTC, marked as assumed).")
  String tz;

  @Option(names = "--year", paramLabel = "YYYY",
      description = "Year of logs whose timestamps omit it (default: the file's modification year; it rolls over when December is followed by January).")
  Integer year;

  @Option(names = "--at", paramLabel = "TIME",
      description = "When a metrics scrape without sample timestamps was taken (vllm-prometheus), as "
          + "2026-03-17T15:38:00Z (default: the file's modification time); for a log whose lines carry a "
          + "time of day only (SGLang 0.3's [04:40:55 TP0]), the date of its first line.")
  String at;

  @Option(names = "--jobs", paramLabel = "N", defaultValue = "0",
      description = "Files read at once (default: one per core, at most 4; with 1, one at a time). The files "
          + "of one run that meet by request id (its requests and tokens files) are always read one after the "
          + "other in the order given, so when two of them carry the same request id the earlier file's copy "
          + "is the one kept; readings of one growing log (pod.log and pod-2.log, server.log and server.log.1) "
          + "too, shortest first.")
  int jobs;

  IngestOptions toOptions(List<String> inputs) {
    if (jobs < 0) {
      throw new BadInputException("--jobs must be 0 (automatic) or more, got " + jobs);
    }
    if (year != null && (year < 1990 || year > 2099)) {
      // the range timestamps are checked against (ingest.Checked): any other year rejects every line
      throw new BadInputException("--year must be between 1990 and 2099, got " + year);
    }
    Instant when = null;
    if (at != null) {
      try {
        when = OffsetDateTime.parse(at).toInstant();
      } catch (DateTimeException e) {
        throw new BadInputException("--at: expected a time like 2026-03-17T15:38:00Z, got " + at);
      }
    }
    ZoneId zone = null;
    if (tz != null) {
      try {
        zone = ZoneId.of(tz);
      } catch (DateTimeException e) {
        throw new BadInputException("unknown time zone " + tz + " (--tz takes a region name as Europe/Berlin or"
            + " America/New_York, an offset as +02:00, or UTC)");
      }
    }
    IngestOptions o = new IngestOptions(inputs, from, run, replace, strict, keepText, zone, year, when, jobs);
    if (level != null) {
      Object[] kv = IngestOptions.parseLevel(level);
      o = o.withLevel((String) kv[0], (Double) kv[1]);
    }
    return o;
  }
}
