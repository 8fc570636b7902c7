package dev.tokentime.shell;

import dev.tokentime.BadInputException;
import dev.tokentime.analysis.Conventions;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.TableData;
import dev.tokentime.store.Database;
import java.io.IOException;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shell itself, whatever the input: runs each statement on a fresh JDBC Statement (DuckDB
 * closes a Statement after a failed execute, so one error must not poison the next statement),
 * prints results through the dot-commands' settings, and reports errors without stopping. In a
 * script, errors name the input line; at a terminal they are printed as DuckDB gives them.
 */
public final class ShellSession implements AutoCloseable {
  private static final Pattern STATEMENT_LINE = Pattern.compile("\\bLINE (\\d+):");

  private final Database db;
  private final OutputTarget out;
  private final PrintWriter messages;
  private final boolean script;
  private final ShellSettings settings = new ShellSettings();
  private final Catalog catalog;
  private final DotCommands dots = new DotCommands(this);
  private volatile Statement running;
  private boolean quit;
  private int failures;

  /**
   * @param out where results go (standard output)
   * @param width the columns of the terminal results are shown on
   * @param messages where errors, timings and notes go
   * @param script true when the input is a script: errors then name the line they come from
   */
  public ShellSession(Database db, PrintWriter out, IntSupplier width, PrintWriter messages, boolean script) {
    this.db = db;
    this.out = new OutputTarget(out, width);
    this.messages = messages;
    this.script = script;
    this.catalog = new Catalog(db.connection());
  }

  /** Runs every input until the end or .quit; returns the number of statements that failed. */
  public int run(InputSource in) throws IOException {
    ShellInput next;
    while (!quit && (next = in.next()) != null) {
      execute(next);
    }
    return failures;
  }

  /** Runs one statement or dot-command; false when it failed (the error is already reported). */
  public boolean execute(ShellInput in) {
    long t0 = System.nanoTime();
    try {
      if (in.dotCommand()) {
        dots.run(in.text());
      } else {
        sql(in.text());
      }
      if (settings.timer && !in.dotCommand()) {
        message(String.format(Locale.ROOT, "Run Time: %.3f s", (System.nanoTime() - t0) / 1e9));
      }
      return true;
    } catch (SQLException e) {
      fail(in, e.getMessage() == null ? e.toString() : e.getMessage());
    } catch (BadInputException e) {
      fail(in, e.getMessage());
    } catch (IOException e) {
      fail(in, "cannot write the result: " + e.getMessage());
    } catch (RuntimeException e) {
      // a tokentime bug in one command must not end the user's session
      fail(in, "internal error: " + e);
    }
    return false;
  }

  private static final java.util.regex.Pattern READ_ONLY = java.util.regex.Pattern.compile(
      "\\s*\\(*\\s*(?:SELECT|WITH|FROM|VALUES|TABLE|SUMMARIZE|DESCRIBE|SHOW|PIVOT|UNPIVOT)\\b",
      java.util.regex.Pattern.CASE_INSENSITIVE);

  private void sql(String sql) throws SQLException, IOException {
    // computed as it is printed: DuckDB JDBC otherwise builds a result whole before its first row,
    // outside the memory limit, and a text table shows only its first rows
    db.streamResults(true);
    try (Conventions.Inputs inputs = Conventions.inputsFor(db, sql);
        Statement st = db.connection().createStatement()) {
      running = st;
      boolean hasResult = st.execute(sql);
      if (hasResult) {
        try (ResultSet rs = st.getResultSet()) {
          ResultPrinter.print(rs, settings.format, out.width(), settings.maxRows, out.writer());
        }
      }
    } catch (SQLException e) {
      // a lone query that failed streamed, run again unstreamed for DuckDB's own words (never a
      // statement that changes something: it would run twice)
      throw READ_ONLY.matcher(sql).lookingAt() && sql.strip().replaceAll(";\\s*$", "").indexOf(';') < 0
          ? db.whyItFailed(sql, e) : e;
    } finally {
      running = null;
      // a streamed result is the only thing its connection may run while it is open: the
      // dot-commands and the completer read theirs whole
      db.streamResults(false);
      if (Catalog.changesNames(sql)) {
        catalog.invalidate();
      }
    }
  }

  /** How results are printed from now on (what .format sets). */
  public void format(OutputFormat f) {
    settings.format = f;
  }

  /** Cancels the statement running now, if any (Ctrl-C at the terminal). */
  public void cancel() {
    Statement st = running;
    if (st != null) {
      try {
        st.cancel();
      } catch (SQLException e) {
        // it finished meanwhile
      }
    }
  }

  private void fail(ShellInput in, String message) {
    failures++;
    String text = cleanError(message);
    if (script) {
      int line = in.line();
      Matcher m = STATEMENT_LINE.matcher(text);
      if (!in.dotCommand() && m.find()) {
        line += Integer.parseInt(m.group(1)) - 1; // DuckDB counts lines within the statement
      }
      messages.println("tokentime: line " + line + ": " + text.lines().findFirst().orElse(""));
    } else {
      messages.println("Error: " + text);
    }
    messages.flush();
  }

  /** DuckDB 1.5 puts a generic line before the real error; drop it and blank lines. */
  static String cleanError(String message) {
    StringBuilder sb = new StringBuilder();
    for (String line : message.split("\n")) {
      if (line.isBlank() || line.contains("Attempting to execute an unsuccessful or closed pending query")) {
        continue;
      }
      sb.append(sb.length() > 0 ? "\n" : "").append(line.stripTrailing());
    }
    return sb.length() > 0 ? sb.toString() : message.strip();
  }

  void printQuery(String sql) throws SQLException {
    try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
      printTable(TableData.read(rs, 0));
    }
  }

  void printTable(TableData t) {
    ResultPrinter.print(t, settings.format, out.width(), out.writer());
  }

  void message(String text) {
    messages.println(text);
    messages.flush();
  }

  void quit() {
    quit = true;
  }

  public boolean quitting() {
    return quit;
  }

  Connection connection() {
    return db.connection();
  }

  ShellSettings settings() {
    return settings;
  }

  OutputTarget out() {
    return out;
  }

  Catalog catalog() {
    return catalog;
  }

  /** The completer a terminal input offers, over this session's catalog. */
  public org.jline.reader.Completer completer() {
    return new ShellCompleter(catalog);
  }

  @Override
  public void close() {
    out.close();
    messages.flush();
  }
}
