package dev.tokentime.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * The floor of DuckDB's {@code read_json} as the ingest's fast path for canonical JSONL in the
 * per-request form (BENCHMARKS.md, "Tried and dropped"): the rows tokentime stores for such a
 * file — requests, and the tokens' seven columns with gap_ns — made by DuckDB alone, with none of
 * what a faithful fast path also needs (line numbers, unknown fields into extras, the per-request
 * aggregates, request keys and levels from the registries, every range and order check the parser
 * makes, and the fallback's second pass when one fails), plus one pass of the cheapest checks, to
 * put beside {@code read_json} into the flat three columns in the same process.
 *
 * <p>Usage: {@code ReadJsonFloor FILE DB}. Prints each statement's seconds.
 */
public final class ReadJsonFloor {
  private ReadJsonFloor() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: ReadJsonFloor FILE DB");
      System.exit(2);
    }
    String f = args[0].replace("'", "''");
    String rj = "read_json('" + f + "', format='newline_delimited', columns={request_id:'VARCHAR',"
        + " run:'VARCHAR', concurrency:'DOUBLE', phase:'VARCHAR', clock:'VARCHAR', arrival_ns:'BIGINT',"
        + " queued_ns:'BIGINT', scheduled_ns:'BIGINT', first_token_ns:'BIGINT', last_token_ns:'BIGINT',"
        + " finished_ns:'BIGINT', prompt_tokens:'INTEGER', output_tokens:'INTEGER', status:'VARCHAR',"
        + " finish_reason:'VARCHAR', tokens_ns:'BIGINT[]'})";
    String[][] steps = {
      {"flat three columns (baseline)", DuckDbReadJson.load("requests", args[0]).replace("TABLE tokens", "TABLE flat")},
      {"drop it", "DROP TABLE flat"},
      {"schema", "CREATE TYPE chunk_kind AS ENUM ('content','reasoning','role','empty','usage','done','error');"
          + "CREATE TABLE tokens(request_key BIGINT, seq INTEGER, ts_ns BIGINT, n_tokens INTEGER,"
          + " chunk_kind chunk_kind, source_id INTEGER, gap_ns BIGINT);"
          + "CREATE TABLE requests(request_key BIGINT, run VARCHAR, request_id VARCHAR, source_id INTEGER,"
          + " line_no BIGINT, clock_id INTEGER, arrival_ns BIGINT, queued_ns BIGINT, scheduled_ns BIGINT,"
          + " first_token_ns BIGINT, last_token_ns BIGINT, finished_ns BIGINT, prompt_tokens INTEGER,"
          + " output_tokens INTEGER, status VARCHAR, finish_reason VARCHAR, phase VARCHAR)"},
      {"staged (read_json, keys)", "CREATE TEMP TABLE st AS SELECT row_number() OVER () AS k, * FROM " + rj},
      {"requests", "INSERT INTO requests SELECT k, run, request_id, 1, k, 1, arrival_ns, queued_ns,"
          + " scheduled_ns, first_token_ns, last_token_ns, finished_ns, prompt_tokens, output_tokens,"
          + " status, finish_reason, phase FROM st"},
      {"tokens (7 columns, gap_ns)", "INSERT INTO tokens SELECT k, generate_subscripts(tokens_ns, 1) - 1,"
          + " unnest(tokens_ns), 1, 'content', 1, unnest(list_prepend(NULL::BIGINT,"
          + " list_transform(tokens_ns[2:], lambda x, i: x - tokens_ns[i]))) FROM st"},
      {"some checks", "SELECT count(*) FROM st WHERE list_sort(tokens_ns) <> tokens_ns"
          + " OR tokens_ns[1] < arrival_ns OR len(tokens_ns) <> output_tokens"},
      {"commit", "COMMIT"},
    };
    Path db = Path.of(args[1]);
    Files.deleteIfExists(db);
    Files.deleteIfExists(Path.of(args[1] + ".wal"));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath());
        Statement s = c.createStatement()) {
      // as an ingest loads (Database.LOAD_MEMORY_LIMIT is lower; the floor is not held to it)
      s.execute("SET memory_limit = '500MB'");
      s.execute("SET preserve_insertion_order = true");
      double fast = 0;
      for (String[] step : steps) {
        if (step[0].equals("staged (read_json, keys)")) {
          s.execute("BEGIN TRANSACTION");
        }
        long t0 = System.nanoTime();
        s.execute(step[1]);
        double secs = (System.nanoTime() - t0) / 1e9;
        if (!step[0].startsWith("flat") && !step[0].equals("drop it") && !step[0].equals("schema")) {
          fast += secs;
        }
        System.out.printf("step %-32s %.3f s%n", step[0], secs);
      }
      try (ResultSet rs = s.executeQuery("SELECT count(*), count(gap_ns) FROM tokens")) {
        rs.next();
        System.out.printf("tokens %d gaps %d fast-path floor %.3f s%n", rs.getLong(1), rs.getLong(2), fast);
      }
    }
  }
}
