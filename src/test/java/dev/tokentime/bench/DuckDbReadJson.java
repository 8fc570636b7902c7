package dev.tokentime.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Baseline for issue 10, target 1: DuckDB's own JSON reader loads the same file into a flat
 * {@code tokens(request_id, seq, ts_ns)} table of a persistent database, through DuckDB JDBC.
 *
 * <p>Usage: {@code DuckDbReadJson requests|tokens FILE DB}. Prints the rows stored and the
 * seconds the statement took; the benchmark script times the whole process.
 */
public final class DuckDbReadJson {
  private DuckDbReadJson() {}

  /** The statement for each canonical form, as issue 10 names it. */
  static String load(String form, String file) {
    String f = file.replace("'", "''");
    return switch (form) {
      case "requests" -> "CREATE TABLE tokens AS SELECT request_id,"
          + " generate_subscripts(tokens_ns, 1) - 1 AS seq, unnest(tokens_ns) AS ts_ns"
          + " FROM read_json('" + f + "', format='newline_delimited',"
          + " columns={request_id: 'VARCHAR', tokens_ns: 'BIGINT[]'})";
      case "tokens" -> "CREATE TABLE tokens AS SELECT request_id, seq, ts_ns"
          + " FROM read_json('" + f + "', format='newline_delimited',"
          + " columns={request_id: 'VARCHAR', seq: 'INTEGER', ts_ns: 'BIGINT'})";
      default -> throw new IllegalArgumentException("form must be requests or tokens: " + form);
    };
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: DuckDbReadJson requests|tokens FILE DB");
      System.exit(2);
    }
    Path db = Path.of(args[2]);
    Files.deleteIfExists(db);
    Files.deleteIfExists(Path.of(args[2] + ".wal"));
    long t0 = System.nanoTime();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath());
        Statement s = c.createStatement()) {
      s.execute(load(args[0], args[1]));
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM tokens")) {
        rs.next();
        System.out.printf("rows %d seconds %.3f%n", rs.getLong(1), (System.nanoTime() - t0) / 1e9);
      }
    }
  }
}
