package dev.tokentime.ingest;

/**
 * Where a parser puts what it read. Parsers know formats, not storage: this interface is all a
 * parser sees of the database, so a parser can be tested against an in-memory sink.
 *
 * <p>Accounting: every line a parser reads ends up in exactly one of {@link #record},
 * {@link #otherLine} or {@link #reject}, so that lines = records + other lines + rejects.
 */
public interface RecordSink {

  /** Registers a clock and returns its id (the same spec gives the same id). */
  int clock(ClockSpec spec);

  /**
   * States the level of a run (from a record field or a file name). Returns null when accepted,
   * otherwise the reason it conflicts with what is already known of the run.
   */
  String runLevel(String run, String levelKind, Double level, Integer repeat, String how);

  /**
   * Stores a request row and returns its request_key, or returns {@code -1} after rejecting it
   * itself (duplicate id in the run); the record's lineNo names the line.
   */
  long request(RequestRecord r, byte[] line, int off, int len);

  /**
   * The request_key of a request known only from token rows (the token-per-line form): the key of
   * the request row of the same run and id when there is one, else of a stub row created for it.
   */
  long requestKeyFor(String run, String requestId, int clockId, long lineNo);

  /**
   * One streamed chunk; {@code nTokens < 0} means unknown. Call it right after the request() or
   * requestKeyFor() that gave the key; chunks of a request in seq order let the sink derive gaps
   * as it goes (others are derived in SQL after the ingest, which is slower but as correct).
   */
  void token(long requestKey, int seq, long tsNs, int nTokens, ChunkKind kind);

  /**
   * No more chunks of this request follow in this file (formats that hold a request's whole
   * stream in one record say so, which keeps the sink's memory flat); optional.
   */
  default void endOfStream(long requestKey) {}

  /** One engine iteration (steps). */
  void step(StepRecord s);

  /** One periodic stats snapshot (engine_stats). */
  void engineStats(EngineStatsRecord s);

  /** A lifecycle event (engine_events): start, ready, version, config, crash or restart. */
  void engineEvent(long lineNo, String instance, long tsNs, int clockId, String kind, String detail);

  /**
   * One histogram bucket of one scrape interval (metric_histograms): observations at or below
   * {@code le} during [t0, t1), cumulative over le as Prometheus counts them.
   */
  void histogramBucket(String metric, java.util.Map<String, String> labels, long t0Ns, long t1Ns,
      int clockId, double le, double count);

  /** A figure a tool reported about its own run (reported_metrics), kept for comparison. */
  void reportedMetric(String run, Double level, String metric, String stat, double value, String unit);

  /** Two readings of two clocks taken at the same instant (clock_anchors). */
  void clockAnchor(int clockA, long nsA, int clockB, long nsB, String method);

  /** The line produced rows (called once per line or record, after its rows). */
  void record();

  /** The line carries nothing to keep (blank line, header, a log line of another kind). */
  void otherLine();

  /**
   * The other line just counted looks like a line of {@code kind} (its hint matches) but does not
   * match its pattern: cut short, or a shape this version does not read. Counted so that the
   * ingest can say so; the line stays an other line.
   */
  default void nearMiss(long lineNo, String kind) {}

  /**
   * How many of the file's records and rejects are another format's, read among its lines (a
   * tool's result block in a server's log: {@link InputFormat#embeddedReader}); once, after the
   * file's last line. The counts are already in the file's own: this says which are whose.
   */
  default void embedded(String format, long records, long rejected) {}

  /** The line could not be used; {@code line[off, off+len)} is the raw line for the excerpt. */
  void reject(long lineNo, String reason, byte[] line, int off, int len);
}
