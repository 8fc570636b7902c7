package dev.tokentime.formats.canonical;

import static dev.tokentime.ingest.RequestRecord.NONE;

import dev.tokentime.formats.canonical.CanonicalFields.Type;
import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RecordColumns;
import dev.tokentime.ingest.RecordColumns.Kind;
import dev.tokentime.ingest.RequestRecord;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The meaning of one canonical record, whatever its syntax (a JSONL line or a CSV row): readers
 * hand it field values, it checks types and timestamp order and emits rows to the sink.
 * One instance is reused for every record of a file.
 */
final class CanonicalRecord {

  /** A value that cannot be used; the message becomes the reject reason. */
  static final class BadRecord extends Exception {
    BadRecord(String reason) {
      super(reason, null, false, false);
    }
  }

  private final ParseContext ctx;
  private final RecordSink sink;
  final RequestRecord req = new RequestRecord();
  private String run;
  private String label;
  private Double concurrency;
  private Double requestRate;
  private Integer repeat;
  private String clock;
  private long[] tokensNs = new long[256];
  private int tokenCount;
  private boolean hasTokens;
  private int[] tokensN = new int[256];
  private int tokensNCount;
  private boolean hasTokensN;
  private Integer seq;
  private long tsNs;
  private Integer nTokens;
  private ChunkKind chunkKind;
  private String requestField; // first request-only field seen, to refuse mixing forms
  private String tokenField; // first token-line-only field seen

  private final Map<String, Integer> clockIds = new HashMap<>();
  private final TokenOrder tokenOrder = new TokenOrder();
  private String lastClockRun;
  private String lastClockKind;
  private int lastClockId;

  CanonicalRecord(ParseContext ctx, RecordSink sink) {
    this.ctx = ctx;
    this.sink = sink;
  }

  /** The field names of the line being read, for finding a repeated one (the JSON reader fills it). */
  private String[] seenFields = new String[32];

  String[] seenFields() {
    return seenFields;
  }

  String[] growSeenFields() {
    seenFields = Arrays.copyOf(seenFields, seenFields.length * 2);
    return seenFields;
  }

  void reset(long lineNo) {
    req.reset();
    req.lineNo = lineNo;
    run = label = clock = null;
    concurrency = requestRate = null;
    repeat = null;
    tokenCount = tokensNCount = 0;
    hasTokens = hasTokensN = false;
    seq = null;
    tsNs = NONE;
    nTokens = null;
    chunkKind = null;
    requestField = tokenField = null;
  }

  // ---- values, by field name ----

  /** A JSON integer (or an integer-valued CSV cell). */
  void integer(String field, long v) throws BadRecord {
    switch (field) {
      case "run" -> run = Long.toString(v);
      case "label" -> label = Long.toString(v);
      case "ts_ns" -> tsNs = ns(field, v);
      case "seq" -> seq = nonNegativeInt(field, v);
      case "n_tokens" -> nTokens = nonNegativeInt(field, v);
      case "repeat" -> repeat = nonNegativeInt(field, v);
      default -> {
        RecordColumns.Binding<RequestRecord> c = CanonicalFields.requestColumn(field);
        Kind kind = c == null ? null : c.kind();
        if (kind == Kind.LONG) {
          c.setLong(req, ns(field, v));
        } else if (kind == Kind.INTEGER) {
          c.set(req, nonNegativeInt(field, v));
        } else if (kind == Kind.BIGINT) {
          c.set(req, v);
        } else if (isNumberField(field)) {
          number(field, v);
        } else if (CanonicalFields.type(field) == Type.TEXT || isTextField(field)) {
          text(field, Long.toString(v));
        } else {
          extra(field, Long.toString(v));
        }
      }
    }
    note(field);
  }

