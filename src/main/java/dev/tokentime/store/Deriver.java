package dev.tokentime.store;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The SQL half of the derive step. Streams that arrive in order are derived while they are read
 * (TokenStreams); the requests listed in _dirty_requests — chunks out of order, from several
 * files, or partly replaced — are rebuilt here from the tokens table, ordered by seq, so the
 * result is the same whatever order lines arrived in.
 */
public final class Deriver {
  private Deriver() {}

  /** Chunks that carry output tokens: the ones ITL and TTFT are measured on. */
  static final String CONTENT = "chunk_kind IN ('content', 'reasoning')";

  /** Chunks that carry choices (vLLM's TTFT and ITL count a role-only or empty delta). */
  static final String CHOICE = "chunk_kind IN ('content', 'reasoning', 'role', 'empty')";

  private static final String DIRTY = "(SELECT DISTINCT request_key FROM _dirty_requests)";

  private static final String[] STEPS = {
    // gaps between consecutive content chunks, in seq order (one gap per position even when a
    // position is repeated: check_token_seq_unique reports those)
    "UPDATE tokens SET gap_ns = NULL WHERE request_key IN " + DIRTY,
    "UPDATE tokens SET gap_ns = d.gap_ns FROM ("
        + "  SELECT request_key, seq, ts_ns - lag(ts_ns) OVER (PARTITION BY request_key ORDER BY seq, ts_ns) AS gap_ns"
        + "  FROM tokens WHERE " + CONTENT + " AND request_key IN " + DIRTY
        + "  QUALIFY row_number() OVER (PARTITION BY request_key, seq ORDER BY ts_ns) = 1"
        + ") AS d "
        + "WHERE tokens.request_key = d.request_key AND tokens.seq = d.seq AND d.gap_ns IS NOT NULL"
        + "  AND tokens." + CONTENT,
    "DELETE FROM _request_tokens WHERE request_key IN " + DIRTY,
    "INSERT INTO _request_tokens "
        + "SELECT t.request_key, count(*)::INTEGER, "
        + "  (count(*) FILTER (WHERE " + CONTENT + "))::INTEGER, "
        + "  CASE WHEN count(*) FILTER (WHERE " + CONTENT + " AND n_tokens IS NULL) = 0 "
        + "    AND count(*) FILTER (WHERE " + CONTENT + ") > 0 "
        + "    THEN (sum(n_tokens) FILTER (WHERE " + CONTENT + "))::INTEGER END, "
        + "  arg_min(ts_ns, seq) FILTER (WHERE " + CONTENT + "), "
        + "  arg_max(ts_ns, seq) FILTER (WHERE " + CONTENT + "), "
        + "  arg_min(ts_ns, seq), arg_max(ts_ns, seq), "
        + "  max(gap_ns), coalesce(bool_or(decreases), false), "
        + "  (count(*) - count(DISTINCT seq))::INTEGER, "
        + "  (count(*) FILTER (WHERE " + CHOICE + "))::INTEGER, "
        + "  arg_min(ts_ns, seq) FILTER (WHERE " + CHOICE + "), "
        + "  arg_max(ts_ns, seq) FILTER (WHERE " + CHOICE + "), "
        + "  min(ts_ns) FILTER (WHERE seq = 1), "
        + "  arg_min(ts_ns, seq) FILTER (WHERE gap_ns IS NOT NULL), "
        + "  min(gap_ns), "
        + "  (count(*) FILTER (WHERE chunk_kind = 'reasoning'))::INTEGER, "
        + "  min(ts_ns) FILTER (WHERE chunk_kind = 'content') "
        + "FROM (SELECT *, ts_ns < lag(ts_ns) OVER (PARTITION BY request_key ORDER BY seq, ts_ns DESC) AS decreases "
        + "      FROM tokens WHERE request_key IN " + DIRTY + ") t "
        + "GROUP BY t.request_key",
    "DELETE FROM _dirty_requests",
  };

  /**
   * Merges each stub (a request known from token rows only) into the request row that arrived for
   * it in another transaction: with the same key, the stub row goes; with another key (files
   * ingested in parallel, a replaced file), its chunks move to the request row, which is then
   * rebuilt. Only ids of one namespace (formats sharing request identity) are merged.
   */
  static void mergeStubs(Database db, Map<String, List<String>> namespaceFormats) throws SQLException {
    String stub = KeyRegistry.isStub("s");
    if (db.queryLong("SELECT count(*) FROM requests s WHERE " + stub) == 0) {
      return;
    }
    try (Statement st = db.connection().createStatement()) {
      st.execute("DELETE FROM requests s WHERE " + stub + " AND request_key IN "
          + "(SELECT f.request_key FROM requests f WHERE NOT " + KeyRegistry.isStub("f") + ")");
      for (List<String> formats : namespaceFormats.values()) {
        String in = formats.stream().map(f -> "'" + f.replace("'", "''") + "'")
            .collect(Collectors.joining(", ", "(", ")"));
        st.execute("CREATE OR REPLACE TEMP TABLE _tt_merge AS "
            + "SELECT s.request_key AS stub_key, min(f.request_key) AS full_key "
            + "FROM requests s JOIN sources ss ON ss.source_id = s.source_id "
            + "JOIN requests f ON f.run = s.run AND f.request_id = s.request_id AND NOT "
            + KeyRegistry.isStub("f") + " "
            + "JOIN sources fs ON fs.source_id = f.source_id "
            + "WHERE " + stub + " AND ss.format IN " + in + " AND fs.format IN " + in + " "
            + "GROUP BY s.request_key");
        st.execute("UPDATE tokens SET request_key = m.full_key FROM _tt_merge m "
            + "WHERE tokens.request_key = m.stub_key");
        st.execute("INSERT INTO _dirty_requests SELECT full_key FROM _tt_merge");
        st.execute("DELETE FROM _request_tokens WHERE request_key IN (SELECT stub_key FROM _tt_merge)");
        st.execute("DELETE FROM requests s WHERE " + stub
            + " AND request_key IN (SELECT stub_key FROM _tt_merge)");
        st.execute("DROP TABLE _tt_merge");
      }
    }
  }

