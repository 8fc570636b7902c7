package dev.tokentime.formats.spec;

import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.LineReader;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.StepRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Runs a {@link LineSpec} over a stream: every line is decoded, matched, and then stored by the
 * engine (kinds of {@code engine_stats}, {@code steps} and {@code engine_events}), handed to the
 * format's {@link Handler} (kinds of {@code requests} / {@code none}), counted as other (no kind
 * matched), or rejected (invalid UTF-8, control bytes, an impossible time, a value that is not a
 * number, a truncated last line that looks like one of the kinds).
 */
public final class SpecParser {

  /** What a handler made of a line. */
  public enum Outcome {
    /** The line produced (or will produce) rows: counted as a record now. */
    RECORD,
    /** The line carries nothing to keep. */
    OTHER,
    /** The handler accounts for the line itself, later (it calls record/otherLine). */
    DEFERRED
  }

  /** The Java side of a format: what lines of its own kinds mean. */
  public interface Handler {
    /** A line of a {@code requests} or {@code none} kind. */
    Outcome line(MatchedLine m, long tsNs, int clockId, byte[] raw, int off, int len) throws BadLine;

    /** An engine event was stored (a restart may end the requests in flight). */
    default void event(MatchedLine m, String kind, long tsNs, int clockId) {}

    /** The input ended: write what is held. */
    default void end() {}

    /**
     * Offered every decoded, non-blank line before it is stored: a format that joins a record
     * wrapped over several lines takes the lines that continue it (returns true and accounts for
     * them itself: record, other line or reject); one that only watches the lines go by (which
     * stand between two others) returns false.
     */
    default boolean continuation(MatchedLine m, byte[] raw, int off, int len) {
      return false;
    }
  }

  /** A line that cannot be used; the message is the reject reason. */
  public static final class BadLine extends Exception {
    public BadLine(String reason) {
      super(reason, null, false, false);
    }
  }

  private final ParseContext ctx;
  private final RecordSink sink;
  private final Handler handler;
  private final ExplainStats explain;
  private final LineMatcher matcher;
  private final LogTimes times;
  /** The line being stored (the sequential path's own, or a worker's). */
  private MatchedLine m = new MatchedLine();
  /** The line stored before this one (its text and where its message starts): a kind's not-after. */
  private String prevText;
  /** The line stored before this one as read (an envelope's fields name its origin). */
  private String prevRaw;
  private int prevStart;
  private final EngineStatsRecord stats = new EngineStatsRecord();
  /** Per origin, the engine its last stats line named ("Engine 000"): statsInstance. */
  private final Map<String, String> lastEngine = new HashMap<>();
  private final StepRecord step = new StepRecord();
  private final IterationLanes lanes = new IterationLanes();
  /** The items of the line being stored, for a kind with {@code items}. */
  private Map<String, String> items = Map.of();
  /** Columns the line being stored has filled so far (a prefix group fills only what is left). */
  private final java.util.Set<String> filled = new java.util.HashSet<>();
  private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
  private LineReader reader;
  /** Batches of the parallel path; 0 lines: the sequential path (tests compare the two). */
  private int batchLines = Runtime.getRuntime().availableProcessors() > 1 ? 256 : 0;
  private int batchBytes = 256 << 10;

  /**
   * @param explain collects per-kind counts for --explain, or null
   * @param clockScope scope of the clocks of this file's times (e.g. "vllm log app.log")
   */
  public SpecParser(LineSpec spec, ParseContext ctx, RecordSink sink, Handler handler,
      ExplainStats explain, String clockScope) {
    this.ctx = ctx;
    this.sink = sink;
    this.handler = handler;
    this.explain = explain;
    this.matcher = new LineMatcher(spec);
    this.times = new LogTimes(ctx, sink, clockScope);
  }

  public LogTimes times() {
    return times;
  }

  public ParseContext context() {
    return ctx;
  }

  /** Another format's records among this format's lines (a tool's result block), or null. */
  private dev.tokentime.ingest.InputFormat.EmbeddedReader embedded;

  /** Offers the lines no kind reads to {@code reader} first ({@link dev.tokentime.ingest.InputFormat#embeddedReader}). */
  void embed(dev.tokentime.ingest.InputFormat.EmbeddedReader reader) {
    embedded = reader;
    for (int i = 0; i < matcher.spec().headers(); i++) {
      ownHeaders.add(matcher.spec().prefixes().get(i).name());
    }
  }

  /** The names of the format's own headers (its logger's prefixes, not the wrappers'). */
  private final java.util.Set<String> ownHeaders = new java.util.HashSet<>();

  /**
   * Whether an unread line is the server's own, never a line of a tool's block printed among
   * them: it carries the format's own header or a server process's tag ("(APIServer pid=1)").
   */
  private boolean serverLine(MatchedLine line) {
    for (String p : line.prefixes) {
      if (ownHeaders.contains(p)) {
        return true;
      }
    }
    return line.prefixValues.containsKey("process");
  }

  /** For tests: the sequential path (lines = 0) or batches of this size. */
  void batches(int lines, int bytes) {
    batchLines = lines;
    batchBytes = bytes;
  }

  public long parse(InputStream in) throws IOException {
    long lines = batchLines > 0 ? parseParallel(in) : parseSequential(in);
    String reversed = times.newestFirst();
    if (reversed != null) {
      // nothing read this way is right (each request ends before it starts): the file is refused whole
      throw new dev.tokentime.ingest.InputRefused(reversed);
    }
    flushHeld();
    if (embedded != null) {
      embedded.end();
    }
    for (Traceback t : tracebacks.values()) {
      writeEvent(t, null); // cut before its exception line
    }
    tracebacks.clear();
    handler.end();
    if (explain != null) {
      explain.lines = lines;
    }
    return lines;
  }

  /** One thread reads, decodes, matches and stores each line in turn. */
  private long parseSequential(InputStream in) throws IOException {
    reader = new LineReader(in);
    PartialLines joiner = new PartialLines(new PartialLines.Sink() {
      @Override
      public void line(long lineNo, byte[] buf, int off, int len) {
        MatchedLine.Prepared p = prepare(matcher, utf8, buf, off, len, m.reset(lineNo));
        process(lineNo, buf, off, len, p, unterminated(reader, lineNo), m);
      }

      @Override
      public void tooLong(long lineNo, long length, byte[] head, int headLen) {
        rejectTooLong(lineNo, length, head, headLen);
      }

      @Override
      public void partial(long lineNo) {
        flushHeld();
        other();
      }
    });
    long lines = reader.forEach(joiner);
    joiner.end();
    return lines;
  }

  /**
   * Whether line {@code lineNo}, handed on now, is a last line without its newline: only the line
   * the reader read last can be. A line held to be joined (a GitLab runner line, a CRI or docker
   * piece) is handed on when the next line arrives, after the reader moved on.
   */
  static boolean unterminated(LineReader reader, long lineNo) {
    return !reader.lastLineTerminated() && lineNo == reader.lines();
  }

