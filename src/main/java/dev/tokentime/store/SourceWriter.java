package dev.tokentime.store;

import static dev.tokentime.ingest.RequestRecord.NONE;

import dev.tokentime.Version;
import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.StepRecord;
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
  /** Writers of the tables most formats never fill, created on first use. */
  private final Map<String, TableWriter> others = new LinkedHashMap<>();
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
    this.requests = REQUESTS.writer(conn, alloc, REQUEST_BATCH);
    this.tokens = TOKENS.writer(conn, alloc, TOKEN_BATCH);
    this.rejects = REJECTS.writer(conn, alloc, REJECT_BATCH);
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
  public void step(StepRecord r) {
    TableWriter w = other(STEPS);
    ArrowBatch b = w.batch();
    b.setInt(STEPS.col("source_id"), sourceId);
    b.setLong(STEPS.col("line_no"), r.lineNo);
    b.setString(STEPS.col("instance"), r.instance);
    b.setInteger(STEPS.col("rank"), r.rank);
    b.setInt(STEPS.col("epoch"), r.epoch);
    b.setLongObj(STEPS.col("iter"), r.iter);
    if (r.tsNs != NONE) {
      b.setLong(STEPS.col("ts_ns"), r.tsNs);
    }
    clockOf(b, STEPS.col("clock_id"), r.clockId);
    b.setDoubleObj(STEPS.col("duration_ms"), r.durationMs);
    b.setInteger(STEPS.col("running"), r.running);
    b.setInteger(STEPS.col("waiting"), r.waiting);
    b.setInteger(STEPS.col("ctx_requests"), r.ctxRequests);
    b.setInteger(STEPS.col("ctx_tokens"), r.ctxTokens);
    b.setInteger(STEPS.col("gen_requests"), r.genRequests);
    b.setInteger(STEPS.col("gen_tokens"), r.genTokens);
    b.setInteger(STEPS.col("paused"), r.paused);
    b.setDoubleObj(STEPS.col("kv_usage"), r.kvUsage);
    b.setDoubleMap(STEPS.col("extras"), r.extras);
    end(w);
  }

  @Override
  public void engineStats(EngineStatsRecord r) {
    TableWriter w = other(ENGINE_STATS);
    ArrowBatch b = w.batch();
    b.setInt(ENGINE_STATS.col("source_id"), sourceId);
    b.setLong(ENGINE_STATS.col("line_no"), r.lineNo);
    b.setString(ENGINE_STATS.col("instance"), r.instance);
    if (r.tsNs != NONE) {
      b.setLong(ENGINE_STATS.col("ts_ns"), r.tsNs);
    }
    clockOf(b, ENGINE_STATS.col("clock_id"), r.clockId);
    b.setDoubleObj(ENGINE_STATS.col("interval_s"), r.intervalS);
    b.setDoubleObj(ENGINE_STATS.col("prompt_tokens_per_s"), r.promptTokensPerS);
    b.setDoubleObj(ENGINE_STATS.col("gen_tokens_per_s"), r.genTokensPerS);
    b.setInteger(ENGINE_STATS.col("running"), r.running);
    b.setInteger(ENGINE_STATS.col("waiting"), r.waiting);
    b.setInteger(ENGINE_STATS.col("swapped"), r.swapped);
    b.setLongObj(ENGINE_STATS.col("preemptions"), r.preemptions);
    b.setDoubleObj(ENGINE_STATS.col("kv_usage"), r.kvUsage);
    b.setDoubleObj(ENGINE_STATS.col("prefix_hit_rate"), r.prefixHitRate);
    b.setDoubleMap(ENGINE_STATS.col("extras"), r.extras);
    end(w);
  }

  @Override
  public void engineEvent(long lineNo, String instance, long tsNs, int clockId, String kind,
      String detail) {
    TableWriter w = other(ENGINE_EVENTS);
    ArrowBatch b = w.batch();
    b.setInt(ENGINE_EVENTS.col("source_id"), sourceId);
    b.setLong(ENGINE_EVENTS.col("line_no"), lineNo);
    b.setString(ENGINE_EVENTS.col("instance"), instance);
    if (tsNs != NONE) {
      b.setLong(ENGINE_EVENTS.col("ts_ns"), tsNs);
    }
    clockOf(b, ENGINE_EVENTS.col("clock_id"), clockId);
    b.setString(ENGINE_EVENTS.col("kind"), kind);
    b.setString(ENGINE_EVENTS.col("detail"), detail);
    end(w);
  }

  @Override
  public void histogramBucket(String metric, Map<String, String> labels, long t0Ns, long t1Ns,
      int clockId, double le, double count) {
    TableWriter w = other(METRIC_HISTOGRAMS);
    ArrowBatch b = w.batch();
    b.setInt(METRIC_HISTOGRAMS.col("source_id"), sourceId);
    b.setString(METRIC_HISTOGRAMS.col("metric"), metric);
    b.setStringMap(METRIC_HISTOGRAMS.col("labels"), labels);
    b.setLong(METRIC_HISTOGRAMS.col("t0_ns"), t0Ns);
    b.setLong(METRIC_HISTOGRAMS.col("t1_ns"), t1Ns);
    clockOf(b, METRIC_HISTOGRAMS.col("clock_id"), clockId);
    b.setDouble(METRIC_HISTOGRAMS.col("le"), le);
    b.setDouble(METRIC_HISTOGRAMS.col("count"), count);
    end(w);
  }

  @Override
  public void reportedMetric(String run, Double level, String metric, String stat, double value,
      String unit) {
    if (run != null) {
      touchRun(run);
    }
    TableWriter w = other(REPORTED_METRICS);
    ArrowBatch b = w.batch();
    b.setInt(REPORTED_METRICS.col("source_id"), sourceId);
    b.setString(REPORTED_METRICS.col("run"), run);
    b.setDoubleObj(REPORTED_METRICS.col("level"), level);
    b.setString(REPORTED_METRICS.col("metric"), metric);
    b.setString(REPORTED_METRICS.col("stat"), stat);
    b.setDouble(REPORTED_METRICS.col("value"), value);
    b.setString(REPORTED_METRICS.col("unit"), unit);
    end(w);
  }

  @Override
  public void clockAnchor(int clockA, long nsA, int clockB, long nsB, String method) {
    TableWriter w = other(CLOCK_ANCHORS);
    ArrowBatch b = w.batch();
    b.setInt(CLOCK_ANCHORS.col("clock_a"), clockA);
    b.setLong(CLOCK_ANCHORS.col("ns_a"), nsA);
    b.setInt(CLOCK_ANCHORS.col("clock_b"), clockB);
    b.setLong(CLOCK_ANCHORS.col("ns_b"), nsB);
    b.setString(CLOCK_ANCHORS.col("method"), method);
    end(w);
  }

  private TableWriter other(StagedTable t) {
    return others.computeIfAbsent(t.table.name(),
        n -> t.writer(db.connection(), store.allocator(), OTHER_BATCH));
  }

  private void clockOf(ArrowBatch b, int col, int clockId) {
    if (clockId != 0) {
      b.setInt(col, clockId);
      usedClocks.add(clockId);
    }
  }

  private static void end(TableWriter w) {
    try {
      w.endRow();
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
    for (TableWriter w : others.values()) {
      w.flush();
    }
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
    others.values().forEach(TableWriter::close);
  }

  // ---- internals ----

  private void touchRun(String run) {
    if (runs.add(run)) {
      store.runs().touch(run, changedRuns);
    }
  }

  private void writeRequest(long key, RequestRecord r) throws SQLException {
    ArrowBatch b = requests.batch();
    b.setLong(R_KEY, key);
    b.setString(R_RUN, r.run);
    b.setString(R_ID, r.requestId);
    b.setInt(R_SOURCE, sourceId);
    b.setLong(R_LINE, r.lineNo);
    b.setString(R_ENGINE, r.engine);
    b.setString(R_INSTANCE, r.instance);
    clockOf(b, R_CLOCK, r.clockId);
    long[] ts = {r.arrivalNs, r.queuedNs, r.scheduledNs, r.firstTokenNs, r.lastTokenNs, r.finishedNs};
    for (int i = 0; i < ts.length; i++) {
      if (ts[i] != NONE) {
        b.setLong(R_ARRIVAL + i, ts[i]);
      }
    }
    Double[] ms = {r.preQueueMs, r.queueMs, r.prefillMs, r.ttftMs, r.decodeMs, r.e2eMs, r.tpotMs};
    for (int i = 0; i < ms.length; i++) {
      b.setDoubleObj(R_PRE_QUEUE + i, ms[i]);
    }
    b.setInteger(REQUESTS.col("prompt_tokens"), r.promptTokens);
    b.setInteger(REQUESTS.col("output_tokens"), r.outputTokens);
    b.setInteger(REQUESTS.col("cached_tokens"), r.cachedTokens);
    b.setString(REQUESTS.col("status"), r.status);
    b.setString(REQUESTS.col("finish_reason"), r.finishReason);
    b.setInteger(REQUESTS.col("http_status"), r.httpStatus);
    b.setString(REQUESTS.col("error"), r.error);
    b.setString(REQUESTS.col("phase"), r.phase);
    b.setLongObj(REQUESTS.col("first_iter"), r.firstIter);
    b.setLongObj(REQUESTS.col("last_iter"), r.lastIter);
    b.setStringMap(REQUESTS.col("extras"), r.extras);
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

  // ---- staged tables ----

  static final int OTHER_BATCH = 8_192;
  static final StagedTable REQUESTS = StagedTable.of(CanonicalSchema.REQUESTS);
  static final StagedTable TOKENS = StagedTable.of(CanonicalSchema.TOKENS);
  static final StagedTable REJECTS = StagedTable.of(CanonicalSchema.REJECTS);
  static final StagedTable STEPS = StagedTable.of(CanonicalSchema.STEPS);
  static final StagedTable ENGINE_STATS = StagedTable.of(CanonicalSchema.ENGINE_STATS);
  static final StagedTable ENGINE_EVENTS = StagedTable.of(CanonicalSchema.ENGINE_EVENTS);
  static final StagedTable METRIC_HISTOGRAMS = StagedTable.of(CanonicalSchema.METRIC_HISTOGRAMS);
  static final StagedTable REPORTED_METRICS = StagedTable.of(CanonicalSchema.REPORTED_METRICS);
  static final StagedTable CLOCK_ANCHORS = StagedTable.of(CanonicalSchema.CLOCK_ANCHORS);

  private static final int R_KEY = REQUESTS.col("request_key");
  private static final int R_RUN = REQUESTS.col("run");
  private static final int R_ID = REQUESTS.col("request_id");
  private static final int R_SOURCE = REQUESTS.col("source_id");
  private static final int R_LINE = REQUESTS.col("line_no");
  private static final int R_ENGINE = REQUESTS.col("engine");
  private static final int R_INSTANCE = REQUESTS.col("instance");
  private static final int R_CLOCK = REQUESTS.col("clock_id");
  /** arrival .. finished are consecutive columns, in lifecycle order. */
  private static final int R_ARRIVAL = REQUESTS.col("arrival_ns");
  /** pre_queue_ms .. tpot_ms are consecutive columns. */
  private static final int R_PRE_QUEUE = REQUESTS.col("pre_queue_ms");

  static {
    if (REQUESTS.col("finished_ns") != R_ARRIVAL + 5 || REQUESTS.col("tpot_ms") != R_PRE_QUEUE + 6) {
      throw new AssertionError("requests columns are out of the order writeRequest relies on");
    }
  }
}
