package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two first ingests into one new database path, started together: both must end with their data
 * stored (the second waits for the first), never with one source lost or a file that "holds no
 * tokentime data" (the losing copy of the empty template used to delete the winner's file). And
 * a writer that may not wait fails naming the lock.
 */
class ConcurrentWritersIT {
  @TempDir
  Path tmp;

  private Process start(Path db, Path err, String... inputs) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Cli.javaBin(), "-Xmx512m", "-jar", Cli.jar().toString(),
        "ingest", "--db", db.toString()));
    cmd.addAll(List.of(inputs));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile());
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    return pb.start();
  }

  private static String counts(Path db) throws Exception {
    Cli.Result r = Cli.run("query", "--db", db.toString(), "--format", "csv",
        "SELECT (SELECT count(*) FROM sources) AS s, (SELECT count(*) FROM requests) AS r, "
            + "(SELECT count(*) FROM tokens) AS t, (SELECT count(*) FROM runs) AS u");
    assertEquals(0, r.code(), r.err());
    return r.out().strip();
  }

  @Test
  void twoFirstIngestsIntoOneNewPathBothStoreTheirData() throws Exception {
    Path ref = tmp.resolve("ref.duckdb");
    assertEquals(0, Cli.run("ingest", "--db", ref.toString(), "sample-logs/peers/aiperf").code());
    assertEquals(0, Cli.run("ingest", "--db", ref.toString(), "sample-logs/peers/genai-perf").code());
    String expected = counts(ref);
    assertTrue(expected.lines().skip(1).findFirst().orElseThrow().matches("4,\\d+,\\d+,\\d+"), expected);
    for (int round = 0; round < 2; round++) {
      Path db = tmp.resolve("race" + round + ".duckdb");
      Process a = start(db, tmp.resolve("a" + round), "sample-logs/peers/aiperf");
      Process b = start(db, tmp.resolve("b" + round), "sample-logs/peers/genai-perf");
      assertTrue(a.waitFor(3, TimeUnit.MINUTES) && b.waitFor(3, TimeUnit.MINUTES));
      assertEquals(0, a.exitValue(), Files.readString(tmp.resolve("a" + round)));
      assertEquals(0, b.exitValue(), Files.readString(tmp.resolve("b" + round)));
      assertEquals(expected, counts(db), "round " + round);
    }
  }

  @Test
  void aWriterThatMayNotWaitFailsNamingTheLock() throws Exception {
    Path db = tmp.resolve("held.duckdb");
    assertEquals(0, Cli.run("ingest", "--db", db.toString(), "sample-logs/peers/aiperf").code());
    try (FileChannel ch = FileChannel.open(Path.of(db + ".lock"), StandardOpenOption.WRITE);
        FileLock held = ch.lock()) {
      List<String> cmd = List.of(Cli.javaBin(), "-Xmx512m", "-jar", Cli.jar().toString(),
          "ingest", "--db", db.toString(), "sample-logs/peers/genai-perf");
      ProcessBuilder pb = new ProcessBuilder(cmd);
      pb.environment().put("TOKENTIME_LOCK_WAIT", "0");
      Path err = tmp.resolve("err");
      pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile());
      Process p = pb.start();
      assertTrue(p.waitFor(2, TimeUnit.MINUTES));
      String e = Files.readString(err);
      assertEquals(2, p.exitValue(), e);
      assertTrue(e.contains("is being written by another process") && e.contains("TOKENTIME_LOCK_WAIT"), e);
    }
  }
}