  /**
   * Decoding and matching (three quarters of the work on a vLLM log) run on worker threads in
   * batches; this thread stores the matched lines in their order, so every result is the same
   * as {@link #parseSequential}'s.
   */
  private long parseParallel(InputStream in) throws IOException {
    return new MatchPipeline(matcher.spec(), batchLines, batchBytes).run(in, new MatchPipeline.Consumer() {
      @Override
      public void line(long lineNo, byte[] buf, int off, int len, MatchedLine matched,
          MatchedLine.Prepared p, boolean unterminated) {
        process(lineNo, buf, off, len, p, unterminated, matched);
      }

      @Override
      public void tooLong(long lineNo, long length, byte[] head, int headLen) {
        rejectTooLong(lineNo, length, head, headLen);
      }

      @Override
      public void partial(long lineNo) {
        flushHeld();
        other();
      }
    });
  }

  private void rejectTooLong(long lineNo, long length, byte[] head, int headLen) {
    flushHeld();
    reject(lineNo, "line of " + length + " bytes is longer than the limit of "
        + LineReader.DEFAULT_MAX_LINE_BYTES + " bytes; skipped", head, 0, headLen);
  }

  /**
   * Decodes and matches one line into {@code into} (already reset to the line): what only needs
   * the line itself, so it may run on any thread with its own matcher and decoder.
   */
  static MatchedLine.Prepared prepare(LineMatcher matcher, CharsetDecoder utf8, byte[] buf, int off,
      int len, MatchedLine into) {
    String line;
    int ascii = asciiClass(buf, off, len);
    boolean plain = ascii != NOT_PLAIN;
    try {
      line = plain ? new String(buf, off, len, StandardCharsets.ISO_8859_1) : decode(utf8, buf, off, len);
    } catch (BadLine e) {
      return MatchedLine.Prepared.reject(e.getMessage());
    }
    if (!plain && line.indexOf('\r') >= 0) {
      line = asShown(line); // else its carriage return is named below
    }
    if (line.isBlank()) {
      return MatchedLine.Prepared.BLANK;
    }
    String control = plain ? null : controlCharacter(line);
    if (control != null) {
      return MatchedLine.Prepared.reject("not text: " + control);
    }
    matcher.match(into.lineNo, line, into, ascii == PRINTABLE);
    return MatchedLine.Prepared.MATCHED;
  }

  /** Stores a prepared line: times, engine tables, the format's handler, rejects. This thread only. */
  private void process(long lineNo, byte[] buf, int off, int len, MatchedLine.Prepared p,
      boolean unterminated, MatchedLine matched) {
    if (held != null && joined(p, matched)) {
      return;
    }
    if (p.rejectReason() != null) {
      reject(lineNo, p.rejectReason(), buf, off, len);
      return;
    }
    if (p == MatchedLine.Prepared.BLANK) {
      if (embedded == null || !embedded.offer(lineNo, "")) {
        other();
      }
      return;
    }
    this.m = matched;
    if (matcher.peelsRemembered(m)) {
      // a later line of a host and tag a sticky prefix peeled before (rsyslog's, before a traceback
      // line): matched again here, where the file's lines are known in order
      matcher.match(lineNo, m.raw, m);
    }
    matcher.remember(m);
    matcher.section(m);
    String before = prevText;
    int beforeStart = prevStart;
    m.previousText = before;
    m.previousStart = beforeStart;
    String beforeRaw = prevRaw;
    prevText = m.text;
    prevStart = m.messageStart();
    prevRaw = m.raw;
    if (!tracebacks.isEmpty()) {
      tracebackGoesOn();
    }
    if (handler.continuation(m, buf, off, len)) {
      return;
    }
    if (explain != null && m.prefixes.contains(LineMatcher.UNKNOWN_WRAPPER)) {
      explain.unknownWrapper(lineNo, m.prefixValue(LineMatcher.UNKNOWN_WRAPPER));
    }
    try {
      if (m.kind != null) {
        ownTime();
      }
      long ts = RequestRecord.NONE;
      int clock = 0;
      if (m.kind != null || !m.times.isEmpty()) {
        ts = times.resolve(m);
        clock = times.clockId();
      }
      if (m.kind == null) {
        unmatched(lineNo, buf, off, len, unterminated);
        return;
      }
      if (m.kind.notAfter() != null && before != null
          && m.kind.notAfter().matcher(before).region(beforeStart, before.length()).find()
          && sameOriginAsBefore(lineNo, beforeRaw != null ? beforeRaw : before)) {
        other(); // its kind does not apply after that line (a request's traceback, not the engine's)
        return;
      }
      if (m.kind.notFrom() != null) {
        String from = m.prefixValue(m.kind.notFrom().group());
        if (from != null && m.kind.notFrom().pattern().matcher(from).find()) {
          other(); // its kind does not apply to a line of that origin (a Python model's own traceback)
          return;
        }
      }
      if (m.kind.end() != null && !endMatcher(m.kind).reset(m.message()).find()) {
        // cut mid-record ("… Running: 1 reqs, Wa"), whether or not a newline follows: a row of
        // the fields before the cut would pass for a whole one
        String reason = "truncated" + (unterminated ? " last line" : "") + ": " + LineSpec.aKind(m.kind.name())
            + " line that ends before its last field";
        if (!unterminated) {
          hold(lineNo, buf, off, len, m.kind, reason);
          return;
        }
        reject(lineNo, reason, buf, off, len);
        return;
      }
      // a bare traceback whose count waits on its frames (the kind's frames rule) is counted,
      // matched or other, when it ends (writeEvent)
      // so is one whose frames may show it a request's error (its kind's request-frames)
      boolean mustShowFrames = m.kind.frames() != null && bare(m);
      // and one whose exception line may tell again a death already counted (its kind's retold)
      boolean waitsOnFrames = (mustShowFrames || m.kind.requestFrames() != null || m.kind.retold() != null)
          && m.kind.table().equals("engine_events")
          && (m.group("detail") != null ? m.group("detail") : m.message()).endsWith(TRACEBACK);
      if (!waitsOnFrames && m.kind.retold() != null && m.kind.event().equals("crash") && crashed.contains(m.serverKey())
          && m.kind.retold().matcher(m.message()).find()) {
        other(); // a crash line of a death its server's log already counted since it last started
        return;
      }
      if (explain != null && !waitsOnFrames) {
        explain.matched(m.kind);
      }
      switch (m.kind.table()) {
        case "engine_stats" -> {
          storeStats(ts, clock);
          sink.record();
        }
        case "steps" -> {
          storeStep(ts, clock);
          sink.record();
        }
        case "engine_events" -> {
          if (ts == RequestRecord.NONE && times.lastNs() != RequestRecord.NONE) {
            // uvicorn's lines have no time ("INFO:     Application startup complete."): the
            // event is placed at the last time the log gave, as an access line is
            ts = times.lastNs();
            clock = times.lastNsClock();
          }
          String detail = m.group("detail") != null ? m.group("detail") : m.message();
          if (detail.endsWith(TRACEBACK)) {
            // its detail says nothing yet: the exception line ending its traceback will
            if (ts != RequestRecord.NONE) {
              Checked.timestamp("engine_events ts_ns", ts); // out of range: this line's reject, now
            }
            Traceback t = new Traceback(lineNo, m.origin(), m.serverKey(), ts, clock,
                m.kind.event(), detail.substring(0, detail.length() - TRACEBACK.length()));
            if (m.kind.retold() != null && before != null && sameOriginAsBefore(lineNo, beforeRaw != null ? beforeRaw : before)) {
              t.opener = before.substring(Math.min(beforeStart, before.length())).strip();
            }
            if (waitsOnFrames) {
              t.waitsOnFrames = m.kind;
              t.mustShowFrames = mustShowFrames;
              // the line before may name the process it ends ("Process EngineCore_0:")
              t.framesShown = mustShowFrames && before != null
                  && m.kind.frames().matcher(before).region(beforeStart, before.length()).find();
            }
            Traceback old = tracebacks.put(originKey(m), t);
            if (old != null) {
              writeEvent(old, null);
            }
            if (waitsOnFrames) {
              return; // neither a record nor an other line yet; no format's Java hears of it
            }
          } else {
            sink.engineEvent(lineNo, m.origin(), ts, clock, m.kind.event(), shortDetail(detail));
            told(m.serverKey(), m.kind.event());
          }
          sink.record();
          handler.event(m, m.kind.event(), ts, clock);
        }
        default -> {
          switch (handler.line(m, ts, clock, buf, off, len)) {
            case RECORD -> sink.record();
            case OTHER -> other();
            case DEFERRED -> { }
          }
        }
      }
    } catch (LogTimes.BadTime e) {
      reject(lineNo, e.getMessage(), buf, off, len);
    } catch (BadLine e) {
      reject(lineNo, e.getMessage(), buf, off, len);
    } catch (NumberFormatException | ArithmeticException e) {
      reject(lineNo, m.kind == null ? "bad value: " + e.getMessage()
          : m.kind.name() + " line: " + e.getMessage(), buf, off, len);
    }
  }

