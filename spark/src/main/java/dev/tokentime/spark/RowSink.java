package dev.tokentime.spark;

import static dev.tokentime.ingest.RequestRecord.NONE;

import dev.tokentime.Version;
import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.StepRecord;
import dev.tokentime.store.SparkBridge;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The sink of one file on a Spark executor: what the parser hands over becomes rows of the
 * canonical tables (tagged rows, see {@link #emit}), with the same line
 * accounting as the DuckDB sink (every line a record, an other line or a reject; rejects with
 * their excerpt) and the same request identity, decided without a shared registry:
 *
 * <ul>
 *   <li>request_key is a 64-bit hash of (id namespace, run, request_id): a requests file and a
 *       tokens file of one run read by two executors give their rows the same key; formats without
 *       a namespace hash their source_id in, so their ids never meet another file's.
 *   <li>a token row whose request row this file has not seen gets a stub request row (extras
 *       tokentime.stub), as in DuckDB; the job drops stubs whose key has a request row.
 *   <li>clock_id is a 31-bit hash of the clock's spec (the same spec gives the same id in every
 *       file); the job checks that distinct specs got distinct ids.
 * </ul>
 */
final class RowSink implements RecordSink {
  private final int sourceId;
  private final String namespace;
  private final String defaultRun;
  private final boolean keepText;
  private final Consumer<Row> out;

  private final Map<Integer, ClockSpec> clocks = new LinkedHashMap<>();
  private final Set<Integer> usedClocks = new TreeSet<>();
  private final Map<String, Object[]> runs = new LinkedHashMap<>();
  private final Set<Long> requestRows = new HashSet<>();
  private final Map<Long, Long> requestLines = new HashMap<>();
  private final Set<Long> stubs = new HashSet<>();
  private final Map<Long, String> keyRuns = new HashMap<>();
  private long lastKey = Long.MIN_VALUE;
  private String lastKeyRun;

  long records;
  long otherLines;
  long rejected;
  long tokenRows;
  long requestRowsWritten;

  RowSink(int sourceId, String namespace, String defaultRun, boolean keepText, Consumer<Row> out) {
    this.sourceId = sourceId;
    this.namespace = namespace;
    this.defaultRun = defaultRun;
    this.keepText = keepText;
    this.out = out;
  }

  // ---- identity ----

  /** The request_key of a request: the same in every file that shares the id namespace. */
  static long requestKey(String namespace, int sourceId, String run, String requestId) {
    String ns = namespace != null ? "ns:" + namespace : "file:" + sourceId;
    long h = fnv(0xcbf29ce484222325L, ns);
    h = fnv(h, run);
    h = fnv(h, requestId);
    long k = mix(h) & Long.MAX_VALUE;
    return k == 0 ? 1 : k;
  }

  /** The clock_id of a clock spec: a positive INTEGER, the same for the same spec everywhere. */
  static int clockId(ClockSpec s) {
    long h = fnv(0xcbf29ce484222325L, s.kind());
    h = fnv(h, s.scope());
    h = fnv(h, Long.toString(s.resolutionNs()));
    h = fnv(h, s.tz());
    h = fnv(h, Boolean.toString(s.tzAssumed()));
    int id = (int) (mix(h) & 0x7fffffff);
    return id == 0 ? 1 : id;
  }

  private static long fnv(long h, String s) {
    byte[] b = (s == null ? "\u0000null" : s).getBytes(StandardCharsets.UTF_8);
    for (byte x : b) {
      h ^= x & 0xff;
      h *= 0x100000001b3L;
    }
    h ^= 0x1f; // separator, so ("ab","c") and ("a","bc") differ
    return h * 0x100000001b3L;
  }

  /** splitmix64's finaliser: spreads FNV's weak low bits over the whole word. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  // ---- rows ----

  /**
   * A tagged row: (tag, the run its folder is named by, then the table's columns in
   * CanonicalSchema's order). Kept narrow, so the job splits the rows into tables without a
   * schema that spans every table.
   */
  private void emit(int tag, String partRun, Object... values) {
    Object[] cells = new Object[values.length + 2];
    cells[0] = tag;
    cells[1] = partRun;
    System.arraycopy(values, 0, cells, 2, values.length);
    out.accept(RowFactory.create(cells));
  }

  private static Long ns(long v) {
    return v == NONE ? null : v;
  }

  private Integer clock(int id) {
    if (id == 0) {
      return null;
    }
    usedClocks.add(id);
    return id;
  }

  private static <K, V> scala.collection.Map<K, V> map(Map<K, V> m) {
    return m == null || m.isEmpty() ? null : CollectionConverters.asScala(new LinkedHashMap<>(m));
  }

  // ---- RecordSink ----

  @Override
  public int clock(ClockSpec spec) {
    int id = clockId(spec);
    ClockSpec known = clocks.putIfAbsent(id, spec);
    if (known != null && !known.equals(spec)) {
      throw new IllegalStateException("two clocks hash to clock_id " + id + ": " + known + ", " + spec);
    }
    usedClocks.add(id);
    return id;
  }

  private Object[] touchRun(String run) {
    return runs.computeIfAbsent(run, r -> SparkBridge.levelFromName(r).clone());
  }

  @Override
  public String runLevel(String run, String levelKind, Double level, Integer repeat, String how) {
    // the rules of the DuckDB side's RunRegistry, within this file: a level read from the run's
    // name gives way to a record's; two records that disagree are a conflict
    Object[] r = touchRun(run);
    boolean fromName = r[3] != null && ((String) r[3]).startsWith("from run name");
    if (levelKind != null) {
      if (r[0] != null && !fromName && (!r[0].equals(levelKind) || !Objects.equals(r[1], level))) {
        return "run " + run + " is at " + describe((String) r[0], (Double) r[1])
            + "; this record says " + describe(levelKind, level);
      }
      if (!levelKind.equals(r[0]) || !Objects.equals(r[1], level) || fromName) {
        r[0] = levelKind;
        r[1] = level;
        r[3] = "from " + how;
      }
    }
    if (repeat != null) {
      if (r[2] != null && !r[2].equals(repeat) && !fromName) {
        return "run " + run + " is repeat " + r[2] + "; this record says repeat " + repeat;
      }
      r[2] = repeat;
    }
    return null;
  }

  private static String describe(String kind, Double level) {
    String v = level == null ? "?" : level == Math.rint(level) ? Long.toString(level.longValue()) : level.toString();
    return kind.replace('_', ' ') + " " + v;
  }

  @Override
  public long request(RequestRecord r, byte[] line, int off, int len) {
    touchRun(r.run);
    long key = requestKey(namespace, sourceId, r.run, r.requestId);
    if (!requestRows.add(key)) {
      reject(r.lineNo, "duplicate request_id " + quote(r.requestId)
          + (namespace != null ? " in run " + quote(r.run) : " in this file")
          + " (first at line " + requestLines.get(key) + ")", line, off, len);
      return -1;
    }
    requestLines.put(key, r.lineNo);
    writeRequest(key, r);
    remember(key, r.run);
    return key;
  }

  private static String quote(String s) {
    return "'" + s + "'";
  }

  @Override
  public long requestKeyFor(String run, String requestId, int clockId, long lineNo) {
    if (lastKeyRun != null && run.equals(lastKeyRun) && lastKey != Long.MIN_VALUE
        && requestKey(namespace, sourceId, run, requestId) == lastKey) {
      return lastKey;
    }
    touchRun(run);
    long key = requestKey(namespace, sourceId, run, requestId);
    if (!requestRows.contains(key) && stubs.add(key)) {
      RequestRecord stub = new RequestRecord();
      stub.run = run;
      stub.requestId = requestId;
      stub.lineNo = lineNo;
      stub.clockId = clockId;
      stub.extras.put(SparkBridge.STUB_MARKER, SparkBridge.STUB_VALUE);
      writeRequest(key, stub);
      requestRowsWritten--; // a stub is not a request row of the file
    }
    remember(key, run);
    return key;
  }

  private void remember(long key, String run) {
    lastKey = key;
    lastKeyRun = run;
    keyRuns.putIfAbsent(key, run);
  }

  private void writeRequest(long key, RequestRecord r) {
    requestRowsWritten++;
    emit(LakeTables.REQUESTS, r.run, key, r.run, r.requestId, sourceId, r.lineNo, r.engine,
        r.instance, clock(r.clockId), ns(r.arrivalNs), ns(r.queuedNs), ns(r.scheduledNs),
        ns(r.firstTokenNs), ns(r.lastTokenNs), ns(r.finishedNs), r.preQueueMs, r.queueMs,
        r.prefillMs, r.ttftMs, r.decodeMs, r.e2eMs, r.tpotMs, r.promptTokens, r.outputTokens,
        r.cachedTokens, r.status, r.finishReason, r.httpStatus, r.error, r.phase, r.firstIter,
        r.lastIter, map(r.extras));
  }

  @Override
  public void token(long requestKey, int seq, long tsNs, int nTokens, ChunkKind kind) {
    String run = requestKey == lastKey ? lastKeyRun : keyRuns.getOrDefault(requestKey, defaultRun);
    tokenRows++;
    // gap_ns is derived by the job over each request's rows (Derive), whatever order they came in
    emit(LakeTables.TOKENS, run, requestKey, seq, tsNs, nTokens < 0 ? null : nTokens,
        kind.label(), sourceId, null);
  }

  @Override
  public void step(StepRecord s) {
    emit(LakeTables.STEPS, defaultRun, sourceId, s.lineNo, s.instance, s.rank, s.epoch, s.iter,
        ns(s.tsNs), clock(s.clockId), s.durationMs, s.running, s.waiting, s.ctxRequests,
        s.ctxTokens, s.genRequests, s.genTokens, s.paused, s.kvUsage, map(s.extras));
  }

  @Override
  public void engineStats(EngineStatsRecord s) {
    emit(LakeTables.ENGINE_STATS, defaultRun, sourceId, s.lineNo, s.instance, ns(s.tsNs),
        clock(s.clockId), s.intervalS, s.promptTokensPerS, s.genTokensPerS, s.running, s.waiting,
        s.swapped, s.preemptions, s.kvUsage, s.prefixHitRate, map(s.extras));
  }

  @Override
  public void engineEvent(long lineNo, String instance, long tsNs, int clockId, String kind,
      String detail) {
    emit(LakeTables.ENGINE_EVENTS, defaultRun, sourceId, lineNo, instance, ns(tsNs), clock(clockId),
        kind, detail);
  }

  @Override
  public void histogramBucket(String metric, Map<String, String> labels, long t0Ns, long t1Ns,
      int clockId, double le, double count) {
    emit(LakeTables.METRIC_HISTOGRAMS, defaultRun, sourceId, metric, map(labels), t0Ns, t1Ns,
        clock(clockId), le, count);
  }

  @Override
  public void reportedMetric(String run, Double level, String metric, String stat, double value,
      String unit) {
    if (run != null) {
      touchRun(run);
    }
    emit(LakeTables.REPORTED_METRICS, run != null ? run : defaultRun, sourceId, run, level, metric,
        stat, value, unit);
  }

  @Override
  public void clockAnchor(int clockA, long nsA, int clockB, long nsB, String method) {
    emit(LakeTables.CLOCK_ANCHORS, defaultRun, clockA, nsA, clockB, nsB, method);
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
    emit(LakeTables.REJECTS, defaultRun, sourceId, lineNo, reason,
        line == null ? null : SparkBridge.excerpt(line, off, len, keepText));
  }

  // ---- the file's own rows, once it is read ----

  /** The sources row, the clocks the file registered and the runs it touched. */
  void finish(String path, String sha256, String format, String compression, long bytes, long lines,
      Timestamp ingestedAt) {
    List<Integer> ids = new ArrayList<>(usedClocks);
    emit(LakeTables.SOURCES, defaultRun, sourceId, defaultRun, path, sha256, format, compression,
        CollectionConverters.asScala(ids).toSeq(), bytes, lines, records, otherLines, rejected,
        ingestedAt, Version.get());
    for (var e : clocks.entrySet()) {
      ClockSpec c = e.getValue();
      emit(LakeTables.CLOCKS, null, e.getKey(), c.kind(), c.scope(), c.resolutionNs(), c.tz(),
          c.tzAssumed());
    }
    for (var e : runs.entrySet()) {
      Object[] r = e.getValue();
      emit(LakeTables.RUNS, e.getKey(), e.getKey(), r[0], r[1], r[2], r[3]);
    }
  }
}