  /**
   * The derive step after an ingest: merges stubs into their request rows, rebuilds the derived
   * data of the dirty requests, then the chunk-gap statistics of the runs the ingest touched
   * (GapStats), in one transaction, so no reader sees one without the other; returns the chunks
   * it dropped as repeats of another file's ({@link #rebuildDirty}).
   */
  public static long derive(Database db, Map<String, List<String>> namespaceFormats,
      Collection<String> touchedRuns) throws SQLException {
    ensurePendingTable(db);
    var c = db.connection();
    boolean wasAuto = c.getAutoCommit();
    c.setAutoCommit(false);
    try {
      java.util.Set<String> runs = new java.util.LinkedHashSet<>(touchedRuns);
      runs.addAll(applyPendingRuns(db));
      mergeStubs(db, namespaceFormats);
      long n = rebuildDirty(db);
      GapStats.refresh(db, runs);
      db.execute("DELETE FROM _pending_runs");
      c.commit();
      return n;
    } catch (SQLException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(wasAuto);
    }
  }

  /** Runs committed but not derived, read-only (0 in a database made before _pending_runs existed). */
  public static long pendingRunCount(Database db) {
    try {
      return db.queryLong("SELECT count(DISTINCT run) FROM _pending_runs");
    } catch (SQLException e) {
      return 0;
    }
  }

  /** Creates _pending_runs in a database made before it existed (same schema otherwise). */
  public static void ensurePendingTable(Database db) throws SQLException {
    db.execute(dev.tokentime.schema.CanonicalSchema.DERIVED_PENDING_RUNS.createSql());
  }

  /**
   * Whether files were committed whose derive step has not run (an ingest killed between its
   * commits and its derive step): the next ingest derives them before anything else.
   */
  public static boolean hasPending(Database db) throws SQLException {
    ensurePendingTable(db);
    return db.queryLong("SELECT count(*) FROM _pending_runs") > 0
        || db.queryLong("SELECT count(*) FROM _dirty_requests") > 0;
  }

  /** Writes the latest pending state of each run into runs; returns the runs (caller's transaction). */
  private static List<String> applyPendingRuns(Database db) throws SQLException {
    List<String> runs = new java.util.ArrayList<>();
    try (Statement st = db.connection().createStatement();
        var rs = st.executeQuery("SELECT DISTINCT run FROM _pending_runs ORDER BY run")) {
      while (rs.next()) {
        runs.add(rs.getString(1));
      }
    }
    if (runs.isEmpty()) {
      return runs;
    }
    db.execute("DELETE FROM runs WHERE run IN (SELECT run FROM _pending_runs)");
    db.execute("INSERT INTO runs BY NAME SELECT run, level_kind, level, repeat, notes "
        + "FROM _pending_runs QUALIFY row_number() OVER (PARTITION BY run ORDER BY seq DESC) = 1");
    return runs;
  }

  /** Rebuilds the derived data of the dirty requests (inside the caller's transaction). */
  /**
   * Rebuilds the derived data of the dirty requests; returns the chunks dropped first because
   * another file had stored their position (request, seq): two files holding the same tokens
   * read at once (each file's own check, SourceWriter.dropRepeatedChunks, sees only what was
   * committed before it began), or a tokens file's stubs merged into their request here. The
   * first file's chunk stays, as when the files are read one after the other.
   */
  static long rebuildDirty(Database db) throws SQLException {
    long dirty = db.queryLong("SELECT count(DISTINCT request_key) FROM _dirty_requests");
    if (dirty == 0) {
      return 0;
    }
    long dropped;
    try (Statement st = db.connection().createStatement()) {
      dropped = st.executeUpdate("DELETE FROM tokens t WHERE t.request_key IN " + DIRTY
          + " AND EXISTS (SELECT 1 FROM tokens u WHERE u.request_key = t.request_key AND u.seq = t.seq"
          + " AND u.source_id < t.source_id)");
      for (String sql : STEPS) {
        st.execute(sql);
      }
    }
    return dropped;
  }
}
