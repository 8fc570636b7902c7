package dev.tokentime.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;

/**
 * The write side of a database for one ingest: ids (sources, request keys, clocks), runs, the
 * Arrow allocator, and the files' transactions. Files are written one at a time, each in its own
 * transaction ({@link #begin}).
 */
public final class IngestStore implements AutoCloseable {
  /** Arrow memory for staging batches; a handful of 64K-row batches fit many times over. */
  static final long ARROW_LIMIT_BYTES = 256L << 20;

  private final Database db;
  private final BufferAllocator allocator = new RootAllocator(ARROW_LIMIT_BYTES);
  private final ClockRegistry clocks;
  private final RunRegistry runs;
  private final KeyRegistry keys;
  private final Set<String> touchedRuns = new LinkedHashSet<>();
  private final Map<Integer, String> sourcePaths = new HashMap<>();
  /** Guards the main connection and the registries: files are written in parallel. */
  private final Object lock = new Object();
  private int nextSourceId;
  /** The next _pending_runs.seq (taken under the registry's lock). */
  private long nextPendingSeq;

  /**
   * @param namespaceFormats for each run-wide id namespace, the formats whose rows share it
   */
  public IngestStore(Database db, Map<String, List<String>> namespaceFormats) throws SQLException {
    this.db = db;
    db.connection().setAutoCommit(true);
    this.clocks = new ClockRegistry(db, lock);
    this.runs = new RunRegistry(db, lock);
    this.keys = new KeyRegistry(db, namespaceFormats, lock);
    this.nextSourceId = (int) db.queryLong("SELECT coalesce(max(source_id), 0) FROM sources") + 1;
    Deriver.ensurePendingTable(db);
    db.execute(dev.tokentime.schema.CanonicalSchema.SOURCE_HEADS.createSql()); // made before it existed
    db.execute("ALTER TABLE _source_heads ADD COLUMN IF NOT EXISTS content_bytes BIGINT");
    this.nextPendingSeq = db.queryLong("SELECT coalesce(max(seq), 0) FROM _pending_runs") + 1;
  }

  /**
   * Starts a file's transaction on a connection of its own (files may be written in parallel);
   * {@code replace} lists sources it replaces, deleted in the same transaction first.
   */
  public SourceWriter begin(SourceInfo info, Collection<Integer> replace) throws SQLException {
    // A file that deletes stored rows holds them until it commits or rolls back: two such
    // transactions open at once (a pair's two files under --replace) deleted the same derived
    // rows of one request (_request_tokens) and the second failed with DuckDB's "Conflict on
    // tuple deletion"; waiting before its transaction begins, the second sees the first's commit.
    Set<String> held = replace.isEmpty() ? Set.of() : deleting.acquire(deletedScope(replace));
    DuckDBConnection conn;
    try {
      conn = (DuckDBConnection) db.connection().duplicate();
      conn.setAutoCommit(false);
    } catch (SQLException | RuntimeException e) {
      deleting.release(held);
      throw e;
    }
    int id;
    Set<String> replacedRuns = new LinkedHashSet<>();
    synchronized (lock) {
      if (!replace.isEmpty()) {
        try {
          replacedRuns.addAll(SourceDeleter.delete(conn, replace));
          touchedRuns.addAll(replacedRuns);
        } catch (SQLException e) {
          try {
            conn.rollback();
            conn.close();
          } finally {
            deleting.release(held);
          }
          throw e;
        }
        keys.exclude(replace);
      }
      id = nextSourceId++;
      sourcePaths.put(id, info.path());
    }
    return new SourceWriter(this, conn, id, info, replacedRuns, held);
  }

  /** The sources a file's deletions of stored rows hold (DeletionLocks); released when it ends. */
  private final DeletionLocks deleting = new DeletionLocks();

  /** A file holding runs for its deletions committed or rolled back. */
  void releaseDeleted(Set<String> held) {
    deleting.release(held);
  }

