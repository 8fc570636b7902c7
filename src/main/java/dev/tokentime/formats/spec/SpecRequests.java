package dev.tokentime.formats.spec;

import static dev.tokentime.ingest.RequestRecord.NONE;

import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Request lifecycles of a format that is a spec alone (no Java of its own): a {@code requests}
 * kind names the event its line is ({@link #EVENTS}), the group {@code id} the request. Each
 * event sets the request's timestamp of the same name; {@code finished}, {@code error} and
 * {@code cancelled} end it (it is written then), the end of the input writes the rest. A kind
 * with a {@code clock} line takes its time from that group, on a clock of its own ({@code steady}:
 * monotonic), and the first line that carries both that time and a wall time is kept in
 * {@code clock_anchors}. Groups named after request columns ({@code promptTokens},
 * {@code outputTokens}, {@code finishReason}, {@code httpStatus}) fill them. Requests in flight are
 * bounded ({@link #MAX_IN_FLIGHT}; beyond, the oldest is written as it is).
 */
final class SpecRequests implements SpecParser.Handler {
  static final Set<String> EVENTS = Set.of("arrival", "queued", "scheduled", "first_token", "last_token",
      "finished", "error", "cancelled", "access", "refused");
  static final int MAX_IN_FLIGHT = 65_536;

  private final ParseContext ctx;
  private final RecordSink sink;
  private final String engine;
  private final String scope;
  private final Map<String, RequestRecord> inFlight = new LinkedHashMap<>();
  private final Map<String, Integer> eventClocks = new LinkedHashMap<>();
  /** The ids written (a repeated id is rejected: the sink keeps one row per id and file). */
  private final IdHashes written = new IdHashes();
  private boolean anchored;
  /** Refused requests waiting for their error response (an access line), oldest first. */
  private final java.util.ArrayDeque<RequestRecord> refusals = new java.util.ArrayDeque<>();
  /**
   * How long (log time) a refused request waits for its error response: an HTTP server logs it as
   * it answers, within a second; an error minutes later is another request's.
   */
  static final long AWAIT_NS = 60_000_000_000L;
  /**
   * Whether the format has a line that ends a request that went well: without one (trtllm-log's
   * Received and Response started), a request the input holds to its end is as complete as the
   * format gives it, not cut off by the log's end.
   */
  private final boolean endsRequests;
  private final LogTimes times;

  SpecRequests(ParseContext ctx, RecordSink sink, String format, String scope, LogTimes times, boolean endsRequests) {
    this.endsRequests = endsRequests;
    this.ctx = ctx;
    this.sink = sink;
    this.times = times;
    this.engine = format.contains("-") ? format.substring(0, format.indexOf('-')) : format;
    this.scope = scope;
  }

  @Override
  public SpecParser.Outcome line(MatchedLine m, long ts, int clock, byte[] raw, int off, int len)
      throws SpecParser.BadLine {
    LineSpec.Kind k = m.kind;
    if (ts != NONE) {
      releaseRefusals(ts - AWAIT_NS);
    }
    if (k.table().equals("none")) {
      return SpecParser.Outcome.OTHER;
    }
    if (k.event().equals("access")) {
      return access(m, ts, clock, raw, off, len);
    }
    if (k.event().equals("refused")) {
      return refused(m, ts, clock, raw, off, len);
    }
    String id = m.group("id");
    if (id == null) {
      throw new SpecParser.BadLine(k.name() + " line: no request id");
    }
    if (!inFlight.containsKey(id) && written.contains(id)) {
      throw new SpecParser.BadLine("request id " + id + " repeats a request already read from this file (ids"
          + " start again with a new server process); the first is kept");
    }
    long at = ts;
    int atClock = clock;
    if (k.clock() != null && m.group(k.clock().group()) != null) {
      LineSpec.EventClock c = k.clock();
      atClock = eventClocks.computeIfAbsent(c.kind() + " " + c.unit(), x -> sink.clock(new ClockSpec(c.kind(),
          scope + " (" + c.kind() + " " + c.group() + ")", 1, null, false)));
      try {
        at = c.nanos(m.group(c.group()));
      } catch (NumberFormatException | ArithmeticException e) {
        throw new SpecParser.BadLine(k.name() + " line: " + c.group() + " is not a number of " + c.unit());
      }
      if (!anchored && ts != NONE) {
        anchored = true;
        sink.clockAnchor(clock, ts, atClock, at, "one log line carries both (the wall time to its resolution)");
      }
    }
    if (at == NONE) {
      throw new SpecParser.BadLine("no timestamp: " + LineSpec.aKind(k.name()) + " line without a time of its own");
    }
    // checked on its own line: the request is stored lines later, when its lines are counted
    String range = dev.tokentime.ingest.Checked.timestampProblem(k.name() + " line " + k.event() + " time", at);
    if (range != null) {
      throw new SpecParser.BadLine(range);
    }
    RequestRecord r = inFlight.get(id);
    if (r == null) {
      r = new RequestRecord();
      r.lineNo = m.lineNo;
      r.run = ctx.defaultRun();
      r.requestId = id;
      r.engine = engine;
      r.instance = m.origin();
      r.clockId = atClock;
      inFlight.put(id, r);
      evictIfFull();
    } else if (r.clockId != atClock) {
      if (!k.event().equals("error") && !k.event().equals("cancelled") && !k.event().equals("finished")) {
        throw new SpecParser.BadLine("request " + id + ": " + LineSpec.aKind(k.name()) + " time on another clock than its first line's");
      }
      // an ending on the log's clock of a request whose times are on a clock of their own
      // (TensorRT-LLM's monotonic "at"): how it ended holds, the time stays unknown on its row
      fill(r, m);
      r.extras.put("ended_at_line", Long.toString(m.lineNo));
      end(r, k.event().equals("finished") ? (r.status == null ? "ok" : r.status) : k.event());
      return SpecParser.Outcome.RECORD;
    }
    switch (k.event()) {
      case "arrival" -> r.arrivalNs = first(r.arrivalNs, at);
      case "queued" -> r.queuedNs = first(r.queuedNs, at);
      case "scheduled" -> r.scheduledNs = first(r.scheduledNs, at);
      case "first_token" -> r.firstTokenNs = first(r.firstTokenNs, at);
      case "last_token" -> r.lastTokenNs = at;
      case "finished", "error", "cancelled" -> r.finishedNs = at;
      default -> throw new IllegalStateException("spec kind " + k.name() + ": unknown request event " + k.event()
          + " (one of " + EVENTS + ")");
    }
    fill(r, m);
    switch (k.event()) {
      case "finished" -> end(r, r.status == null ? "ok" : r.status);
      case "error" -> end(r, "error");
      case "cancelled" -> end(r, "cancelled");
      default -> { }
    }
    return SpecParser.Outcome.RECORD;
  }

  /**
   * An HTTP server's access line (groups method, path, status): a client's inference request
   * refused or failed (4xx, 5xx) is a failed request of its own ({@link ErrorAccessLines}): these
   * logs name no request on their request lines that an access line could be tied to. Successes,
   * other routes and probes are other lines.
   */
  private SpecParser.Outcome access(MatchedLine m, long ts, int clock, byte[] raw, int off, int len)
      throws SpecParser.BadLine {
    String status = m.group("status");
    if (status == null || !ErrorAccessLines.inferenceRequest(m.group("method"), m.group("path"))
        || Integer.parseInt(status) < 400) {
      return SpecParser.Outcome.OTHER;
    }
    for (java.util.Iterator<RequestRecord> it = refusals.iterator(); it.hasNext(); ) {
      RequestRecord held = it.next();
      if (ErrorAccessLines.sameOrigin(held.instance, m.origin())) {
        // the error response of the request the engine refused, not a failure of its own
        it.remove();
        held.httpStatus = Integer.parseInt(status);
        sink.request(held, null, 0, 0);
        return SpecParser.Outcome.RECORD;
      }
    }
    RequestRecord r = new RequestRecord();
    ErrorAccessLines.fill(r, m, Integer.parseInt(status), ts, clock, times, ctx.defaultRun(), engine, m.origin());
    sink.request(r, raw, off, len);
    return SpecParser.Outcome.RECORD;
  }

  /**
   * A request the engine refused or failed that its line names by no id (TensorRT-LLM's "Cannot
   * process new request: Prompt length (1251) exceeds maximum input length (1024)"): a failed
   * request of its own, id {@code refused-line-N}, status error, its error the line's
   * {@code detail}, at the line's time or else the last time the log gave ({@code
   * extras.time_from}), as an access line's error is ({@link ErrorAccessLines}). The next error
   * access line of its server within {@link #AWAIT_NS} of log time is its response (trtllm-serve
   * answers it with a 400): that line gives it its {@code http_status}, not a second failed request.
   */
  private SpecParser.Outcome refused(MatchedLine m, long ts, int clock, byte[] raw, int off, int len)
      throws SpecParser.BadLine {
    RequestRecord r = new RequestRecord();
    ErrorAccessLines.Dated at = ErrorAccessLines.failed(r, m.lineNo, "refused-line-" + m.lineNo, ts, clock, times,
        LineSpec.aKind(m.kind.name()) + " line", ctx.defaultRun(), engine, m.origin());
    r.error = m.group("detail");
    if (ts == NONE) {
      r.extras.put("time_from", at.from());
    }
    // held for its error response: an HTTP server in front (trtllm-serve) answers the refused
    // request with a 4xx or 5xx access line, which is this request's status, not a second one
    refusals.add(r);
    if (refusals.size() > MAX_IN_FLIGHT) {
      sink.request(refusals.removeFirst(), null, 0, 0);
    }
    return SpecParser.Outcome.RECORD;
  }

  /** Writes the refused requests held since before {@code since} (log time) without their response. */
  private void releaseRefusals(long since) {
    while (!refusals.isEmpty() && refusals.peekFirst().finishedNs < since) {
      sink.request(refusals.removeFirst(), null, 0, 0);
    }
  }

  private static long first(long old, long at) {
    return old == NONE ? at : old;
  }

  private static void fill(RequestRecord r, MatchedLine m) throws SpecParser.BadLine {
    try {
      String v;
      if ((v = m.group("promptTokens")) != null) {
        r.promptTokens = Integer.valueOf(v);
      }
      if ((v = m.group("outputTokens")) != null) {
        r.outputTokens = Integer.valueOf(v);
      }
      if ((v = m.group("httpStatus")) != null) {
        r.httpStatus = Integer.valueOf(v);
      }
    } catch (NumberFormatException e) {
      throw new SpecParser.BadLine(m.kind.name() + " line: a count that is not whole: " + e.getMessage());
    }
    if (m.group("finishReason") != null) {
      r.finishReason = m.group("finishReason");
    }
  }

  private void end(RequestRecord r, String status) {
    r.status = status;
    inFlight.remove(r.requestId);
    written.add(r.requestId);
    sink.request(r, null, 0, 0);
  }


  private void evictIfFull() {
    if (inFlight.size() <= MAX_IN_FLIGHT) {
      return;
    }
    Iterator<RequestRecord> it = inFlight.values().iterator();
    RequestRecord oldest = it.next();
    it.remove();
    oldest.extras.put("end", "written early: more than " + MAX_IN_FLIGHT + " requests in flight");
    written.add(oldest.requestId);
    sink.request(oldest, null, 0, 0);
  }

  @Override
  public void end() {
    releaseRefusals(Long.MAX_VALUE);
    for (RequestRecord r : inFlight.values()) {
      if (endsRequests) {
        r.extras.put("end", "log ended while the request was in flight");
      }
      sink.request(r, null, 0, 0);
    }
    inFlight.clear();
  }
}
