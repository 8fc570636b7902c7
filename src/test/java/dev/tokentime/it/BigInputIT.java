package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Big inputs hold in flat memory: 50 M tokens (about 1 GB of canonical JSONL) ingest through the
 * packaged jar, as users run it, with peak RSS under 1.5 GB. Slow: run with mvn -B verify -Pslow.
 * It asserts memory and correctness, never time; the time is printed for BENCHMARKS.md.
 */
@Tag("slow")
class BigInputIT {
  static final long TOKENS = Long.getLong("tokentime.bigTokens", 50_000_000L);
  static final long RSS_LIMIT_KB = 1_500_000;

  @TempDir
  Path tmp;

  @Test
  void fiftyMillionTokensIngestUnder1_5GbPeakRss() throws Exception {
    Path in = tmp.resolve("in");
    Cli.Result g = Cli.run("generate", "--out", in.toString(), "--levels", "32", "--tokens",
        Long.toString(TOKENS), "--mean-output", "500", "--slots", "32");
    assertEquals(0, g.code(), g.err());
    long bytes = Files.size(in.resolve("c32.jsonl"));
    Path db = tmp.resolve("big.duckdb");
    List<String> cmd = new ArrayList<>(List.of(Cli.javaBin(), "-Xmx512m", "-jar",
        Cli.jar().toAbsolutePath().toString(), "ingest", "--db", db.toString(), in.toString()));
    long t0 = System.nanoTime();
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(tmp.resolve("out.txt").toFile()).start();
    long peakKb = 0;
    while (!p.waitFor(100, TimeUnit.MILLISECONDS)) {
      peakKb = Math.max(peakKb, vmHwmKb(p.pid()));
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    String out = Files.readString(tmp.resolve("out.txt"));
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("0 rejected"), out);
    System.out.printf(Locale.ROOT, "BigInputIT: %d tokens, %.2f GB of JSONL, ingest %.1f s, peak RSS %.2f GB%n",
        TOKENS, bytes / 1e9, seconds, peakKb / 1e6);
    assertTrue(peakKb > 0, "could not read the child's RSS from /proc");
    assertTrue(peakKb < RSS_LIMIT_KB, "peak RSS " + peakKb + " kB exceeds 1.5 GB");

    Cli.Result q = Cli.run("query", "--db", db.toString(), "--format", "csv",
        "SELECT count(*) AS tokens, count(DISTINCT request_key) AS requests FROM tokens");
    assertEquals(0, q.code(), q.err());
    long tokens = Long.parseLong(q.out().split("\n")[1].split(",")[0]);
    assertTrue(Math.abs(tokens - TOKENS) < TOKENS / 100, "tokens stored: " + tokens);
    Cli.Result checks = Cli.run("query", "--db", db.toString(), "--format", "csv",
        "SELECT sum(violations) FROM checks");
    assertEquals("sum(violations)\n0\n", checks.out());
  }

  /**
   * A server log naming 3 M requests in one run (a day at 35 requests a second, each id checked
   * for duplicates and found by its token lines) within the launcher's 512 MB heap: a map of an
   * object per id ran out of it (GC overhead limit) where the compact id table fits.
   */
  @Test
  void threeMillionRequestsOfOneServerLogIngestInTheHeap() throws Exception {
    long requests = Long.getLong("tokentime.bigRequests", 3_000_000L);
    Path in = tmp.resolve("log");
    Cli.Result g = Cli.run("generate", "--out", in.toString(), "--form", "vllm-log", "--levels", "16",
        "--requests", Long.toString(requests), "--mean-output", "2", "--slots", "16");
    assertEquals(0, g.code(), g.err());
    Path db = tmp.resolve("log.duckdb");
    Process p = new ProcessBuilder(List.of(Cli.javaBin(), "-Xmx512m", "-jar", Cli.jar().toAbsolutePath().toString(),
        "ingest", "--db", db.toString(), in.toString())).redirectErrorStream(true)
        .redirectOutput(tmp.resolve("log-out.txt").toFile()).start();
    long peakKb = 0;
    while (!p.waitFor(100, TimeUnit.MILLISECONDS)) {
      peakKb = Math.max(peakKb, vmHwmKb(p.pid()));
    }
    String out = Files.readString(tmp.resolve("log-out.txt"));
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains(" + 0 rejected; " + String.format(Locale.ROOT, "%,d", requests) + " requests"), out);
    assertTrue(peakKb < RSS_LIMIT_KB, "peak RSS " + peakKb + " kB exceeds 1.5 GB");
    System.out.printf(Locale.ROOT, "BigInputIT: %d requests in one server log, peak RSS %.2f GB%n", requests, peakKb / 1e6);
  }

  /** Peak resident set size of a live process, from /proc (VmHWM), in kB; 0 when unknown. */
  static long vmHwmKb(long pid) {
    try {
      for (String line : Files.readAllLines(new File("/proc/" + pid + "/status").toPath())) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (Exception e) {
      // the process ended between the check and the read
    }
    return 0;
  }
}
