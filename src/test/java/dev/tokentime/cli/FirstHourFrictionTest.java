package dev.tokentime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.cli.CliTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a new user met in a first hour with the CLI, end to end: the listing orders, the files an
 * ingest of a folder leaves out, a failed first ingest, a pasted traceback.
 */
class FirstHourFrictionTest {
  @TempDir
  Path tmp;

  private static Run run(String... args) {
    return CliTest.run(args);
  }

  /**
   * `query runs` listed the runs in the order the derive step wrote them (c16, c4, c2 when read in
   * that order; c2, c1, c4 from a parallel ingest of sample-logs/): now by level, then name.
   */
  @Test
  void queryRunsListsRunsByLevelThenName() throws Exception {
    Path gen = tmp.resolve("gen");
    assertEquals(0, run("generate", "--out", gen.toString(), "--levels", "16,4,2", "--requests", "2",
        "--mean-output", "5").code());
    Path other = Files.createDirectories(tmp.resolve("zeta"));
    Files.copy(Path.of("sample-logs/vllm/server.log"), other.resolve("server.log"));
    String db = tmp.resolve("r.duckdb").toString();
    // one ingest each, so the runs are written in this order: no level first, then c16, c4, c2
    for (String f : List.of(other.resolve("server.log").toString(), gen.resolve("c16.jsonl").toString(),
        gen.resolve("c4.jsonl").toString(), gen.resolve("c2.jsonl").toString())) {
      Run r = run("ingest", "--db", db, f);
      assertEquals(0, r.code(), r.err());
    }
    Run q = run("query", "--db", db, "--format", "csv", "runs");
    assertEquals(0, q.code(), q.err());
    assertEquals(List.of("run", "c2", "c4", "c16", "zeta"),
        q.out().lines().map(l -> l.split(",", -1)[0]).toList(), q.out());
  }

  /** `query checks` came in a different order from one call to the next (a UNION ALL). */
  @Test
  void queryChecksListsTheChecksInTheirDeclaredOrder() throws Exception {
    String db = tmp.resolve("c.duckdb").toString();
    assertEquals(0, run("ingest", "--db", db, "sample-logs/canonical/c1.jsonl").code());
    List<String> want = List.of("check_name", "check_source_lines", "check_request_timestamps", "check_token_order",
        "check_token_seq_unique", "check_tokens_have_request", "check_stub_requests", "check_ttft_parts");
    for (int i = 0; i < 5; i++) {
      Run q = run("query", "--db", db, "--format", "csv", "checks");
      assertEquals(want, q.out().lines().map(l -> l.split(",", -1)[0]).toList(), q.out());
    }
  }

  /**
   * A first ingest that read nothing (a folder of notes: exit 2) removed its empty database but
   * left x.duckdb.lock beside the path; one stopped by --strict at a rejected line left the empty
   * database and its lock, and the next summary said "0 runs" with exit 0. Now nothing is left,
   * and the next command says there is no database yet.
   */
  @Test
  void aFailedFirstIngestLeavesNothingBesideTheDatabasePath() throws Exception {
    Path notes = Files.createDirectories(tmp.resolve("notes"));
    Files.writeString(notes.resolve("README.txt"), "what I ran\n");
    Path dbDir = Files.createDirectories(tmp.resolve("db"));
    String db = dbDir.resolve("x.duckdb").toString();
    Run r = run("ingest", "--db", db, notes.toString());
    assertEquals(2, r.code(), r.err());
    assertEquals(List.of(), list(dbDir));

    Path bad = Files.writeString(tmp.resolve("c1.jsonl"), "{\"request_id\":\"a\",\"arrival_ns\":1,\"finished_ns\":2}\n"
        + "{\"request_id\":\"b\",\"arrival_ns\":\"x\"}\n");
    Run strict = run("ingest", "--strict", "--db", db, bad.toString());
    assertEquals(2, strict.code(), strict.err());
    assertTrue(strict.err().startsWith("tokentime: --strict: 1 rejected line in "), strict.err());
    assertEquals(List.of(), list(dbDir));
    Run analyze = run("analyze", "--strict", "--db", db, bad.toString());
    assertEquals(2, analyze.code(), analyze.err());
    assertEquals(List.of(), list(dbDir));

    Run next = run("summary", "--db", db);
    assertEquals(2, next.code(), next.out());
    assertTrue(next.err().startsWith("tokentime: database not found: " + db + " (tokentime ingest --db "), next.err());

    // a database that was there keeps its data, and its lock file, after a failed ingest
    assertEquals(0, run("ingest", "--db", db, "sample-logs/canonical/c1.jsonl").code());
    assertEquals(2, run("ingest", "--strict", "--db", db, bad.toString()).code());
    assertEquals(List.of("x.duckdb", "x.duckdb.lock"), list(dbDir));
    assertTrue(run("summary", "--db", db).out().startsWith("tokentime summary: 1 run, 1 source file"));
  }

