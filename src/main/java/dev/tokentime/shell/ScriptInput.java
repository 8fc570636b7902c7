package dev.tokentime.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Statements from a script (piped standard input): no prompt, statements may span lines and
 * share them, and each keeps the line it starts on for error messages. A last statement without
 * its ';' still runs.
 */
public final class ScriptInput implements InputSource {
  private final BufferedReader reader;
  private final StatementSplitter splitter = new StatementSplitter();
  private final Deque<ShellInput> ready = new ArrayDeque<>();
  private boolean ended;

  public ScriptInput(Reader reader) {
    this.reader = reader instanceof BufferedReader b ? b : new BufferedReader(reader);
  }

  @Override
  public ShellInput next() throws IOException {
    while (ready.isEmpty() && !ended) {
      String line = reader.readLine();
      if (line == null) {
        ended = true;
        ShellInput last = splitter.finish();
        if (last != null) {
          ready.add(last);
        }
      } else {
        ready.addAll(splitter.feed(line));
      }
    }
    return ready.poll();
  }
}
