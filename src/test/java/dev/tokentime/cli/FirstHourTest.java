package dev.tokentime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.cli.CliTest.Run;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mistakes of a first hour with tokentime (constructed inputs, see
 * src/test/resources/constructed/first-hour/README.md): each error names the file, the option or
 * the position, and says what to do.
 */
class FirstHourTest {
  @TempDir
  Path tmp;

  private static Run run(String... args) {
    return CliTest.run(args);
  }

  private static final Path CONSTRUCTED = Path.of("src/test/resources/constructed/first-hour");

  @Test
  void noCommandListsTheCommands() {
    Run r = run();
    assertEquals(2, r.code());
    assertEquals("tokentime: no command given; the commands: analyze, ingest, summary, query, report, check, compare,"
        + " conventions, formats, generate, shell, export, help\n(tokentime --help shows the usage)\n", r.err());
    assertEquals("", r.out());
  }

  @Test
  void everyCommandsHelpHasExamplesAndExitCodes() {
    for (String name : Main.commandNames()) {
      if (name.equals("help")) {
        continue;
      }
      Run h = run(name, "--help");
      assertEquals(0, h.code(), name);
      assertTrue(h.out().contains("\nExamples:\n"), name + " --help has examples: " + h.out());
      // the codes the command can end with: only check exits 1 for an SLO not met
      String codes = name.equals("check") ? Main.EXIT_CODES : Main.EXIT_CODES_NO_CHECK;
      assertTrue(h.out().endsWith("\n" + codes + "\n"), name + " --help ends with its exit codes: " + h.out());
      assertFalse(h.out().contains("Start with:"), name + " --help is its own, not the top level's: " + h.out());
    }
    Run gen = run("generate", "--help");
    assertTrue(gen.out().contains("--levels=C[,C...]"), gen.out());
    assertFalse(gen.out().contains("C,C,...["), gen.out());
  }

  @Test
  void aNegativeMaxRowsIsRefused() throws Exception {
    Path db = tmp.resolve("s.duckdb");
    assertEquals(0, run("ingest", "--db", db.toString(), "sample-logs/canonical/c1.jsonl").code());
    Run r = run("query", "--db", db.toString(), "--max-rows", "-1", "runs");
    assertEquals(2, r.code(), r.err());
    assertEquals("", r.out());
    assertTrue(r.err().contains("--max-rows -1: give a number of rows, or 0 for all"), r.err());
  }

