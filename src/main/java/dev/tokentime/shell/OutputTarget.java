package dev.tokentime.shell;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.IntSupplier;

/**
 * Where results go: the shell's standard output (a table fitted to the terminal's width), or the
 * file named by .output (whole lines, no width limit) until .output alone brings them back.
 */
final class OutputTarget implements AutoCloseable {
  private final PrintWriter stdout;
  private final IntSupplier stdoutWidth;
  private PrintWriter file;
  private Path path;

  OutputTarget(PrintWriter stdout, IntSupplier stdoutWidth) {
    this.stdout = stdout;
    this.stdoutWidth = stdoutWidth;
  }

  PrintWriter writer() {
    return file != null ? file : stdout;
  }

  /** Columns a text table may use. */
  int width() {
    if (file != null) {
      return Integer.MAX_VALUE;
    }
    int w = stdoutWidth.getAsInt();
    return w > 0 ? w : 120;
  }

  /** The file results go to, or null for standard output. */
  Path path() {
    return path;
  }

  /** Sends results to a file (replaced if it exists). */
  void redirect(Path p) throws IOException {
    PrintWriter w = new PrintWriter(Files.newBufferedWriter(p, StandardCharsets.UTF_8));
    reset();
    file = w;
    path = p;
  }

  /** Back to standard output, closing the file. */
  void reset() {
    if (file != null) {
      file.close();
      file = null;
      path = null;
    }
  }

  @Override
  public void close() {
    reset();
    stdout.flush();
  }
}
