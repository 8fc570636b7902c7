package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** export and query --format arrow from the packaged CLI, read back by DuckDB and Arrow Java. */
class ExportIT {
  @TempDir
  static Path tmp;
  static Path db;

  @BeforeAll
  static void ingest() throws Exception {
    db = tmp.resolve("run.duckdb");
    Cli.Result r = Cli.run("ingest", "--db", db.toString(), "sample-logs/canonical");
    assertEquals(0, r.code(), r.err());
  }

  @Test
  void parquetPartitionedByRunReadsBackAsTheView() throws Exception {
    Path dir = tmp.resolve("latency");
    Cli.Result r = Cli.run("export", "--db", db.toString(), "request_latency", "--partition-by", "run", "-o", dir.toString());
    assertEquals(0, r.code(), r.err());
    assertEquals("36 rows written to " + dir + " (parquet, partitioned by run)\n", r.out());
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      st.execute("ATTACH '" + db + "' AS run (READ_ONLY)");
      // the hive column comes last: the view's columns are put in the same order
      try (ResultSet rs = st.executeQuery("SELECT (SELECT count(*) FROM (SELECT * EXCLUDE (run), run FROM run.request_latency "
          + "EXCEPT ALL SELECT * EXCLUDE (run), run FROM read_parquet('" + dir + "/*/*.parquet', hive_partitioning = true))), "
          + "(SELECT count(*) FROM read_parquet('" + dir + "/*/*.parquet', hive_partitioning = true))")) {
        rs.next();
        assertEquals(0, rs.getLong(1));
        assertEquals(36, rs.getLong(2));
      }
    }
  }

  @Test
  void queryFormatArrowStreamsToStandardOutput() throws Exception {
    Path out = tmp.resolve("gaps.arrows");
    Process p = new ProcessBuilder(Cli.javaBin(), "-Xmx512m", "-jar", Cli.jar().toString(), "query", "--db",
        db.toString(), "SELECT * FROM token_gaps ORDER BY request_key, seq", "--format", "arrow")
        .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    assertTrue(p.waitFor(5, TimeUnit.MINUTES));
    assertEquals(0, p.exitValue());
    Cli.Result count = Cli.run("query", "--db", db.toString(), "SELECT count(*) AS n FROM token_gaps", "--format", "csv");
    long expected = Long.parseLong(count.out().split("\n")[1]);
    List<String> fields = new ArrayList<>();
    long rows = 0;
    try (BufferAllocator a = new RootAllocator(); InputStream in = Files.newInputStream(out);
        ArrowStreamReader reader = new ArrowStreamReader(in, a)) {
      reader.getVectorSchemaRoot().getSchema().getFields().forEach(f -> fields.add(f.getName()));
      while (reader.loadNextBatch()) {
        rows += reader.getVectorSchemaRoot().getRowCount();
      }
    }
    assertEquals(expected, rows);
    assertTrue(fields.contains("gap_ms"), fields.toString());
  }

  @Test
  void binaryFormatsAreRefusedWhereTheyDoNotApply() throws Exception {
    Cli.Result summary = Cli.run("summary", "--db", db.toString(), "--format", "parquet");
    assertEquals(2, summary.code());
    assertTrue(summary.err().startsWith("tokentime: summary prints text, csv, json or markdown; parquet files come "
        + "from tokentime export"), summary.err());
    Cli.Result query = Cli.run("query", "--db", db.toString(), "runs", "--format", "parquet");
    assertEquals(2, query.code());
    assertTrue(query.err().contains("tokentime export QUERY --format parquet -o FILE"), query.err());
    Cli.Result noFormat = Cli.run("export", "--db", db.toString(), "runs", "-o", tmp.resolve("runs.out").toString());
    assertEquals(2, noFormat.code());
    assertTrue(noFormat.err().contains("say --format parquet, arrow or csv"), noFormat.err());
  }

  /**
   * A reader that stops after its first bytes (`| head`) ends the command quietly, exit 0, as it
   * would end cat or grep: no "internal error", no trace (before, Arrow to -o /dev/stdout was exit 3).
   */
  @Test
  void aReaderThatStopsEndsTheCommandQuietly() throws Exception {
    String big = "SELECT a.range AS a, b.range AS b FROM range(3000) a, range(3000) b";
    List<List<String>> commands = List.of(
        List.of("query", "--db", db.toString(), big, "--format", "csv"),
        List.of("query", "--db", db.toString(), big, "--format", "json"),
        List.of("query", "--db", db.toString(), big, "--format", "arrow"),
        List.of("export", "--db", db.toString(), big, "--format", "arrow", "-o", "/dev/stdout"));
    for (List<String> args : commands) {
      List<String> cmd = new ArrayList<>(List.of(Cli.javaBin(), "-Xmx512m", "-jar", Cli.jar().toString()));
      cmd.addAll(args);
      Path err = Files.createTempFile(tmp, "err", ".txt");
      Process p = new ProcessBuilder(cmd).redirectError(err.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
      try (InputStream in = p.getInputStream()) {
        assertEquals(100, in.readNBytes(100).length, args.toString());
      } // closed: the command's next writes fail with EPIPE
      assertTrue(p.waitFor(5, TimeUnit.MINUTES), args.toString());
      assertEquals(0, p.exitValue(), args + ": " + Files.readString(err));
      assertEquals("", Files.readString(err), args.toString());
    }
  }

  /**
   * Standard output on a full device: a print writer keeps the failed write to itself, and a
   * small result or a summary was lost with exit 0 and nothing said.
   */
  @Test
  void aFullDeviceBehindStandardOutputIsExit2() throws Exception {
    for (List<String> args : List.of(List.of("query", "--db", db.toString(), "SELECT 1 AS one"),
        List.of("summary", "--db", db.toString()))) {
      List<String> cmd = new ArrayList<>(List.of(Cli.javaBin(), "-Xmx512m", "-jar", Cli.jar().toString()));
      cmd.addAll(args);
      Path err = Files.createTempFile(tmp, "err", ".txt");
      Process p = new ProcessBuilder(cmd).redirectOutput(new File("/dev/full")).redirectError(err.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
      assertTrue(p.waitFor(5, TimeUnit.MINUTES), args.toString());
      assertEquals(2, p.exitValue(), args + ": " + Files.readString(err));
      assertTrue(Files.readString(err).contains("could not write to standard output"), Files.readString(err));
    }
  }
}
