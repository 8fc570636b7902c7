package dev.tokentime.cli;

import dev.tokentime.BadInputException;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.query.QueryLibrary;
import dev.tokentime.shell.ScriptInput;
import dev.tokentime.shell.ShellSession;
import dev.tokentime.shell.TerminalInput;
import dev.tokentime.store.Database;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "shell",
    description = {"An interactive SQL prompt on a database, with the documented views loaded.",
        "Statements end with ';' and may span lines. Tab completes table, view,",
        "macro and column names and dot-commands; .help lists the dot-commands",
        "(.tables .schema .queries .doc .format .timer .maxrows .output .quit).",
        "History: ~/.tokentime_history (TOKENTIME_HISTORY names another file).",
        "Standard input that is not a terminal runs as a script: no prompt, errors",
        "name their line, and the exit code is 2 when a statement failed.",
        "The database opens read-only (others may read it meanwhile) unless --write."},
    footer = {"", "Examples:",
        "  tokentime shell run.duckdb",
        "  tokentime shell run.duckdb --warmup-requests 10",
        "  tokentime shell run.duckdb --format csv < questions.sql > answers.csv",
        "  echo '.doc request_latency' | tokentime shell run.duckdb"})
final class ShellCommand extends BaseCommand {
  @Parameters(index = "0", arity = "0..1", paramLabel = "DB",
      description = "The database file (or --db; default: $TOKENTIME_DB, else ./tokentime.duckdb).")
  Path dbFile;

  @Mixin
  DbOption db;

  @Mixin
  FormatOption format;

  @Mixin
  AnalysisOptions analysis;

  @Option(names = "--write",
      description = "Open the database writable, so tables made in the shell are kept (read-only by default).")
  boolean write;

  @Override
  protected int run() throws Exception {
    if (dbFile != null && db.db != null) {
      throw new BadInputException("name the database once: either DB or --db");
    }
    Path path = dbFile != null ? dbFile : db.resolve();
    var window = analysis.window();
    var initialFormat = format.get();
    try (Database d = open(path)) {
      window.apply(d.connection());
      // tokentime's Terminal (is a stream a terminal) beside JLine's (the terminal itself)
      if (dev.tokentime.output.Terminal.isTerminal(0)) {
        return interactive(d, path, window.describe(), initialFormat);
      }
      try (ShellSession s = new ShellSession(d, out(), dev.tokentime.output.Terminal::width, err(), true)) {
        s.format(initialFormat);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int failed = s.run(new ScriptInput(in));
        if (failed > 0) {
          err().println("tokentime: " + failed + " statement" + (failed == 1 ? "" : "s") + " failed");
          return ExitCode.BAD_INPUT;
        }
        return ExitCode.OK;
      }
    }
  }

  private Database open(Path path) throws java.sql.SQLException {
    if (!write) {
      return Databases.forReading(path);
    }
    Database d = Database.open(path, Database.Mode.WRITE);
    QueryLibrary.get().installIfChanged(d);
    return d;
  }

  private int interactive(Database d, Path path, String window, OutputFormat f)
      throws Exception {
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
        return ExitCode.OK;
      }
    }
  }
}
