package dev.tokentime.app;

import dev.tokentime.store.Database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.cli.Main;
import dev.tokentime.schema.CanonicalSchema;
import dev.tokentime.schema.TableDef;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --lake: a Parquet lake in the Spark job's layout (one folder per table, Hive partitions by run,
 * _request_tokens in request_tokens/) opens as the database, and the summary read from it equals
 * the summary of the database the lake was written from. The lake here is written by DuckDB's
 * COPY … PARTITION_BY from an ingest of the samples (the Spark job writes the same layout; its
 * own tests in spark/ compare the two engines).
 */
class LakeDatabaseTest {

  static String cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    assertEquals(0, code, String.join(" ", args) + ": " + err);
    return out.toString();
  }

  /** The lake of the database at {@code db}, as the Spark job lays it out; {@code tokensSelect} writes request_tokens/. */
  static Path writeLake(Path tmp, Path db, String tokensSelect) throws Exception {
    Path lake = java.nio.file.Files.createDirectories(tmp.resolve("lake"));
    List<TableDef> tables = new ArrayList<>(CanonicalSchema.TABLES);
    tables.add(CanonicalSchema.DERIVED_REQUEST_TOKENS);
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db);
        Statement st = c.createStatement()) {
      for (TableDef t : tables) {
        String folder = lake.resolve(t.name().replaceFirst("^_", "")).toString();
        boolean hasRun = t.columns().stream().anyMatch(col -> col.name().equals("run"));
        // tables without a run column take their file's run, as the Spark job partitions them
        String select = hasRun ? "SELECT * FROM " + t.name()
            : t.columns().stream().anyMatch(col -> col.name().equals("source_id"))
                ? "SELECT x.*, s.run FROM " + t.name() + " x JOIN sources s USING (source_id)"
                : "SELECT x.*, 'all' AS run FROM " + t.name() + " x";
        if (t == CanonicalSchema.DERIVED_REQUEST_TOKENS) {
          select = tokensSelect;
        }
        st.execute("COPY (" + select + ") TO '" + folder
            + "' (FORMAT parquet, PARTITION_BY (run), OVERWRITE_OR_IGNORE)");
      }
    }
    return lake;
  }

  private static final String REQUEST_TOKENS = "SELECT x.*, r.run FROM _request_tokens x JOIN requests r USING (request_key)";

  @Test
  void aLakeOfTheSamplesGivesTheDatabasesSummary(@TempDir Path tmp) throws Exception {
    Path db = tmp.resolve("samples.duckdb");
    cli("ingest", "--db", db.toString(), "sample-logs");
    Path lake = writeLake(tmp, db, REQUEST_TOKENS);
    String fromDb = cli("summary", "--db", db.toString(), "--format", "json");
    String fromLake = cli("summary", "--lake", lake.toString(), "--format", "json");
    assertTrue(fromDb.contains("\"c1\""), fromDb);
    assertEquals(fromDb, fromLake);
    // every reading command works on it: a query over a view
    String q = cli("query", "--lake", lake.toString(), "--format", "csv",
        "SELECT count(*) AS n FROM token_gaps");
    String qDb = cli("query", "--db", db.toString(), "--format", "csv",
        "SELECT count(*) AS n FROM token_gaps");
    assertEquals(qDb, q);
  }

  @Test
  void aFolderThatIsNotALakeIsABadInput(@TempDir Path tmp) {
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true))
        .execute("summary", "--lake", tmp.toString());
    assertEquals(2, code, err.toString());
    assertTrue(err.toString().contains("not a tokentime lake"), err.toString());
  }

  @Test
  void aLakeWrittenBeforeAColumnWasAddedNamesItAndTheRemedy(@TempDir Path tmp) throws Exception {
    Path db = tmp.resolve("samples.duckdb");
    cli("ingest", "--db", db.toString(), "sample-logs/canonical");
    Path lake = writeLake(tmp, db, REQUEST_TOKENS.replace("x.*", "x.* EXCLUDE (first_answer_ns, min_gap_ns)"));
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true))
        .execute("summary", "--lake", lake.toString());
    assertEquals(2, code, err.toString());
    assertTrue(err.toString().contains("has no min_gap_ns, first_answer_ns in request_tokens/"), err.toString());
    assertTrue(err.toString().contains("run the Spark ingest job"), err.toString());
  }
}
