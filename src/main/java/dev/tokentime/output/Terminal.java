package dev.tokentime.output;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether a standard stream is a terminal, and how wide the terminal is. */
public final class Terminal {
  private Terminal() {}

  /** True when file descriptor fd (1 = stdout, 2 = stderr) is a terminal. */
  public static boolean isTerminal(int fd) {
    try {
      Path target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd));
      String t = target.toString();
      return t.startsWith("/dev/pts/") || t.startsWith("/dev/tty");
    } catch (Exception e) {
      return fd == 1 && System.console() != null;
    }
  }

  /** Columns of the terminal on stdout; unlimited when stdout is not a terminal. */
  public static int width() {
    String env = System.getenv("COLUMNS");
    if (env != null && env.matches("\\d+")) {
      return Integer.parseInt(env);
    }
    if (!isTerminal(1)) {
      return Integer.MAX_VALUE;
    }
    try {
      Process p = new ProcessBuilder("stty", "size")
          .redirectInput(new File("/dev/tty"))
          .redirectError(ProcessBuilder.Redirect.DISCARD)
          .start();
      String out = new String(p.getInputStream().readAllBytes()).strip();
      p.waitFor();
      String[] parts = out.split("\\s+");
      if (parts.length == 2) {
        return Integer.parseInt(parts[1]);
      }
    } catch (Exception e) {
      // fall through
    }
    return 120;
  }
}
