package dev.tokentime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.cli.CliTest.Run;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new user's mistakes in a first hour, each answered on one line of stderr that names what is
 * wrong and what to do, exit 2, nothing on stdout.
 */
class FirstHourWalkTest {
  @TempDir
  static Path tmp;

  static String db;

  @BeforeAll
  static void ingest() {
    db = tmp.resolve("w.duckdb").toString();
    Run r = CliTest.run("ingest", "--db", db, "sample-logs/canonical/c1.jsonl");
    assertEquals(0, r.code(), r.err());
  }

  /**
   * A mistyped view was DuckDB's "database error: Catalog Error: Table with name request_latncy
   * does not exist!" and a second line "Did you mean ...": now the name, the nearest one and
   * where the names are listed, for query and export alike.
   */
  @Test
  void aMistypedViewNamesTheNearestOne() {
    Run q = CliTest.run("query", "--db", db, "request_latncy");
    assertEquals(2, q.code());
    assertEquals("", q.out());
    assertEquals("tokentime: no table or view named request_latncy; did you mean request_latency? (tokentime query"
        + " without a QUERY lists the views; a .sql file is named with its .sql)\n", q.err());
    Run e = CliTest.run("export", "--db", db, "token_gapz", "-o", tmp.resolve("g.parquet").toString());
    assertEquals(2, e.code());
    assertEquals("", e.out());
    assertEquals("tokentime: no table or view named token_gapz; did you mean token_gaps? (tokentime query"
        + " without a QUERY lists the views; a .sql file is named with its .sql)\n", e.err());
    // nothing near: no guess; names in any case, and internal tables, still run
    Run far = CliTest.run("query", "--db", db, "zzzz");
    assertEquals("tokentime: no table or view named zzzz (tokentime query without a QUERY lists the views; a .sql"
        + " file is named with its .sql)\n", far.err());
    Run upper = CliTest.run("query", "--db", db, "--format", "csv", "RUNS");
    assertEquals(0, upper.code(), upper.err());
    assertEquals("c1", upper.out().lines().skip(1).findFirst().orElse("").split(",")[0]);
  }

  /**
   * compare with a wrong run name pointed to "tokentime query runs", a command without the --db
   * it needs: now the runs and levels the database holds.
   */
  @Test
  void compareWithAWrongRunListsTheRunsThereAre() {
    Run c = CliTest.run("compare", "--db", db, "c1", "c9");
    assertEquals(2, c.code());
    assertEquals("", c.out());
    assertEquals("tokentime: compare: no run named c9 (runs: c1; levels: concurrency=1)\n", c.err());
  }

  /** A number option given a word said "Invalid value for option '--levels' (C): 'x' is not an int". */
  @Test
  void aWordForANumberNamesTheOption() {
    Run g = CliTest.run("generate", "--out", tmp.resolve("gen").toString(), "--levels", "1,x");
    assertEquals(2, g.code());
    assertEquals("tokentime: --levels: 'x' is not a whole number\n(tokentime generate --help shows the usage)\n",
        g.err());
    Run q = CliTest.run("query", "--db", db, "runs", "--max-rows", "abc");
    assertEquals(2, q.code());
    assertEquals("tokentime: --max-rows: 'abc' is not a whole number\n(tokentime query --help shows the usage)\n",
        q.err());
  }

  /** An empty query was "database error: Invalid Input Error: No statements to execute." */
  @Test
  void anEmptyQuerySaysWhatAQueryIs() {
    for (String q : new String[] {"", "  ", ";"}) {
      Run r = CliTest.run("query", "--db", db, q);
      assertEquals(2, r.code());
      assertEquals("", r.out());
      assertEquals("tokentime: the query is empty: give a view or table name, a .sql file or SQL text (tokentime"
          + " query without a QUERY lists the views)\n", r.err());
    }
  }

  /** A time zone Java does not know was "unknown time zone Mars/Olympus", with no word of what is known. */
  @Test
  void anUnknownTimeZoneSaysWhatATimeZoneIs() {
    Run r = CliTest.run("ingest", "--db", db, "--tz", "Mars/Olympus", "sample-logs/canonical/c2.jsonl");
    assertEquals(2, r.code());
    assertEquals("tokentime: unknown time zone Mars/Olympus (--tz takes a region name as Europe/Berlin or"
        + " America/New_York, an offset as +02:00, or UTC)\n", r.err());
  }

  /**
   * export of a statement that returns no rows was DuckDB's "Parser Error: syntax error at or near
   * "TABLE"" (export wraps it in COPY); and one row was "1 rows written".
   */
  @Test
  void exportRefusesAStatementWithoutRowsAndCountsOneRow() throws Exception {
    Path out = tmp.resolve("d.csv");
    Run drop = CliTest.run("export", "--db", db, "DROP TABLE runs", "-o", out.toString());
    assertEquals(2, drop.code());
    assertEquals("tokentime: export runs statements that return rows (SELECT, a view, SHOW, DESCRIBE, EXPLAIN);"
        + " this one returns none and was not run\n", drop.err());
    assertEquals(false, java.nio.file.Files.exists(out));
    Run one = CliTest.run("export", "--db", db, "runs", "-o", out.toString());
    assertEquals(0, one.code(), one.err());
    assertEquals("1 row written to " + out + " (csv)\n", one.out());
    Run still = CliTest.run("query", "--db", db, "--format", "csv", "SELECT count(*) AS n FROM runs");
    assertEquals("n\n1\n", still.out(), "the table is still there");
  }

  /**
   * SQL typed without quotes was picocli's "Unmatched arguments from index 4: 'run', 'FROM', 'runs'":
   * now the words taken as extra, and that SQL text is one argument.
   */
  @Test
  void sqlWithoutQuotesSaysToQuoteIt() {
    Run q = CliTest.run("query", "--db", db, "SELECT", "run", "FROM", "runs");
    assertEquals(2, q.code());
    assertEquals("", q.out());
    assertEquals("tokentime: unexpected arguments 'run', 'FROM', 'runs'; SQL text is one argument: put it in quotes"
        + " (\"SELECT * FROM run_summary\")\n(tokentime query --help shows the usage)\n", q.err());
    Run s = CliTest.run("shell", db, "extra");
    assertEquals(2, s.code());
    assertEquals("tokentime: unexpected argument 'extra'\n(tokentime shell --help shows the usage)\n", s.err());
  }

  /**
   * A database no file was ingested into (left by an ingest stopped before it stored one, before
   * such databases were removed) was summarised as "0 runs", exit 0.
   */
  @Test
  void summaryOfADatabaseWithNothingIngestedSaysSo() throws Exception {
    Path empty = tmp.resolve("empty.duckdb");
    dev.tokentime.app.EmptyDatabases.openForWriting(empty).close();
    Run s = CliTest.run("summary", "--db", empty.toString());
    assertEquals(2, s.code());
    assertEquals("", s.out());
    assertEquals("tokentime: " + empty + " holds nothing: no file was ingested into it (an ingest stopped before it"
        + " stored one?); tokentime ingest --db " + empty + " FILES reads some\n", s.err());
  }
}
