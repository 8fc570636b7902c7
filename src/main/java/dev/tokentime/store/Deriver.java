package dev.tokentime.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collection;

/**
 * The derive step: after an ingest, rebuilds the derived tables of each touched run from the
 * canonical tables, in SQL. Token order is by seq, so lines that arrived out of order, or a
 * request whose tokens span rotated files, derive the same as an orderly file.
 */
public final class Deriver {
  private Deriver() {}

  /** Chunks that carry output tokens: the ones ITL and TTFT are measured on. */
  static final String CONTENT = "chunk_kind IN ('content', 'reasoning')";

  private static final String RUN_KEYS = "(SELECT request_key FROM requests WHERE run = ?)";

  private static final String[] STEPS = {
    "DELETE FROM _token_gaps WHERE request_key IN " + RUN_KEYS,
    "DELETE FROM _request_tokens WHERE request_key IN " + RUN_KEYS,
    // gaps between consecutive content chunks of a request, in seq order
    "INSERT INTO _token_gaps "
        + "SELECT request_key, seq, idx, ts_ns, ts_ns - prev_ts_ns, n_tokens FROM ("
        + "  SELECT request_key, seq, ts_ns, n_tokens,"
        + "    (row_number() OVER w - 1)::INTEGER AS idx,"
        + "    lag(ts_ns) OVER w AS prev_ts_ns"
        + "  FROM tokens WHERE " + CONTENT + " AND request_key IN " + RUN_KEYS
        + "  WINDOW w AS (PARTITION BY request_key ORDER BY seq)"
        + ") WHERE prev_ts_ns IS NOT NULL",
    // per-request aggregates of the stream
    "INSERT INTO _request_tokens "
        + "SELECT t.request_key, count(*)::INTEGER, "
        + "  (count(*) FILTER (WHERE " + CONTENT + "))::INTEGER, "
        + "  CASE WHEN count(*) FILTER (WHERE " + CONTENT + " AND n_tokens IS NULL) = 0 "
        + "    THEN (sum(n_tokens) FILTER (WHERE " + CONTENT + "))::INTEGER END, "
        + "  arg_min(ts_ns, seq) FILTER (WHERE " + CONTENT + "), "
        + "  arg_max(ts_ns, seq) FILTER (WHERE " + CONTENT + "), "
        + "  arg_min(ts_ns, seq), arg_max(ts_ns, seq), "
        + "  any_value(g.max_gap_ns), coalesce(bool_or(decreases), false), "
        + "  (count(*) - count(DISTINCT seq))::INTEGER "
        + "FROM (SELECT *, ts_ns < lag(ts_ns) OVER (PARTITION BY request_key ORDER BY seq) AS decreases "
        + "      FROM tokens WHERE request_key IN " + RUN_KEYS + ") t "
        + "LEFT JOIN (SELECT request_key, max(gap_ns) AS max_gap_ns FROM _token_gaps "
        + "           WHERE request_key IN " + RUN_KEYS + " GROUP BY request_key) g USING (request_key) "
        + "GROUP BY t.request_key",
  };

  /** Rebuilds the derived tables of the runs, in one transaction. */
  public static void derive(Database db, Collection<String> runs) throws SQLException {
    if (runs.isEmpty()) {
      return;
    }
    var conn = db.connection();
    boolean auto = conn.getAutoCommit();
    conn.setAutoCommit(false);
    try {
      for (String run : runs) {
        for (String sql : STEPS) {
          try (PreparedStatement ps = conn.prepareStatement(sql)) {
            int n = (int) sql.chars().filter(c -> c == '?').count();
            for (int i = 1; i <= n; i++) {
              ps.setString(i, run);
            }
            ps.execute();
          }
        }
      }
      conn.commit();
    } catch (SQLException e) {
      conn.rollback();
      throw e;
    } finally {
      conn.setAutoCommit(auto);
    }
  }
}
