package dev.tokentime.export;

import dev.tokentime.BadInputException;
import dev.tokentime.output.Values;
import dev.tokentime.store.Database;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Writes a table, a view or a query to a file other tools read: Parquet and CSV through DuckDB's
 * own COPY (fast, every DuckDB type, hive folders when partitioned), Arrow IPC through
 * {@link ArrowIpc}.
 */
public final class ExportService {

  /** What was written: rows, and the file or (partitioned) directory. */
  public record Result(long rows, Path path) {}

  /**
   * @param sql a query (a view is SELECT * FROM it)
   * @param partitionBy columns to split the output by (hive folders col=value/), or empty
   */
  public Result export(Database db, String sql, ExportFormat format, Path out, List<String> partitionBy)
      throws SQLException, IOException {
    return export(db, sql, format, out, partitionBy, false);
  }

  /** As above; {@code csvRaw} writes CSV text cells as they are (no formula neutralisation). */
  public Result export(Database db, String sql, ExportFormat format, Path out, List<String> partitionBy,
      boolean csvRaw) throws SQLException, IOException {
    for (String c : partitionBy) {
      if (!c.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        throw new BadInputException("--partition-by takes column names, got " + c);
      }
    }
    Path parent = out.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      if (Files.exists(parent)) {
        throw new BadInputException("cannot write " + out + ": " + parent + " is not a directory");
      }
      Files.createDirectories(parent); // -o out/latency.parquet makes out/
    }
    if (!partitionBy.isEmpty()) {
      if (format == ExportFormat.ARROW) {
        throw new BadInputException("--partition-by writes hive folders of Parquet or CSV files; "
            + "Arrow exports are one file (use --format parquet)");
      }
      if (Files.isRegularFile(out) || (Files.isDirectory(out) && !isEmpty(out))) {
        throw new BadInputException(out + " exists; a partitioned export writes a new directory "
            + "(remove it or name another)");
      }
    } else if (Files.isDirectory(out)) {
      throw new BadInputException(out + " is a directory; name the file to write");
    }
    return switch (format) {
      case ARROW -> new Result(arrow(db, sql, out), out);
      case PARQUET -> new Result(copy(db, sql, out, "FORMAT parquet, COMPRESSION zstd", partitionBy), out);
      case CSV -> new Result(copy(db, csvRaw ? sql : neutralised(db, sql), out, "FORMAT csv, HEADER", partitionBy), out);
    };
  }

  private static long arrow(Database db, String sql, Path out) throws SQLException, IOException {
    db.streamResults(true);
    try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql);
        FileChannel ch = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      return ArrowIpc.writeFile(rs, ch);
    } catch (SQLException e) {
      throw db.whyItFailed(sql, e);
    } finally {
      db.streamResults(false);
    }
  }

  private static long copy(Database db, String sql, Path out, String options, List<String> partitionBy)
      throws SQLException {
    String partition = partitionBy.isEmpty() ? ""
        : ", PARTITION_BY (" + partitionBy.stream().map(c -> "\"" + c + "\"").collect(Collectors.joining(", "))
            + "), OVERWRITE_OR_IGNORE";
    // the line break keeps a query that ends in a -- comment from swallowing the parenthesis
    String copy = "COPY (" + sql + "\n) TO '" + out.toAbsolutePath().toString().replace("'", "''")
        + "' (" + options + partition + ")";
    try (Statement st = db.connection().createStatement()) {
      st.execute(copy);
      return st.getUpdateCount();
    }
  }

  /**
   * The query with each text column's cells that a spreadsheet would take for a formula (first
   * character =, +, -, @, tab or carriage return; not a whole number) prefixed with an apostrophe, as
   * {@link dev.tokentime.output.Values#csvCell} does for {@code query --format csv}; other
   * columns, numbers included, are untouched.
   */
  static String neutralised(Database db, String sql) throws SQLException {
    List<String> replaced = new java.util.ArrayList<>();
    try (Statement st = db.connection().createStatement();
        ResultSet rs = st.executeQuery("SELECT * FROM (" + sql + "\n) LIMIT 0")) {
      var md = rs.getMetaData();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        if (md.getColumnTypeName(i).equals("VARCHAR")) {
          String q = "\"" + md.getColumnLabel(i).replace("\"", "\"\"") + "\"";
          replaced.add("CASE WHEN left(" + q + ", 1) IN ('=', '+', '-', '@', chr(9), chr(13)) AND NOT "
              + "regexp_full_match(" + q + ", '" + Values.PLAIN_NUMBER_REGEX + "') THEN '''' || " + q
              + " ELSE " + q + " END AS " + q);
        }
      }
    }
    return replaced.isEmpty() ? sql
        : "SELECT * REPLACE (" + String.join(", ", replaced) + ") FROM (" + sql + "\n) AS tt_csv";
  }

  private static boolean isEmpty(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.findAny().isEmpty();
    }
  }
}
