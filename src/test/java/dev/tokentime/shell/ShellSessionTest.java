package dev.tokentime.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shell run on scripts against a real database: results, dot-commands and errors. */
class ShellSessionTest {
  @TempDir
  Path tmp;
  TestDb t;

  record Run(int failed, String out, String err) {}

  @BeforeEach
  void ingest() throws Exception {
    t = new TestDb(tmp);
    t.ingest(t.write("in/c1/requests.jsonl",
        "{\"request_id\":\"a\",\"arrival_ns\":0,\"first_token_ns\":10000000,\"tokens_ns\":[10000000,30000000]}\n"
            + "{\"request_id\":\"b\",\"arrival_ns\":0,\"first_token_ns\":20000000,\"tokens_ns\":[20000000,50000000]}\n"));
  }

  @org.junit.jupiter.api.AfterEach
  void close() {
    t.close();
  }

  Run script(String text) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    try (ShellSession s = new ShellSession(t.db, new PrintWriter(out), () -> 100, new PrintWriter(err), true)) {
      int failed = s.run(new ScriptInput(new StringReader(text)));
      return new Run(failed, out.toString(), err.toString());
    }
  }

  @Test
  void aMultiLineQueryPrintsAnAlignedTable() throws Exception {
    Run r = script("SELECT request_id,\n  ttft_ms\nFROM request_latency\nORDER BY request_id;\n");
    assertEquals(0, r.failed(), r.err());
    assertEquals("request_id  ttft_ms\n----------  -------\na                10\nb                20\n", r.out());
  }

  /** DuckDB JDBC says only "Invalid result set" for an error inside a streamed query: DuckDB's own words are shown. */
  @Test
  void anErrorWhileRowsStreamIsDuckDbsOwn() throws Exception {
    Run r = script("SELECT CAST(request_id AS INT) AS n FROM request_latency;\n");
    assertEquals(1, r.failed());
    assertTrue(r.err().startsWith("tokentime: line 1: Conversion Error: Could not convert string 'a' to INT32"), r.err());
  }

  @Test
  void anErrorNamesItsLineAndTheNextStatementStillRuns() throws Exception {
    Run r = script("SELECT 1 AS one;\n\nSELECT ttf_ms\n  FROM nope;\nSELECT 42 AS answer;\n.nonsense\n");
    assertEquals(2, r.failed());
    assertTrue(r.err().startsWith("tokentime: line 4: Catalog Error: Table with name nope does not exist!"), r.err());
    assertTrue(r.err().contains("tokentime: line 6: unknown command .nonsense (.help lists them)"), r.err());
    assertTrue(r.out().contains("answer\n------\n    42\n"), r.out());
  }

  @Test
  void schemaShowsTheCreateStatement() throws Exception {
    Run r = script(".schema runs\n.schema ttft_breakdown\n.schema nothing_here\n");
    assertTrue(r.out().startsWith("CREATE TABLE runs(run VARCHAR, level_kind VARCHAR,"), r.out());
    assertTrue(r.out().contains("CREATE OR REPLACE VIEW ttft_breakdown AS"), "the library's own text");
    assertEquals(1, r.failed());
    assertTrue(r.err().contains("no table, view or macro named nothing_here"), r.err());
  }

  @Test
  void docShowsGrainAndColumnsWithUnits() throws Exception {
    Run r = script(".doc request_latency   -- a comment after a dot-command\n.doc itl_histogram\n");
    assertEquals(0, r.failed(), r.err());
    assertTrue(r.out().startsWith("request_latency  (view)\n  Per-request latency:"), r.out());
    assertTrue(r.out().contains("  Grain: one row per request row"), r.out());
    assertTrue(r.out().matches("(?s).*\n  ttft_ms +DOUBLE +ms +Time to first token: first token minus arrival\\.\n.*"), r.out());
    assertTrue(r.out().contains("itl_histogram(bucket_ms)  (table macro)"), r.out());
    assertTrue(r.out().contains("Parameter bucket_ms: Bucket width in milliseconds."), r.out());
    assertTrue(r.out().matches("(?s).*\n  cumulative_share +ratio +Share of.*"), r.out());
  }

  @Test
  void tablesAndQueriesListWhatIsThere() throws Exception {
    Run r = script(".tables\n.queries\n");
    assertEquals(0, r.failed(), r.err());
    assertTrue(r.out().matches("(?s).*\nrequests +table +one row per request per s.*"), r.out());
    // macros with their parameters, as they are called
    assertTrue(r.out().matches("(?s).*\naiperf_goodput\\(ttft_slo_ms, itl_slo_ms, latency_slo_ms\\) +table macro +one row per run\n.*"),
        r.out());
    assertTrue(r.out().matches("(?s).*\ntoken_gaps +view +one row per content chunk.*"), r.out());
    assertTrue(r.out().matches("(?s).*\nitl_histogram\\(bucket_ms\\) +table macro +Histogram and CDF.*"), r.out());
  }

  @Test
  void formatTimerAndOutputChangeWhereAndHowResultsGo() throws Exception {
    Path file = tmp.resolve("answer.csv");
    Run r = script(".format csv\n.timer on\nSELECT 1 AS x, 'a,b' AS y;\n.output " + file + "\nSELECT 2 AS x;\n"
        + ".output\n.format json\n.timer off\nSELECT 3 AS x;\n.format parquet\n");
    assertEquals("x,y\n1,\"a,b\"\n[ {\n  \"x\" : 3\n} ]\n", r.out());
    assertEquals("x\n2\n", Files.readString(file));
    assertTrue(r.err().matches("(?s)Run Time: \\d+\\.\\d{3} s\nRun Time: \\d+\\.\\d{3} s\ntokentime: line 10: the shell prints.*"), r.err());
    assertTrue(r.err().contains("tokentime export NAME|SQL --format parquet -o FILE"), r.err());
  }

  @Test
  void tablesAreCutToTheWidthAndLongResultsToMaxRows() throws Exception {
    Run r = script(".maxrows 3\nSELECT range AS n, repeat('x', 300) AS long_text FROM range(10);\n");
    assertEquals(0, r.failed(), r.err());
    String[] lines = r.out().split("\n");
    assertEquals(6, lines.length, r.out());
    for (String l : lines) {
      assertTrue(l.length() <= 100, l);
    }
    assertTrue(lines[2].endsWith("…"), lines[2]);
    assertEquals("(only the first 3 rows shown: .maxrows 0 shows all, .format csv writes all)", lines[5]);
  }

  @Test
  void aResultIsComputedAsItIsPrinted() throws Exception {
    // rows past the first few raise an error: a result built whole before its first row is read
    // fails, a streamed one stops once the rows shown are read
    Run r = script(".maxrows 3\nSELECT CASE WHEN i < 5000000 THEN i ELSE error('computed too far') END AS i"
        + " FROM range(10000000) r(i);\n");
    assertEquals(0, r.failed(), r.err());
    assertEquals("i\n-\n0\n1\n2\n(only the first 3 rows shown: .maxrows 0 shows all, .format csv writes all)\n",
        r.out());
  }

  @Test
  void everyRowIsPrintedAPageAtATime() throws Exception {
    int n = 2 * ResultPrinter.PAGE_ROWS + 5;
    Run text = script(".maxrows 0\nSELECT i FROM range(" + n + ") r(i) ORDER BY i;\n");
    assertEquals(0, text.failed(), text.err());
    String[] lines = text.out().split("\n");
    // three pages, each with its header and rule
    assertEquals(n + 3 * 2, lines.length);
    assertEquals(3, java.util.Arrays.stream(lines).filter(l -> l.strip().equals("i")).count());
    assertEquals("0", lines[2].strip());
    assertEquals(Integer.toString(ResultPrinter.PAGE_ROWS), lines[ResultPrinter.PAGE_ROWS + 4].strip());
    assertEquals(Integer.toString(n - 1), lines[lines.length - 1].strip());

    Run md = script(".format markdown\n.maxrows 0\nSELECT i FROM range(" + n + ") r(i) ORDER BY i;\n");
    assertEquals(0, md.failed(), md.err());
    String[] mdLines = md.out().split("\n");
    // one table: a header, its rule, then every row in order
    assertEquals(n + 2, mdLines.length);
    assertEquals("| i |", mdLines[0]);
    for (int i = 0; i < n; i++) {
      assertEquals("| " + i + " |", mdLines[i + 2]);
    }
  }

  @Test
  void quitEndsTheScript() throws Exception {
    Run r = script("SELECT 1 AS x;\n.quit\nSELECT 2 AS y;\n");
    assertEquals("x\n-\n1\n", r.out());
  }
}
