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

  /** Marker key in requests.extras of a row created only because token rows named the id. */
  static final String STUB_MARKER = "origin";
  static final String STUB_VALUE = "token rows only";

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

  record ClaimResult(Claim claim, Entry entry, int stubSourceId, Long stubLineNo) {}

  private final Database db;
  private final Map<String, List<String>> namespaceFormats;
  private final Map<String, Map<String, Entry>> byScope = new HashMap<>();
  private long nextKey;

  KeyRegistry(Database db, Map<String, List<String>> namespaceFormats) throws SQLException {
    this.db = db;
    this.namespaceFormats = namespaceFormats;
    this.nextKey = db.queryLong("SELECT coalesce(max(request_key), 0) FROM requests") + 1;
  }

  /** A request row for (namespace, run, id): a new key, the key of a stub, or a duplicate. */
  synchronized ClaimResult claim(String namespace, String run, String id, int sourceId, long lineNo)
      throws SQLException {
    Map<String, Entry> ids = scope(namespace, run);
    Entry e = ids.get(id);
    if (e == null) {
      e = new Entry(nextKey++, false, sourceId, lineNo);
      ids.put(id, e);
      return new ClaimResult(Claim.NEW, e, 0, null);
    }
    if (e.stub) {
      int stubSource = e.sourceId;
      Long stubLine = e.lineNo;
      e.stub = false;
      e.sourceId = sourceId;
      e.lineNo = lineNo;
      return new ClaimResult(Claim.ADOPTED_STUB, e, stubSource, stubLine);
    }
    return new ClaimResult(Claim.DUPLICATE, e, 0, null);
  }

  /** The key token rows of (namespace, run, id) refer to; a new stub entry when unknown. */
  synchronized Entry keyForTokens(String namespace, String run, String id, int sourceId, long lineNo,
      boolean[] createdStub) throws SQLException {
    Map<String, Entry> ids = scope(namespace, run);
    Entry e = ids.get(id);
    if (e == null) {
      e = new Entry(nextKey++, true, sourceId, lineNo);
      ids.put(id, e);
      createdStub[0] = true;
    }
    return e;
  }

  /** Drops cached scopes touched by a rolled-back file; they reload from the database. */
  synchronized void forget(Collection<String> scopes) {
    scopes.forEach(byScope::remove);
  }

  /** Records that chunks of the request have been written. */
  synchronized void markHasTokens(Entry e) {
    e.hasTokens = true;
  }

  /** Drops everything cached (after sources were deleted). */
  synchronized void forgetAll() {
    byScope.clear();
  }

  /** Drops the scopes of per-file namespaces; a finished file's ids are never looked up again. */
  synchronized void forgetFileScopes() {
    byScope.keySet().removeIf(k -> k.startsWith("file:"));
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
            + "coalesce(list_contains(map_keys(r.extras), '" + STUB_MARKER + "'), false), "
            + "r.request_key IN (SELECT request_key FROM _request_tokens "
            + "                  UNION ALL SELECT request_key FROM _dirty_requests) "
            + "FROM requests r JOIN sources s USING (source_id) "
            + "WHERE r.run = ? AND s.format IN (" + in + ")")) {
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
