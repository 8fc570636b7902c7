package dev.tokentime.cli;

import dev.tokentime.analysis.AnalysisWindow;
import dev.tokentime.app.DatabaseAccess;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;

/**
 * Read access for the commands that answer from a database: --db and the analysis window
 * options; {@link #read} opens the database read-only, applies the window, runs the work and
 * closes it.
 */
final class ReadAccess {
  @Mixin
  DbOption db;

  @Mixin
  AnalysisOptions analysis;

  /** The window, parsed (a mistake in it is bad input before any database opens). */
  AnalysisWindow window() {
    return analysis.window();
  }

  Path path() {
    return db.resolve();
  }

  <T> T read(DatabaseAccess.Work<T> work) throws Exception {
    return DatabaseAccess.read(path(), window(), work);
  }
}
