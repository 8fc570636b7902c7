package dev.tokentime.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** --db, shared by the commands that read or write a database. */
final class DbOption {
  @Option(names = "--db", paramLabel = "FILE",
      description = "The DuckDB database file (default: $TOKENTIME_DB, else ./tokentime.duckdb).")
  Path db;

  @Option(names = "--lake", paramLabel = "DIR",
      description = "Read a Parquet lake written by the Spark job instead (docs/scale-out.md).")
  Path lake;
  private Path lakeDb;

  Path resolve() {
    if (lake != null) {
      return lakeDb != null ? lakeDb : (lakeDb = dev.tokentime.app.LakeDatabase.open(lake));
    }
    if (db != null) {
      return db;
    }
    String env = System.getenv("TOKENTIME_DB");
    return Path.of(env != null && !env.isBlank() ? env : "tokentime.duckdb");
  }
}
