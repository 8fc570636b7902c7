package dev.tokentime.output;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a standard stream is a terminal, how wide the terminal is, and text made safe to show
 * on one: run names, request ids and error texts come from the logs, and an escape sequence in
 * them (ESC, OSC, BEL) would act on the user's terminal instead of being shown.
 */
public final class Terminal {
  private Terminal() {}

  /**
   * {@code s} with every control character but newline, carriage return (progress lines) and tab shown as {@code \xHH} (C0, DEL,
   * and the C1 controls U+0080..U+009F, which some terminals obey too); null stays null.
   */
  public static String printable(String s) {
    if (s == null) {
      return null;
    }
    int i = 0;
    while (i < s.length() && !isControl(s.charAt(i))) {
      i++;
    }
    if (i == s.length()) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s.length() + 8).append(s, 0, i);
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      if (isControl(c)) {
        sb.append(String.format("\\x%02x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static boolean isControl(char c) {
    return (c < 0x20 && c != '\n' && c != '\t' && c != '\r') || (c >= 0x7f && c <= 0x9f);
  }

  /**
   * As {@link #printable(String)}, with carriage returns shown as {@code \r} too: for what a
   * command renders on standard output, where no line is redrawn, and a run named
   * "slow\rfast" would otherwise be shown as "fast".
   */
  public static String printableLines(String s) {
    String p = printable(s);
    return p == null || p.indexOf('\r') < 0 ? p : p.replace("\r", "\\r");
  }

  /** A writer that shows what passes through it {@link #printableLines}: standard output's messages. */
  public static java.io.PrintWriter printableLines(java.io.Writer out) {
    return filtered(out, Terminal::printableLines);
  }

  /**
   * A writer that shows what passes through it {@link #printable}: for messages, never data;
   * carriage returns pass (standard error's progress line redraws itself with them).
   */
  public static java.io.PrintWriter printable(java.io.Writer out) {
    return filtered(out, Terminal::printable);
  }

  private static java.io.PrintWriter filtered(java.io.Writer out, java.util.function.UnaryOperator<String> shown) {
    return new java.io.PrintWriter(new java.io.FilterWriter(out) {
      @Override
      public void write(int c) throws java.io.IOException {
        write(String.valueOf((char) c), 0, 1);
      }

      @Override
      public void write(char[] cbuf, int off, int len) throws java.io.IOException {
        write(new String(cbuf, off, len), 0, len);
      }

      @Override
      public void write(String str, int off, int len) throws java.io.IOException {
        String safe = shown.apply(str.substring(off, off + len));
        out.write(safe, 0, safe.length());
      }
    }, true);
  }

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
