package dev.tokentime;

/**
 * Phase timings on stderr when the environment has TOKENTIME_TIMING set: where an ingest's wall
 * time went (open, views, parse, insert, derive, checks, close), for BENCHMARKS.md and profiling.
 * Each phase line also gives the process's resident memory then and its peak so far (Linux), to
 * tell which phase sets the peak.
 */
public final class Timing {
  private static final boolean ON = System.getenv("TOKENTIME_TIMING") != null;

  private Timing() {}

  public static boolean on() {
    return ON;
  }

  /** Prints "timing: WHAT S s" for the time since {@code startNanos}; returns now. */
  public static long since(String what, long startNanos) {
    long now = System.nanoTime();
    if (ON) {
      System.err.printf("timing: %s %.2f s%s%n", what, (now - startNanos) / 1e9, memory());
    }
    return now;
  }

  /** ", RSS N MB, peak M MB" from /proc/self/status, or nothing where there is none. */
  private static String memory() {
    try {
      long rss = -1;
      long peak = -1;
      for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          rss = kb(line);
        } else if (line.startsWith("VmHWM:")) {
          peak = kb(line);
        }
      }
      return rss < 0 ? "" : String.format(" (RSS %d MB, peak %d MB)", rss / 1024, peak / 1024);
    } catch (java.io.IOException | RuntimeException e) {
      return "";
    }
  }

  private static long kb(String statusLine) {
    return Long.parseLong(statusLine.replaceAll("[^0-9]", ""));
  }

  /** Prints "timing: MESSAGE" (a pre-formatted line). */
  public static void note(String format, Object... args) {
    if (ON) {
      System.err.println("timing: " + String.format(format, args));
    }
  }
}
