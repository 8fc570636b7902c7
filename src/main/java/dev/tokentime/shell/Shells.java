package dev.tokentime.shell;

import dev.tokentime.output.OutputFormat;
import dev.tokentime.store.Database;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/** The shell's two ways of running: a script from standard input, or an interactive terminal. */
public final class Shells {
  private Shells() {}

  /** Runs the statements of {@code in}; returns how many failed. */
  public static int script(Database d, InputStream in, OutputFormat f, PrintWriter out, PrintWriter err)
      throws IOException {
    try (ShellSession s = new ShellSession(d, out, dev.tokentime.output.Terminal::width, err, true)) {
      s.format(f);
      return s.run(new ScriptInput(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))));
    }
  }

  /** A prompt on the terminal, with completion and history, until .quit or Ctrl-D. */
  public static void interactive(Database d, Path path, String window, OutputFormat f) throws IOException {
    // JLine 4's FFM provider needs Java 22; JNI, else exec (stty), work on Java 17
    try (Terminal t = TerminalBuilder.builder().system(true).ffm(false).jni(true).exec(true).build()) {
      PrintWriter w = t.writer();
      try (ShellSession s = new ShellSession(d, w, t::getWidth, w, false)) {
        s.format(f);
        t.handle(Terminal.Signal.INT, sig -> s.cancel());
        Path history = TerminalInput.historyFile();
        w.println("tokentime shell on " + path + (d.readOnly() ? " (read-only)" : "")
            + ". Statements end with ';'. .help lists the commands, .tables what is in the database.");
        if (!window.isEmpty()) {
          w.println("Analysis window: " + window + ".");
        }
        w.flush();
        TerminalInput in = new TerminalInput(t, s.completer(), history);
        s.run(in);
        in.saveHistory();
      }
    }
  }
}
