package dev.tokentime.cli;

import java.io.PrintStream;

/**
 * What a command stopped by Ctrl-C (SIGINT) or SIGTERM says on its way out: before, an ingest
 * ended with no word (exit 130), and a user could not tell what of it was kept.
 */
final class Interrupted {
  private Interrupted() {}

  private static volatile boolean finished;

  /** Prints {@link #message} on {@code err} when the JVM stops before {@link #finished()} is called. */
  static void watch(String command, PrintStream err) {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (!finished) {
        // after a progress line (\r, no newline) on a terminal, the message starts on a line of its own
        err.println((dev.tokentime.output.Terminal.isTerminal(2) ? "\n" : "") + message(command));
        err.flush();
      }
    }, "tokentime-interrupted"));
  }

  /** The command returned: its own words stand, none are added. */
  static void finished() {
    finished = true;
  }

  /** The line for an interrupted {@code command} (its name, or null). */
  static String message(String command) {
    if ("ingest".equals(command)) {
      return "tokentime: interrupted. Each file is stored whole or not at all: the files reported as ingested are"
          + " kept, the one being read is not (a database this ingest created is removed when it holds none); the"
          + " same command again reads the rest (stored files are left as they are).";
    }
    return "tokentime: interrupted" + ("analyze".equals(command) ? "; no summary was printed" : "") + ".";
  }
}
