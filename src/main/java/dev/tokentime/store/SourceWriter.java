package dev.tokentime.store;

import static dev.tokentime.ingest.RequestRecord.NONE;

import dev.tokentime.Timing;
import dev.tokentime.Version;
import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ClockSpec;
import org.duckdb.DuckDBConnection;
import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.StepRecord;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RecordColumns;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.schema.CanonicalSchema;
import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The sink of one file: turns parsed records into Arrow batches for requests, tokens and rejects,
 * keeps the file's line accounting, and writes the file's sources row. Everything it writes is in
 * one transaction, committed by {@link #commit} or undone by {@link #rollback}.
 */
public final class SourceWriter implements RecordSink, AutoCloseable {
  static final int REQUEST_BATCH = 16_384;
  static final int TOKEN_BATCH = 65_536;
  static final int SMALL_BATCH = 8_192;
  /** Full batches waiting for the database side at most: bounds a file's Arrow memory. */
  static final int MAX_PENDING_BATCHES = 6;

  /** A reject as reported to the user (--strict prints the first ones). */
  /** How many other lines were near misses of a line kind; the first one's line and kind. */
  public record NearMisses(long lines, long firstLine, String firstKind) {}

  public record Reject(long lineNo, String reason) {}

  private final IngestStore store;
  /** This file's own connection: its transaction holds everything the file writes. */
  private final DuckDBConnection conn;
  private final int sourceId;
  private final SourceInfo info;
  private final BatchPipe pipe = new BatchPipe(MAX_PENDING_BATCHES);
  private final Map<String, Queue<ArrowBatch>> pools = new HashMap<>();
  private final RowBuffers rows;
  private final StreamInserter inserter;
  private final TokenStreams streams = new TokenStreams();
  private final Set<Integer> usedClocks = new HashSet<>();
  private final Set<String> changedRuns = new HashSet<>();
  private final Set<String> runs = new HashSet<>();
  private final Set<String> scopes = new HashSet<>();
  private final List<Reject> firstRejects = new ArrayList<>();
  /** The registry entry of the last key handed out, to know whether it had chunks before. */
  private KeyRegistry.Entry lastEntry;
  /**
   * Asked only when this file starts a request's stream. An unknown history (a key other than the
   * one just handed out) counts as having chunks: the SQL derive step recomputes that request.
   */
  private final TokenStreams.History tokenHistory = this::hadTokensBefore;
  /** The last answer of requestKeyFor, and the run and id it was for. */
  private KeyRegistry.Entry lastTokensEntry;
  private String lastTokensRun;
  private String lastTokensId;
  private long records;
  private long otherLines;
  private NearMisses nearMisses;
  private long rejected;
  private long tokenRows;
  private long requestRows;
  private boolean done;

  /** Runs of the sources this file replaces (their statistics change with it). */
  private final Set<String> replacedRuns;

  /** What this file's deletions hold (IngestStore.begin) until it commits or rolls back. */
  private Set<String> held;

  SourceWriter(IngestStore store, DuckDBConnection conn, int sourceId, SourceInfo info,
      Set<String> replacedRuns, Set<String> held) {
    this.store = store;
    this.replacedRuns = replacedRuns;
    this.held = held;
    this.conn = conn;
    this.sourceId = sourceId;
    this.info = info;
    Map<String, StagedTable> tables = new HashMap<>();
    int[] capacities = new int[ALL.size()];
    for (int i = 0; i < ALL.size(); i++) {
      StagedTable t = ALL.get(i);
      tables.put(t.table.name(), t);
      pools.put(t.table.name(), StreamInserter.newPool());
      capacities[i] = t == TOKENS ? TOKEN_BATCH : t == REQUESTS ? REQUEST_BATCH : SMALL_BATCH;
    }
    this.rows = new RowBuffers(store.allocator(), pipe, ALL, pools, capacities);
    this.inserter = new StreamInserter(conn, store.allocator(), pipe, tables, pools, sourceId);
  }

  public int sourceId() {
    return sourceId;
  }

  // ---- RecordSink ----

  @Override
  public int clock(ClockSpec spec) {
    int id = store.clocks().idFor(spec);
    usedClocks.add(id);
    return id;
  }

  @Override
  public String runLevel(String run, String levelKind, Double level, Integer repeat, String how) {
    touchRun(run);
    return store.runs().level(run, levelKind, level, repeat, how, changedRuns);
  }

  @Override
  public long request(RequestRecord r, byte[] line, int off, int len) {
    // the last guard of every format: nothing out of range is stored (ingest.Checked)
    String outOfRange = dev.tokentime.ingest.Checked.requestProblem(r);
    if (outOfRange != null) {
      reject(r.lineNo, outOfRange, line, off, len);
      return -1;
    }
    touchRun(r.run);
    try {
      long key;
      if (info.idNamespace() != null) {
        scopes.add(KeyRegistry.scopeKey(info.idNamespace(), r.run));
        var c = store.keys().claim(info.idNamespace(), r.run, r.requestId, sourceId, r.lineNo);
        if (c.claim() == KeyRegistry.Claim.DUPLICATE) {
          var first = c.entry();
          reject(r.lineNo, "duplicate request_id " + quote(r.requestId) + " in run " + quote(r.run)
              + " (first at " + store.describeLine(first.sourceId(), first.lineNo(), sourceId) + ")",
              line, off, len);
          return -1;
        }
        key = c.entry().key;
        remember(c.entry());
      } else {
        var c = store.keys().claim("file:" + sourceId, r.run, r.requestId, sourceId, r.lineNo);
        if (c.claim() == KeyRegistry.Claim.DUPLICATE) {
          reject(r.lineNo, "duplicate request_id " + quote(r.requestId) + " in this file (first at line "
              + c.entry().lineNo() + ")", line, off, len);
          return -1;
        }
        key = c.entry().key;
        remember(c.entry());
      }
      writeRequest(key, r);
      return key;
    } catch (SQLException e) {
      throw new StoreException(e);
    }
  }

  @Override
  public long requestKeyFor(String run, String requestId, int clockId, long lineNo) {
    // consecutive token lines of one request (the usual order) ask for the same key: answered
    // without the registry's lock and its two map lookups (a sixth of a token line's cost)
    if (lastTokensEntry != null && requestId.equals(lastTokensId) && run.equals(lastTokensRun)) {
      remember(lastTokensEntry);
      return lastTokensEntry.key;
    }
    touchRun(run);
    try {
      String ns = info.idNamespace() != null ? info.idNamespace() : "file:" + sourceId;
      scopes.add(KeyRegistry.scopeKey(ns, run));
      boolean[] created = {false};
      KeyRegistry.Entry e = store.keys().keyForTokens(ns, run, requestId, sourceId, lineNo, created);
      remember(e);
      lastTokensEntry = e;
      lastTokensRun = run;
      lastTokensId = requestId;
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

  private boolean hadTokensBefore(long requestKey) {
    KeyRegistry.Entry e = lastEntry;
    return e == null || e.key != requestKey || store.keys().claimTokens(e);
  }

  @Override
  public void token(long requestKey, int seq, long tsNs, int nTokens, ChunkKind kind) {
    long gap = streams.token(requestKey, seq, tsNs, nTokens, kind, tokenHistory);
    ArrowBatch b = rows.batch(T_TOKENS);
    b.setLong(K_KEY, requestKey);
    b.setInt(K_SEQ, seq);
    b.setLong(K_TS, tsNs);
    if (nTokens >= 0) {
      b.setInt(K_N, nTokens);
    }
    b.setTiny(K_KIND, (byte) kind.ordinal());
    if (gap != NONE) {
      b.setLong(K_GAP, gap);
    }
    tokenRows++;
    rows.endRow(T_TOKENS);
  }

  @Override
  public void endOfStream(long requestKey) {
    streams.end(requestKey, this::writeRequestTokens);
  }

  private void remember(KeyRegistry.Entry e) {
    lastEntry = e;
  }

  private void writeRequestTokens(TokenStreams.Stream s, Boolean complete) {
    ArrowBatch b = rows.batch(T_REQUEST_TOKENS);
    b.setLong(RT.col("request_key"), s.key);
    b.setInt(RT.col("chunks"), s.chunks);
    b.setInt(RT.col("content_chunks"), s.contentChunks);
    if (!s.contentTokensUnknown && s.contentChunks > 0) {
      b.setInt(RT.col("content_tokens"), (int) Math.min(Integer.MAX_VALUE, s.contentTokens));
    }
    setNs(b, RT.col("first_content_ns"), s.firstContentNs);
    setNs(b, RT.col("last_content_ns"), s.lastContentNs);
    setNs(b, RT.col("first_chunk_ns"), s.firstChunkNs);
    setNs(b, RT.col("last_chunk_ns"), s.lastChunkNs);
    setNs(b, RT.col("max_gap_ns"), s.maxGapNs);
    b.setBool(RT.col("ts_decreases"), s.decreases);
    b.setInt(RT.col("seq_repeats"), 0);
    b.setInt(RT.col("choice_chunks"), s.choiceChunks);
    setNs(b, RT.col("first_choice_ns"), s.firstChoiceNs);
    setNs(b, RT.col("last_choice_ns"), s.lastChoiceNs);
    setNs(b, RT.col("second_chunk_ns"), s.secondChunkNs);
    setNs(b, RT.col("second_content_ns"), s.secondContentNs);
    setNs(b, RT.col("min_gap_ns"), s.minGapNs);
    b.setInt(RT.col("reasoning_chunks"), s.reasoningChunks);
    setNs(b, RT.col("first_answer_ns"), s.firstAnswerNs);
    rows.endRow(T_REQUEST_TOKENS);
  }

  private static void setNs(ArrowBatch b, int col, long v) {
    if (v != NONE) {
      b.setLong(col, v);
    }
  }

  @Override
  public void step(StepRecord r) {
    ArrowBatch b = rows.batch(I_STEPS);
    writeColumns(b, RecordColumns.STEPS, S_COLS, r);
    rows.endRow(I_STEPS);
  }

  @Override
  public void engineStats(EngineStatsRecord r) {
    ArrowBatch b = rows.batch(I_ENGINE_STATS);
    writeColumns(b, RecordColumns.ENGINE_STATS, E_COLS, r);
    rows.endRow(I_ENGINE_STATS);
  }

  @Override
  public void engineEvent(long lineNo, String instance, long tsNs, int clockId, String kind,
      String detail) {
    ArrowBatch b = rows.batch(I_ENGINE_EVENTS);
    b.setLong(ENGINE_EVENTS.col("line_no"), lineNo);
    b.setString(ENGINE_EVENTS.col("instance"), instance);
    if (tsNs != NONE) {
      b.setLong(ENGINE_EVENTS.col("ts_ns"), tsNs);
    }
    clockOf(b, ENGINE_EVENTS.col("clock_id"), clockId);
    b.setString(ENGINE_EVENTS.col("kind"), kind);
    b.setString(ENGINE_EVENTS.col("detail"), detail);
    rows.endRow(I_ENGINE_EVENTS);
  }

  @Override
  public void histogramBucket(String metric, Map<String, String> labels, long t0Ns, long t1Ns,
      int clockId, double le, double count) {
    ArrowBatch b = rows.batch(I_METRIC_HISTOGRAMS);
    b.setString(METRIC_HISTOGRAMS.col("metric"), metric);
    b.setStringMap(METRIC_HISTOGRAMS.col("labels"), labels);
    b.setLong(METRIC_HISTOGRAMS.col("t0_ns"), t0Ns);
    b.setLong(METRIC_HISTOGRAMS.col("t1_ns"), t1Ns);
    clockOf(b, METRIC_HISTOGRAMS.col("clock_id"), clockId);
    b.setDouble(METRIC_HISTOGRAMS.col("le"), le);
    b.setDouble(METRIC_HISTOGRAMS.col("count"), count);
    rows.endRow(I_METRIC_HISTOGRAMS);
  }

  @Override
  public void reportedMetric(String run, Double level, String metric, String stat, double value,
      String unit) {
    if (run != null) {
      touchRun(run);
    }
    ArrowBatch b = rows.batch(I_REPORTED_METRICS);
    b.setString(REPORTED_METRICS.col("run"), run);
    b.setDoubleObj(REPORTED_METRICS.col("level"), level);
    b.setString(REPORTED_METRICS.col("metric"), metric);
    b.setString(REPORTED_METRICS.col("stat"), stat);
    b.setDouble(REPORTED_METRICS.col("value"), value);
    b.setString(REPORTED_METRICS.col("unit"), unit);
    rows.endRow(I_REPORTED_METRICS);
  }

  @Override
  public void clockAnchor(int clockA, long nsA, int clockB, long nsB, String method) {
    ArrowBatch b = rows.batch(I_CLOCK_ANCHORS);
    b.setInt(CLOCK_ANCHORS.col("clock_a"), clockA);
    b.setLong(CLOCK_ANCHORS.col("ns_a"), nsA);
    b.setInt(CLOCK_ANCHORS.col("clock_b"), clockB);
    b.setLong(CLOCK_ANCHORS.col("ns_b"), nsB);
    b.setString(CLOCK_ANCHORS.col("method"), method);
    rows.endRow(I_CLOCK_ANCHORS);
  }

  private void clockOf(ArrowBatch b, int col, int clockId) {
    if (clockId != 0) {
      b.setInt(col, clockId);
      usedClocks.add(clockId);
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
  public void nearMiss(long lineNo, String kind) {
    nearMisses = nearMisses == null ? new NearMisses(1, lineNo, kind)
        : new NearMisses(nearMisses.lines() + 1, nearMisses.firstLine(), nearMisses.firstKind());
  }

  /** The other lines that looked like a known kind of line but did not match it, or null for none. */
  public NearMisses nearMisses() {
    return nearMisses;
  }

  @Override
  public void reject(long lineNo, String reason, byte[] line, int off, int len) {
    rejected++;
    if (firstRejects.size() < 10) {
      firstRejects.add(new Reject(lineNo, reason));
    }
    ArrowBatch b = rows.batch(T_REJECTS);
    b.setLong(REJECTS.col("line_no"), lineNo);
    b.setString(REJECTS.col("reason"), reason);
    b.setString(REJECTS.col("excerpt"), line == null ? null : Excerpts.of(line, off, len, info.keepText()));
    rows.endRow(T_REJECTS);
  }

  // ---- results ----

  public long records() {
    return records;
  }

  public long otherLines() {
    return otherLines;
  }

  /** Another format's records read among the file's lines ({@link RecordSink#embedded}): which, and how many. */
  public record Embedded(String format, long records, long rejected) {}

  private Embedded embedded;

  @Override
  public void embedded(String format, long records, long rejected) {
    embedded = new Embedded(format, records, rejected);
  }

  /** The account of another format's records read among the file's lines, or null: none. */
  public Embedded embeddedAccount() {
    return embedded;
  }

  public long rejected() {
    return rejected;
  }

  public long tokenRows() {
    return tokenRows - droppedChunks;
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

  /** A parse of the file, run on its own thread, returning the lines it read. */
  public interface Parse {
    long run() throws IOException;
  }

  /**
   * Runs the parse on a thread of its own while this thread streams the rows it produces into
   * DuckDB, so parsing and inserting overlap. Returns the lines read. A failure on either side
   * stops both and is rethrown here; the transaction is then for the caller to roll back.
   */
  public long load(Parse parse) throws IOException, SQLException {
    long[] lines = {0};
    Throwable[] failure = {null};
    long start = System.nanoTime();
    Thread producer = new Thread(() -> {
      try {
        lines[0] = parse.run();
        streams.endAll(this::writeRequestTokens);
        writeDirty();
        rows.finish();
        Timing.since("parse thread done after", start);
      } catch (Throwable t) {
        failure[0] = t;
        pipe.finish(t);
      }
    }, "tokentime-parse");
    producer.setDaemon(true);
    producer.start();
    try {
      inserter.drain();
    } catch (SQLException | RuntimeException e) {
      pipe.consumerFailed(e);
      joinQuietly(producer);
      throw e;
    } catch (InterruptedException e) {
      pipe.consumerFailed(e);
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    joinQuietly(producer);
    Timing.note("parser waited %.2f s for the database, database waited %.2f s for the parser",
        pipe.producerWaitNs / 1e9, pipe.consumerWaitNs / 1e9);
    Throwable t = failure[0];
    if (t != null) {
      if (t instanceof IOException io) {
        throw io;
      }
      if (t instanceof StoreException se && se.getCause() instanceof SQLException sql) {
        throw sql;
      }
      if (t instanceof RuntimeException re) {
        throw re;
      }
      if (t instanceof Error err) {
        throw err;
      }
      throw new IOException(t);
    }
    return lines[0];
  }

  private static void joinQuietly(Thread t) {
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Requests whose derived data the SQL derive step must rebuild after the ingest. */
  private void writeDirty() {
    for (long key : streams.dirty()) {
      ArrowBatch b = rows.batch(T_DIRTY);
      b.setLong(0, key);
      rows.endRow(T_DIRTY);
    }
  }

  /**
   * Writes the file's last rows (stub adoptions, clocks, runs, its sources row) and commits.
   *
   * @param lines lines read; must equal records + other lines + rejects
   */
  public void commit(String sha256, long bytes, long lines) throws SQLException {
    commit(sha256, bytes, lines, null, bytes);
  }

  /**
   * As {@link #commit(String, long, long)}, with the SHA-256 of the content's first 4,096 bytes
   * (null for a shorter file) and the content's length, decompressed, kept in _source_heads to
   * find the same log read again.
   */
  public void commit(String sha256, long bytes, long lines, String headSha256, long contentBytes)
      throws SQLException {
    if (lines != records + otherLines + rejected) {
      throw new IllegalStateException("line accounting of " + info.path() + " does not reconcile: "
          + lines + " lines read, " + records + " records + " + otherLines + " other + " + rejected
          + " rejected");
    }
    try (PreparedStatement ps = conn.prepareStatement(
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
    if (headSha256 != null) {
      try (PreparedStatement ps = conn.prepareStatement(
          "INSERT INTO _source_heads (source_id, head_sha256, content_bytes) VALUES (?, ?, ?)")) {
        ps.setInt(1, sourceId);
        ps.setString(2, headSha256);
        ps.setLong(3, contentBytes);
        ps.executeUpdate();
      }
    }
    Set<String> pending = new java.util.LinkedHashSet<>(runs);
    pending.addAll(replacedRuns);
    store.writePendingRuns(conn, pending);
    store.db().commitSource(conn);
    done = true;
    release();
    store.sourceCommitted(this);
  }

  private void release() {
    Set<String> h = held;
    held = Set.of();
    store.releaseDeleted(h);
  }

  /**
   * Chunks of this file at positions (request, seq) already stored. Looked for only among the
   * requests whose streams this file did not start (TokenStreams' dirty ones): a request whose
   * chunks another file, or an earlier record of this one, already gave. The same tokens twice
   * (a requests file with tokens_ns and a tokens file of the same requests, a log read again
   * under another name) doubled every ITL count and moved its percentiles, with one warning.
   * Positions another file stored first keep that file's chunk and this file's are not stored
   * (the returned note says so; the request rows of this file are kept); positions repeated
   * within this file alone refuse it ({@link dev.tokentime.BadInputException}).
   *
   * @return a note for the file's report, or null when nothing repeats
   */
  public String dropRepeatedChunks() throws SQLException {
    if (streams.dirty().isEmpty()) {
      return null;
    }
    String dirty = "(SELECT request_key FROM _dirty_requests)";
    String names = " JOIN (SELECT request_key, arg_min(run, source_id) AS run, arg_min(request_id, source_id) AS request_id"
        + " FROM requests GROUP BY request_key) r USING (request_key)";
    try (PreparedStatement ps = conn.prepareStatement("WITH own AS (SELECT request_key, seq FROM tokens"
        + " WHERE source_id = ? AND request_key IN " + dirty + " GROUP BY request_key, seq HAVING count(*) > 1)"
        + " SELECT (SELECT count(*) FROM own), r.run, r.request_id, o.seq"
        + " FROM (SELECT * FROM own ORDER BY request_key, seq LIMIT 1) o" + names)) {
      ps.setInt(1, sourceId);
      try (java.sql.ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          throw new dev.tokentime.BadInputException(String.format(java.util.Locale.ROOT, "%,d token %s twice in this"
              + " file (the first: request %s of run %s, seq %d): a request's tokens_ns and its token lines?",
              rs.getLong(1), rs.getLong(1) == 1 ? "position is" : "positions are", rs.getString(3), rs.getString(2),
              rs.getInt(4)));
        }
      }
    }
    String repeats = " FROM tokens t WHERE t.source_id = ? AND t.request_key IN " + dirty
        + " AND EXISTS (SELECT 1 FROM tokens u WHERE u.request_key = t.request_key AND u.seq = t.seq AND u.source_id <> ?)";
    String note;
    try (PreparedStatement ps = conn.prepareStatement("WITH rep AS (SELECT t.request_key, t.seq,"
        + " (SELECT min(u.source_id) FROM tokens u WHERE u.request_key = t.request_key AND u.seq = t.seq"
        + " AND u.source_id <> ?) AS other" + repeats + ")"
        + " SELECT (SELECT count(*) FROM rep), r.run, r.request_id, f.seq, f.other"
        + " FROM (SELECT * FROM rep ORDER BY request_key, seq LIMIT 1) f" + names)) {
      ps.setInt(1, sourceId);
      ps.setInt(2, sourceId);
      ps.setInt(3, sourceId);
      try (java.sql.ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        long n = rs.getLong(1);
        note = String.format(java.util.Locale.ROOT, "%,d token %s already stored from %s (the first: request %s of"
            + " run %s, seq %d): the same tokens read twice, kept once; this file's chunks there were not stored", n,
            n == 1 ? "position was" : "positions were", store.describeLine(rs.getInt(5), null, sourceId)
                .replaceFirst(":\\?$", ""), rs.getString(3), rs.getString(2), rs.getInt(4));
      }
    }
    try (PreparedStatement ps = conn.prepareStatement("DELETE" + repeats)) {
      ps.setInt(1, sourceId);
      ps.setInt(2, sourceId);
      droppedChunks = ps.executeUpdate();
    }
    return note;
  }

  /** Chunks of this file not stored because another file had stored their positions. */
  private long droppedChunks;

  /** Undoes everything this file wrote. */
  public void rollback() {
    if (done) {
      return;
    }
    done = true;
    try {
      conn.rollback();
    } catch (SQLException e) {
      throw new StoreException(e);
    } finally {
      release();
      store.sourceRolledBack(this, scopes);
    }
  }

  @Override
  public void close() {
    if (!done) {
      rollback();
    }
    pipe.drainTo(b -> {});
    rows.close();
    try {
      conn.close();
    } catch (SQLException e) {
      // nothing left to save
    }
  }

  // ---- internals ----

  private void touchRun(String run) {
    if (runs.add(run)) {
      if (run.equals(info.defaultRun())) {
        // --level, else a level in the file's or its directories' names: before any record's own
        // (a conflict of --level with the database's runs was refused before the file began; one
        // with a file ingested at the same time keeps the stated level)
        store.runs().touch(run, changedRuns, info.nameHints(), info.levelKind(), info.level());
      } else {
        store.runs().touch(run, changedRuns);
      }
    }
  }

  private void writeRequest(long key, RequestRecord r) {
    ArrowBatch b = rows.batch(T_REQUESTS);
    b.setLong(R_KEY, key);
    writeColumns(b, RecordColumns.REQUESTS, R_COLS, r);
    requestRows++;
    rows.endRow(T_REQUESTS);
  }

  /** Writes every column a record holds, as the schema orders and types them. */
  @SuppressWarnings("unchecked")
  private <R> void writeColumns(ArrowBatch b, RecordColumns<R> columns, int[] staged, R r) {
    List<RecordColumns.Binding<R>> all = columns.all();
    for (int i = 0; i < staged.length; i++) {
      RecordColumns.Binding<R> c = all.get(i);
      int col = staged[i];
      switch (c.kind()) {
        case LONG -> {
          long v = c.getLong(r);
          if (v != NONE) {
            b.setLong(col, v);
          }
        }
        case INT -> b.setInt(col, (int) c.getLong(r));
        case CLOCK -> clockOf(b, col, (int) c.getLong(r));
        case BIGINT -> b.setLongObj(col, (Long) c.get(r));
        case INTEGER -> b.setInteger(col, (Integer) c.get(r));
        case DOUBLE -> b.setDoubleObj(col, (Double) c.get(r));
        case TEXT -> b.setString(col, (String) c.get(r));
        case TEXT_MAP -> b.setStringMap(col, (Map<String, String>) c.get(r));
        case DOUBLE_MAP -> b.setDoubleMap(col, (Map<String, Double>) c.get(r));
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

  static final StagedTable REQUESTS = StagedTable.of(CanonicalSchema.REQUESTS);
  static final StagedTable TOKENS = StagedTable.of(CanonicalSchema.TOKENS);
  static final StagedTable REJECTS = StagedTable.of(CanonicalSchema.REJECTS);
  static final StagedTable STEPS = StagedTable.of(CanonicalSchema.STEPS);
  static final StagedTable ENGINE_STATS = StagedTable.of(CanonicalSchema.ENGINE_STATS);
  static final StagedTable ENGINE_EVENTS = StagedTable.of(CanonicalSchema.ENGINE_EVENTS);
  static final StagedTable METRIC_HISTOGRAMS = StagedTable.of(CanonicalSchema.METRIC_HISTOGRAMS);
  static final StagedTable REPORTED_METRICS = StagedTable.of(CanonicalSchema.REPORTED_METRICS);
  static final StagedTable CLOCK_ANCHORS = StagedTable.of(CanonicalSchema.CLOCK_ANCHORS);
  static final StagedTable RT = StagedTable.of(CanonicalSchema.DERIVED_REQUEST_TOKENS);
  static final StagedTable DIRTY = StagedTable.of(CanonicalSchema.DERIVED_DIRTY_REQUESTS);
  static final List<StagedTable> ALL = List.of(REQUESTS, TOKENS, REJECTS, STEPS, ENGINE_STATS,
      ENGINE_EVENTS, METRIC_HISTOGRAMS, REPORTED_METRICS, CLOCK_ANCHORS, RT, DIRTY);

  // indexes into ALL, for RowBuffers
  private static final int T_REQUESTS = ALL.indexOf(REQUESTS);
  private static final int T_TOKENS = ALL.indexOf(TOKENS);
  private static final int T_REJECTS = ALL.indexOf(REJECTS);
  private static final int I_STEPS = ALL.indexOf(STEPS);
  private static final int I_ENGINE_STATS = ALL.indexOf(ENGINE_STATS);
  private static final int I_ENGINE_EVENTS = ALL.indexOf(ENGINE_EVENTS);
  private static final int I_METRIC_HISTOGRAMS = ALL.indexOf(METRIC_HISTOGRAMS);
  private static final int I_REPORTED_METRICS = ALL.indexOf(REPORTED_METRICS);
  private static final int I_CLOCK_ANCHORS = ALL.indexOf(CLOCK_ANCHORS);
  private static final int T_REQUEST_TOKENS = ALL.indexOf(RT);
  private static final int T_DIRTY = ALL.indexOf(DIRTY);

  private static final int K_KEY = TOKENS.col("request_key");
  private static final int K_SEQ = TOKENS.col("seq");
  private static final int K_TS = TOKENS.col("ts_ns");
  private static final int K_N = TOKENS.col("n_tokens");
  private static final int K_KIND = TOKENS.col("chunk_kind");
  private static final int K_GAP = TOKENS.col("gap_ns");

  private static final int R_KEY = REQUESTS.col("request_key");
  /** Where each column a record holds is staged, in the order of RecordColumns' bindings. */
  private static final int[] R_COLS = staged(REQUESTS, RecordColumns.REQUESTS);
  private static final int[] S_COLS = staged(STEPS, RecordColumns.STEPS);
  private static final int[] E_COLS = staged(ENGINE_STATS, RecordColumns.ENGINE_STATS);

  private static int[] staged(StagedTable t, RecordColumns<?> columns) {
    return columns.all().stream().mapToInt(c -> t.col(c.name())).toArray();
  }
}