  /** A JSON number with a fraction (or a decimal CSV cell). */
  void number(String field, double v) throws BadRecord {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      throw new BadRecord(field + ": not a finite number");
    }
    switch (field) {
      case "concurrency" -> concurrency = level(field, v);
      case "request_rate" -> requestRate = level(field, v);
      default -> {
        RecordColumns.Binding<RequestRecord> c = CanonicalFields.requestColumn(field);
        if (c != null && c.kind() == Kind.DOUBLE) {
          c.set(req, v);
        } else if (isIntegerField(field)) {
          if (v != Math.rint(v)) {
            throw new BadRecord(field + ": expected an integer" + unitOf(field) + ", got " + v);
          }
          if (Math.abs(v) >= 0x1p63) {
            // (long) v would say 9223372036854775807: the reason names the value written
            throw new BadRecord(field + " out of range: " + v + " is beyond a 64-bit integer");
          }
          integer(field, (long) v);
          return;
        } else if (CanonicalFields.type(field) == Type.TEXT || isTextField(field)) {
          text(field, Double.toString(v));
          return;
        } else {
          extra(field, trimNumber(v));
        }
      }
    }
    note(field);
  }

  /** A JSON string or a CSV cell. Numeric fields accept numeric text (some tools quote numbers). */
  void text(String field, String s) throws BadRecord {
    switch (field) {
      case "request_id" -> req.requestId = requireNonEmpty(field, s);
      case "run" -> run = requireNonEmpty(field, s);
      case "label" -> label = requireNonEmpty(field, s);
      case "clock" -> {
        if (!ClockSpec.KINDS.contains(s)) {
          throw new BadRecord("clock: expected wall, steady or client, got " + quoteShort(s));
        }
        clock = s;
      }
      case "status" -> {
        if (!CanonicalFields.STATUSES.contains(s)) {
          throw new BadRecord("status: expected ok, error, cancelled or lost, got " + quoteShort(s));
        }
        req.status = s;
      }
      case "phase" -> {
        if (!CanonicalFields.PHASES.contains(s)) {
          throw new BadRecord("phase: expected warmup or measure, got " + quoteShort(s));
        }
        req.phase = s;
      }
      case "chunk_kind" -> {
        chunkKind = ChunkKind.parse(s);
        if (chunkKind == null) {
          throw new BadRecord("chunk_kind: expected one of content, reasoning, role, empty, usage,"
              + " done, error; got " + quoteShort(s));
        }
      }
      default -> {
        RecordColumns.Binding<RequestRecord> c = CanonicalFields.requestColumn(field);
        if (c != null && c.kind() == Kind.TEXT) {
          c.set(req, s);
        } else if (isIntegerField(field) || isNumberField(field)) {
          parseNumeric(field, s);
          return;
        } else if (isTextField(field)) {
          if (ctx.keepText()) {
            req.extras.put(field, s);
          }
          return;
        } else {
          extra(field, s);
        }
      }
    }
    note(field);
  }

  void nullValue(String field) {
    // absent and null mean the same: unknown
  }

  /** A nested object or array outside the canonical fields, kept as JSON text. */
  void json(String field, String jsonText) throws BadRecord {
    if (CanonicalFields.REQUEST_FIELDS.contains(field) && !field.equals("error")) {
      throw new BadRecord(field + ": expected a " + (isIntegerField(field) || isNumberField(field)
          ? "number" : "string") + ", got a JSON " + (jsonText.startsWith("[") ? "array" : "object"));
    }
    if (field.equals("error")) {
      req.error = jsonText;
      note(field);
      return;
    }
    if (isTextField(field)) {
      if (ctx.keepText()) {
        req.extras.put(field, jsonText);
      }
      return;
    }
    extra(field, jsonText);
  }

  void tokenTs(long v) throws BadRecord {
    if (!hasTokens) {
      hasTokens = true;
      note("tokens_ns");
    }
    if (v < 0) {
      throw new BadRecord("tokens_ns[" + tokenCount + "]: negative timestamp " + v);
    }
    if (tokenCount == tokensNs.length) {
      tokensNs = Arrays.copyOf(tokensNs, tokensNs.length * 2);
    }
    tokensNs[tokenCount++] = v;
  }

  /** The values of a tokens_ns array at once (non-negative: TokensArrayScan reads no sign). */
  void tokenTimestamps(long[] values, int n) {
    tokensPresent();
    if (tokenCount + n > tokensNs.length) {
      tokensNs = Arrays.copyOf(tokensNs, Math.max(tokenCount + n, tokensNs.length * 2));
    }
    System.arraycopy(values, 0, tokensNs, tokenCount, n);
    tokenCount += n;
  }

  void tokensPresent() {
    if (!hasTokens) {
      hasTokens = true;
      note("tokens_ns");
    }
  }

  void tokenN(long v) throws BadRecord {
    hasTokensN = true;
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new BadRecord("tokens_n[" + tokensNCount + "]: expected a token count, got " + v);
    }
    if (tokensNCount == tokensN.length) {
      tokensN = Arrays.copyOf(tokensN, tokensN.length * 2);
    }
    tokensN[tokensNCount++] = (int) v;
  }

  void tokensNPresent() {
    hasTokensN = true;
  }

  // ---- emitting ----

  /** Validates the record and hands its rows to the sink; a BadRecord leaves the sink untouched. */
  void emit(byte[] line, int off, int len) throws BadRecord {
    if (req.requestId == null) {
      throw new BadRecord("request_id is missing");
    }
    if (run != null && label != null && !run.equals(label)) {
      throw new BadRecord("run " + quoteShort(run) + " and label " + quoteShort(label) + " differ");
    }
    String r = run != null ? run : label != null ? label : ctx.defaultRun();
    req.run = r;
    boolean tokenLine = tsNs != NONE || seq != null;
    if (tokenLine) {
      emitTokenLine(r);
    } else {
      emitRequest(r, line, off, len);
    }
  }

  private void emitRequest(String r, byte[] line, int off, int len) throws BadRecord {
    if (tokenField != null) {
      throw new BadRecord("a request line cannot carry " + tokenField + " (token lines need ts_ns and seq)");
    }
    if (hasTokensN && tokensNCount != tokenCount) {
      throw new BadRecord("tokens_n has " + tokensNCount + " entries but tokens_ns has " + tokenCount);
    }
    checkOrder();
    wallClock();
    applyLevel(r);
    req.clockId = clockId(r);
    if (req.status == null) {
      req.status = req.error == null ? "ok" : "error";
    }
    String range = dev.tokentime.ingest.Checked.tokensProblem(tokensNs, tokenCount);
    if (range != null) {
      throw new BadRecord(range); // before the request is stored
    }
    long key = sink.request(req, line, off, len);
    if (key < 0) {
      return; // the sink rejected it (duplicate id) and said why
    }
    boolean oneTokenEach = !hasTokensN && req.outputTokens != null && req.outputTokens == tokenCount;
    for (int i = 0; i < tokenCount; i++) {
      int n = hasTokensN ? tokensN[i] : oneTokenEach ? 1 : -1;
      sink.token(key, i, tokensNs[i], n, ChunkKind.CONTENT);
    }
    if (tokenCount > 0) {
      sink.endOfStream(key);
    }
    sink.record();
  }

  private void emitTokenLine(String r) throws BadRecord {
    if (requestField != null) {
      throw new BadRecord("a token line (ts_ns, seq) cannot carry the request field " + requestField);
    }
    if (tsNs == NONE) {
      throw new BadRecord("token line without ts_ns");
    }
    if (seq == null) {
      throw new BadRecord("token line without seq");
    }
    wallClock("ts_ns", tsNs);
    applyLevel(r);
    int clockId = clockId(r);
    long key = sink.requestKeyFor(r, req.requestId, clockId, req.lineNo);
    String orderProblem = tokenOrder.accept(key, seq, tsNs);
    if (orderProblem != null) {
      throw new BadRecord(orderProblem);
    }
    sink.token(key, seq, tsNs, nTokens == null ? -1 : nTokens,
        chunkKind == null ? ChunkKind.CONTENT : chunkKind);
    sink.record();
  }

  /**
   * A record that says its clock is the wall clock holds epoch times: one before 1990 is seconds
   * or ms written as ns, or a placeholder, and would stretch its run's window over decades.
   * (A clock left unsaid may be any clock: the general range applies.)
   */
  private void wallClock() throws BadRecord {
    if (!"wall".equals(clock)) {
      return; // nothing to check, and no chunk named, for records of another clock
    }
    for (int i = 0; i < CHAIN.size(); i++) {
      wallClock(CHAIN.get(i).name(), CHAIN.get(i).getLong(req));
    }
    for (int i = 0; i < tokenCount; i++) {
      if (tokensNs[i] < dev.tokentime.ingest.Checked.MIN_EPOCH_NS
          || tokensNs[i] > dev.tokentime.ingest.Checked.MAX_EPOCH_NS) {
        wallClock("tokens_ns[" + i + "]", tokensNs[i]);
      }
    }
  }

  private void wallClock(String field, long ns) throws BadRecord {
    if ("wall".equals(clock) && ns != NONE && (ns < dev.tokentime.ingest.Checked.MIN_EPOCH_NS
        || ns > dev.tokentime.ingest.Checked.MAX_EPOCH_NS)) {
      throw new BadRecord(field + " out of range: " + ns + " ns is not a wall-clock time between 1990 and 2100"
          + " (clock: wall; seconds or ms written as ns?)");
    }
  }

  private void applyLevel(String r) throws BadRecord {
    if (concurrency != null && requestRate != null) {
      throw new BadRecord("a record has either concurrency or request_rate, not both");
    }
    if (concurrency == null && requestRate == null && repeat == null) {
      return;
    }
    String kind = concurrency != null ? "concurrency" : requestRate != null ? "request_rate" : null;
    Double level = concurrency != null ? concurrency : requestRate;
    String conflict = sink.runLevel(r, kind, level, repeat, "record field");
    if (conflict != null) {
      throw new BadRecord(conflict);
    }
  }

  private int clockId(String r) {
    String kind = clock == null ? "wall" : clock;
    // the last answer again for a record of the same run and clock (most records): no key string
    if (r.equals(lastClockRun) && kind.equals(lastClockKind)) {
      return lastClockId;
    }
    int id = clockIds.computeIfAbsent(r + '\u0000' + kind,
        k -> sink.clock(new ClockSpec(kind, "run " + r, 1, null, false)));
    lastClockRun = r;
    lastClockKind = kind;
    lastClockId = id;
    return id;
  }

  private static final List<RecordColumns.Binding<RequestRecord>> CHAIN = CanonicalFields.CHAIN;

  /** Timestamps of one request never decrease: the lifecycle chain, and the token stream. */
  private void checkOrder() throws BadRecord {
    RecordColumns.Binding<RequestRecord> prev = null;
    long prevNs = NONE;
    for (int i = 0; i < CHAIN.size(); i++) {
      long t = CHAIN.get(i).getLong(req);
      if (t == NONE) {
        continue;
      }
      if (prev != null && t < prevNs) {
        throw new BadRecord("timestamps decrease: " + CHAIN.get(i).name() + " (" + t + ") is before "
            + prev.name() + " (" + prevNs + ")");
      }
      prev = CHAIN.get(i);
      prevNs = t;
    }
    for (int i = 1; i < tokenCount; i++) {
      if (tokensNs[i] < tokensNs[i - 1]) {
        throw new BadRecord("timestamps decrease: tokens_ns[" + i + "] (" + tokensNs[i]
            + ") is before tokens_ns[" + (i - 1) + "] (" + tokensNs[i - 1] + ")");
      }
    }
    if (tokenCount > 0) {
      if (req.arrivalNs != NONE && tokensNs[0] < req.arrivalNs) {
        throw new BadRecord("timestamps decrease: tokens_ns[0] (" + tokensNs[0]
            + ") is before arrival_ns (" + req.arrivalNs + ")");
      }
      if (req.finishedNs != NONE && tokensNs[tokenCount - 1] > req.finishedNs) {
        throw new BadRecord("timestamps decrease: finished_ns (" + req.finishedNs
            + ") is before the last of tokens_ns (" + tokensNs[tokenCount - 1] + ")");
      }
    }
  }

  // ---- helpers ----

  private void note(String field) {
    if (CanonicalFields.TOKEN_LINE_FIELDS.contains(field)) {
      if (tokenField == null) {
        tokenField = field;
      }
    } else if (requestField == null && !CanonicalFields.SHARED_FIELDS.contains(field)) {
      requestField = field;
    }
  }

  private void extra(String field, String value) {
    req.extras.put(field, value);
    if (requestField == null) {
      requestField = field;
    }
  }

  private void parseNumeric(String field, String s) throws BadRecord {
    String t = s.strip();
    if (t.isEmpty()) {
      return; // an empty CSV cell: unknown
    }
    if (isIntegerField(field)) {
      try {
        integer(field, Long.parseLong(t));
        return;
      } catch (NumberFormatException e) {
        // fall through to the decimal form or the error
      }
    }
    try {
      number(field, Double.parseDouble(t));
    } catch (NumberFormatException e) {
      throw new BadRecord(field + ": expected " + (isIntegerField(field) ? "an integer" : "a number")
          + unitOf(field) + ", got " + quoteShort(s));
    }
  }

  private static boolean isIntegerField(String f) {
    return CanonicalFields.type(f) == Type.INTEGER;
  }

  private static boolean isNumberField(String f) {
    return CanonicalFields.type(f) == Type.NUMBER;
  }

  private static boolean isTextField(String f) {
    return CanonicalFields.TEXT_FIELDS.contains(f);
  }

  private static String unitOf(String f) {
    return f.endsWith("_ns") ? " (ns)" : f.endsWith("_ms") ? " (ms)" : "";
  }

  private static long ns(String field, long v) throws BadRecord {
    if (v < 0) {
      throw new BadRecord(field + ": negative timestamp " + v);
    }
    return v;
  }

  private static int nonNegativeInt(String field, long v) throws BadRecord {
    if (v < 0) {
      throw new BadRecord(field + ": expected a non-negative integer, got " + v);
    }
    if (v > Integer.MAX_VALUE) {
      throw new BadRecord(field + " out of range: " + v + " (at most " + Integer.MAX_VALUE + ")");
    }
    return (int) v;
  }

  private static double level(String field, double v) throws BadRecord {
    String problem = dev.tokentime.ingest.Checked.levelProblem(field, v);
    if (problem != null) {
      throw new BadRecord(field + ": " + problem + ", got " + trimNumber(v));
    }
    return v;
  }

  private static String requireNonEmpty(String field, String s) throws BadRecord {
    if (s.isBlank()) {
      throw new BadRecord(field + " is empty");
    }
    return s;
  }

  static String quoteShort(String s) {
    String t = s.length() > 40 ? s.substring(0, 40) + "..." : s;
    return "\"" + t + "\"";
  }

  static String trimNumber(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }
}