  /**
   * What deleting these sources touches: the sources themselves (two files may replace one: both
   * grew from it) and every source whose rows meet theirs by request — request rows of the
   * requests their chunks belong to, chunks of their requests, the other ends of their request
   * links — as the derived rows and links of those requests are deleted with them. Files replacing
   * sources that share no request (two server logs) go on in parallel.
   */
  private Set<String> deletedScope(Collection<Integer> sourceIds) throws SQLException {
    String in = sourceIds.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", ", "(", ")"));
    Set<String> out = new LinkedHashSet<>();
    sourceIds.forEach(s -> out.add("source " + s));
    synchronized (lock) {
      try (PreparedStatement ps = db.connection().prepareStatement("WITH k AS (SELECT request_key FROM requests"
          + " WHERE source_id IN " + in + " UNION SELECT request_key FROM tokens WHERE source_id IN " + in + "),"
          + " linked AS (SELECT request_key FROM k UNION SELECT key_b FROM request_links WHERE key_a IN (SELECT"
          + " request_key FROM k) UNION SELECT key_a FROM request_links WHERE key_b IN (SELECT request_key FROM k))"
          + " SELECT source_id FROM requests WHERE request_key IN (SELECT request_key FROM linked)"
          + " UNION SELECT source_id FROM tokens WHERE request_key IN (SELECT request_key FROM linked)");
          ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add("source " + rs.getInt(1));
        }
      }
    }
    return out;
  }

  /** Writes the state of a committing file's runs into its transaction (RunRegistry.writePending). */
  void writePendingRuns(java.sql.Connection conn, Collection<String> names) throws SQLException {
    synchronized (lock) {
      runs.writePending(conn, names, () -> nextPendingSeq++);
    }
  }

  /** Sources already in the database with this content or path, for --replace and duplicates. */
  public List<Integer> sourcesMatching(String sha256, String path) throws SQLException {
    synchronized (lock) {
      return sourcesMatchingLocked(sha256, path);
    }
  }

  private List<Integer> sourcesMatchingLocked(String sha256, String path) throws SQLException {
    List<Integer> ids = new ArrayList<>();
    try (PreparedStatement ps = db.connection().prepareStatement(
        "SELECT source_id FROM sources WHERE sha256 = ? OR path = ? ORDER BY source_id")) {
      ps.setString(1, sha256);
      ps.setString(2, path);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getInt(1));
        }
      }
    }
    return ids;
  }

  /** SHA-256 of a file's first bytes, for each of the given lengths (ascending). */
  @FunctionalInterface
  public interface PrefixHashes {
    List<String> of(List<Long> lengths) throws java.io.IOException;
  }

  /**
   * Sources whose content is this file's beginning: the same log read again after it grew (a
   * live log), after rotation renamed it ({@code server.log} read, then {@code server.log.1}), or
   * captured twice under two names ({@code pod.log}, then {@code pod-2.log}, compressed or not).
   * Looked for among sources of this file's directory (another directory's file is another run's,
   * even where it holds the same lines) read from this path or from a file whose name begins this
   * one's (uncompressed: a compressed file does not grow in place), or whose first 4,096 bytes are
   * this file's
   * ({@code headSha256}, null for a shorter file); the content decides, by the SHA-256 of this
   * file's first bytes against the source's.
   */
  public List<Integer> grownSources(String path, long size, String headSha256, PrefixHashes prefixes)
      throws SQLException, java.io.IOException {
    List<Integer> ids = new ArrayList<>();
    List<Long> sizes = new ArrayList<>();
    List<String> shas = new ArrayList<>();
    int slash = path.lastIndexOf('/');
    String dir = path.substring(0, slash + 1);
    synchronized (lock) {
      // a compressed source's content length is its head row's (its bytes are the file's size);
      // a compressed one is found by its head only (a compressed file does not grow in place)
      try (PreparedStatement ps = db.connection().prepareStatement(
          "SELECT source_id, len, sha256, path FROM (SELECT s.source_id, s.sha256, s.path, s.compression,"
              + " h.head_sha256, CASE WHEN s.compression = 'none' THEN s.bytes ELSE h.content_bytes END AS len"
              + " FROM sources AS s LEFT JOIN _source_heads AS h USING (source_id))"
              + " WHERE len > 0 AND len < ? AND ((compression = 'none' AND starts_with(?, path))"
              + " OR head_sha256 = ?) ORDER BY len, source_id")) {
        ps.setLong(1, size);
        ps.setString(2, path);
        ps.setString(3, headSha256);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            String stored = rs.getString(4);
            if (!sameDirectory(stored, dir)) {
              continue; // another directory's file: another run's, even where it holds the same lines
            }
            ids.add(rs.getInt(1));
            sizes.add(rs.getLong(2));
            shas.add(rs.getString(3));
          }
        }
      }
    }
    if (ids.isEmpty()) {
      return List.of();
    }
    List<String> heads = prefixes.of(sizes);
    List<Integer> grown = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      if (shas.get(i) != null && shas.get(i).equals(heads.get(i))) {
        grown.add(ids.get(i));
      }
    }
    return grown;
  }

  private static boolean sameDirectory(String stored, String dir) {
    return stored.startsWith(dir) && stored.indexOf('/', dir.length()) < 0;
  }

  /** A stored source: its id, the path it was read from, its size and content hash. */
  public record StoredSource(int id, String path, long bytes, String sha256) {}

  /**
   * Uncompressed sources of this file's directory, longer than {@code size}, whose first 4,096
   * bytes are this file's: the
   * file may be an earlier copy of one of them (its beginning), which the caller proves by
   * reading the source's file where it still is.
   */
  public List<StoredSource> longerWithHead(String path, String headSha256, long size) throws SQLException {
    String dir = path.substring(0, path.lastIndexOf('/') + 1);
    List<StoredSource> out = new ArrayList<>();
    synchronized (lock) {
      try (PreparedStatement ps = db.connection().prepareStatement(
          "SELECT s.source_id, s.path, s.bytes, s.sha256 FROM sources s JOIN _source_heads h USING (source_id)"
              + " WHERE h.head_sha256 = ? AND s.compression = 'none' AND s.bytes > ? ORDER BY s.source_id")) {
        ps.setString(1, headSha256);
        ps.setLong(2, size);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            if (sameDirectory(rs.getString(2), dir)) {
              out.add(new StoredSource(rs.getInt(1), rs.getString(2), rs.getLong(3), rs.getString(4)));
            }
          }
        }
      }
    }
    return out;
  }

  /** The source with exactly this content, or null. */
  public Integer sourceWithSha(String sha256) throws SQLException {
    synchronized (lock) {
      return sourceWithShaLocked(sha256);
    }
  }

  private Integer sourceWithShaLocked(String sha256) throws SQLException {
    try (PreparedStatement ps = db.connection().prepareStatement(
        "SELECT min(source_id) FROM sources WHERE sha256 = ?")) {
      ps.setString(1, sha256);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        int v = rs.getInt(1);
        return rs.wasNull() ? null : v;
      }
    }
  }

  /** The format a stored source was read as, or null. */
  public String formatOf(int sourceId) throws SQLException {
    synchronized (lock) {
      try (PreparedStatement ps = db.connection().prepareStatement(
          "SELECT format FROM sources WHERE source_id = ?")) {
        ps.setInt(1, sourceId);
        try (ResultSet rs = ps.executeQuery()) {
          return rs.next() ? rs.getString(1) : null;
        }
      }
    }
  }

  /**
   * Whether a stored source is compressed: its content may equal a file of another size (a log
   * and the same log compressed by rotation), so hashing before parsing is worth it.
   */
  public boolean anyCompressedSource() throws SQLException {
    synchronized (lock) {
      try (PreparedStatement ps = db.connection().prepareStatement(
          "SELECT count(*) FROM sources WHERE compression IS DISTINCT FROM 'none'");
          ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1) > 0;
      }
    }
  }

  /**
   * Why --level cannot set this run's level (a file already stated another), or null. Nothing is
   * changed: the level is set when the file's first record of the run arrives.
   */
  public String levelConflict(String run, String kind, Double level) {
    return runs.levelConflict(run, kind, level);
  }

  /** Whether a stored source has this many bytes (only then is hashing before parsing worth it). */
  public boolean anySourceOfSize(long bytes) throws SQLException {
    synchronized (lock) {
      return anySourceOfSizeLocked(bytes);
    }
  }

  private boolean anySourceOfSizeLocked(long bytes) throws SQLException {
    try (PreparedStatement ps = db.connection().prepareStatement(
        "SELECT count(*) FROM sources WHERE bytes = ?")) {
      ps.setLong(1, bytes);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1) > 0;
      }
    }
  }

  /** Runs that received rows in this ingest. */
  public Set<String> touchedRuns() {
    synchronized (lock) {
      return new LinkedHashSet<>(touchedRuns);
    }
  }

  Database db() {
    return db;
  }

  BufferAllocator allocator() {
    return allocator;
  }

  ClockRegistry clocks() {
    return clocks;
  }

  RunRegistry runs() {
    return runs;
  }

  KeyRegistry keys() {
    return keys;
  }

  /** "line 7" within the current file, "path:7" for another one. */
  String describeLine(int sourceId, Long lineNo, int currentSourceId) {
    String line = lineNo == null ? "?" : Long.toString(lineNo);
    if (sourceId == currentSourceId) {
      return "line " + line;
    }
    synchronized (lock) {
      return describeLocked(sourceId, line);
    }
  }

  private String describeLocked(int sourceId, String line) {
    String path = sourcePaths.computeIfAbsent(sourceId, id -> {
      try (PreparedStatement ps = db.connection().prepareStatement(
          "SELECT path FROM sources WHERE source_id = ?")) {
        ps.setInt(1, id);
        try (ResultSet rs = ps.executeQuery()) {
          return rs.next() ? rs.getString(1) : "source " + id;
        }
      } catch (SQLException e) {
        return "source " + id;
      }
    });
    return path + ":" + line;
  }

  /** A file committed (its runs with it, in _pending_runs): its per-file id scope is dropped. */
  void sourceCommitted(SourceWriter w) {
    synchronized (lock) {
      touchedRuns.addAll(w.runs());
      keys.forgetFileScopes(w.sourceId());
    }
  }

  /**
   * A file rolled back: its request ids are forgotten. The run registry is left as it is: it
   * holds the state of runs other files still being written have touched and will commit
   * (reloading it from the database here lost those, and their commit then failed with a
   * NullPointerException); a level only the rolled-back file gave stays known for this ingest.
   */
  void sourceRolledBack(SourceWriter w, Collection<String> scopes) {
    synchronized (lock) {
      keys.forget(scopes);
      keys.forgetFileScopes(w.sourceId());
    }
  }

  @Override
  public void close() {
    try {
      allocator.close();
    } catch (IllegalStateException e) {
      // DuckDB releases the last exported batch from a worker thread when it chooses; a buffer
      // still held then is freed with the process. Not worth failing an ingest that committed.
    }
  }
}
