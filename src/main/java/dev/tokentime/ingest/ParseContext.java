package dev.tokentime.ingest;

import java.time.Instant;
import java.time.ZoneId;

/**
 * What a parser may know of the file it reads and of the user's options.
 *
 * @param sourceName the path as the user gave it, for messages
 * @param defaultRun the run of records that name none (--run, else the parent directory)
 * @param keepText keep prompt and output text (--keep-text); otherwise it never reaches storage
 * @param zone time zone for local-time sources, null when not given
 * @param year year for sources that omit it, null when not given
 * @param fileModified when the file was last written (its date helps sources that omit the
 *     year), null when unknown (stdin)
 * @param at when a snapshot without timestamps was taken (--at), null when not given
 * @param embedded a format whose records the file holds among its own format's lines (a
 *     tool's result block in a server's log: {@link InputFormat#embeddedReader}), or null
 * @param reopen the file's content read again from its start, for a parser that learns only at
 *     the file's end how to read what came before (without holding it all); null when the input
 *     cannot be read twice
 */
public record ParseContext(String sourceName, String defaultRun, boolean keepText, ZoneId zone,
    Integer year, Instant fileModified, Instant at, InputFormat embedded, Reopen reopen) {

  /** Opens the file's content (as the parser's stream gives it: decompressed, decoded) again. */
  @FunctionalInterface
  public interface Reopen {
    java.io.InputStream open() throws java.io.IOException;
  }

  public ParseContext(String sourceName, String defaultRun, boolean keepText, ZoneId zone,
      Integer year, Instant fileModified, Instant at, InputFormat embedded) {
    this(sourceName, defaultRun, keepText, zone, year, fileModified, at, embedded, null);
  }

  public ParseContext(String sourceName, String defaultRun, boolean keepText, ZoneId zone,
      Integer year, Instant fileModified, Instant at) {
    this(sourceName, defaultRun, keepText, zone, year, fileModified, at, null);
  }

  public ParseContext(String sourceName, String defaultRun, boolean keepText, ZoneId zone,
      Integer year) {
    this(sourceName, defaultRun, keepText, zone, year, null, null);
  }

  /** The same, with a format embedded in the file's lines (null: none). */
  public ParseContext withEmbedded(InputFormat format) {
    return new ParseContext(sourceName, defaultRun, keepText, zone, year, fileModified, at, format, reopen);
  }

  /** The same, with a way to read the file's content again (null: none). */
  public ParseContext withReopen(Reopen again) {
    return new ParseContext(sourceName, defaultRun, keepText, zone, year, fileModified, at, embedded, again);
  }
}