  /** The items with each value {@code unwrap} matches whole replaced by its first group. */
  private static Map<String, String> unwrapped(Map<String, String> items, java.util.regex.Pattern unwrap) {
    Map<String, String> out = null;
    for (var e : items.entrySet()) {
      java.util.regex.Matcher u = unwrap.matcher(e.getValue());
      if (u.matches() && u.groupCount() > 0 && u.group(1) != null) {
        if (out == null) {
          out = new java.util.LinkedHashMap<>(items);
        }
        out.put(e.getKey(), u.group(1));
      }
    }
    return out == null ? items : out;
  }

  /** Reads the kind's items, and puts the kind's own time, where the line has it, before its prefixes'. */
  private void ownTime() throws BadLine {
    LineSpec.Kind k = m.kind;
    items = Map.of();
    if (k.items() != null && m.group(k.items()) != null) {
      try {
        items = ItemList.parse(m.group(k.items()));
      } catch (ItemList.BadDict e) {
        throw new BadLine(e.getMessage());
      }
      if (k.unwrap() != null) {
        items = unwrapped(items, k.unwrap());
      }
    }
    if (k.time() == null) {
      return;
    }
    String v = k.items() != null ? items.get(k.time().name()) : m.group(k.time().name());
    if (v == null || isNull(k, v)) {
      return;
    }
    String[] parts = LocalDateTimes.parts(v);
    if (parts == null) {
      throw new BadLine(k.time().name() + ": not a time of a known shape: " + quote(v));
    }
    m.times.clear();
    m.times.add(new MatchedLine.TimeReading(LocalDateTimes.RULE, parts));
  }

