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

  /** One streamed chunk; {@code nTokens < 0} means unknown. */
  void token(long requestKey, int seq, long tsNs, int nTokens, ChunkKind kind);

  /** The line produced rows (called once per line or record, after its rows). */
  void record();

  /** The line carries nothing to keep (blank line, header, a log line of another kind). */
  void otherLine();

  /** The line could not be used; {@code line[off, off+len)} is the raw line for the excerpt. */
  void reject(long lineNo, String reason, byte[] line, int off, int len);
}