  /**
   * An ingest of a folder with notes and a plot beside the log said "skipped 15 files (format not
   * recognised …)" and named all fifteen on one line, with no word on what one was or how to see
   * why: now ten names, each with what its content shows where that says something, "… and N
   * more", and the --explain hint; --explain of the folder says why each was not read.
   */
  @Test
  void skippedFilesAreNamedWithTheirReasonAndTheExplainHint() throws Exception {
    Path run = Files.createDirectories(tmp.resolve("logs/c16"));
    Files.copy(Path.of("sample-logs/vllm/server.log"), run.resolve("server.log"));
    Files.write(run.resolve("a-plot.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13});
    for (int i = 1; i <= 12; i++) {
      Files.writeString(run.resolve(String.format("note%02d.txt", i)), "what I ran, take " + i + "\n");
    }
    String db = tmp.resolve("s.duckdb").toString();
    Run r = run("ingest", "--db", db, tmp.resolve("logs").toString());
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(4, lines.size(), r.out());
    StringBuilder want = new StringBuilder("skipped 13 files (format not recognised; name one with --from): "
        + run.resolve("a-plot.png") + " (it is binary data, not text a server or a load-test tool writes), ");
    for (int i = 1; i <= 9; i++) {
      want.append(run.resolve(String.format("note%02d.txt", i))).append(", ");
    }
    want.append("… and 3 more");
    assertEquals(want.toString(), lines.get(1));
    assertEquals("  (why a file was not read: tokentime ingest --explain FILE; the folder instead of FILE: each of them)",
        lines.get(2));

    Run explain = run("ingest", "--explain", tmp.resolve("logs").toString());
    assertEquals(0, explain.code(), explain.err());
    assertTrue(explain.out().contains(run.resolve("note12.txt") + ": not read: format not recognised: no format knows"
        + " its first lines (the first: \"what I ran, take 12\"); tokentime formats lists the formats read\n"), explain.out());
    assertTrue(explain.out().contains(run.resolve("a-plot.png") + ": not read: format not recognised: it is binary data,"
        + " not text a server or a load-test tool writes\n"), explain.out());
    assertTrue(explain.out().contains(run.resolve("server.log") + " (vllm-log): 289 lines = 287 records"), explain.out());
  }

  private static final Path TRACEBACKS = Path.of("src/test/resources/constructed/client-traceback");

  /**
   * A pasted traceback of vLLM's benchmark client (frames under a checkout's vllm/benchmarks/) was
   * sniffed as a vLLM server log and read as one server crash. Now its format is not told, and
   * read as vllm-log its lines are other lines; a bare traceback with frames in vLLM's server
   * package is still a crash.
   */
  @Test
  void aClientsTracebackIsNoServerCrash() throws Exception {
    String client = TRACEBACKS.resolve("benchmark-client-error.txt").toString();
    Run sniffed = run("ingest", "--explain", client);
    assertEquals(2, sniffed.code(), sniffed.out());
    assertTrue(sniffed.err().contains("format not recognised"), sniffed.err());
    Run forced = run("ingest", "--explain", "--from", "vllm-log", client);
    assertEquals(0, forced.code(), forced.err());
    assertTrue(forced.out().startsWith(client + " (vllm-log): 8 lines = 0 records + 8 other + 0 rejected\n"), forced.out());
    assertTrue(forced.out().matches("(?s).*\n  traceback +engine_events +0 +0\n.*"), forced.out());

    String server = TRACEBACKS.resolve("server-import-crash.txt").toString();
    Run crash = run("ingest", "--explain", server);
    assertEquals(0, crash.code(), crash.err());
    assertTrue(crash.out().startsWith(server + " (vllm-log): 6 lines = 1 records + 5 other + 0 rejected\n"), crash.out());
    assertTrue(crash.out().matches("(?s).*\n  traceback +engine_events +1 +0\n.*"), crash.out());
    String db = tmp.resolve("t.duckdb").toString();
    assertEquals(0, run("ingest", "--db", db, server).code());
    Run events = run("query", "--db", db, "--format", "csv", "SELECT kind, detail FROM engine_events");
    assertEquals("kind,detail\ncrash,ModuleNotFoundError: No module named 'uvloop'\n", events.out());
  }

  /**
   * Help that promised more than the command does: query --max-rows 0 said "all" (a text table
   * holds 100,000), generate said "in the canonical formats" (it also writes a vLLM log), and
   * ingest --explain did not say it tells why a file is not read.
   */
  @Test
  void helpSaysWhatTheCommandsDo() {
    String query = run("query", "--help").out().replaceAll("\\s+", " ");
    assertTrue(query.contains("(default 100; 0 = all a table holds, 100,000)"), query);
    String generate = run("generate", "--help").out().replaceAll("\\s+", " ");
    assertTrue(generate.contains("in the canonical formats or as a vLLM server log"), generate);
    String ingest = run("ingest", "--help").out().replaceAll("\\s+", " ");
    assertTrue(ingest.contains("for a file no format claims, why it is not read."), ingest);
  }

  private static List<String> list(Path dir) throws java.io.IOException {
    try (var s = Files.list(dir)) {
      return s.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }
}
