package dev.tokentime.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Issue 10, target 2: answer times on one connection, tokentime's views against the naive query
 * over the bare {@code tokens(request_id, seq, ts_ns)} table that {@link DuckDbReadJson} made
 * from the same file, interleaved, several repetitions. Every query's result is read to the end.
 *
 * <p>Usage: {@code QueryBench TOKENTIME_DB BASELINE_DB REPS}. Prints one line per query:
 * {@code query NAME seconds S1 S2 ... rows N}.
 */
public final class QueryBench {
  private QueryBench() {}

  /** The pairs compared: baseline first, then tokentime's answer to the same question. */
  static Map<String, String> queries() {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("itl_lag_baseline", "SELECT quantile_cont(itl, [0.5, 0.9, 0.99]) FROM ("
        + "SELECT ts_ns - lag(ts_ns) OVER (PARTITION BY request_id ORDER BY seq) AS itl FROM base.tokens)"
        + " WHERE itl IS NOT NULL");
    q.put("itl_tokentime", "SELECT run, count, p50_ms, p90_ms, p99_ms FROM itl_distribution"
        + " WHERE variant = 'chunk_gap'");
    q.put("batch_bucket_baseline", "SELECT ts_ns // 10000000 AS bucket, count(DISTINCT request_id) AS batch"
        + " FROM base.tokens GROUP BY 1");
    // the same question and shape as the baseline: one method (from token timestamps), bucket and
    // batch; then the whole view (three methods, every column) for what a user reading it pays
    q.put("batch_tokens_tokentime", "SELECT bucket_start_ns, batch_mean FROM batch_size_timeline_at(0.01)"
        + " WHERE method = 'tokens'");
    q.put("batch_timeline_tokentime", "SELECT * FROM batch_size_timeline_at(0.01)");
    return q;
  }

  public static void main(String[] args) throws Exception {
    int reps = Integer.parseInt(args[2]);
    Properties ro = new Properties();
    ro.setProperty("duckdb.read_only", "true");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + args[0], ro);
        Statement s = c.createStatement()) {
      s.execute("ATTACH '" + args[1].replace("'", "''") + "' AS base (READ_ONLY)");
      // as tokentime's own connections run (Database.configure), for both sides
      s.execute("SET preserve_insertion_order = false");
      Map<String, List<Double>> times = new LinkedHashMap<>();
      Map<String, Long> rows = new LinkedHashMap<>();
      for (int rep = 0; rep < reps; rep++) {
        for (Map.Entry<String, String> e : queries().entrySet()) {
          long t0 = System.nanoTime();
          long n = 0;
          try (ResultSet rs = s.executeQuery(e.getValue())) {
            int cols = rs.getMetaData().getColumnCount();
            while (rs.next()) {
              for (int k = 1; k <= cols; k++) {
                rs.getObject(k);
              }
              n++;
            }
          }
          times.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add((System.nanoTime() - t0) / 1e9);
          rows.put(e.getKey(), n);
        }
      }
      for (String k : times.keySet()) {
        StringBuilder line = new StringBuilder("query " + k + " seconds");
        for (double t : times.get(k)) {
          line.append(String.format(" %.3f", t));
        }
        System.out.println(line.append(" rows ").append(rows.get(k)));
      }
    }
  }
}
