package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interrupted in the middle of an ingest: the built CLI says it was interrupted and what of the
 * ingest is kept, on stderr, and the database opens. Before, it ended with no word. The tests send
 * SIGTERM (exit 143), which takes the same path as Ctrl-C's SIGINT (exit 130): a build started in
 * the background (nohup, a CI runner's job) starts its children with SIGINT ignored, and a JVM
 * keeps it ignored.
 */
class InterruptIT {
  @TempDir
  Path tmp;

  /**
   * An Error no command catches (the JVM out of heap) is an internal error, exit 3, saying so; it
   * was the JVM's exit 1 ("SLO not met") with the shutdown hook's "interrupted" after its trace.
   */
  @Test
  void anOutOfMemoryErrorIsExit3NotAnInterrupt() throws Exception {
    Path err = tmp.resolve("oom-err.txt");
    ProcessBuilder pb = new ProcessBuilder(Cli.javaBin(), "-Xmx12m", "-jar", Cli.jar().toString(), "ingest", "--db",
        tmp.resolve("oom.duckdb").toString(), "src/test/resources/real-logs/console/");
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile());
    Process p = pb.start();
    assertTrue(p.waitFor(2, TimeUnit.MINUTES));
    String e = Files.readString(err, StandardCharsets.UTF_8);
    assertEquals(3, p.exitValue(), e);
    assertTrue(e.contains("tokentime: internal error: java.lang.OutOfMemoryError"), e);
    assertTrue(!e.contains("interrupted"), e);
  }

  static final String INTERRUPTED_INGEST = "tokentime: interrupted. Each file is stored whole or not at all: the"
      + " files reported as ingested are kept, the one being read is not (a database this ingest created is removed"
      + " when it holds none); the same command again reads the rest (stored files are left as they are).\n";

  /**
   * An ingest into a database that holds files, interrupted: the database and its files stay, and
   * it opens.
   */
  @Test
  void anInterruptedIngestSaysWhatIsKept() throws Exception {
    Path db = tmp.resolve("x.duckdb");
    Cli.Result first = Cli.run("ingest", "--db", db.toString(), "sample-logs/canonical/c1.jsonl");
    assertEquals(0, first.code(), first.err());
    Path err = tmp.resolve("err.txt");
    Path out = tmp.resolve("out.txt");
    Path temp = Files.createDirectories(tmp.resolve("temp"));
    // the copy of standard input made: the ingest has opened the database and is reading
    Process p = interruptedStdinIngest(db, temp, out, err, () -> !list(temp).isEmpty());
    assertEquals(143, p.exitValue());
    assertEquals(INTERRUPTED_INGEST, Files.readString(err, StandardCharsets.UTF_8));
    assertEquals("", Files.readString(out, StandardCharsets.UTF_8));
    Cli.Result s = Cli.run("summary", "--db", db.toString(), "--format", "csv");
    assertEquals(0, s.code(), "the database opens after the interrupt: " + s.err());
    assertTrue(s.out().lines().anyMatch(l -> l.startsWith("c1,")), "the run stored before is kept: " + s.out());
    assertEquals(List.of(), list(temp), "the copy of standard input is deleted");
  }

  /**
   * A first ingest interrupted before it stored a file: its new database, write-ahead log and
   * lock file are removed, as a failed first ingest's are. It left an empty database that summary
   * read as 0 runs, exit 0.
   */
  @Test
  void anInterruptedFirstIngestThatStoredNothingLeavesNoDatabase() throws Exception {
    Path db = tmp.resolve("new.duckdb");
    Path err = tmp.resolve("err.txt");
    Path out = tmp.resolve("out.txt");
    Path temp = Files.createDirectories(tmp.resolve("temp"));
    // reading standard input that never ends (its copy made): the ingest is under way, its database made
    Process p = interruptedStdinIngest(db, temp, out, err, () -> !list(temp).isEmpty());
    assertEquals(143, p.exitValue());
    assertEquals(INTERRUPTED_INGEST, Files.readString(err, StandardCharsets.UTF_8));
    assertEquals("", Files.readString(out, StandardCharsets.UTF_8));
    assertEquals(List.of(), list(tmp).stream().filter(f -> f.startsWith("new.duckdb")).toList(),
        "no database, write-ahead log or lock file is left");
    Cli.Result s = Cli.run("summary", "--db", db.toString());
    assertEquals(2, s.code(), s.out() + s.err());
    assertEquals("", s.out());
    assertEquals(List.of(), list(temp), "the copy of standard input is deleted");
  }

  interface Ready {
    boolean test() throws Exception;
  }

  /** ingest --db DB - on a standard input that never ends, sent SIGTERM once {@code ready}. */
  private static Process interruptedStdinIngest(Path db, Path temp, Path out, Path err, Ready ready) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(Cli.javaBin(), "-Xmx512m", "-Djava.io.tmpdir=" + temp, "-jar",
        Cli.jar().toString(), "ingest", "--db", db.toString(), "-");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!ready.test() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertTrue(ready.test(), "the ingest is under way");
      new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor();
      assertTrue(p.waitFor(1, TimeUnit.MINUTES));
    } finally {
      p.destroyForcibly();
    }
    return p;
  }

  /** analyze without --db works in a temporary database: an interrupt left it behind, whole. */
  @Test
  void anInterruptedAnalyzeLeavesNoTemporaryDatabase() throws Exception {
    Path temp = Files.createDirectories(tmp.resolve("temp"));
    Path err = tmp.resolve("err.txt");
    ProcessBuilder pb = new ProcessBuilder(Cli.javaBin(), "-Xmx512m", "-Djava.io.tmpdir=" + temp, "-jar",
        Cli.jar().toString(), "analyze", "-");
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile());
    Process p = pb.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      // the temporary database and the copy of standard input: the command is reading
      while (list(temp).size() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertEquals(2, list(temp).size(), list(temp).toString());
      new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor();
      assertTrue(p.waitFor(1, TimeUnit.MINUTES));
    } finally {
      p.destroyForcibly();
    }
    assertEquals(143, p.exitValue());
    assertEquals("tokentime: interrupted; no summary was printed.\n", Files.readString(err, StandardCharsets.UTF_8));
    assertEquals(List.of(), list(temp));
  }

  private static List<String> list(Path dir) throws java.io.IOException {
    try (var s = Files.list(dir)) {
      return s.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }
}
