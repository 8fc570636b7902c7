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
    String from = "its own line";
    if (ts == RequestRecord.NONE) {
      ts = times.lastNs();
      clock = times.lastNsClock();
      from = "the last timed line before it";
    }
    if (ts == RequestRecord.NONE) {
      throw new SpecParser.BadLine("no timestamp: an HTTP " + status + " access line before any line with a time");
    }
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
    into.extras.put("time_from", from);
  }
}
