package dev.tokentime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25's smaller points, each a usage error (exit 2, one line saying what to do) or a plain
 * success where before there was an exception (exit 3), a hang, a file written by a command that
 * then failed, or a run that could not be named.
 */
class SmallPointsTest {
  @TempDir
  static Path tmp;
  static Path db;

  record Run(int code, String out, String err) {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(out), new PrintWriter(err)).execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @BeforeAll
  static void ingest() throws Exception {
    // two runs whose names contain '=' (a sweep named by its parameter)
    for (String c : new String[] {"c1", "c2"}) {
      String text = Files.readString(Path.of("sample-logs/canonical/" + c + ".jsonl"))
          .replace("\"run\":\"" + c + "\"", "\"run\":\"lr=0." + c.substring(1) + "\"");
      Files.writeString(Files.createDirectories(tmp.resolve("in")).resolve(c + ".jsonl"), text);
    }
    db = tmp.resolve("s.duckdb");
    Run r = run("ingest", "--db", db.toString(), tmp.resolve("in").toString());
    assertEquals(0, r.code(), r.err());
  }

  @Test
  void reportOntoAFileThatIsNotHtmlOrMarkdownIsAUsageError() throws Exception {
    Path existing = Files.writeString(tmp.resolve("notes.txt"), "mine\n");
    Run r = run("report", "--db", db.toString(), "-o", existing.toString());
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("is a file that is not .html or .md"), r.err());
    assertEquals("mine\n", Files.readString(existing));
    Path fresh = tmp.resolve("new.txt");
    Run n = run("report", "--db", db.toString(), "-o", fresh.toString());
    assertEquals(2, n.code(), n.err());
    assertTrue(n.err().contains("a report is written to a .html or .md file"), n.err());
    assertFalse(Files.exists(fresh), "no directory named new.txt");
    // a dotted name that is no file type is a folder, as a user means it
    Path folder = tmp.resolve("out.v2");
    Run d = run("report", "--db", db.toString(), "-o", folder.toString());
    assertEquals(0, d.code(), d.err());
    assertTrue(Files.isRegularFile(folder.resolve("report.html")), d.err());
  }

  @Test
  void generateOntoAFileOrWithNoSlotsIsAUsageError() throws Exception {
    Path file = Files.writeString(tmp.resolve("out.txt"), "x");
    Run r = run("generate", "--out", file.toString());
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("is a file; name a directory"), r.err());
    // before, --slots 0 never ended
    Run s = assertTimeoutPreemptively(Duration.ofSeconds(60),
        () -> run("generate", "--out", tmp.resolve("g0").toString(), "--slots", "0"));
    assertEquals(2, s.code(), s.err());
    assertTrue(s.err().contains("--slots must be at least 1"), s.err());
  }

  @Test
  void runsWhoseNamesContainAnEqualsSignCanBeCompared() {
    Run r = run("compare", "--db", db.toString(), "lr=0.1", "lr=0.2");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("lr=0.1") && r.out().contains("lr=0.2"), r.out());
    Run bad = run("compare", "--db", db.toString(), "lr=0.9", "lr=0.2");
    assertEquals(2, bad.code(), bad.err());
    assertTrue(bad.err().contains("no run named lr=0.9"), bad.err());
  }

  @Test
  void aWindowBeyondTenYearsAndAYearOutOfRangeAreUsageErrors() {
    Run r = run("summary", "--db", db.toString(), "--since", "9223372036s");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("longer than ten years"), r.err());
    Run y = run("ingest", "--db", tmp.resolve("y.duckdb").toString(), "--year", "99999", "sample-logs/vllm/server.log");
    assertEquals(2, y.code(), y.err());
    assertTrue(y.err().contains("--year must be between 1990 and 2099"), y.err());
  }

  @Test
  void queryRefusesAStatementThatWritesBeforeRunningIt() {
    Path target = tmp.resolve("copy.csv");
    Run r = run("query", "--db", db.toString(), "COPY (SELECT 1) TO '" + target + "'");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("returns none and was not run"), r.err());
    assertFalse(Files.exists(target), "COPY did not run");
    assertEquals(0, run("query", "--db", db.toString(), "DESCRIBE requests").code());
  }

  @Test
  void queryRefusesAWriteHiddenBeforeARowReturningStatement() {
    // the driver runs all but the last statement while preparing the last one
    Path target = tmp.resolve("copy2.csv");
    Run r = run("query", "--db", db.toString(), "COPY (SELECT 1) TO '" + target + "'; SELECT 1");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("query runs one statement; this text holds 2"), r.err());
    assertFalse(Files.exists(target), "COPY did not run");
    // a semicolon inside a string or a trailing one is not a second statement
    Run one = run("query", "--db", db.toString(), "--format", "csv", "SELECT 'a;b' AS x;");
    assertEquals(0, one.code(), one.err());
    assertTrue(one.out().contains("a;b"), one.out());
  }
}
