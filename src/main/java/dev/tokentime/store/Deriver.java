package dev.tokentime.store;

import java.sql.SQLException;
import java.sql.Statement;

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
        + "  (count(*) - count(DISTINCT seq))::INTEGER "
        + "FROM (SELECT *, ts_ns < lag(ts_ns) OVER (PARTITION BY request_key ORDER BY seq, ts_ns DESC) AS decreases "
        + "      FROM tokens WHERE request_key IN " + DIRTY + ") t "
        + "GROUP BY t.request_key",
    "DELETE FROM _dirty_requests",
  };

  /** Rebuilds the derived data of the dirty requests, in one transaction; returns how many. */
  public static long derive(Database db) throws SQLException {
    long dirty = db.queryLong("SELECT count(DISTINCT request_key) FROM _dirty_requests");
    if (dirty == 0) {
      return 0;
    }
    var conn = db.connection();
    boolean auto = conn.getAutoCommit();
    conn.setAutoCommit(false);
    try (Statement st = conn.createStatement()) {
      for (String sql : STEPS) {
        st.execute(sql);
      }
      conn.commit();
    } catch (SQLException e) {
      conn.rollback();
      throw e;
    } finally {
      conn.setAutoCommit(auto);
    }
    return dirty;
  }
}
