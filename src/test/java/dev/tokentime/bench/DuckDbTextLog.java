package dev.tokentime.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Baseline for issue 10, target 4: a vLLM server log staged through DuckDB SQL alone — the file
 * read as one VARCHAR column per line ({@code read_csv} with a separator that never occurs) and
 * the fields cut out with one {@code regexp_extract} per line into a table of a persistent
 * database: the container timestamp, the line kind, the request id and the engine counts.
 *
 * <p>Usage: {@code DuckDbTextLog FILE DB}. Prints lines, matched lines and seconds.
 */
public final class DuckDbTextLog {
  private DuckDbTextLog() {}

  static final String PATTERN = "^(\\S+Z) \\(APIServer pid=\\d+\\) (?:INFO \\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\[[^\\]]+\\] )?"
      + "(?:(Received request|Added request|Generated response|Finished request) ([^\\s:]+?)[.:]?(?:\\s|$)"
      + "|Engine \\d+: Avg prompt throughput: ([\\d.]+) tokens/s, Avg generation throughput: ([\\d.]+) tokens/s, "
      + "Running: (\\d+) reqs, Waiting: (\\d+) reqs)";

  static String load(String file) {
    String f = file.replace("'", "''");
    return "CREATE TABLE lines AS SELECT regexp_extract(line, '" + PATTERN.replace("'", "''") + "', "
        + "['ts', 'kind', 'id', 'prompt_tps', 'gen_tps', 'running', 'waiting']) AS m"
        + " FROM read_csv('" + f + "', columns = {'line': 'VARCHAR'}, header = false, delim = '\u001f',"
        + " quote = '', escape = '', auto_detect = false, strict_mode = false)";
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: DuckDbTextLog FILE DB");
      System.exit(2);
    }
    Path db = Path.of(args[1]);
    Files.deleteIfExists(db);
    Files.deleteIfExists(Path.of(args[1] + ".wal"));
    long t0 = System.nanoTime();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath());
        Statement s = c.createStatement()) {
      s.execute(load(args[0]));
      try (ResultSet rs = s.executeQuery("SELECT count(*), count(*) FILTER (WHERE m.ts <> '') FROM lines")) {
        rs.next();
        System.out.printf("lines %d matched %d seconds %.3f%n", rs.getLong(1), rs.getLong(2),
            (System.nanoTime() - t0) / 1e9);
      }
    }
  }
}
