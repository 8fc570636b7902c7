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

  /**
   * One id's entry in its scope's table, as handed to a writer. A scope dropped meanwhile (a
   * rolled-back file) keeps the table this points into, so it stays a consistent answer.
   */
  static final class Entry {
    final long key;
    private final IdTable table;
    private final int index;
    /** Where the id was first seen, as the table had it when the entry was made (under the lock). */
    private final int sourceId;
    private final Long lineNo;

    /** Made under the registry's lock: the writers read it outside. */
    Entry(IdTable table, int index) {
      this.table = table;
      this.index = index;
      this.key = table.key(index);
      this.sourceId = table.source(index);
      this.lineNo = table.line(index);
    }

    int sourceId() {
      return sourceId;
    }

    Long lineNo() {
      return lineNo;
    }
  }

  /** What happened to a claimed id. */
  enum Claim { NEW, ADOPTED_STUB, DUPLICATE }

  record ClaimResult(Claim claim, Entry entry) {}

  private final Database db;
  private final Map<String, List<String>> namespaceFormats;
  private final Map<String, IdTable> byScope = new HashMap<>();
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
      IdTable ids = scope(namespace, run);
      int e = ids.find(id);
      if (e < 0) {
        return new ClaimResult(Claim.NEW, new Entry(ids, ids.add(id, nextKey++, false, sourceId, lineNo)));
      }
      if (ids.stub(e)) {
        ids.adopt(e, sourceId, lineNo);
        return new ClaimResult(Claim.ADOPTED_STUB, new Entry(ids, e));
      }
      return new ClaimResult(Claim.DUPLICATE, new Entry(ids, e));
    }
  }

  /** The key token rows of (namespace, run, id) refer to; a new stub entry when unknown. */
  Entry keyForTokens(String namespace, String run, String id, int sourceId, long lineNo,
      boolean[] createdStub) throws SQLException {
    synchronized (lock) {
      IdTable ids = scope(namespace, run);
      int e = ids.find(id);
      if (e < 0) {
        e = ids.add(id, nextKey++, true, sourceId, lineNo);
        createdStub[0] = true;
      }
      return new Entry(ids, e);
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
      boolean before = e.table.hasTokens(e.index);
      e.table.setHasTokens(e.index);
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

  private IdTable scope(String namespace, String run) throws SQLException {
    String k = scopeKey(namespace, run);
    IdTable ids = byScope.get(k);
    if (ids == null) {
      ids = load(namespace, run);
      byScope.put(k, ids);
    }
    return ids;
  }

  private IdTable load(String namespace, String run) throws SQLException {
    IdTable ids = new IdTable();
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
          String id = rs.getString(1);
          boolean stub = rs.getBoolean(5);
          int e = ids.find(id);
          if (e < 0) {
            e = ids.add(id, rs.getLong(2), stub, rs.getInt(3), lineNo);
          } else if (ids.stub(e) && !stub) {
            // a stub a file adopted keeps its row (same key) until the derive step merges them:
            // the request row is the id's entry, or a later copy would pass for the adoption
            ids.adopt(e, rs.getInt(3), lineNo);
          }
          if (rs.getBoolean(6)) {
            ids.setHasTokens(e);
          }
        }
      }
    }
    return ids;
  }
}
