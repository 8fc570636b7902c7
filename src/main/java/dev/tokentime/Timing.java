package dev.tokentime;

/**
 * Phase timings on stderr when the environment has TOKENTIME_TIMING set: where an ingest's wall
 * time went (open, views, parse, insert, derive, checks, close), for BENCHMARKS.md and profiling.
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
      System.err.printf("timing: %s %.2f s%n", what, (now - startNanos) / 1e9);
    }
    return now;
  }

  /** Prints "timing: MESSAGE" (a pre-formatted line). */
  public static void note(String format, Object... args) {
    if (ON) {
      System.err.println("timing: " + String.format(format, args));
    }
  }
}
