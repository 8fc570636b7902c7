package dev.tokentime.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** --db, shared by the commands that read or write a database. */
final class DbOption {
  @Option(names = "--db", paramLabel = "FILE",
      description = "The DuckDB database file (default: $TOKENTIME_DB, else ./tokentime.duckdb).")
  Path db;

  Path resolve() {
    if (db != null) {
      return db;
    }
    String env = System.getenv("TOKENTIME_DB");
    return Path.of(env != null && !env.isBlank() ? env : "tokentime.duckdb");
  }
}