  private static boolean isNull(LineSpec.Kind k, String v) {
    for (String n : k.nulls()) {
      if (v.equalsIgnoreCase(n)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A list value that is no value: a {@code null} word, alone or before its unit ("nan tokens/s",
   * "nan%", "n/a reqs"), so "N/A" is no value and "n/a2" is text.
   */
  private static boolean isNullValue(LineSpec.Kind k, String v) {
    for (String n : k.nulls()) {
      int len = n.length();
      if (v.regionMatches(true, 0, n, 0, len)
          && (v.length() == len || v.charAt(len) == '%' || Character.isWhitespace(v.charAt(len)))) {
        return true;
      }
    }
    return false;
  }

  private static String quote(String s) {
    return "\"" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "\"";
  }

  private void unmatched(long lineNo, byte[] buf, int off, int len, boolean unterminated) {
    if (embedded != null && !serverLine(m) && embedded.offer(lineNo, m.text)) {
      return;
    }
    LineSpec.Kind near = matcher.nearMiss(m);
    if (near != null && unterminated) {
      reject(lineNo, "truncated last line: it looks like " + LineSpec.aKind(near.name())
          + " line but ends before its pattern does", buf, off, len);
      return;
    }
    if (near != null && cutShort(near, m.message())) {
      // "… 50 generation requests, 50 gen" / "eration tokens, iteration elapsed time: 10.25 ms"
      hold(lineNo, buf, off, len, near,
          "truncated: " + LineSpec.aKind(near.name()) + " line cut short (it ends before its pattern does)");
      return;
    }
    if (near != null) {
      sink.nearMiss(lineNo, near.name());
    }
    if (explain != null) {
      if (near != null) {
        explain.nearMiss(near, lineNo, m.text);
      } else if (!m.prefixes.isEmpty() || matcher.mentionsAKind(m.text)) {
        explain.unmatched(lineNo, m.text);
      }
    }
    other();
  }

  /**
   * A near miss inside the file is cut short (a paste, a terminal's hard wrap) when both hold:
   * the kind's pattern ran out of text while it could still match (a line of another shape fails
   * on a character it has, as sgl-jax's "Prefill batch. #bid: 1" does), and the line does not end
   * as a whole line of the kind ends (its {@code cut}, else its {@code end}; a line of a newer
   * version with a field more still ends so). Either alone is no proof: a pattern's ".*?" runs to
   * the end of a changed line too. Kinds with neither keep their near misses as other lines.
   */
  /**
   * Whether the line before (its text) came from the process the line at hand came from: where
   * processes interleave their output, a worker's "WorkerProc hit an exception." says nothing of
   * the API server's traceback on the next line. Matched again only here (rare): no origin is
   * kept for every line.
   */
  private boolean sameOriginAsBefore(long lineNo, String beforeRaw) {
    if (bare(m)) {
      // a line with no prefix at all continues the record before it: Python's logger.exception
      // writes the traceback under the message's header alone ("[… TP1 EP1] Unexpected transfer
      // worker error for room …", then a bare "Traceback …")
      return true;
    }
    MatchedLine prev = new MatchedLine();
    matcher.match(lineNo - 1, beforeRaw, prev);
    return java.util.Objects.equals(prev.origin(), m.origin());
  }

  private static boolean cutShort(LineSpec.Kind near, String message) {
    java.util.regex.Pattern whole = near.wholeEnd();
    if (whole == null || whole.matcher(message).find()) {
      return false;
    }
    java.util.regex.Matcher pm = near.pattern().matcher(message);
    return !pm.lookingAt() && pm.hitEnd();
  }

  /** A matcher of the kind's {@code end}, kept per kind: most lines of a log are of a few kinds. */
  private java.util.regex.Matcher endMatcher(LineSpec.Kind k) {
    return endMatchers.computeIfAbsent(k, x -> x.end().matcher(""));
  }

  private final java.util.Map<LineSpec.Kind, java.util.regex.Matcher> endMatchers = new java.util.IdentityHashMap<>();

  private void other() {
    sink.otherLine();
  }

  /** The date of the first dated line of the file's head, or null (LogTimes.firstLineDate). */
  void headDate(java.time.LocalDateTime d) {
    times.headDate(d);
  }

  /**
   * A line cut before its kind's end, waiting for the next line: the rest of a hard wrap? Or, when
   * {@code whole} is set, pieces already joined into a whole line of the kind, waiting one line to
   * see whether the wrap goes on ({@code lastWidth}: the width of its last piece).
   */
  private record Held(long lineNo, byte[] bytes, String text, LineSpec.Kind kind, String reason, int pieces,
      int width, MatchedLine whole, int lastWidth) {}

  private Held held;

  /** Lines a wrapped record may span, its first included. */
  static final int MAX_PIECES = 8;

  /**
   * Whether the line just read is the rest of the held one: a terminal or a paste wrapped a long
   * line at its width ("… Running: 1 reqs, Swapped" and ": 0 reqs, Pending: 0 reqs, GPU KV cache
   * usage: 5.3%, …"), so the rest has no prefix and no kind of its own and is no wider than the
   * first piece (the terminal's width; a paste may have dropped one trailing space), and the
   * pieces joined are a line of the held kind. A joined line that ends as a whole one is read as
   * one line at the first line's number, each further piece an other line (as a quoted CSV field
   * spanning lines); one that does not takes the next piece too, when this one filled the width.
   * Otherwise the held line is rejected as truncated and this line is read on its own (false).
   *
   * <p>A joined line that ends whole may still go on: a terminal's wrap of three pieces that fell
   * inside its last number ("… (token/s): 12" / "34.5") ends whole at "12", and a doc wrapped by
   * hand after a comma ends whole before the fields its next piece holds. So a whole join whose
   * last piece filled the width, or that ends in a comma, waits for one more line ({@link
   * #goesOn}); read on its own, the value it cut would be stored short.
   */
  private boolean joined(MatchedLine.Prepared p, MatchedLine next) {
    Held h = held;
    held = null;
    if (p == MatchedLine.Prepared.MATCHED && next.kind == null && next.prefixes.isEmpty()
        && next.text.length() <= h.width() + 1 && (h.whole() == null || goesOn(h, next.text))) {
      MatchedLine j = new MatchedLine().reset(h.lineNo());
      matcher.match(h.lineNo(), h.text() + glue(h.text(), next.text) + next.text, j, false);
      if (j.kind == h.kind()) {
        boolean filled = Math.abs(next.text.length() - h.width()) <= 1;
        // a kind without an end holds its ending in its pattern (its cut): matched, it is whole
        if (h.kind().end() == null || h.kind().end().matcher(j.message()).find()) {
          other(); // the piece
          if (h.pieces() + 1 < MAX_PIECES && (filled || j.text.stripTrailing().endsWith(","))) {
            held = new Held(h.lineNo(), h.bytes(), j.text, h.kind(), h.reason(), h.pieces() + 1, h.width(), j,
                next.text.length());
          } else {
            process(h.lineNo(), h.bytes(), 0, h.bytes().length, MatchedLine.Prepared.MATCHED, false, j);
          }
          return true;
        }
        if (h.pieces() + 1 < MAX_PIECES && filled) {
          other(); // a middle piece, as wide as the first
          held = new Held(h.lineNo(), h.bytes(), j.text, h.kind(), h.reason(), h.pieces() + 1, h.width(), null,
              next.text.length());
          return true;
        }
      }
    }
    release(h);
    return false;
  }

  /**
   * Whether a line may go on a joined line that already ends whole: the wrap's evidence (the last
   * piece filled the width, or a comma stands between the two) and what the line adds reads as the
   * rest of the list: the last item's value going on ("12" + "34.5"), then {@code key: value}
   * items, each value a number (with its unit), a word or a time. A bare print, a traceback, a
   * progress bar is none ("Processed prompts: 100%|███| 10/10 [00:01<00:00, 5.3it/s]"), and a
   * line the terminal wrapped at its width again may end in a cut key or value.
   */
  private static boolean goesOn(Held h, String piece) {
    String before = h.text().stripTrailing();
    boolean comma = before.endsWith(",") || piece.stripLeading().startsWith(",");
    boolean filled = Math.abs(h.lastWidth() - h.width()) <= 1;
    if (!comma && !filled) {
      return false;
    }
    int item = h.text().lastIndexOf(", ");
    String tail = h.text().substring(item < 0 ? 0 : item + 2) + glue(h.text(), piece) + piece;
    return listTail(tail, Math.abs(piece.length() - h.width()) <= 1);
  }

  private static final Pattern TAIL_KEY = Pattern.compile("[#A-Za-z][^,]*");
  private static final Pattern TAIL_VALUE = Pattern.compile(
      "-?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?(?:\\s*%|%?\\s[A-Za-z/][\\w/]*(?:\\s[A-Za-z/][\\w/]*)?|ms|s|us|x)?"
          + "|[A-Za-z][\\w/]*|\\d{4}-\\d\\d-\\d\\d[T ][\\d:.]+(?:Z|[+-]\\d\\d:?\\d\\d)?");
  /** The start of an item a terminal's wrap may have cut: a key, perhaps its colon, part of its value. */
  // possessive: the spaces after the colon are the value's class too, and a long run of them
  // before a character of neither backtracked in quadratic time
  private static final Pattern TAIL_CUT = Pattern.compile("[#A-Za-z][\\w\\s#()/.\\-]*+(?::\\s*+[\\w.%/ ]*+)?");

  /**
   * Whether the text is a list's last items: {@code key: value} (or {@code key=value}) or a bare
   * value, split at ", ", one trailing comma or period allowed; the last item may be cut when
   * {@code cut} (its piece filled the width).
   */
  static boolean listTail(String tail, boolean cut) {
    String t = tail.strip();
    if (t.endsWith(",") || (t.endsWith(".") && !cut)) {
      t = t.substring(0, t.length() - 1).stripTrailing();
    }
    String[] items = t.split(", ", -1);
    for (int i = 0; i < items.length; i++) {
      String it = items[i].strip();
      if (it.isEmpty() && i == 0) {
        continue; // the piece started with the separator
      }
      if (i == items.length - 1 && cut) {
        if (!TAIL_CUT.matcher(it).matches()) {
          return false;
        }
        continue;
      }
      int colon = it.lastIndexOf(": ");
      int sep = 2;
      if (colon < 0) {
        colon = it.indexOf('=');
        sep = 1;
      }
      String value = colon < 0 ? it : it.substring(colon + sep).strip();
      if (colon >= 0 && !TAIL_KEY.matcher(it.substring(0, colon).strip()).matches()
          || !TAIL_VALUE.matcher(value).matches()) {
        return false;
      }
    }
    return true;
  }

  /** A held line the next did not go on: read as it is when whole, else rejected as truncated. */
  private void release(Held h) {
    if (h.whole() != null) {
      process(h.lineNo(), h.bytes(), 0, h.bytes().length, MatchedLine.Prepared.MATCHED, false, h.whole());
    } else {
      reject(h.lineNo(), h.reason(), h.bytes(), 0, h.bytes().length);
    }
  }

  /**
   * What joins two pieces of a wrapped line: nothing, but a space after a piece that ends in a
   * comma when the next starts with none. A wrap that fell between a list's ", " lost the space
   * with the piece's trailing whitespace (a paste keeps none), and "16384,#cached-token: 0" is one
   * item to a {@code key: value} list: the field after the comma was dropped unseen.
   */
  static String glue(String before, String after) {
    return before.endsWith(",") && !after.isEmpty() && !Character.isWhitespace(after.charAt(0)) ? " " : "";
  }

  /**
   * Holds a line cut before its kind's end for the next line: a terminal's hard wrap may have put
   * the rest there ({@link #joined}); else it is rejected for {@code reason}.
   */
  private void hold(long lineNo, byte[] buf, int off, int len, LineSpec.Kind kind, String reason) {
    held = new Held(lineNo, java.util.Arrays.copyOfRange(buf, off, off + len), m.text, kind, reason, 1,
        m.text.length(), null, m.text.length());
  }

  static final String TRACEBACK = "Traceback (most recent call last):";

  /**
   * A crash event whose line ends in {@code Traceback (most recent call last):} ("Scheduler hit
   * an exception: Traceback …", or the traceback alone), waiting for the exception line that
   * ends that traceback ("ModuleNotFoundError: No module named 'x'") to be its detail: the line
   * that says what failed, which a post-mortem reads first. Its line, time and count stay the
   * traceback's.
   */
  private static final class Traceback {
    final long lineNo;
    final String origin;
    final long tsNs;
    final int clockId;
    final String kind;
    final String lead;
    /**
     * Whether its frames come without any prefix (SGLang's and TensorRT-LLM's loggers print the
     * header only; vLLM's prefixes every line): told by the first line of it after its own, null
     * before.
     */
    Boolean framesBare;
    /**
     * The kind of a bare traceback (no prefix: a paste, a client script's) whose frames must
     * show it is the server's ({@code frames}), else null; {@link #framesShown} once one does.
     */
    LineSpec.Kind waitsOnFrames;
    boolean framesShown;
    /** Whether its frames must show it the server's (a bare one of a kind with {@code frames}). */
    boolean mustShowFrames;
    /**
     * Whether a frame showed it a request's error (its kind's {@code request-frames}: the server's
     * request handler logging the traceback of the request it answers with an error).
     */
    boolean requestShown;

    /** Its server: the wrapper's identity alone ("" for none), whatever its process. */
    final String server;
    /** The message of the line right before it, of its origin ("Process EngineCore_DP0:"), or null. */
    String opener;

    Traceback(long lineNo, String origin, String server, long tsNs, int clockId, String kind, String lead) {
      this.lineNo = lineNo;
      this.origin = origin;
      this.server = server;
      this.tsNs = tsNs;
      this.clockId = clockId;
      this.kind = kind;
      this.lead = lead;
    }
  }

  /**
   * How many lines after its own a traceback waits for its exception line at most: deeper than
   * any Python prints (its recursion limit's frames are folded into "[Previous line repeated N
   * more times]"); a traceback left unfinished (its process killed) keeps its bare words.
   */
  static final int TRACEBACK_LINES = 5_000;

  /** Tracebacks waiting for their exception line, per origin (processes interleave theirs). */
  private final Map<String, Traceback> tracebacks = new java.util.LinkedHashMap<>();

  /**
   * The line that ends a traceback: an exception's class, dotted or not, perhaps Ray's cause in
   * parentheses, then its message or nothing ("torch.OutOfMemoryError: CUDA out of memory.",
   * "ray.exceptions.RayTaskError(ValueError): …", "EOFError"). The class is named as Python's
   * are (RuntimeError, KeyboardInterrupt, SystemExit, StopIteration, UserWarning, …): a logger's
   * "ERROR: …" or a tool's "Warning: …" is none.
   */
  private static final Pattern EXCEPTION_LINE = Pattern.compile(
      "^(?:[A-Za-z_]\\w*\\.)*(?:[A-Z]\\w*(?:Error|Exception|Exit|Interrupt|Iteration|Warning|Timeout|Fault|Failure)"
          + "|Exception)(?:\\([\\w.]+\\))?(?::\\s.*|:)?$");

  /**
   * Whether the line's message is indented, as a traceback's frames are: it starts with a space,
   * or the prefix before it took two or more (a process tag's "(APIServer pid=1)   File …").
   */
  private static boolean indented(MatchedLine line) {
    String msg = line.message();
    int at = line.messageStart();
    return Character.isWhitespace(msg.charAt(0))
        || at >= 2 && Character.isWhitespace(line.text.charAt(at - 1)) && Character.isWhitespace(line.text.charAt(at - 2));
  }

  /** A line with no prefix and no header: its message is the whole line. */
  private static boolean bare(MatchedLine line) {
    return line.prefixes.isEmpty() && line.messageStart() == 0;
  }

  private static String originKey(MatchedLine line) {
    String o = line.origin();
    return o == null ? "" : o;
  }

  /**
   * Offers the line to the traceback of its origin: a frame ({@code   File "…", line 10, in run},
   * its source, its carets: indented) lets it wait on; the exception line is its detail; any
   * other line ends it as it is. A line with no prefix at all (a traceback's frames printed
   * raw below a logged header) belongs to the newest traceback; where the traceback's frames are
   * prefixed (its first line after its own says), such a line is a terminal's wrap of the line
   * before it and lets it wait on. One that waited {@link #TRACEBACK_LINES} lines ends as it is.
   */
  private void tracebackGoesOn() {
    var stale = tracebacks.entrySet().iterator();
    while (stale.hasNext()) {
      Traceback old = stale.next().getValue();
      if (m.lineNo - old.lineNo > TRACEBACK_LINES) {
        stale.remove();
        writeEvent(old, null);
      }
    }
    String key = originKey(m);
    Traceback t = tracebacks.get(key);
    boolean bare = bare(m);
    if (t == null && bare) {
      for (Map.Entry<String, Traceback> e : tracebacks.entrySet()) {
        key = e.getKey();
        t = e.getValue();
      }
    }
    if (t == null) {
      return;
    }
    if (t.framesBare == null) {
      t.framesBare = bare;
    } else if (bare && !t.framesBare) {
      return;
    }
    String msg = m.message();
    if (t.waitsOnFrames != null && t.mustShowFrames && !t.framesShown && t.waitsOnFrames.frames().matcher(msg).find()) {
      t.framesShown = true;
    }
    if (t.waitsOnFrames != null && t.waitsOnFrames.requestFrames() != null
        && t.waitsOnFrames.requestFrames().matcher(msg).find()) {
      t.requestShown = true;
    }
    if (msg.isEmpty() || indented(m)) {
      return;
    }
    tracebacks.remove(key);
    String line = msg.strip();
    writeEvent(t, EXCEPTION_LINE.matcher(line).matches() ? line : null);
  }

  private void writeEvent(Traceback t, String exception) {
    if (t.waitsOnFrames != null) {
      if (t.mustShowFrames && !t.framesShown) {
        other(); // no frame of the server's: another program's traceback (a client script's)
        return;
      }
      if (t.requestShown) {
        other(); // a request's error its handler logged: the server answered it and goes on
        return;
      }
      Pattern retold = t.waitsOnFrames.retold();
      if (retold != null && (exception != null && retold.matcher(exception).find()
          || t.opener != null && retold.matcher(t.opener).find()) && crashTold(t)) {
        other(); // the death its server's log already counted, told again by another process
        return;
      }
      sink.record();
      if (explain != null) {
        explain.matched(t.waitsOnFrames);
      }
    }
    sink.engineEvent(t.lineNo, t.origin, t.tsNs, t.clockId, t.kind,
        shortDetail(exception == null ? t.lead + TRACEBACK : t.lead + exception));
    told(t.server, t.kind);
  }

  /**
   * The servers (wrapper identities, "" for a file of one) a crash was counted of since they last
   * started: a traceback of its kind's {@code retold} tells that death again.
   */
  private final java.util.Set<String> crashed = new java.util.HashSet<>();


  /**
   * Whether a crash of the line's server (its wrapper identity) was counted since it last started.
   * A format's Java that reads a later word of a death (vLLM's EngineDeadError) asks it: one death is
   * one crash, whichever kind told it first (a Ray worker's death, then the front end's error).
   */
  public boolean crashCounted(MatchedLine line) {
    return crashed.contains(line.serverKey());
  }

  /** A crash a format's Java stored itself: the later words of that death tell it again. */
  public void crashStored(MatchedLine line) {
    told(line.serverKey(), "crash");
  }

  /** Keeps what an event says of its server's run: a crash counted, or a new start. */
  private void told(String server, String kind) {
    if (kind.equals("crash")) {
      crashed.add(server);
    } else if (kind.equals("start") || kind.equals("version")) {
      crashed.remove(server);
    }
  }

  /**
   * Whether its server's crash was counted already: an event since it last started, or another
   * process's traceback before it still waiting for its end (a crash, unless it shows itself another
   * program's or a request's).
   */
  private boolean crashTold(Traceback t) {
    if (crashed.contains(t.server)) {
      return true;
    }
    for (Traceback o : tracebacks.values()) {
      if (o != t && o.lineNo < t.lineNo && o.kind.equals("crash") && t.server.equals(o.server)
          && !o.requestShown && !(o.mustShowFrames && !o.framesShown)) {
        return true;
      }
    }
    return false;
  }

  /** An event's detail as stored: its first 300 characters, "…" marking a cut. */
  public static String shortDetail(String detail) {
    return detail.length() > 300 ? detail.substring(0, 300) + "…" : detail;
  }

  /** A held line with nothing after it to join is what it looked like: whole, or truncated. */
  private void flushHeld() {
    if (held != null) {
      Held h = held;
      held = null;
      release(h);
    }
  }

  /** Rejects a line (--explain counts it where the sink receives it). */
  public void reject(long lineNo, String reason, byte[] buf, int off, int len) {
    sink.reject(lineNo, reason, buf, off, len);
  }

  // ---- generic tables ----

  private void storeStats(long ts, int clock) throws BadLine {
    stats.reset();
    stats.lineNo = m.lineNo;
    stats.tsNs = ts;
    stats.clockId = clock;
    stats.instance = statsInstance(m);
    fill((col, v) -> CanonicalColumns.set(stats, col, v), stats.extras);
    sink.engineStats(stats);
  }

  private void storeStep(long ts, int clock) throws BadLine {
    step.reset();
    step.lineNo = m.lineNo;
    step.tsNs = ts;
    step.clockId = clock;
    step.instance = instance(m);
    fill((col, v) -> CanonicalColumns.set(step, col, v), step.extras);
    for (LineSpec.Compute c : m.kind.computes()) {
      Double a = operand(c.left());
      Double b = operand(c.right());
      boolean empty = c.column().startsWith("extras.") ? !step.extras.containsKey(c.column().substring(7))
          : !filled.contains(c.column());
      if (a != null && b != null && empty) {
        double v = switch (c.op()) {
          case '+' -> a + b;
          case '-' -> a - b;
          case '*' -> a * b;
          default -> a / b;
        };
        put(new LineSpec.Column(c.column(), ""), v, (col, x) -> CanonicalColumns.set(step, col, x), step.extras);
      }
    }
    step(step, m.kind.restarts());
  }

  private Double operand(String column) {
    return column.startsWith("extras.") ? step.extras.get(column.substring(7)) : CanonicalColumns.get(step, column);
  }

  /**
   * Stores a step, its epoch set from its lane (instance and rank): for the steps the format's
   * Java fills, so they share the lanes of the spec's own.
   *
   * @param recordRestart whether a counter going back is recorded as an engine event (restart)
   */
  public void step(StepRecord s, boolean recordRestart) {
    lanes.assign(s, sink, recordRestart);
    sink.step(s);
  }

  /**
   * The row's instance: the engine's own name on the line ("Engine 000") behind the wrapper's
   * identity (pod, host, service), so replicas interleaved in one stream stay apart; else the
   * line's origin.
   */
  static String instance(MatchedLine m) {
    String own = m.group("instance");
    return own == null ? m.origin() : named(m, own);
  }

  /**
   * An engine's name behind the line's wrapper identity. vLLM's "N Engines Aggregated" names no
   * engine: each API server (--api-server-count) logs its own aggregate under that same name, so
   * it keeps the process too ("APIServer pid=2523786 / 1 Engines Aggregated").
   */
  private static String named(MatchedLine m, String own) {
    String behind = own.endsWith(" Aggregated") ? m.origin() : m.identity();
    return behind == null ? own : behind + " / " + own;
  }

  /**
   * A stats row's instance ({@link #instance}). A line that names no engine takes the engine the
   * last stats line from its origin named: vLLM V1 logs an engine's "SpecDecoding metrics:" right
   * after its "Engine 000: Avg prompt throughput: …", without the tag, and the two rows are one
   * engine's.
   */
  private String statsInstance(MatchedLine m) {
    String own = m.group("instance");
    String origin = String.valueOf(m.origin());
    if (own != null) {
      lastEngine.put(origin, own);
      return instance(m);
    }
    String engine = lastEngine.get(origin);
    return engine == null ? instance(m) : named(m, engine);
  }

  /** Puts a number into a named column of the record being filled. */
  private interface ColumnSetter {
    void set(String column, double value);
  }

  /**
   * The kind's groups, then its key: value list or its items, into columns or extras; then the
   * groups of prefixes it names, into the columns still empty.
   */
  private void fill(ColumnSetter set, Map<String, Double> extras) throws BadLine {
    LineSpec.Kind k = m.kind;
    filled.clear();
    ColumnSetter columns = (col, v) -> {
      set.set(col, v);
      filled.add(col);
    };
    for (var g : m.groups.entrySet()) {
      if (g.getKey().equals(k.list()) || g.getKey().equals(k.items()) || g.getKey().equals("instance")) {
        continue;
      }
      LineSpec.Column c = columnOf(k, g.getKey());
      if (c != null) {
        put(c, value(c, g.getValue()), columns, extras);
      }
    }
    if (k.items() != null) {
      items(k, columns, extras);
    }
    for (var r : k.groupRules().entrySet()) {
      String v;
      if (!k.groups().contains(r.getKey()) && (v = m.prefixValue(r.getKey())) != null) {
        LineSpec.Column c = r.getValue();
        if (c.isExtra() ? !extras.containsKey(c.extraName()) : !filled.contains(c.column())) {
          put(c, value(c, v), columns, extras);
        }
      }
    }
    if (k.list() != null && m.group(k.list()) != null) {
      for (KeyValueList.Entry e : KeyValueList.parse(m.group(k.list()))) {
        LineSpec.Column c = k.fields().get(e.key());
        if (c == null) {
          unknownField(k, e, extras);
        } else if (isNullValue(k, e.value())) {
          continue; // its column stays empty, as a field the line lacks
        } else {
          put(c, field(c, e), columns, extras);
        }
      }
    }
  }

  /**
   * The kind's items: each field in the spec's order (of several naming one column, the first the
   * line has wins), then the items no field names that {@code keep} matches, when their value is a
   * plain number, into extras under the key's last part.
   */
  private void items(LineSpec.Kind k, ColumnSetter columns, Map<String, Double> extras) throws BadLine {
    java.util.Set<String> named = new java.util.HashSet<>();
    java.util.Set<String> taken = new java.util.HashSet<>();
    for (var f : k.fields().entrySet()) {
      String key = f.getKey();
      int part = 0;
      int bracket = key.indexOf('[');
      if (bracket > 0) {
        part = Integer.parseInt(key.substring(bracket + 1, key.length() - 1));
        key = key.substring(0, bracket);
      }
      named.add(key);
      String v = items.get(key);
      LineSpec.Column c = f.getValue();
      if (v == null || isNull(k, v) || taken.contains(c.column())) {
        continue;
      }
      if (part > 0) {
        String[] parts = v.split("/");
        if (part > parts.length) {
          continue;
        }
        v = parts[part - 1];
      }
      put(c, item(key, c, v), columns, extras);
      taken.add(c.column());
    }
    for (var e : items.entrySet()) {
      String key = e.getKey();
      if (!named.contains(key) && (k.keep() == null || k.keep().matcher(key).matches())
          && ItemList.isNumber(e.getValue())) {
        double d = Double.parseDouble(e.getValue());
        if (Double.isFinite(d)) {
          extras.put(ItemList.leaf(key), d);
        }
      }
    }
  }

  /** An item's value in its column's unit; {@code int} asks for an integer as written. */
  private static double item(String key, LineSpec.Column c, String v) throws BadLine {
    if (c.unit().equals("int")) {
      try {
        return Long.parseLong(v.strip());
      } catch (NumberFormatException e) {
        throw new BadLine(key + ": expected an integer, got " + quote(v));
      }
    }
    try {
      return value(c, v);
    } catch (NumberFormatException e) {
      throw new BadLine(key + ": expected a number, got " + quote(v));
    }
  }

  private static void put(LineSpec.Column c, double v, ColumnSetter columns, Map<String, Double> extras) {
    if (c.isExtra()) {
      extras.put(c.extraName(), v);
    } else {
      columns.set(c.column(), v);
    }
  }

  private static LineSpec.Column columnOf(LineSpec.Kind k, String group) {
    LineSpec.Column c = k.groupRules().get(group);
    if (c != null) {
      return c;
    }
    String col = CanonicalColumns.snake(group);
    return CanonicalColumns.hasExact(k.table(), col) ? new LineSpec.Column(col, "") : null;
  }

  private static double value(LineSpec.Column c, String text) {
    if (c.unit().equals("flag")) {
      return text.isEmpty() ? 0 : 1;
    }
    return Numbers.convert(text, c.unit(), c.column());
  }

  private static double field(LineSpec.Column c, KeyValueList.Entry e) {
    try {
      return value(c, e.value());
    } catch (NumberFormatException ex) {
      throw new NumberFormatException("field " + e.key() + ": " + ex.getMessage());
    }
  }

  private static final java.util.regex.Pattern DATE_OR_TIME =
      java.util.regex.Pattern.compile("\\d{4}-\\d\\d-\\d\\d|\\b\\d\\d?:\\d\\d:\\d\\d\\b");

  /**
   * A field the spec does not name lands in extras, so a new field never breaks a line: one
   * number → {@code name}; several with units → {@code name_unit}; several without → {@code
   * name_1, name_2, …}, and so does a per-position field of one value; a percentage becomes a 0..1 ratio; text without a number is dropped, and
   * so is a date or a time of day (SGLang's ", timestamp: 2025-07-18T15:32:52.498932" read as
   * numbers was 2025, -7, -18, …: a negative count that rejected the line).
   */
  static void unknownField(LineSpec.Kind k, KeyValueList.Entry e, Map<String, Double> extras) {
    String name = k.listExtrasPrefix() + KeyValueList.extraName(e.key());
    if (DATE_OR_TIME.matcher(e.value()).find()) {
      return;
    }
    List<Numbers.Reading> rs = Numbers.readings(e.value());
    // a per-position field is a list even of one position (MTP-1's "Per-position acceptance rate:
    // 0.996" is name_1, as MTP-3's three values are name_1 … name_3)
    boolean positions = name.contains("per_position");
    if (rs.size() == 1 && !positions) {
      Numbers.Reading r = rs.get(0);
      extras.put(name, r.unit().equals("%") ? Numbers.ratio(r.value()) : r.value());
      return;
    }
    // readings named by their units only where no two share one (two in ms had kept the last)
    boolean units = rs.stream().allMatch(r -> !r.unit().isEmpty() && !r.unit().equals("%"))
        && rs.stream().map(r -> KeyValueList.extraName(r.unit())).distinct().count() == rs.size();
    for (int i = 0; i < rs.size(); i++) {
      Numbers.Reading r = rs.get(i);
      String key = units ? name + "_" + KeyValueList.extraName(r.unit()) : name + "_" + (i + 1);
      extras.put(key, r.unit().equals("%") ? Numbers.ratio(r.value()) : r.value());
    }
  }

  // ---- text ----

  private static final int NOT_PLAIN = 0;
  private static final int PLAIN = 1;
  private static final int PRINTABLE = 2;

  /**
   * PLAIN: ASCII without control characters other than tab and escape (most log lines); one pass
   * over the bytes answers both questions (decoding and the control-character check) for them.
   * PRINTABLE: plain without tab or escape either, the alphabet LineMatcher's hand-compiled
   * patterns take. NOT_PLAIN: anything else.
   */
  private static int asciiClass(byte[] buf, int off, int len) {
    int result = PRINTABLE;
    for (int i = off; i < off + len; i++) {
      byte b = buf[i];
      if (b < 0x20 || b == 0x7f) { // negative bytes (non-ASCII) are below 0x20 too
        if (b != '\t' && b != 0x1b) {
          return NOT_PLAIN;
        }
        result = PLAIN;
      }
    }
    return result;
  }

  private static String decode(CharsetDecoder utf8, byte[] buf, int off, int len) throws BadLine {
    boolean ascii = true;
    for (int i = off; i < off + len; i++) {
      if (buf[i] < 0) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      return new String(buf, off, len, StandardCharsets.ISO_8859_1);
    }
    try {
      utf8.reset();
      CharBuffer cb = utf8.decode(ByteBuffer.wrap(buf, off, len));
      return cb.toString();
    } catch (MalformedInputException e) {
      throw new BadLine("invalid UTF-8 (a malformed byte sequence); the line is damaged");
    } catch (CharacterCodingException e) {
      throw new BadLine("invalid UTF-8: " + e.getMessage());
    }
  }

  /**
   * The first control character other than tab and escape (colour codes), or null. The BEL that
   * ends Buildkite's timestamp marker (ESC _ bk;… BEL, printable inside, which the wrappers layer
   * strips) is part of it.
   */
  /** Whether s[from, to) holds no control character. */
  private static boolean printable(String s, int from, int to) {
    for (int k = from; k < to; k++) {
      if (s.charAt(k) < 0x20 || s.charAt(k) == 0x7f) {
        return false;
      }
    }
    return true;
  }

  /**
   * A line holding carriage returns as a terminal showed it, where what they overwrote is a
   * progress bar: the text after the last one (tqdm's bar redrawn in place, then a log line, as
   * script(1) and a console capture keep it), after what stood before the first bar (a wrapper's
   * prefix: a collector's time, a pod), with the ones that end it dropped (a CRLF file passed
   * through a terminal ends in "\r\r"). Anything else (a file whose lines a lone CR ends) is left
   * as it is, to be named.
   */
  static String asShown(String line) {
    if (line.contains("section_")) {
      // GitLab's collapsible sections: "section_start:1768988825:prepare_executor\r\e[0K" before a
      // header, hidden in every view of the log (the erase-line after the CR), so no carriage
      // return of the line's own to name: the marker is dropped, what follows it kept
      line = GITLAB_SECTION.matcher(line).replaceAll("");
      if (line.indexOf('\r') < 0) {
        return line;
      }
    }
    int end = line.length();
    while (end > 0 && line.charAt(end - 1) == '\r') {
      end--;
    }
    int last = line.lastIndexOf('\r', end - 1);
    if (last < 0) {
      return line.substring(0, end);
    }
    String[] frames = line.substring(0, end).split("\r", -1);
    boolean bar = false;
    for (int i = 1; i < frames.length; i++) {
      boolean progress = PROGRESS_FRAME.matcher(frames[i]).find();
      if (i < frames.length - 1 && !progress && !blankShown(frames[i])) {
        return line; // a line overwritten by another line: no bar's redraw
      }
      bar |= progress;
    }
    String before = frames[0];
    if (PROGRESS_FRAME.matcher(before).find()) {
      bar = true;
      before = "";
    }
    return bar || blankShown(before) ? before + frames[frames.length - 1] : line;
  }

  /**
   * Whether a frame shows nothing on a terminal: blank, or blank once its control sequences are
   * gone ("ESC[2K" erasing the line before its CR).
   */
  private static boolean blankShown(String frame) {
    return frame.isBlank() || frame.indexOf('\u001b') >= 0 && SpecFormat.ANSI.matcher(frame).replaceAll("").isBlank();
  }

  /** GitLab's section marker (its docs: "\e[0Ksection_start:`date +%s`:name[collapsed=true]\r\e[0K"). */
  private static final java.util.regex.Pattern GITLAB_SECTION = java.util.regex.Pattern.compile(
      "(?:\u001b\\[0K)?section_(?:start|end):\\d+:[\\w.-]+(?:\\[[^\\]\r]*\\])?\r\u001b\\[0K");

  /**
   * A frame of a progress bar: tqdm's "45%|████▌     | 9/20 [00:01<00:01, 8.1it/s]", vLLM's
   * "Loading safetensors checkpoint shards:  50% Completed | 1/2 [00:01<00:01, …]".
   */
  private static final java.util.regex.Pattern PROGRESS_FRAME =
      java.util.regex.Pattern.compile("\\d%(?:\\||\\s+Completed\\s*\\|)");

  private static String controlCharacter(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == 0x1b && s.startsWith("_bk;", i + 1)) {
        int bel = s.indexOf('\u0007', i);
        if (bel > 0 && printable(s, i + 5, bel)) {
          i = bel;
          continue;
        }
      }
      if (c == 0x1b && s.startsWith("]", i + 1)) {
        // an OSC sequence a terminal capture keeps (a shell's window title, "ESC]0;title BEL"):
        // its BEL ends it, no stray control character (the wrapper layer strips it)
        int bel = s.indexOf('\u0007', i);
        if (bel > 0 && printable(s, i + 2, bel)) {
          i = bel;
          continue;
        }
      }
      if (c == 0) {
        int end = i;
        while (end < s.length() && s.charAt(end) == 0) {
          end++;
        }
        if (end - i >= 8) {
          // a hole of zeros: the file system's blocks a crash left unwritten (a cut line before it,
          // the log's next line after it when the server wrote on)
          return String.format("%d zero bytes at column %d: a part of the file never written (a crash?)", end - i, i + 1);
        }
      }
      if ((c < 0x20 && c != '\t' && c != 0x1b) || c == 0x7f) {
        return String.format("control character U+%04X at column %d", (int) c, i + 1);
      }
    }
    return null;
  }
}
