package dev.tokentime.store;

import dev.tokentime.ingest.ClockSpec;
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
  private int nextSourceId;

  /**
   * @param namespaceFormats for each run-wide id namespace, the formats whose rows share it
   */
  public IngestStore(Database db, Map<String, List<String>> namespaceFormats) throws SQLException {
    this.db = db;
    this.clocks = new ClockRegistry(db);
    this.runs = new RunRegistry(db);
    this.keys = new KeyRegistry(db, namespaceFormats);
    this.nextSourceId = (int) db.queryLong("SELECT coalesce(max(source_id), 0) FROM sources") + 1;
    db.connection().setAutoCommit(false);
  }

  /** Starts a file's transaction; {@code replace} lists sources it replaces (deleted first). */
  public SourceWriter begin(SourceInfo info, Collection<Integer> replace) throws SQLException {
    if (!replace.isEmpty()) {
      touchedRuns.addAll(SourceDeleter.delete(db, replace));
      keys.forgetAll();
      runs.reload(db);
    }
    int id = nextSourceId++;
    sourcePaths.put(id, info.path());
    return new SourceWriter(this, id, info);
  }

  /** Sources already in the database with this content or path, for --replace and duplicates. */
  public List<Integer> sourcesMatching(String sha256, String path) throws SQLException {
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

  /** The source with exactly this content, or null. */
  public Integer sourceWithSha(String sha256) throws SQLException {
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

  /** Whether a stored source has this many bytes (only then is hashing before parsing worth it). */
  public boolean anySourceOfSize(long bytes) throws SQLException {
    try (PreparedStatement ps = db.connection().prepareStatement(
        "SELECT count(*) FROM sources WHERE bytes = ?")) {
      ps.setLong(1, bytes);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1) > 0;
      }
    }
  }

  /** Runs that received rows in this ingest (to derive). */
  public Set<String> touchedRuns() {
    return touchedRuns;
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

  void sourceCommitted(SourceWriter w) {
    touchedRuns.addAll(w.runs());
    keys.forgetFileScopes();
  }

  void sourceRolledBack(Map<Integer, ClockSpec> createdClocks, Collection<String> scopes) {
    clocks.forget(createdClocks);
    keys.forget(scopes);
    keys.forgetFileScopes();
    try {
      runs.reload(db);
    } catch (SQLException e) {
      throw new StoreException(e);
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
    try {
      if (!db.connection().getAutoCommit()) {
        db.connection().setAutoCommit(true);
      }
    } catch (SQLException e) {
      // the connection is closed by its owner
    }
  }
}
