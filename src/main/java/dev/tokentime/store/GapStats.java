package dev.tokentime.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Keeps {@code _gap_stats}: each run's chunk-gap statistics over the default scope, as
 * {@code _gap_quantiles_live('chunk_gap')} computes them from every gap (here in two statements:
 * the buckets of {@code _gap_buckets}, then {@code _gap_quantiles_from_buckets} over a copy of
 * them). Every reader of the default ITL figures (summary, report, {@code metric_stats},
 * {@code itl_distribution}, the stall threshold) would otherwise read all of a run's gaps twice;
 * the derive step pays that once per ingest, for the runs the ingest touched only (a run's
 * figures depend on its own rows alone).
 */
public final class GapStats {
  private GapStats() {}

  /**
   * Recomputes the rows of the given runs inside the caller's transaction. The scope variables
   * the figures must not depend on are cleared while it runs and put back after, so a caller that
   * set an analysis window on this connection keeps it.
   */
  /** Recomputes the figures of every run that has requests (a database built over a lake). */
  public static void refreshEveryRun(Database db) throws SQLException {
    java.util.List<String> runs = new java.util.ArrayList<>();
    try (java.sql.Statement st = db.connection().createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT DISTINCT run FROM requests WHERE run IS NOT NULL")) {
      while (rs.next()) {
        runs.add(rs.getString(1));
      }
    }
    refresh(db, runs);
  }

  public static void refresh(Database db, Collection<String> runs) throws SQLException {
    if (runs.isEmpty()) {
      return;
    }
    String in = runs.stream().map(r -> "'" + r.replace("'", "''") + "'")
        .collect(Collectors.joining(", ", "(", ")"));
    List<String> restore = clearVariables(db);
    try (Statement st = db.connection().createStatement()) {
      // the first pass copied out first: inside the one percentile query DuckDB ran its join of
      // every gap with its request several times slower at a day's scale (_gap_buckets)
      st.execute("CREATE OR REPLACE TEMP TABLE _tt_gap_buckets AS "
          + "SELECT * FROM _gap_buckets WHERE variant = 'chunk_gap' AND run IN " + in);
      st.execute("DELETE FROM _gap_stats WHERE run IN " + in);
      st.execute("INSERT INTO _gap_stats BY NAME "
          + "SELECT run, variant, n, mean_ms, std_ms, min_ms, max_ms, q || q_tails AS q "
          + "FROM _gap_quantiles_from_buckets('chunk_gap', '_tt_gap_buckets')");
      st.execute("DROP TABLE _tt_gap_buckets");
    } finally {
      try (Statement st = db.connection().createStatement()) {
        for (String sql : restore) {
          st.execute(sql);
        }
      }
    }
  }

  /** Resets every tt_ session variable; returns the statements that set them again. */
  private static List<String> clearVariables(Database db) throws SQLException {
    List<String> restore = new ArrayList<>();
    List<String> names = new ArrayList<>();
    try (Statement st = db.connection().createStatement();
        ResultSet rs = st.executeQuery("SELECT name, value::VARCHAR, type FROM duckdb_variables() "
            + "WHERE name LIKE 'tt\\_%' ESCAPE '\\' AND value IS NOT NULL")) {
      while (rs.next()) {
        names.add(rs.getString(1));
        restore.add("SET VARIABLE " + rs.getString(1) + " = '" + rs.getString(2).replace("'", "''")
            + "'::" + rs.getString(3));
      }
    }
    try (Statement st = db.connection().createStatement()) {
      for (String name : names) {
        st.execute("RESET VARIABLE " + name);
      }
    }
    return restore;
  }
}
