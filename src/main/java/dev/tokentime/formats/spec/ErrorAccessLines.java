package dev.tokentime.formats.spec;

import dev.tokentime.ingest.RequestRecord;

/**
 * An HTTP error on a uvicorn access line that no request line is next to (refused before
 * admission: a 404 for an unknown model; a 500 of a failing server; any error of a server that
 * logs no request lines) is a failed request of its own, in every server log that has access
 * lines (docs/formats.md, "Access lines"). It is never tied to the request that comes next, which
 * may be another client's seconds later.
 */
public final class ErrorAccessLines {
  private ErrorAccessLines() {}

  /**
   * Fills {@code into} (already reset) as the failed request of access line {@code m}: id
   * {@code http-STATUS-line-N}, status error, its HTTP status, and the line's time ({@code ts}, a
   * header's or a wrapper's) or else the time of the last line before it that had one, which
   * uvicorn's own lines lack ({@code extras.time_from} says which).
   *
   * @throws SpecParser.BadLine when no line up to this one had a time: a request needs one
   */
  public static void fill(RequestRecord into, MatchedLine m, int status, long ts, int clock, LogTimes times,
      String run, String engine, String instance) throws SpecParser.BadLine {
    Dated at = dated(ts, clock, times, "an HTTP " + status + " access line");
    ts = at.ns();
    clock = at.clock();
    into.lineNo = m.lineNo;
    into.run = run;
    into.requestId = "http-" + status + "-line-" + m.lineNo;
    into.engine = engine;
    into.instance = instance;
    into.clockId = clock;
    into.arrivalNs = ts;
    into.finishedNs = ts;
    into.status = "error";
    into.httpStatus = status;
    into.error = "HTTP " + status + " " + m.group("method") + " " + m.group("path")
        + " (access line only: no request line names it)";
    into.extras.put("time_from", at.from());
  }

  /** When a failed request known from one line happened, and where that time came from. */
  public record Dated(long ns, int clock, String from) {}

  /**
   * The line's own time ({@code ts}), or else the time of the last line before it that had one,
   * which uvicorn's and some engine lines lack; {@code from} says which.
   *
   * @throws SpecParser.BadLine when no line up to this one had a time: a request needs one
   */
  public static Dated dated(long ts, int clock, LogTimes times, String what) throws SpecParser.BadLine {
    if (ts != RequestRecord.NONE) {
      return new Dated(ts, clock, "its own line");
    }
    if (times.lastNs() == RequestRecord.NONE) {
      throw new SpecParser.BadLine("no timestamp: " + what + " before any line with a time");
    }
    return new Dated(times.lastNs(), times.lastNsClock(), "the last timed line before it");
  }
}
