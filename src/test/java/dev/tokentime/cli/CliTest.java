package dev.tokentime.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import dev.tokentime.summary.Summary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commands run in-process: exit codes, one-line errors, help that teaches. */
class CliTest {
  @TempDir
  Path tmp;

  record Run(int code, String out, String err) {}

  /** As main() runs them: with only the command the first argument names, when it names one. */
  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(out), new PrintWriter(err), args.length > 0 ? args[0] : null)
        .execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void aRunBuildsOnlyTheCommandItNames() {
    PrintWriter w = new PrintWriter(new StringWriter());
    assertEquals(java.util.Set.of("ingest"), Main.commandLine(w, w, "ingest").getSubcommands().keySet());
    assertEquals(java.util.Set.of("summary"), Main.commandLine(w, w, "summary").getSubcommands().keySet());
    // help, options before a command and a mistyped command see every command
    int all = Main.COMMANDS.size();
    for (String first : new String[] {"help", "--help", "-V", "summery"}) {
      assertEquals(all, Main.commandLine(w, w, first).getSubcommands().size(), first);
    }
    assertEquals(all, Main.commandLine(w, w, null).getSubcommands().size());
    // every command is reachable by its own name
    for (Class<?> c : Main.COMMANDS) {
      String name = c.getAnnotation(picocli.CommandLine.Command.class).name();
      if (!name.equals("help")) {
        assertEquals(c, Main.named(name), name);
      }
    }
  }

  @Test
  void missingFileIsExit2WithOneLine() {
    Run r = run("ingest", "--db", tmp.resolve("x.duckdb").toString(), tmp.resolve("nope.jsonl").toString());
    assertEquals(2, r.code());
    assertEquals("tokentime: file not found: " + tmp.resolve("nope.jsonl") + "\n", r.err());
  }

  @Test
  void unknownFormatNamedExplicitlyIsExit2() throws Exception {
    Path f = Files.writeString(tmp.resolve("notes.txt"), "hello\n");
    Run r = run("ingest", "--db", tmp.resolve("x.duckdb").toString(), f.toString());
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("tokentime: cannot tell the format of"), r.err());
    assertFalse(Files.exists(tmp.resolve("x.duckdb")), "a failed first ingest leaves no empty database");
    assertFalse(Files.exists(tmp.resolve("x.duckdb.wal")));
    Run from = run("ingest", "--db", tmp.resolve("x.duckdb").toString(), "--from", "nonsense", f.toString());
    assertEquals(2, from.code());
    assertTrue(from.err().contains("unknown format nonsense"), from.err());
  }

  /**
   * An input named as the database (`ingest --db run1.jsonl run2.jsonl`): DuckDB took the .jsonl
   * for a file to query, the ingest said it stored 12 requests (exit 0), stored them nowhere, and
   * left a lock file beside the log. It is refused now, the file untouched.
   */
  @Test
  void anInputNamedAsTheDatabaseIsRefusedAndLeftAlone() throws Exception {
    Path log = Files.writeString(tmp.resolve("run1.jsonl"), "{\"request_id\":\"a\",\"arrival_ns\":1,\"finished_ns\":2}\n");
    Path other = Files.writeString(tmp.resolve("run2.jsonl"), "{\"request_id\":\"b\",\"arrival_ns\":1,\"finished_ns\":2}\n");
    byte[] before = Files.readAllBytes(log);
    Run r = run("ingest", "--db", log.toString(), other.toString());
    assertEquals(2, r.code(), r.out() + r.err());
    assertTrue(r.err().contains("is not a DuckDB database (an input file?)"), r.err());
    assertEquals("", r.out());
    assertArrayEquals(before, Files.readAllBytes(log));
    assertFalse(Files.exists(tmp.resolve("run1.jsonl.lock")), "no lock file beside the log");
  }

  /**
   * What a first hour met (review of 2026-12-05): a mistyped run gave "0 runs" with exit 0 from
   * summary; check and compare wrote prose around their CSV; a report under a file was an
   * internal error; a latency SLO with >= was accepted and its attainment ignored the operator.
   */
  @Test
  void mistakesOfAFirstHourAreExit2WithTheirReason() throws Exception {
    Path db = tmp.resolve("s.duckdb");
    assertEquals(0, run("ingest", "--db", db.toString(), "sample-logs/canonical").code());
    Run typo = run("summary", "--db", db.toString(), "--run", "c99");
    assertEquals(2, typo.code());
    assertEquals("tokentime: no run named c99 (runs: c1, c2, c4)\n", typo.err());
    assertEquals("", typo.out());
    Run check = run("check", "--db", db.toString(), "--slo", "ttft_p95<=1s", "--format", "csv");
    assertEquals(0, check.code(), check.err());
    assertTrue(check.out().startsWith("level,verdict,"), check.out());
    assertTrue(check.err().startsWith("SLO: "), check.err());
    assertEquals(4, check.out().lines().count(), "the header and one row per level: " + check.out());
    Run compare = run("compare", "--db", db.toString(), "c1", "c2", "--format", "csv");
    assertEquals(0, compare.code(), compare.err());
    assertTrue(compare.out().startsWith("metric,stat,A,B,"), compare.out());
    assertTrue(compare.err().startsWith("A = c1"), compare.err());
    assertTrue(compare.err().contains("intervals: "), compare.err());
    Path file = Files.writeString(tmp.resolve("exist.csv"), "precious");
    Run report = run("report", "--db", db.toString(), "-o", file.resolve("r.html").toString());
    assertEquals(2, report.code(), report.err());
    assertEquals("tokentime: cannot write " + file.resolve("r.html") + ": " + file + " is a file, not a directory\n",
        report.err());
    Run lower = run("check", "--db", db.toString(), "--slo", "ttft_p95>=1s");
    assertEquals(2, lower.code());
    assertTrue(lower.err().contains("puts a lower bound on a latency"), lower.err());
  }

  /**
   * An ingest killed between its commits and its derive step leaves runs stored and not derived:
   * summary said "0 runs" until the next ingest. A reader now finishes the step first (the state
   * is made here as the kill leaves it: the runs table not yet written, the file's runs pending).
   */
  @Test
  void aReaderFinishesADeriveStepAKilledIngestDidNotReach() throws Exception {
    Path db = tmp.resolve("k.duckdb");
    assertEquals(0, run("ingest", "--db", db.toString(), "sample-logs/canonical/c1.jsonl").code());
    String clean = run("summary", "--db", db.toString(), "--format", "csv").out();
    try (var c = java.sql.DriverManager.getConnection("jdbc:duckdb:" + db); var st = c.createStatement()) {
      st.execute("INSERT INTO _pending_runs SELECT 1, run, level_kind, level, repeat, notes FROM runs");
      st.execute("DELETE FROM runs");
    }
    Run after = run("summary", "--db", db.toString(), "--format", "csv");
    assertEquals(0, after.code(), after.err());
    assertEquals(clean, after.out());
  }

  /** --run names the run of records that name none; where every record names its own, ingest says it did not apply. */
  @Test
  void aRunOptionThatDidNotApplyIsNoted() {
    Run r = run("ingest", "--db", tmp.resolve("n.duckdb").toString(), "--run", "baseline", "sample-logs/canonical/c1.jsonl");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("  note: --run baseline did not apply: every record names its own run (c1)\n"), r.out());
    Run applied = run("ingest", "--db", tmp.resolve("m.duckdb").toString(), "--run", "baseline", "sample-logs/vllm/server.log");
    assertFalse(applied.out().contains("did not apply"), applied.out());
  }

  /** A second sweep into the folder of a first says which of the first's files it left (an ingest would mix them). */
  @Test
  void generateNamesTheFilesOfAnEarlierSweepItLeft() {
    String dir = tmp.resolve("gen").toString();
    assertEquals(0, run("generate", "--out", dir, "--levels", "4,8", "--requests", "3").code());
    Run again = run("generate", "--out", dir, "--levels", "4", "--requests", "2");
    assertEquals(0, again.code(), again.err());
    assertTrue(again.out().startsWith("wrote 1 run, 2 requests, "), again.out());
    assertEquals("note: " + dir + " also holds 1 file this run did not write (c8.jsonl): an ingest of " + dir
        + " reads it too\n", again.err());
  }

  @Test
  void unreadableDatabaseIsExit2WithoutStackTrace() throws Exception {
    Path notDb = Files.writeString(tmp.resolve("garbage.duckdb"), "this is not a database");
    Run r = run("summary", "--db", notDb.toString());
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("tokentime: cannot open database"), r.err());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    Run missing = run("summary", "--db", tmp.resolve("missing.duckdb").toString());
    assertEquals(2, missing.code());
    assertEquals("tokentime: database not found: " + tmp.resolve("missing.duckdb") + " (tokentime ingest --db "
        + tmp.resolve("missing.duckdb") + " FILES creates it; the databases beside it: garbage.duckdb)\n", missing.err());
  }

  @Test
  void strictExitsTwoAndPrintsTheFirstReasons() throws Exception {
    Files.createDirectories(tmp.resolve("c1"));
    Path f = Files.writeString(tmp.resolve("c1/run.jsonl"),
        "{\"request_id\":\"a\",\"arrival_ns\":1}\n{\"request_id\":\"b\",\"arrival_ns\":\"soon\"}\nxx\n");
    Run r = run("ingest", "--strict", "--db", tmp.resolve("x.duckdb").toString(), f.toString());
    assertEquals(2, r.code());
    assertTrue(r.err().contains("--strict: 2 rejected lines in " + f), r.err());
    assertTrue(r.err().contains("line 2: arrival_ns: expected an integer (ns), got \"soon\""), r.err());
    assertTrue(r.err().contains("line 3: not valid JSON"), r.err());
    Run without = run("ingest", "--db", tmp.resolve("y.duckdb").toString(), f.toString());
    assertEquals(0, without.code(), without.err());
    assertTrue(without.out().contains("3 lines = 1 records + 0 other + 2 rejected"), without.out());
    // the hint to see every reject names the database it is in, as one shell word
    Path spaced = tmp.resolve("my runs.duckdb");
    Run hinted = run("ingest", "--db", spaced.toString(), f.toString());
    assertTrue(hinted.out().contains("(all of them: tokentime query --db '" + spaced
        + "' \"SELECT * FROM rejects WHERE source_id = 1\")"), hinted.out());
    // export writes files: "-" is no standard output there (query is), said so
    Run dash = run("export", "--db", spaced.toString(), "rejects", "-o", "-");
    assertEquals(2, dash.code());
    assertTrue(dash.err().startsWith("tokentime: export writes files; for standard output use tokentime query"), dash.err());
    assertFalse(Files.exists(Path.of("-")));
  }

  /** A run named with terminal escapes (input text) is shown escaped by every text output. */
  @Test
  void controlCharactersFromTheInputNeverReachTheTerminalRaw() throws Exception {
    String esc = "\u001b[31mred\u001b[0m";
    Files.createDirectories(tmp.resolve("c1"));
    Path f = Files.writeString(tmp.resolve("c1/run.jsonl"),
        "{\"run\":\"\\u001b[31mred\\u001b[0m\",\"request_id\":\"a\",\"arrival_ns\":1000,\"tokens_ns\":[2000,3000,4500]}\n"
        + "{\"run\":\"\\u001b[31mred\\u001b[0m\",\"request_id\":\"b\",\"arrival_ns\":1500,\"tokens_ns\":[2500,3500,4000]}\n");
    Path db = tmp.resolve("esc.duckdb");
    assertEquals(0, run("ingest", "--db", db.toString(), f.toString()).code());
    for (String[] args : new String[][] {{"summary"}, {"summary", "--format", "markdown"},
        {"compare", esc, esc}, {"report", "--format", "markdown", "-o", "-"}}) {
      List<String> a = new java.util.ArrayList<>(List.of(args));
      a.addAll(1, List.of("--db", db.toString()));
      Run r = run(a.toArray(String[]::new));
      assertEquals(0, r.code(), a + ": " + r.err());
      assertFalse(r.out().contains("\u001b"), a + " printed a raw ESC");
      // shown escaped (Markdown escapes the bracket after it)
      assertTrue(r.out().contains("\\x1b[31mred") || r.out().contains("\\x1b\\[31mred"), a + ": " + r.out());
    }
    // a carriage return in a run's name would draw the rest of the line over its start
    Path cr = Files.writeString(tmp.resolve("c1/cr.jsonl"),
        "{\"run\":\"slow\\rfast\",\"request_id\":\"a\",\"arrival_ns\":1000,\"tokens_ns\":[2000,3000,4500]}\n");
    Run in = run("ingest", "--db", db.toString(), cr.toString());
    assertEquals(0, in.code(), in.err());
    assertFalse(in.out().contains("\r"), "ingest's lines: " + in.out());
    for (String cmd : List.of("summary", "check")) {
      Run r = cmd.equals("check") ? run(cmd, "--db", db.toString(), "--slo", "ttft_p95<=1s")
          : run(cmd, "--db", db.toString());
      assertFalse(r.out().contains("\r"), cmd + " printed a raw carriage return");
      assertTrue(r.out().contains("slow\\rfast"), cmd + ": " + r.out());
    }
  }

  @Test
  void ingestWarnsAboutBrokenInvariantsItCouldNotSeeLineByLine() throws Exception {
    Files.createDirectories(tmp.resolve("k"));
    Files.writeString(tmp.resolve("k/a.jsonl"), "{\"request_id\":\"r1\",\"seq\":0,\"ts_ns\":100}\n"
        + "{\"request_id\":\"r1\",\"seq\":1,\"ts_ns\":300}\n");
    Files.writeString(tmp.resolve("k/b.jsonl"), "{\"request_id\":\"r1\",\"seq\":2,\"ts_ns\":200}\n");
    Run r = run("ingest", "--db", tmp.resolve("x.duckdb").toString(), tmp.resolve("k").toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("warning: 1 violation of \"token timestamps never decrease in seq order\""
        + " (SELECT * FROM check_token_order)"), r.out());
  }

  @Test
  void queryStreamsItsResultInsteadOfBuildingItWhole() throws Exception {
    Path db = tmp.resolve("s.duckdb");
    assertEquals(0, run("ingest", "--db", db.toString(), "sample-logs/canonical").code());
    // rows past the first few raise an error: a result built whole before the first row is
    // read fails, a streamed one stops when the rows shown are read
    String late = "SELECT CASE WHEN i < 5000000 THEN i ELSE error('computed too far') END AS i FROM range(10000000) r(i)";
    Run r = run("query", "--db", db.toString(), "--max-rows", "3", late);
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("0") && r.out().contains("2"), r.out());
  }

  @Test
  void usageErrorsAreExit2() {
    Run r = run("ingest");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("Missing required parameter"), r.err());
    assertEquals(2, run("frobnicate").code());
  }

  @Test
  void helpTeachesWithExamples() {
    Run root = run("--help");
    assertEquals(0, root.code());
    assertTrue(root.out().contains("analyze"), root.out());
    assertTrue(root.out().contains("Exit codes: 0 ok, 1 SLO not met"), root.out());
    for (String cmd : new String[] {"ingest", "analyze", "summary", "query", "generate"}) {
      Run h = run(cmd, "--help");
      assertEquals(0, h.code(), cmd);
      assertTrue(h.out().contains("Examples:"), cmd + " --help has examples");
    }
  }

  @Test
  void analyzeQueryAndFormatsWorkTogether() throws Exception {
    Path db = tmp.resolve("kept.duckdb");
    Run a = run("analyze", "--db", db.toString(), "sample-logs", "--format", "json");
    assertEquals(0, a.code(), a.err());
    assertTrue(a.out().startsWith("{"), a.out());
    assertTrue(a.err().contains("ingested sample-logs/canonical/c1.jsonl"), a.err());
    assertTrue(a.err().contains("skipped 1 file"), "README.md is listed as skipped: " + a.err());
    // the canonical runs (sample-logs/peers and sample-logs/vllm add runs of their own)
    Run q = run("query", "--db", db.toString(), "SELECT run, count(*) AS n FROM requests"
        + " WHERE run IN ('c1', 'c2', 'c4', 'vllm') GROUP BY run ORDER BY run", "--format", "csv");
    // sample-logs/vllm: 6 requests seen by the log and by the spans (two rows each, linked)
    assertEquals("run,n\nc1,12\nc2,12\nc4,12\nvllm,12\n", q.out());
    Run md = run("query", "--db", db.toString(), "level_summary", "--format", "markdown");
    assertTrue(md.out().startsWith("| level_kind | level |"), md.out());
    Run smd = run("summary", "--db", db.toString(), "--format", "markdown");
    assertTrue(smd.out().startsWith("## tokentime summary\n"), smd.out());
    assertTrue(smd.out().contains("| metric | count | mean | p50 | p90 | p95 | p99 |"), smd.out());
    assertTrue(smd.out().contains("### Run c4 (concurrency 4)"), smd.out());
    Run scsv = run("summary", "--db", db.toString(), "--format", "csv", "--run", "c2");
    List<String> rows = scsv.out().lines().toList();
    assertEquals(1 + Summary.METRICS.size(), rows.size(), "a header and one row per metric of run c2: " + scsv.out());
    assertTrue(rows.get(0).startsWith("run,level_kind,level,repeat,ok_requests,failed_requests,duration_s,"), rows.get(0));
    assertTrue(rows.get(1).startsWith("c2,concurrency,2,,9,1,"), rows.get(1));
    Run warm = run("summary", "--db", db.toString(), "--run", "c1", "--warmup-requests", "5");
    assertTrue(warm.out().contains("analysis window: first 5 requests of each run are warm-up"), warm.out());
    assertTrue(warm.out().contains("6 ok, 1 failed, 5 excluded"), warm.out());
    Run f = run("formats");
    assertTrue(f.out().contains("tokentime-jsonl"), f.out());
    Run bad = run("query", "--db", db.toString(), "SELECT nonsense FROM nowhere");
    assertEquals(2, bad.code());
    assertTrue(bad.err().startsWith("tokentime: database error: "), bad.err());
    assertFalse(bad.err().contains("\tat "), "no stack trace");
  }

  @Test
  void queryWithoutSqlListsTheViewsAndTableMacrosOneLineEach() throws Exception {
    Path db = tmp.resolve("v.duckdb");
    assertEquals(0, run("ingest", "--db", db.toString(), "sample-logs/canonical/c1.jsonl").code());
    Run r = run("query", "--db", db.toString(), "--format", "csv");
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals("name,kind,grain", lines.get(0));
    assertTrue(lines.contains("token_gaps,view,one row per content chunk after the first of its request"), r.out());
    assertTrue(lines.contains("itl_histogram(bucket_ms),table macro,one row per run per bucket"), r.out());
    assertTrue(lines.stream().noneMatch(l -> l.startsWith("requests,") || l.startsWith("_")),
        "tables and helpers are not listed: " + r.out());
    assertTrue(r.err().contains("tt_docs"), r.err());
  }

  @Test
  void databaseErrorsKeepDuckDbsSuggestions() throws Exception {
    Path db = tmp.resolve("e.duckdb");
    assertEquals(0, run("ingest", "--db", db.toString(), "sample-logs/canonical/c1.jsonl").code());
    Run column = run("query", "--db", db.toString(), "SELECT nonsense FROM token_gaps");
    assertEquals(2, column.code());
    assertTrue(column.err().startsWith("tokentime: database error: Binder Error: Referenced column \"nonsense\""),
        column.err());
    assertTrue(column.err().contains("\nCandidate bindings: "), column.err());
    Run table = run("query", "--db", db.toString(), "SELECT * FROM tokn_gaps");
    assertEquals(2, table.code());
    // a whole-table SELECT of a mistyped name is told in tokentime's words, with the same guess
    assertTrue(table.err().startsWith("tokentime: no table or view named tokn_gaps; did you mean token_gaps?"),
        table.err());
    Run joined = run("query", "--db", db.toString(), "SELECT * FROM runs JOIN tokn_gaps USING (run)");
    assertEquals(2, joined.code());
    assertTrue(joined.err().contains("\nDid you mean \"token_gaps\"?"), joined.err());
  }

  @Test
  void typosInCommandsAndOptionsGetSuggestions() {
    Run command = run("summery");
    assertEquals(2, command.code());
    assertEquals("tokentime: unknown command summery\ndid you mean tokentime summary?\n"
        + "(tokentime --help shows the usage)\n", command.err());
    Run option = run("summary", "--fromat", "json");
    assertEquals(2, option.code());
    assertTrue(option.err().contains("\ndid you mean --format?\n(tokentime summary --help shows the usage)\n"),
        option.err());
    Run far = run("frobnicate");
    assertFalse(far.err().contains("did you mean"), "nothing is close: " + far.err());
    for (Run r : List.of(command, option, far)) {
      assertFalse(r.err().contains("  "), "no double spaces: " + r.err());
    }
  }

  @Test
  void helpIsCleanAndComplete() {
    Run compare = run("compare", "--help");
    assertEquals(0, compare.code());
    assertEquals("", compare.err(), "no picocli warning about the % sign");
    assertTrue(compare.out().contains("the 95 % bootstrap") || compare.out().contains("95 %"), compare.out());
    assertFalse(compare.out().contains("WARN"), compare.out());
    Run query = run("query", "--help");
    assertTrue(query.out().contains("arrow"), query.out());
    String generate = run("generate", "--help").out().replaceAll("\\s+", " ");
    for (String d : new String[] {"(default: 1,2,4)", "(default: 20)", "(default: 0)", "(default: 200)",
        "(0 = none; default: 0)", "(default: 8)", "(default: 42)", "default: requests", "default: steps"}) {
      assertTrue(generate.contains(d), d + " in " + generate);
    }
  }

  @Test
  void debugIsOffForZeroFalseOffAndEmpty() {
    for (String off : new String[] {null, "", "0", "false", "OFF", "no"}) {
      assertFalse(BaseCommand.debugOn(off), off);
    }
    for (String on : new String[] {"1", "true", "yes"}) {
      assertTrue(BaseCommand.debugOn(on), on);
    }
  }

  @Test
  void exportCreatesTheDirectoryOfItsFile() throws Exception {
    Path db = tmp.resolve("x.duckdb");
    assertEquals(0, run("ingest", "--db", db.toString(), "sample-logs/canonical/c1.jsonl").code());
    Path out = tmp.resolve("out/deeper/latency.csv");
    Run r = run("export", "--db", db.toString(), "SELECT 1 AS x", "-o", out.toString());
    assertEquals(0, r.code(), r.err());
    assertEquals("x\n1\n", Files.readString(out));
  }
}
