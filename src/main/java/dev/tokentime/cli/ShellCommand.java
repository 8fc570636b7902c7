package dev.tokentime.cli;

import dev.tokentime.BadInputException;
import dev.tokentime.app.DatabaseAccess;
import dev.tokentime.output.Terminal;
import dev.tokentime.shell.Shells;
import java.nio.file.Path;
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
    return DatabaseAccess.open(path, write, window, d -> {
      if (Terminal.isTerminal(0)) {
        Shells.interactive(d, path, window.describe(), initialFormat);
        return ExitCode.OK;
      }
      int failed = Shells.script(d, System.in, initialFormat, out(), err());
      if (failed > 0) {
        err().println("tokentime: " + failed + " statement" + (failed == 1 ? "" : "s") + " failed");
        return ExitCode.BAD_INPUT;
      }
      return ExitCode.OK;
    });
  }
}
