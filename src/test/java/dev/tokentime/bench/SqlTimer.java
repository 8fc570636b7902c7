package dev.tokentime.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;

/**
 * Runs SQL statements against a DuckDB database (":memory:" or a file) and prints how long each
 * took and the first rows of its result: for timing the queries the benchmark compares.
 *
 * <p>Usage: {@code SqlTimer DB STATEMENT...}.
 */
public final class SqlTimer {
  private SqlTimer() {}

  public static void main(String[] args) throws Exception {
    String url = args[0].equals(":memory:") ? "jdbc:duckdb:" : "jdbc:duckdb:" + args[0];
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      for (int i = 1; i < args.length; i++) {
        long t0 = System.nanoTime();
        boolean rows = s.execute(args[i]);
        StringBuilder out = new StringBuilder();
        if (rows) {
          try (ResultSet rs = s.getResultSet()) {
            ResultSetMetaData md = rs.getMetaData();
            int n = 0;
            while (rs.next()) {
              if (n++ < 5) {
                for (int k = 1; k <= md.getColumnCount(); k++) {
                  out.append(k > 1 ? " | " : "  ").append(rs.getString(k));
                }
                out.append('\n');
              }
            }
          }
        }
        System.out.printf("%.3f s  %s%n%s", (System.nanoTime() - t0) / 1e9,
            args[i].length() > 100 ? args[i].substring(0, 100) + "..." : args[i], out);
      }
    }
  }
}
