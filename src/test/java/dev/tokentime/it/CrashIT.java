package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built CLI killed (SIGKILL) or interrupted (SIGINT, as Ctrl-C) at points across a
 * multi-file parallel ingest leaves a database that opens read-only, and running the same
 * ingest again ends with exactly the counts of a clean ingest: every table, the derived rows
 * (ITL gaps, per-request aggregates, gap statistics) and the runs. Before, a kill after the
 * files committed left runs and statistics empty and the re-run said "unchanged".
 */
class CrashIT {
  @TempDir
  Path tmp;

  private static final String COUNTS = "SELECT (SELECT count(*) FROM sources) s, (SELECT count(*) FROM requests) r, "
      + "(SELECT count(*) FROM tokens) t, (SELECT count(*) FROM tokens WHERE gap_ns IS NOT NULL) g, "
      + "(SELECT count(*) FROM _request_tokens) rt, (SELECT string_agg(run || ':' || coalesce(level, -1), ',' ORDER BY run) FROM runs) u, "
      + "(SELECT string_agg(run || ':' || n, ',' ORDER BY run) FROM _gap_stats) gs, (SELECT count(*) FROM rejects) j, "
      + "(SELECT count(*) FROM _pending_runs) p, (SELECT count(DISTINCT source_id) FROM tokens) ts";

  private static String counts(Path db) throws Exception {
    Cli.Result r = Cli.run("query", "--db", db.toString(), "--format", "csv", COUNTS);
    assertEquals(0, r.code(), "a read-only query after the crash: " + r.err());
    return r.out().strip();
  }

  private Path input(int seed, long tokens) throws Exception {
    Path dir = tmp.resolve("in" + seed);
    Cli.Result g = Cli.run("generate", "--out", dir.toString(), "--levels", "4,8,16", "--form", "tokens",
        "--tokens", Long.toString(tokens), "--seed", Integer.toString(seed));
    assertEquals(0, g.code(), g.err());
    return dir;
  }

  private static Process ingest(Path db, Path in) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(Cli.javaBin(), "-Xmx512m", "-jar", Cli.jar().toString(),
        "ingest", "--db", db.toString(), "--jobs", "2", in.toString());
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    return pb.start();
  }

  /** Kills an ingest after {@code delayMs} (SIGKILL, or SIGINT), re-runs it, compares. */
  private void killAndRerun(Path in, String expected, long delayMs, boolean sigint, String label) throws Exception {
    Path db = tmp.resolve("k-" + label + ".duckdb");
    Process p = ingest(db, in);
    boolean finished = p.waitFor(delayMs, TimeUnit.MILLISECONDS);
    if (!finished) {
      if (sigint) {
        new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
      } else {
        p.destroyForcibly(); // SIGKILL
      }
      assertTrue(p.waitFor(2, TimeUnit.MINUTES));
    }
    if (Files.exists(db)) {
      counts(db); // opens read-only and answers
    }
    Cli.Result again = Cli.run("ingest", "--db", db.toString(), "--jobs", "2", in.toString());
    assertEquals(0, again.code(), label + ": " + again.err() + again.out());
    assertEquals(expected, counts(db), label + " (killed after " + delayMs + " ms, finished: " + finished + ")");
  }

  private void run(int seed, long tokens, int points, boolean alsoSigint) throws Exception {
    Path in = input(seed, tokens);
    Path clean = tmp.resolve("clean" + seed + ".duckdb");
    long t0 = System.nanoTime();
    Cli.Result c = Cli.run("ingest", "--db", clean.toString(), "--jobs", "2", in.toString());
    long cleanMs = (System.nanoTime() - t0) / 1_000_000;
    assertEquals(0, c.code(), c.err());
    String expected = counts(clean);
    assertTrue(expected.contains(",3,") || expected.lines().count() == 2, expected);
    Random rnd = new Random(seed);
    List<String> labels = new ArrayList<>();
    for (int i = 0; i < points; i++) {
      // spread over the whole run, start-up included, with a jitter per seed
      double f = (i + 0.2 + 0.6 * rnd.nextDouble()) / points;
      boolean sigint = alsoSigint && i % 3 == 1;
      String label = seed + "-" + i + (sigint ? "-int" : "-kill");
      labels.add(label);
      killAndRerun(in, expected, Math.max(200, (long) (f * cleanMs)), sigint, label);
    }
  }

  @Test
  void killedAtThreePointsAReRunEqualsACleanIngest() throws Exception {
    run(1, 60_000, 3, true);
  }

  @Test
  @Tag("slow")
  void killedAtTwentyPointsOverSeedsAReRunEqualsACleanIngest() throws Exception {
    for (int seed = 2; seed <= 5; seed++) {
      run(seed, 1_500_000, 5, true);
    }
  }
}
