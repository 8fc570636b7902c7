package dev.tokentime.store;

import static dev.tokentime.ingest.RequestRecord.NONE;

import dev.tokentime.Version;
import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.schema.CanonicalSchema;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The sink of one file: turns parsed records into Arrow batches for requests, tokens and rejects,
 * keeps the file's line accounting, and writes the file's sources row. Everything it writes is in
 * one transaction, committed by {@link #commit} or undone by {@link #rollback}.
 */
public final class SourceWriter implements RecordSink, AutoCloseable {
  static final int REQUEST_BATCH = 8_192;
  static final int TOKEN_BATCH = 65_536;
  static final int REJECT_BATCH = 1_024;

  /** A reject as reported to the user (--strict prints the first ones). */
  public record Reject(long lineNo, String reason) {}

  private final IngestStore store;
  private final Database db;
  private final int sourceId;
  private final SourceInfo info;
  private final TableWriter requests;
  private final TableWriter tokens;
  private final TableWriter rejects;
  private final Map<Integer, ClockSpec> createdClocks = new LinkedHashMap<>();
  private final Set<Integer> usedClocks = new HashSet<>();
  private final Set<String> changedRuns = new HashSet<>();
  private final Set<String> runs = new HashSet<>();
  private final Set<String> scopes = new HashSet<>();
  private final List<long[]> adoptedStubs = new ArrayList<>(); // {key, sourceId, lineNo or MIN}
  private final List<Reject> firstRejects = new ArrayList<>();
  private long records;
  private long otherLines;
  private long rejected;
  private long tokenRows;
  private long requestRows;
  private boolean done;

  SourceWriter(IngestStore store, int sourceId, SourceInfo info) {
    this.store = store;
    this.db = store.db();
    this.sourceId = sourceId;
    this.info = info;
    var conn = db.connection();
    var alloc = store.allocator();
    this.requests = new TableWriter(conn, alloc, "requests", REQUEST_COLS, requestSelect(), REQUEST_BATCH);
    this.tokens = new TableWriter(conn, alloc, "tokens", TOKEN_COLS, tokenSelect(), TOKEN_BATCH);
    this.rejects = TableWriter.direct(conn, alloc, "rejects", REJECT_COLS, REJECT_BATCH);
  }

  public int sourceId() {
    return sourceId;
  }

  // ---- RecordSink ----

  @Override
  public int clock(ClockSpec spec) {
    int id = store.clocks().idFor(spec, createdClocks);
    usedClocks.add(id);
    return id;
  }

  @Override
  public String runLevel(String run, String levelKind, Double level, Integer repeat, String how) {
    runs.add(run);
    return store.runs().level(run, levelKind, level, repeat, how, changedRuns);
  }

  @Override
  public long request(RequestRecord r, byte[] line, int off, int len) {
    touchRun(r.run);
    try {
      long key;
      if (info.idNamespace() != null) {
        scopes.add(KeyRegistry.scopeKey(info.idNamespace(), r.run));
        var c = store.keys().claim(info.idNamespace(), r.run, r.requestId, sourceId, r.lineNo);
        if (c.claim() == KeyRegistry.Claim.DUPLICATE) {
          var first = c.entry();
          reject(r.lineNo, "duplicate request_id " + quote(r.requestId) + " in run " + quote(r.run)
              + " (first at " + store.describeLine(first.sourceId, first.lineNo, sourceId) + ")",
              line, off, len);
          return -1;
        }
        if (c.claim() == KeyRegistry.Claim.ADOPTED_STUB) {
          adoptedStubs.add(new long[] {c.entry().key, c.stubSourceId(),
              c.stubLineNo() == null ? Long.MIN_VALUE : c.stubLineNo()});
        }
        key = c.entry().key;
      } else {
        var c = store.keys().claim("file:" + sourceId, r.run, r.requestId, sourceId, r.lineNo);
        if (c.claim() == KeyRegistry.Claim.DUPLICATE) {
          reject(r.lineNo, "duplicate request_id " + quote(r.requestId) + " in this file (first at line "
              + c.entry().lineNo + ")", line, off, len);
          return -1;
        }
        key = c.entry().key;
      }
      writeRequest(key, r);
      return key;
    } catch (SQLException e) {
      throw new StoreException(e);
    }
  }

  @Override
  public long requestKeyFor(String run, String requestId, int clockId, long lineNo) {
    touchRun(run);
    try {
      String ns = info.idNamespace() != null ? info.idNamespace() : "file:" + sourceId;
      scopes.add(KeyRegistry.scopeKey(ns, run));
      boolean[] created = {false};
      KeyRegistry.Entry e = store.keys().keyForTokens(ns, run, requestId, sourceId, lineNo, created);
      if (created[0]) {
        RequestRecord stub = new RequestRecord();
        stub.run = run;
        stub.requestId = requestId;
        stub.lineNo = lineNo;
        stub.clockId = clockId;
        stub.extras.put(KeyRegistry.STUB_MARKER, KeyRegistry.STUB_VALUE);
        writeRequest(e.key, stub);
      }
      return e.key;
    } catch (SQLException ex) {
      throw new StoreException(ex);
    }
  }

  @Override
  public void token(long requestKey, int seq, long tsNs, int nTokens, ChunkKind kind) {
    ArrowBatch b = tokens.batch();
    b.setLong(0, requestKey);
    b.setInt(1, seq);
    b.setLong(2, tsNs);
    if (nTokens >= 0) {
      b.setInt(3, nTokens);
    }
    b.setTiny(4, (byte) kind.ordinal());
    b.setInt(5, sourceId);
    tokenRows++;
    try {
      tokens.endRow();
    } catch (SQLException e) {
      throw new StoreException(e);
    }
  }

  @Override
  public void record() {
    records++;
  }

  @Override
  public void otherLine() {
    otherLines++;
  }

  @Override
  public void reject(long lineNo, String reason, byte[] line, int off, int len) {
    rejected++;
    if (firstRejects.size() < 10) {
      firstRejects.add(new Reject(lineNo, reason));
    }
    ArrowBatch b = rejects.batch();
    b.setInt(0, sourceId);
    b.setLong(1, lineNo);
    b.setString(2, reason);
    b.setString(3, line == null ? null : Excerpts.of(line, off, len, info.keepText()));
    try {
      rejects.endRow();
    } catch (SQLException e) {
      throw new StoreException(e);
    }
  }

  // ---- results ----

  public long records() {
    return records;
  }

  public long otherLines() {
    return otherLines;
  }

  public long rejected() {
    return rejected;
  }

  public long tokenRows() {
    return tokenRows;
  }

  public long requestRows() {
    return requestRows;
  }

  public List<Reject> firstRejects() {
    return firstRejects;
  }

  public Set<String> runs() {
    return runs;
  }

  /**
   * Writes what is still buffered and the sources row, then commits.
   *
   * @param lines lines read; must equal records + other lines + rejects
   */
  public void commit(String sha256, long bytes, long lines) throws SQLException {
    if (lines != records + otherLines + rejected) {
      throw new IllegalStateException("line accounting of " + info.path() + " does not reconcile: "
          + lines + " lines read, " + records + " records + " + otherLines + " other + " + rejected
          + " rejected");
    }
    requests.flush();
    tokens.flush();
    rejects.flush();
    deleteAdoptedStubs();
    ClockRegistry.insert(db, createdClocks);
    store.runs().store(db, changedRuns);
    try (PreparedStatement ps = db.connection().prepareStatement(
        "INSERT INTO sources VALUES (?, ?, ?, ?, ?, ?, " + clockList() + ", ?, ?, ?, ?, ?, "
            + "now()::TIMESTAMP, ?)")) {
      ps.setInt(1, sourceId);
      ps.setString(2, info.defaultRun());
      ps.setString(3, info.path());
      ps.setString(4, sha256);
      ps.setString(5, info.format());
      ps.setString(6, info.compression());
      ps.setLong(7, bytes);
      ps.setLong(8, lines);
      ps.setLong(9, records);
      ps.setLong(10, otherLines);
      ps.setLong(11, rejected);
      ps.setString(12, Version.get());
      ps.executeUpdate();
    }
    db.connection().commit();
    done = true;
    store.sourceCommitted(this);
  }

  /** Undoes everything this file wrote. */
  public void rollback() {
    if (done) {
      return;
    }
    done = true;
    try {
      db.connection().rollback();
    } catch (SQLException e) {
      throw new StoreException(e);
    } finally {
      store.sourceRolledBack(createdClocks, scopes);
    }
  }

  @Override
  public void close() {
    if (!done) {
      rollback();
    }
    requests.close();
    tokens.close();
    rejects.close();
  }

  // ---- internals ----

  private void touchRun(String run) {
    if (runs.add(run)) {
      store.runs().touch(run, changedRuns);
    }
  }

  private void writeRequest(long key, RequestRecord r) throws SQLException {
    ArrowBatch b = requests.batch();
    b.setLong(0, key);
    b.setString(1, r.run);
    b.setString(2, r.requestId);
    b.setInt(3, sourceId);
    b.setLong(4, r.lineNo);
    b.setString(5, r.engine);
    b.setString(6, r.instance);
    if (r.clockId != 0) {
      b.setInt(7, r.clockId);
    }
    long[] ts = {r.arrivalNs, r.queuedNs, r.scheduledNs, r.firstTokenNs, r.lastTokenNs, r.finishedNs};
    for (int i = 0; i < ts.length; i++) {
      if (ts[i] != NONE) {
        b.setLong(8 + i, ts[i]);
      }
    }
    Double[] ms = {r.preQueueMs, r.queueMs, r.prefillMs, r.ttftMs, r.decodeMs, r.e2eMs, r.tpotMs};
    for (int i = 0; i < ms.length; i++) {
      b.setDoubleObj(14 + i, ms[i]);
    }
    b.setInteger(21, r.promptTokens);
    b.setInteger(22, r.outputTokens);
    b.setInteger(23, r.cachedTokens);
    b.setString(24, r.status);
    b.setString(25, r.finishReason);
    b.setInteger(26, r.httpStatus);
    b.setString(27, r.error);
    b.setString(28, r.phase);
    b.setLongObj(29, r.firstIter);
    b.setLongObj(30, r.lastIter);
    b.setStringMap(31, r.extras);
    requestRows++;
    requests.endRow();
  }

  private void deleteAdoptedStubs() throws SQLException {
    if (adoptedStubs.isEmpty()) {
      return;
    }
    try (PreparedStatement ps = db.connection().prepareStatement(
        "DELETE FROM requests WHERE request_key = ? AND source_id = ? "
            + "AND line_no IS NOT DISTINCT FROM ? "
            + "AND list_contains(map_keys(extras), '" + KeyRegistry.STUB_MARKER + "')")) {
      for (long[] s : adoptedStubs) {
        ps.setLong(1, s[0]);
        ps.setInt(2, (int) s[1]);
        if (s[2] == Long.MIN_VALUE) {
          ps.setNull(3, java.sql.Types.BIGINT);
        } else {
          ps.setLong(3, s[2]);
        }
        ps.executeUpdate();
      }
    }
  }

  private String clockList() {
    return usedClocks.isEmpty() ? "[]::INTEGER[]"
        : usedClocks.stream().sorted().map(String::valueOf).collect(Collectors.joining(", ", "[", "]"));
  }

  private static String quote(String s) {
    return "\"" + s + "\"";
  }

  // ---- staged columns ----

  static final List<ArrowBatch.Col> REQUEST_COLS;
  static final List<ArrowBatch.Col> TOKEN_COLS = List.of(
      new ArrowBatch.Col("request_key", ArrowBatch.Type.BIGINT),
      new ArrowBatch.Col("seq", ArrowBatch.Type.INT),
      new ArrowBatch.Col("ts_ns", ArrowBatch.Type.BIGINT),
      new ArrowBatch.Col("n_tokens", ArrowBatch.Type.INT),
      new ArrowBatch.Col("chunk_kind_code", ArrowBatch.Type.TINYINT),
      new ArrowBatch.Col("source_id", ArrowBatch.Type.INT));
  static final List<ArrowBatch.Col> REJECT_COLS = List.of(
      new ArrowBatch.Col("source_id", ArrowBatch.Type.INT),
      new ArrowBatch.Col("line_no", ArrowBatch.Type.BIGINT),
      new ArrowBatch.Col("reason", ArrowBatch.Type.VARCHAR),
      new ArrowBatch.Col("excerpt", ArrowBatch.Type.VARCHAR));

  static {
    List<ArrowBatch.Col> cols = new ArrayList<>();
    for (var c : CanonicalSchema.REQUESTS.columns()) {
      if (c.name().equals("extras")) {
        cols.add(new ArrowBatch.Col("extras_keys", ArrowBatch.Type.VARCHAR_LIST));
        cols.add(new ArrowBatch.Col("extras_values", ArrowBatch.Type.VARCHAR_LIST));
        continue;
      }
      ArrowBatch.Type t = switch (c.sqlType()) {
        case "BIGINT" -> ArrowBatch.Type.BIGINT;
        case "INTEGER" -> ArrowBatch.Type.INT;
        case "DOUBLE" -> ArrowBatch.Type.DOUBLE;
        case "VARCHAR" -> ArrowBatch.Type.VARCHAR;
        default -> throw new AssertionError("no staging type for " + c);
      };
      cols.add(new ArrowBatch.Col(c.name(), t));
    }
    REQUEST_COLS = List.copyOf(cols);
  }

  private static List<String> requestSelect() {
    List<String> sel = new ArrayList<>();
    for (var c : CanonicalSchema.REQUESTS.columns()) {
      sel.add(c.name().equals("extras")
          ? "CASE WHEN extras_keys IS NULL THEN NULL ELSE map(extras_keys, extras_values) END"
          : c.name());
    }
    return sel;
  }

  private static List<String> tokenSelect() {
    String kinds = IntStream.range(0, CanonicalSchema.CHUNK_KINDS.size())
        .mapToObj(i -> "WHEN " + i + " THEN '" + CanonicalSchema.CHUNK_KINDS.get(i) + "'")
        .collect(Collectors.joining(" "));
    return List.of("request_key", "seq", "ts_ns", "n_tokens",
        "(CASE chunk_kind_code " + kinds + " END)::chunk_kind", "source_id");
  }
}
