package dev.tokentime.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * What each stored column of {@code tokens} costs DuckDB (BENCHMARKS.md, "Tried and dropped"): the
 * token rows of a per-request canonical JSONL file, staged once as a flat temporary table with their
 * gaps (so no variant pays for unnesting or for computing gaps), inserted into tables of 3 columns
 * (request_key, seq, ts_ns), 4 (and gap_ns), tokentime's 7 (and n_tokens, chunk_kind, source_id,
 * constant here as in most files) and the 7 with those three NULL, each committed and
 * checkpointed, interleaved, three times.
 *
 * <p>Usage: {@code TokenColumnsCost FILE DB}. Prints one line per insert.
 */
public final class TokenColumnsCost {
  private TokenColumnsCost() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: TokenColumnsCost FILE DB");
      System.exit(2);
    }
    Path db = Path.of(args[1]);
    Files.deleteIfExists(db);
    Files.deleteIfExists(Path.of(args[1] + ".wal"));
    String seven = "CREATE TABLE t(request_key BIGINT, seq INTEGER, ts_ns BIGINT, n_tokens INTEGER,"
        + " chunk_kind chunk_kind, source_id INTEGER, gap_ns BIGINT)";
    String rows = "SELECT request_key, seq, ts_ns";
    String[][] variants = {
      {"3 columns", "CREATE TABLE t(request_key BIGINT, seq INTEGER, ts_ns BIGINT)", "INSERT INTO t " + rows + " FROM st"},
      {"4 columns (+gap_ns)", "CREATE TABLE t(request_key BIGINT, seq INTEGER, ts_ns BIGINT, gap_ns BIGINT)",
          "INSERT INTO t " + rows + ", gap_ns FROM st"},
      {"7 columns (tokentime's)", seven, "INSERT INTO t " + rows + ", 1, 'content', 1, gap_ns FROM st"},
      {"7 columns, 3 of them NULL", seven, "INSERT INTO t " + rows + ", NULL, NULL, NULL, gap_ns FROM st"},
    };
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath());
        Statement s = c.createStatement()) {
      s.execute("SET memory_limit = '500MB'");
      s.execute("CREATE TYPE chunk_kind AS ENUM ('content','reasoning','role','empty','usage','done','error')");
      s.execute("CREATE TEMP TABLE st AS SELECT k AS request_key, (generate_subscripts(tokens_ns, 1) - 1)::INTEGER AS seq,"
          + " unnest(tokens_ns) AS ts_ns,"
          + " unnest(list_prepend(NULL::BIGINT, list_transform(tokens_ns[2:], lambda x, i: x - tokens_ns[i]))) AS gap_ns"
          + " FROM (SELECT row_number() OVER () AS k, tokens_ns FROM read_json('"
          + args[0].replace("'", "''") + "', format='newline_delimited', columns={tokens_ns: 'BIGINT[]'}))");
      for (int rep = 0; rep < 3; rep++) {
        for (String[] v : variants) {
          s.execute(v[1]);
          long t0 = System.nanoTime();
          s.execute(v[2]);
          s.execute("CHECKPOINT");
          System.out.printf("insert %-28s %.3f s%n", v[0], (System.nanoTime() - t0) / 1e9);
          s.execute("DROP TABLE t");
          s.execute("CHECKPOINT");
        }
      }
    }
  }
}
