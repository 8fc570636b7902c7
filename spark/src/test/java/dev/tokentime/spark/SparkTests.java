package dev.tokentime.spark;

import dev.tokentime.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;

/** One local[2] Spark session for every test class of the run (Spark starts once), and helpers. */
final class SparkTests {
  private SparkTests() {}

  private static SparkSession session;

  static synchronized SparkSession session() {
    if (session == null) {
      session = SparkSession.builder()
          .master("local[2]")
          .appName("tokentime-spark-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.sql.shuffle.partitions", "4")
          .config("spark.default.parallelism", "2")
          .config("spark.sql.session.timeZone", "UTC")
          .getOrCreate();
      Runtime.getRuntime().addShutdownHook(new Thread(session::stop));
    }
    return session;
  }

  /** The repository's root (sample-logs/, queries/). */
  static Path root() {
    return Path.of(System.getProperty("tokentime.root", "..")).toAbsolutePath().normalize();
  }

  /** Runs the Spark job over the inputs into OUT. */
  static IngestJob.Result ingest(Path out, String... inputs) throws IOException {
    return IngestJob.run(session(), List.of(inputs), out.toUri().toString(),
        new ParseOptions(null, false, null, null), null, StorageLevel.MEMORY_AND_DISK(), System.err);
  }

  /** Runs the CLI in this JVM (its picocli wiring), failing on a non-zero exit; returns stdout. */
  static String cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    if (code != 0) {
      throw new AssertionError("tokentime " + String.join(" ", args) + " exited " + code + ": " + err);
    }
    return out.toString();
  }

  /** Rows of a DuckDB query as lists of objects. */
  static List<List<Object>> duck(Path db, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db, readOnly());
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      ResultSetMetaData md = rs.getMetaData();
      List<List<Object>> rows = new ArrayList<>();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          row.add(rs.getObject(i));
        }
        rows.add(row);
      }
      return rows;
    }
  }

  private static java.util.Properties readOnly() {
    java.util.Properties p = new java.util.Properties();
    p.setProperty("duckdb.read_only", "true");
    return p;
  }

  static Path tempDir(String prefix) throws IOException {
    Path base = Path.of(System.getProperty("java.io.tmpdir"));
    Path target = Path.of("target");
    if (Files.isDirectory(target)) {
      base = target;
    }
    return Files.createTempDirectory(base.toAbsolutePath(), prefix);
  }
}
