package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another process (a notebook, say) holds the database: tokentime names that process and says
 * what still works, instead of DuckDB's hint about its own CLI.
 */
class LockedDatabaseIT {
  @TempDir
  Path tmp;

  @Test
  void aReaderElsewhereBlocksIngestButNotReads() throws Exception {
    Path db = ingested();
    Process holder = hold(db, "read-only");
    try {
      // no wait: the holder's reason at once
      Cli.Result ingest = Cli.runWaiting(0, "ingest", "--db", db.toString(), "--replace", "sample-logs/canonical/c1.jsonl");
      assertEquals(2, ingest.code(), ingest.err());
      assertEquals("tokentime: " + db + " is open in process " + holder.pid() + " (", ingest.err().substring(0,
          Math.min(ingest.err().length(), ("tokentime: " + db + " is open in process " + holder.pid() + " (").length())),
          ingest.err());
      assertTrue(ingest.err().contains("Reads still work meanwhile"), ingest.err());
      assertTrue(!ingest.err().contains("-readonly"), ingest.err());
      Cli.Result summary = Cli.run("summary", "--db", db.toString(), "--format", "csv");
      assertEquals(0, summary.code(), "reads work beside another reader: " + summary.err());
    } finally {
      release(holder);
    }
  }

  @Test
  void aWriterElsewhereIsNamedWhenReading() throws Exception {
    Path db = ingested();
    Process holder = hold(db, "read-write");
    try {
      Cli.Result summary = Cli.runWaiting(1, "summary", "--db", db.toString());
      assertEquals(2, summary.code(), summary.err());
      List<String> said = summary.err().lines().toList();
      assertEquals("tokentime: waiting for another process that has " + db + " open for writing (up to 1 s,"
          + " TOKENTIME_LOCK_WAIT)", said.get(0));
      assertTrue(said.get(1).startsWith("tokentime: " + db + " is open for writing in process " + holder.pid()),
          summary.err());
      assertTrue(summary.err().contains("read_only=True"), summary.err());
    } finally {
      release(holder);
    }
  }

  /**
   * A reader waits for a writer elsewhere to close the file, as one writer waits for another
   * (before, it failed at once with exit 2 while two ingests waited for each other).
   */
  @Test
  void aReaderWaitsForAWriterElsewhereToClose() throws Exception {
    Path db = ingested();
    Process holder = hold(db, "read-write");
    Thread closer = new Thread(() -> {
      try {
        Thread.sleep(3000);
        release(holder);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    closer.start();
    try {
      Cli.Result summary = Cli.runWaiting(120, "summary", "--db", db.toString(), "--format", "csv");
      assertEquals(0, summary.code(), summary.err());
      assertTrue(summary.err().startsWith("tokentime: waiting for another process that has " + db + " open for writing"),
          summary.err());
      assertTrue(summary.out().startsWith("run,"), summary.out());
    } finally {
      closer.join();
    }
  }

  private Path ingested() throws Exception {
    Path db = tmp.resolve("run.duckdb");
    Cli.Result ingest = Cli.run("ingest", "--db", db.toString(), "sample-logs/canonical");
    assertEquals(0, ingest.code(), ingest.err());
    return db;
  }

  private static Process hold(Path db, String mode) throws Exception {
    Path duckdbJar;
    try (Stream<Path> s = Files.list(Path.of("target/lib"))) {
      duckdbJar = s.filter(p -> p.getFileName().toString().startsWith("duckdb_jdbc-")).findFirst().orElseThrow();
    }
    String cp = Path.of("target/test-classes") + java.io.File.pathSeparator + duckdbJar;
    Process p = new ProcessBuilder(List.of(Cli.javaBin(), "-cp", cp, LockHolder.class.getName(), db.toString(), mode))
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    assertEquals("open", r.readLine(), "the holder opened the database");
    return p;
  }

  private static void release(Process p) throws Exception {
    p.getOutputStream().close();
    if (!p.waitFor(1, TimeUnit.MINUTES)) {
      p.destroyForcibly();
    }
  }
}