  /**
   * A query that fails while its rows stream (a conversion error) was reported as "Invalid result
   * set … most often for lack of memory": DuckDB JDBC's words for any streamed failure.
   */
  @Test
  void aQueryFailingWhileItStreamsSaysWhy() throws Exception {
    Path db = tmp.resolve("s.duckdb");
    assertEquals(0, run("ingest", "--db", db.toString(), "sample-logs/canonical/c1.jsonl").code());
    Run r = run("query", "--db", db.toString(), "SELECT * FROM request_latency WHERE ttft_ms > 'abc'");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("Conversion Error: Could not convert string 'abc' to DOUBLE"), r.err());
    assertFalse(r.err().contains("lack of memory"), r.err());
    Run csv = run("query", "--db", db.toString(), "--format", "csv", "SELECT CAST(request_id AS INT) FROM requests");
    assertEquals(2, csv.code(), csv.err());
    assertTrue(csv.err().contains("Conversion Error: Could not convert string"), csv.err());
  }

  @Test
  void anEmptyFolderIsNamed() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("results/c16"));
    Run r = run("ingest", "--db", tmp.resolve("x.duckdb").toString(), dir.toString());
    assertEquals(2, r.code());
    assertEquals("tokentime: no input files: " + dir + " holds no file to read (folders are read recursively,"
        + " expected/ folders skipped)\n", r.err());
  }

  @Test
  void emptyStandardInputSaysNothingWasPiped() {
    InputStream stdin = System.in;
    try {
      System.setIn(new ByteArrayInputStream(new byte[0]));
      Run r = run("ingest", "--db", tmp.resolve("x.duckdb").toString(), "-");
      assertEquals(2, r.code());
      assertEquals("tokentime: standard input (-) is empty: nothing was piped in (cat FILE | tokentime ingest -)\n",
          r.err());
    } finally {
      System.setIn(stdin);
    }
    assertFalse(Files.exists(tmp.resolve("x.duckdb")));
  }

  @Test
  void aFileNoFormatReadsSaysWhatItIs() throws Exception {
    String db = tmp.resolve("x.duckdb").toString();
    Path page = CONSTRUCTED.resolve("grafana-logs.html");
    Run html = run("ingest", "--db", db, page.toString());
    assertEquals(2, html.code());
    assertEquals("tokentime: cannot tell the format of " + page + "; it is an HTML page (saved from a browser or a"
        + " log viewer?), not the log itself: download the raw text (the viewer's raw or download link, kubectl logs"
        + " POD > pod.log, docker logs NAME > server.log)\n", html.err());
    // tokentime's own report, written into the folder it read, is said to be that
    String samples = tmp.resolve("samples.duckdb").toString();
    assertEquals(0, run("ingest", "--db", samples, "sample-logs/canonical/c1.jsonl").code());
    Path report = tmp.resolve("report.html");
    assertEquals(0, run("report", "--db", samples, "-o", report.toString()).code());
    Run own = run("ingest", "--db", db, report.toString());
    assertEquals(2, own.code());
    assertEquals("tokentime: cannot tell the format of " + report + "; it is a report tokentime wrote (tokentime"
        + " report), not an input\n", own.err());

    // a workbook is a zip: "extract it (unzip FILE)" gave a folder of XML
    Path xlsx = Files.write(tmp.resolve("results.xlsx"), new byte[] {'P', 'K', 3, 4, 20, 0, 6, 0, 8, 0, 0, 0});
    Run x = run("ingest", "--db", db, xlsx.toString());
    assertEquals(2, x.code());
    assertEquals("tokentime: cannot read " + xlsx + ": a spreadsheet workbook, not a log: save the sheet as CSV and"
        + " ingest the .csv (tokentime formats lists the CSV shapes it reads)\n", x.err());

    Path xls = Files.write(tmp.resolve("results.xls"),
        new byte[] {(byte) 0xd0, (byte) 0xcf, 0x11, (byte) 0xe0, (byte) 0xa1, (byte) 0xb1, 0x1a, (byte) 0xe1, 0, 0});
    Run old = run("ingest", "--db", db, xls.toString());
    assertEquals(2, old.code());
    assertEquals("tokentime: cannot tell the format of " + xls + "; it is an Office document (an Excel 97-2003"
        + " workbook?): save the sheet as CSV and ingest that\n", old.err());
    assertFalse(Files.exists(tmp.resolve("x.duckdb")), "nothing was made of them");
  }

  /** A folder with nothing tokentime reads was exit 0 with an empty database: a script summarised nothing. */
  @Test
  void aFolderOfNothingReadableIsExit2() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("downloads"));
    Files.copy(CONSTRUCTED.resolve("grafana-logs.html"), dir.resolve("grafana-logs.html"));
    Files.write(dir.resolve("results.xls"), new byte[] {(byte) 0xd0, (byte) 0xcf, 0x11, (byte) 0xe0, 0, 0, 0, 0});
    Path db = tmp.resolve("x.duckdb");
    Run r = run("ingest", "--db", db.toString(), dir.toString());
    assertEquals(2, r.code());
    assertTrue(r.out().startsWith("skipped 2 files (format not recognised; name one with --from): "), r.out());
    assertEquals("tokentime: nothing was ingested: none of the 2 files found was read (\"skipped\" above says why);"
        + " tokentime formats lists the formats read, and --from FORMAT reads a file as one\n", r.err());
    assertFalse(Files.exists(db), "no empty database is left behind");
    Run a = run("analyze", dir.toString());
    assertEquals(2, a.code());
    assertEquals("", a.out(), "no summary of nothing");
    assertTrue(a.err().endsWith("tokentime: nothing was ingested: none of the 2 files found was read (\"skipped\""
        + " above says why); tokentime formats lists the formats read, and --from FORMAT reads a file as one\n"), a.err());
  }

  @Test
  void aMissingDatabaseSaysHowToMakeOneAndNamesThoseBesideIt() throws Exception {
    for (String n : new String[] {"a.duckdb", "b.duckdb", "c.duckdb", "d.duckdb", "e.duckdb", "sweep.duckdb"}) {
      Files.writeString(tmp.resolve(n), "");
    }
    Path typo = tmp.resolve("swep.duckdb");
    Run r = run("summary", "--db", typo.toString());
    assertEquals(2, r.code());
    // the likeliest meant first, then the others by name
    assertEquals("tokentime: database not found: " + typo + " (tokentime ingest --db " + typo
        + " FILES creates it; the databases beside it: sweep.duckdb, a.duckdb, b.duckdb, c.duckdb, d.duckdb, … (6 in"
        + " all))\n", r.err());
    Path nowhere = tmp.resolve("no-such-dir/run.duckdb");
    Run q = run("query", "--db", nowhere.toString(), "runs");
    assertEquals(2, q.code());
    assertEquals("tokentime: database not found: " + nowhere + " (there is no directory " + nowhere.getParent()
        + ")\n", q.err());
  }

  @Test
  void aSqlSyntaxErrorShowsWhere() throws Exception {
    String db = ingested();
    Run r = run("query", "--db", db, "SELECT run,  count(*) AS n,, 1 FROM requests GROUP BY run");
    assertEquals(2, r.code());
    // the caret under the second comma, as DuckDB placed it (runs of spaces in the statement kept)
    assertEquals("tokentime: database error: Parser Error: syntax error at or near \",\"\n"
        + "LINE 1: SELECT run,  count(*) AS n,, 1 FROM requests GROUP BY run\n"
        + "                                   ^\n", r.err());
    assertEquals("", r.out());
  }

  @Test
  void exportToJsonPointsToQuery() throws Exception {
    String db = ingested();
    Path json = tmp.resolve("latency.json");
    Run r = run("export", "--db", db, "request_latency", "-o", json.toString());
    assertEquals(2, r.code());
    assertEquals("tokentime: export writes parquet, arrow or csv; JSON rows come from query: tokentime query --db "
        + db + " request_latency --format json > " + json + "\n", r.err());
    Run f = run("export", "--db", db, "request_latency", "--format", "json", "-o", json.toString());
    assertEquals(r.err(), f.err());
    Path xlsx = tmp.resolve("latency.xlsx");
    Run x = run("export", "--db", db, "request_latency", "-o", xlsx.toString());
    assertEquals(2, x.code());
    assertEquals("tokentime: export writes parquet, arrow or csv, not a workbook: -o " + tmp.resolve("latency.csv")
        + " opens in a spreadsheet\n", x.err());
    assertFalse(Files.exists(json) || Files.exists(xlsx));
  }

  /** `ingest run.duckdb` without --db: the database handed over as a log. */
  @Test
  void aDatabaseGivenAsAnInputIsNamedAsOne() throws Exception {
    String db = ingested();
    Run r = run("ingest", "--db", tmp.resolve("other.duckdb").toString(), db);
    assertEquals(2, r.code());
    assertEquals("tokentime: cannot tell the format of " + db + "; it is a DuckDB database: open it with --db FILE"
        + " (tokentime summary --db FILE)\n", r.err());
  }

  /**
   * A mistyped --run beside a right one: check left it out and passed (exit 0, "every level
   * checked meets the SLO"), a CI gate green over a run it never saw.
   */
  @Test
  void aMistypedRunIsNamedByCheckAndReport() throws Exception {
    String db = ingested();
    Run check = run("check", "--db", db, "--slo", "ttft_p95<=10s", "--run", "c1", "--run", "c11");
    assertEquals(2, check.code());
    assertEquals("tokentime: no run named c11 (runs: c1)\n", check.err());
    assertEquals("", check.out());
    Run report = run("report", "--db", db, "--run", "c11", "-o", tmp.resolve("r.html").toString());
    assertEquals(2, report.code());
    assertEquals("tokentime: no run named c11 (runs: c1)\n", report.err());
    assertFalse(Files.exists(tmp.resolve("r.html")));
  }

  @Test
  void anInterruptSaysWhatIsKept() {
    // the built CLI interrupted: InterruptIT
    assertTrue(Interrupted.message("ingest").startsWith("tokentime: interrupted. Each file is stored whole or not"));
    assertEquals("tokentime: interrupted; no summary was printed.", Interrupted.message("analyze"));
    assertEquals("tokentime: interrupted.", Interrupted.message("query"));
  }

  private String ingested() {
    Path db = tmp.resolve("c1.duckdb");
    Run in = run("ingest", "--db", db.toString(), "sample-logs/canonical/c1.jsonl");
    assertEquals(0, in.code(), in.err());
    return db.toString();
  }
}
