package dev.tokentime.app;

import dev.tokentime.store.SourceWriter;
import java.util.List;

/** What an ingest did, file by file. */
public record IngestResult(List<FileResult> files, List<Skipped> skipped, List<String> runs,
    boolean strictFailure, List<FailedCheck> failedChecks) {

  /** The start of the outcome of a file that failed and was rolled back; the reason follows. */
  public static final String REFUSED = "refused: ";

  /** An invariant check (queries/checks) that found violations after the ingest. */
  public record FailedCheck(String view, long violations, String invariant) {}

  /**
   * A file that was read (or found already ingested). {@code grewFrom}: sources this file's
   * reading replaced because they held its beginning (the same log read again after it grew);
   * {@code notes}: what the user should know of how it was read (an option that did not apply);
   * {@code embedded}: another format's records read among its lines (a tool's result block in a
   * server's log), counted in its own figures too, or null.
   */
  public record FileResult(String path, String format, String compression, Integer sourceId,
      String outcome, long lines, long records, long otherLines, long rejected, long requests,
      long tokens, List<SourceWriter.Reject> firstRejects, String damage, SourceWriter.NearMisses nearMisses,
      List<Integer> grewFrom, List<String> notes, SourceWriter.Embedded embedded) {

    /** A file with no other format's records among its lines. */
    public FileResult(String path, String format, String compression, Integer sourceId,
        String outcome, long lines, long records, long otherLines, long rejected, long requests,
        long tokens, List<SourceWriter.Reject> firstRejects, String damage, SourceWriter.NearMisses nearMisses,
        List<Integer> grewFrom, List<String> notes) {
      this(path, format, compression, sourceId, outcome, lines, records, otherLines, rejected, requests, tokens,
          firstRejects, damage, nearMisses, grewFrom, notes, null);
    }

    public boolean ingested() {
      return outcome.equals("ingested");
    }

    /** The same result with what the ingest noticed beside its counts. */
    FileResult with(List<Integer> grewFrom, List<String> notes) {
      return new FileResult(path, format, compression, sourceId, outcome, lines, records, otherLines, rejected,
          requests, tokens, firstRejects, damage, nearMisses, grewFrom, notes, embedded);
    }

    /** Failed and rolled back (nothing of it stored); {@link #outcome} says why. */
    public boolean refused() {
      return outcome.startsWith(REFUSED);
    }
  }

  /**
   * A file left out: {@link #UNRECOGNISED}, {@link #EMPTY}, {@link #SAME_AS} the file it copies,
   * {@link #UNREADABLE}, or {@link #LEFT_OUT} by its format for what lies beside it.
   */
  public record Skipped(String path, String reason) {
    /** No format claims it: perhaps followed by ": " and what it looks like (UnknownContent). */
    public static final String UNRECOGNISED = "format not recognised";
    public static final String EMPTY = "empty";
    public static final String SAME_AS = "same content as ";
    /** Found in a directory and not readable at all (a damaged compressed header): followed by why. */
    public static final String UNREADABLE = "cannot read: ";
    /** Found in a directory whose other files hold what it holds, or no measurement: followed by why. */
    public static final String LEFT_OUT = "left out: ";
  }

  public long rejected() {
    return files.stream().mapToLong(FileResult::rejected).sum();
  }

  /** Files that failed and were rolled back: the command exits 2. */
  public long refusedFiles() {
    return files.stream().filter(FileResult::refused).count();
  }

  /** The ingest failed (exit 2): --strict stopped at a rejected line, or a file was refused. */
  public boolean failed() {
    return strictFailure() || refusedFiles() > 0;
  }

  public long ingestedFiles() {
    return files.stream().filter(FileResult::ingested).count();
  }
}
