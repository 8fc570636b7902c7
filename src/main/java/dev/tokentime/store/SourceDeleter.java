package dev.tokentime.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Removes everything that came from some sources (for --replace). A request row of a removed
 * source whose tokens came from another file becomes a stub of that file again, so the other
 * file's tokens keep their request.
 */
final class SourceDeleter {
  private SourceDeleter() {}

  /** Tables whose rows carry the source they came from. */
  private static final String[] BY_SOURCE = {"tokens", "steps", "engine_stats", "engine_events",
      "metric_histograms", "reported_metrics", "rejects", "_source_heads"};

  /** Deletes the sources' rows (inside the caller's transaction); returns the runs they touched. */
  static Set<String> delete(java.sql.Connection conn, Collection<Integer> sourceIds) throws SQLException {
    String in = sourceIds.stream().map(String::valueOf).collect(Collectors.joining(", ", "(", ")"));
    Set<String> runs = new LinkedHashSet<>();
    try (Statement st = conn.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT DISTINCT run FROM requests WHERE source_id IN " + in
          // a source's own run (its folder or file name) is a run only where it was registered
          // as one (engine data, records without a run); else --replace made a run of every
          // folder name ("gen" beside the records' c16)
          + " UNION SELECT run FROM sources WHERE source_id IN " + in + " AND run IN (SELECT run FROM runs)")) {
        while (rs.next()) {
          if (rs.getString(1) != null) {
            runs.add(rs.getString(1));
          }
        }
      }
      String keys = "(SELECT request_key FROM requests WHERE source_id IN " + in + ")";
      st.execute("INSERT INTO requests (request_key, run, request_id, source_id, clock_id, extras) "
          + "SELECT r.request_key, any_value(r.run), any_value(r.request_id), min(t.source_id), "
          + "any_value(r.clock_id), map(['" + KeyRegistry.STUB_MARKER + "'], ['" + KeyRegistry.STUB_VALUE + "']) "
          + "FROM requests r JOIN tokens t USING (request_key) "
          + "WHERE r.source_id IN " + in + " AND t.source_id NOT IN " + in + " GROUP BY r.request_key");
      st.execute("DELETE FROM request_links WHERE key_a IN " + keys + " OR key_b IN " + keys);
      // requests that keep chunks of other files but lose their row or some chunks: rebuild
      st.execute("INSERT INTO _dirty_requests SELECT DISTINCT request_key FROM tokens "
          + "WHERE source_id NOT IN " + in + " AND (request_key IN " + keys
          + " OR request_key IN (SELECT request_key FROM tokens WHERE source_id IN " + in + "))");
      st.execute("DELETE FROM _request_tokens WHERE request_key IN " + keys
          + " OR request_key IN (SELECT request_key FROM tokens WHERE source_id IN " + in + ")");
      st.execute("DELETE FROM requests WHERE source_id IN " + in);
      for (String t : BY_SOURCE) {
        st.execute("DELETE FROM " + t + " WHERE source_id IN " + in);
      }
      st.execute("DELETE FROM sources WHERE source_id IN " + in);
    }
    return runs;
  }
}
