package dev.tokentime.store;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * Records in request_links the rows of one request seen by several sources, by the documented
 * rules of the SQL library (queries/vllm/_vllm_request_matches.sql, SGLang's router and its
 * servers: queries/sglang/_router_request_matches.sql, and a request split across a rotated log's
 * files: queries/core/_log_continuations.sql). Run after each ingest;
 * the links of a rule are recomputed whole, so a replaced or added file is always reflected.
 */
public final class RequestLinker {
  private RequestLinker() {}

  public static void link(Database db) throws SQLException {
    boolean auto = db.connection().getAutoCommit();
    db.connection().setAutoCommit(false);
    try (Statement st = db.connection().createStatement()) {
      st.execute("DELETE FROM request_links WHERE rule LIKE 'vllm-id%' OR rule LIKE 'router-id%' OR rule = 'log-rotation'");
      st.execute("INSERT INTO request_links SELECT key_a, key_b, rule FROM _vllm_request_matches");
      st.execute("INSERT INTO request_links SELECT key_a, key_b, rule FROM _router_request_matches");
      st.execute("INSERT INTO request_links SELECT key_a, key_b, rule FROM _log_continuations");
      db.connection().commit();
    } catch (SQLException e) {
      db.connection().rollback();
      throw e;
    } finally {
      db.connection().setAutoCommit(auto);
    }
  }
}
