package dev.tokentime.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * request_key assignment and request identity. Within an id namespace (all canonical files of a
 * run share one; other formats get one per file), a request id names one request: a second
 * request row with the same id is a duplicate, token rows find their request's key, and a request
 * known so far only from token rows (a stub) is adopted by its request row when that arrives.
 */
final class KeyRegistry {

  /**
   * Marker key in requests.extras of a row created only because token rows named the id (a
   * dotted name no source field uses).
   */
  static final String STUB_MARKER = "tokentime.stub";
  static final String STUB_VALUE = "token rows only";

  /** SQL: whether the requests row aliased {@code alias} is a stub. */
  static String isStub(String alias) {
    return "coalesce(list_contains(map_keys(" + alias + ".extras), '" + STUB_MARKER + "'), false)";
  }

  static final class Entry {
    final long key;
    boolean stub;
    int sourceId;
    Long lineNo;
    /** Chunks of this request are already stored (or being stored by the current file). */
    boolean hasTokens;

    Entry(long key, boolean stub, int sourceId, Long lineNo) {
      this.key = key;
      this.stub = stub;
      this.sourceId = sourceId;
      this.lineNo = lineNo;
    }
  }

  /** What happened to a claimed id. */
  enum Claim { NEW, ADOPTED_STUB, DUPLICATE }

  record ClaimResult(Claim claim, Entry entry) {}

  private final Database db;
  private final Map<String, List<String>> namespaceFormats;
  private final Map<String, Map<String, Entry>> byScope = new HashMap<>();
  private long nextKey;

  private final Object lock;
  /** Sources being replaced in this ingest: their rows are on their way out. */
  private final java.util.Set<Integer> excluded = new java.util.HashSet<>();

  KeyRegistry(Database db, Map<String, List<String>> namespaceFormats, Object lock) throws SQLException {
    this.db = db;
    this.lock = lock;
    this.namespaceFormats = namespaceFormats;
    this.nextKey = db.queryLong("SELECT coalesce(max(request_key), 0) FROM requests") + 1;
  }

  /** A request row for (namespace, run, id): a new key, the key of a stub, or a duplicate. */
  ClaimResult claim(String namespace, String run, String id, int sourceId, long lineNo)
      throws SQLException {
    synchronized (lock) {
      Map<String, Entry> ids = scope(namespace, run);
      Entry e = ids.get(id);
      if (e == null) {
        e = new Entry(nextKey++, false, sourceId, lineNo);
        ids.put(id, e);
        return new ClaimResult(Claim.NEW, e);
      }
      if (e.stub) {
        e.stub = false;
        e.sourceId = sourceId;
        e.lineNo = lineNo;
        return new ClaimResult(Claim.ADOPTED_STUB, e);
      }
      return new ClaimResult(Claim.DUPLICATE, e);
    }
  }

  /** The key token rows of (namespace, run, id) refer to; a new stub entry when unknown. */
  Entry keyForTokens(String namespace, String run, String id, int sourceId, long lineNo,
      boolean[] createdStub) throws SQLException {
    synchronized (lock) {
      Map<String, Entry> ids = scope(namespace, run);
      Entry e = ids.get(id);
      if (e == null) {
        e = new Entry(nextKey++, true, sourceId, lineNo);
        ids.put(id, e);
        createdStub[0] = true;
      }
      return e;
    }
  }

  /** Drops cached scopes touched by a rolled-back file; they reload from the database. */
  void forget(Collection<String> scopes) {
    synchronized (lock) {
      scopes.forEach(byScope::remove);
    }
  }

  /**
   * A file is about to write the first chunks of this request it has: returns whether chunks
   * were stored or claimed before (by another file, or earlier), and claims them — atomically,
   * since files are read in parallel.
   */
  boolean claimTokens(Entry e) {
    synchronized (lock) {
      boolean before = e.hasTokens;
      e.hasTokens = true;
      return before;
    }
  }

  /**
   * Forgets what it knows and will ignore the rows of these sources, which a file's transaction
   * is deleting (other connections still see them until it commits).
   */
  void exclude(java.util.Collection<Integer> sourceIds) {
    synchronized (lock) {
      excluded.addAll(sourceIds);
      byScope.clear();
    }
  }

  /** Drops the scopes of a file's own namespace; a finished file's ids are never looked up again. */
  void forgetFileScopes(int sourceId) {
    synchronized (lock) {
      String prefix = "file:" + sourceId + '\u0000';
      byScope.keySet().removeIf(k -> k.startsWith(prefix));
    }
  }

  static String scopeKey(String namespace, String run) {
    return namespace + '\u0000' + run;
  }

  private Map<String, Entry> scope(String namespace, String run) throws SQLException {
    String k = scopeKey(namespace, run);
    Map<String, Entry> ids = byScope.get(k);
    if (ids == null) {
      ids = load(namespace, run);
      byScope.put(k, ids);
    }
    return ids;
  }

  private Map<String, Entry> load(String namespace, String run) throws SQLException {
    Map<String, Entry> ids = new HashMap<>();
    List<String> formats = namespaceFormats.get(namespace);
    if (formats == null || formats.isEmpty()) {
      return ids; // a per-file namespace: nothing stored yet
    }
    String in = String.join(", ", formats.stream().map(f -> "'" + f.replace("'", "''") + "'").toList());
    try (PreparedStatement ps = db.connection().prepareStatement(
        "SELECT r.request_id, r.request_key, r.source_id, r.line_no, "
            + isStub("r") + ", "
            + "r.request_key IN (SELECT request_key FROM _request_tokens "
            + "                  UNION ALL SELECT request_key FROM _dirty_requests) "
            + "FROM requests r JOIN sources s USING (source_id) "
            + "WHERE r.run = ? AND s.format IN (" + in + ")"
            + (excluded.isEmpty() ? "" : " AND r.source_id NOT IN (" + excluded.stream()
                .map(String::valueOf).collect(java.util.stream.Collectors.joining(", ")) + ")"))) {
      ps.setString(1, run);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          long line = rs.getLong(4);
          Long lineNo = rs.wasNull() ? null : line;
          Entry e = new Entry(rs.getLong(2), rs.getBoolean(5), rs.getInt(3), lineNo);
          e.hasTokens = rs.getBoolean(6);
          ids.put(rs.getString(1), e);
        }
      }
    }
    return ids;
  }
}
