package dev.tokentime.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Baseline for target 1a (issue 22), the first answer done by hand in DuckDB: the file read with
 * DuckDB's own {@code read_json} into a flat {@code tokens(request_id, seq, ts_ns)} table and a
 * {@code requests(request_id, arrival_ns, first_token_ns, finished_ns)} table of a persistent
 * database, then the ITL percentiles with {@code lag()} and the TTFT and E2E percentiles, in one
 * process (one DuckDB session, as a user at DuckDB's prompt would do it).
 *
 * <p>Usage: {@code DiyDuckDb FILE DB}. Prints each step's seconds and the answers; the benchmark
 * script times the whole process.
 */
public final class DiyDuckDb {
  private DiyDuckDb() {}

  static String requests(String file) {
    return "CREATE TABLE requests AS SELECT request_id, arrival_ns, first_token_ns, finished_ns"
        + " FROM read_json('" + file.replace("'", "''") + "', format='newline_delimited',"
        + " columns={request_id: 'VARCHAR', arrival_ns: 'BIGINT', first_token_ns: 'BIGINT',"
        + " finished_ns: 'BIGINT'})";
  }

  static final String ITL = "SELECT quantile_cont(itl, [0.5, 0.9, 0.99]) FROM ("
      + "SELECT ts_ns - lag(ts_ns) OVER (PARTITION BY request_id ORDER BY seq) AS itl FROM tokens)"
      + " WHERE itl IS NOT NULL";

  static final String TTFT_E2E = "SELECT quantile_cont(first_token_ns - arrival_ns, [0.5, 0.9, 0.99]),"
      + " quantile_cont(finished_ns - arrival_ns, [0.5, 0.9, 0.99]) FROM requests";

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: DiyDuckDb FILE DB");
      System.exit(2);
    }
    Path db = Path.of(args[1]);
    Files.deleteIfExists(db);
    Files.deleteIfExists(Path.of(args[1] + ".wal"));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath());
        Statement s = c.createStatement()) {
      long t0 = System.nanoTime();
      s.execute(DuckDbReadJson.load("requests", args[0]));
      s.execute(requests(args[0]));
      long t1 = System.nanoTime();
      for (String q : new String[] {ITL, TTFT_E2E}) {
        try (ResultSet rs = s.executeQuery(q)) {
          rs.next();
          StringBuilder line = new StringBuilder("answer");
          for (int k = 1; k <= rs.getMetaData().getColumnCount(); k++) {
            line.append(' ').append(rs.getString(k));
          }
          System.out.println(line);
        }
      }
      System.out.printf("load seconds %.3f answers seconds %.3f%n", (t1 - t0) / 1e9,
          (System.nanoTime() - t1) / 1e9);
    }
  }
}
