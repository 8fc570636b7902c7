package dev.tokentime.shell;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import org.jline.reader.Completer;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;

/**
 * Statements typed at a terminal, through JLine: line editing, history kept in a file, Tab
 * completion, and Enter inside an unfinished statement opening a continuation line, so a
 * multi-line statement is edited and recalled as one. Ctrl-C drops the statement being typed;
 * Ctrl-D ends the shell.
 */
public final class TerminalInput implements InputSource {
  static final String PROMPT = "tt> ";
  static final String CONTINUATION = "..> ";

  private final LineReader reader;
  private final Deque<ShellInput> ready = new ArrayDeque<>();

  public TerminalInput(Terminal terminal, Completer completer, Path historyFile) {
    this.reader = LineReaderBuilder.builder()
        .terminal(terminal)
        .appName("tokentime")
        .parser(new SqlLineParser())
        .completer(completer)
        .variable(LineReader.HISTORY_FILE, historyFile)
        .variable(LineReader.HISTORY_SIZE, 2000)
        .variable(LineReader.SECONDARY_PROMPT_PATTERN, CONTINUATION)
        // completion inserts the name; do not list 300 column names on an empty word
        .variable(LineReader.LIST_MAX, 200)
        // SQL uses ! (!=) and ^; history expansion would rewrite them
        .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
        .option(LineReader.Option.HISTORY_IGNORE_DUPS, true)
        .option(LineReader.Option.CASE_INSENSITIVE, true)
        .build();
  }

  @Override
  public ShellInput next() throws IOException {
    while (ready.isEmpty()) {
      String text;
      try {
        text = reader.readLine(PROMPT);
      } catch (UserInterruptException e) {
        continue; // Ctrl-C: the line is dropped, the shell goes on
      } catch (EndOfFileException e) {
        return null;
      }
      ready.addAll(StatementSplitter.split(text));
    }
    return ready.poll();
  }

  /** Saves the history now (JLine also saves it after each line). */
  public void saveHistory() {
    try {
      reader.getHistory().save();
    } catch (IOException e) {
      // a history that cannot be written is not worth failing the session for
    }
  }

  /**
   * The history file: $TOKENTIME_HISTORY if set, else ~/.tokentime_history (one history for
   * every database, like psql's and duckdb's own).
   */
  public static Path historyFile() {
    String env = System.getenv("TOKENTIME_HISTORY");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    return Path.of(System.getProperty("user.home"), ".tokentime_history");
  }
}
