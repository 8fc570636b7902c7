package dev.tokentime.app;

import dev.tokentime.BadInputException;
import dev.tokentime.analysis.Conventions;
import dev.tokentime.export.ArrowIpc;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.ResultStreamer;
import dev.tokentime.output.TableData;
import dev.tokentime.output.TableRenderer;
import dev.tokentime.shell.StatementSplitter;
import dev.tokentime.store.Database;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Runs a query typed by a user (query, export) and writes its rows: CSV and JSON streamed row by
 * row, text and Markdown as a table of the first rows, Arrow as an IPC stream.
 */
public final class QueryService {

  /** A table or view name, a path to a .sql file, or SQL text, as one SQL statement. */
  public static String toSql(String q) throws IOException {
    String t = q.strip();
    if (t.replaceAll(";", "").isBlank()) {
      // DuckDB's words were "Invalid Input Error: No statements to execute."
      throw new BadInputException("the query is empty: give a view or table name, a .sql file or SQL text"
          + " (tokentime query without a QUERY lists the views)");
    }
    if (t.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      // a view orders its own rows; a canonical table is listed in its documented order
      String order = dev.tokentime.schema.CanonicalSchema.LISTING_ORDER.get(t.toLowerCase(java.util.Locale.ROOT));
      return "SELECT * FROM " + t + (order == null ? "" : " ORDER BY " + order);
    }
    if (t.endsWith(".sql")) {
      Path p = Path.of(t);
      if (!Files.isRegularFile(p)) {
        throw new BadInputException("query file not found: " + t);
      }
      return Files.readString(p, StandardCharsets.UTF_8).strip().replaceAll(";\\s*$", "");
    }
    return t.replaceAll(";\\s*$", "");
  }

  private static final java.util.regex.Pattern OF_NAME =
      java.util.regex.Pattern.compile("(?i)SELECT \\* FROM ([A-Za-z_][A-Za-z0-9_]*)(?: ORDER BY [^;]*)?");

  /**
   * Refuses a bare name the database has no table or view of, with the nearest name it has: a
   * mistyped view was DuckDB's "database error: Catalog Error: Table with name … does not exist!"
   * over two lines. SQL text and .sql files are left to DuckDB.
   */
  public static void requireObject(Database d, String query) throws SQLException {
    String name = query.strip();
    // a name, or the statement toSql makes of one (a user's own "SELECT * FROM name" too)
    java.util.regex.Matcher m = OF_NAME.matcher(name);
    if (m.matches()) {
      name = m.group(1);
    }
    if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      return;
    }
    String objects = "SELECT table_name AS name FROM duckdb_tables() WHERE NOT internal UNION ALL "
        + "SELECT view_name FROM duckdb_views() WHERE NOT internal";
    try (var ps = d.connection().prepareStatement("SELECT count(*) FROM (" + objects + ") WHERE lower(name) = lower(?)")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next() && rs.getLong(1) > 0) {
          return;
        }
      }
    }
    String near = null;
    // the nearest public name (internal tables start with _), when it is a plausible typo of it
    try (var ps = d.connection().prepareStatement("SELECT name FROM (" + objects + ") WHERE name NOT LIKE '\\_%' ESCAPE '\\'"
        + " AND levenshtein(lower(name), lower(?)) <= greatest(2, length(?) // 4)"
        + " ORDER BY levenshtein(lower(name), lower(?)), name LIMIT 1")) {
      ps.setString(1, name);
      ps.setString(2, name);
      ps.setString(3, name);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          near = rs.getString(1);
        }
      }
    }
    throw new BadInputException("no table or view named " + name + (near == null ? "" : "; did you mean " + near + "?")
        + " (tokentime query without a QUERY lists the views; a .sql file is named with its .sql)");
  }

  /**
   * Writes the rows of {@code sql} in {@code f}; text and Markdown show at most {@code maxRows}
   * rows (0: all) fitted to {@code width} columns.
   */
  public void print(Database d, String sql, OutputFormat f, long maxRows, int width, PrintWriter out)
      throws SQLException, IOException {
    print(d, sql, f, maxRows, width, out, false);
  }

  /** As above; {@code csvRaw} writes CSV text cells as they are (no formula neutralisation). */
  public void print(Database d, String sql, OutputFormat f, long maxRows, int width, PrintWriter out,
      boolean csvRaw) throws SQLException, IOException {
    if (maxRows < 0) {
      throw new BadInputException("--max-rows " + maxRows + ": give a number of rows, or 0 for all");
    }
    requireObject(d, sql);
    refuseWrites(d, sql);
    d.streamResults(true); // a view of every chunk is 50 M rows at a day's traffic
    try (Conventions.Inputs inputs = Conventions.inputsFor(d, sql);
        Statement st = d.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
      switch (f) {
        case CSV -> ResultStreamer.csv(rs, out, csvRaw);
        case JSON -> ResultStreamer.json(rs, out);
        default -> {
          // an aligned table is built whole before it is printed: --max-rows 0 over millions of
          // rows ran out of memory; beyond this, CSV and JSON stream
          TableData t = TableData.read(rs, maxRows == 0 || maxRows > TABLE_ROWS_AT_MOST ? TABLE_ROWS_AT_MOST : maxRows);
          out.print(f == OutputFormat.TEXT ? TableRenderer.text(t, width) : TableRenderer.markdown(t));
        }
      }
    } catch (SQLException e) {
      throw d.whyItFailed(sql, e);
    }
  }

  /** The most rows a text or Markdown table holds (it is built whole, to align its columns). */
  public static final long TABLE_ROWS_AT_MOST = 100_000;

  /**
   * The public views and table macros (what a user queries), one row each: the name as it is
   * called, its kind and its grain, from tt_objects.
   */
  public TableData publicObjects(Database d) throws SQLException {
    try (Statement st = d.connection().createStatement();
        ResultSet rs = st.executeQuery("SELECT object_name || coalesce(parameters, '') AS name, object_kind AS kind, "
            + "grain FROM tt_objects WHERE object_kind IN ('view', 'table macro') ORDER BY object_name")) {
      return TableData.read(rs, 0);
    }
  }

  /**
   * Refuses run names the database does not hold (a typo gave "0 runs", exit 0, where check,
   * report and compare refuse it), naming the runs it holds.
   */
  public static void requireRuns(Database d, java.util.Set<String> names) throws SQLException {
    if (names.isEmpty()) {
      return;
    }
    java.util.List<String> known = d.runNames();
    java.util.List<String> missing = names.stream().filter(n -> !known.contains(n)).toList();
    if (!missing.isEmpty()) {
      throw new BadInputException("no run named " + String.join(", ", missing) + " (runs: "
          + (known.isEmpty() ? "none: nothing ingested?" : known.size() <= 12 ? String.join(", ", known)
              : String.join(", ", known.subList(0, 12)) + ", … " + known.size() + " in all: tokentime query runs")
          + ")");
    }
  }

  /**
   * Refuses a database no file was ingested into (made by an ingest stopped before it stored one,
   * before such a database was removed): summary read it as "0 runs", exit 0, and a script went on.
   */
  public static void requireIngested(Database d) throws SQLException {
    if (d.holdsNoSource()) {
      throw new BadInputException(d.path() + " holds nothing: no file was ingested into it (an ingest stopped before"
          + " it stored one?); tokentime ingest --db " + d.path() + " FILES reads some");
    }
  }

  /** Writes the rows of {@code sql} as an Arrow IPC stream, for pyarrow and polars. */
  public void arrow(Database d, String sql, OutputStream out) throws SQLException, IOException {
    requireObject(d, sql);
    refuseWrites(d, sql);
    d.streamResults(true);
    try (Conventions.Inputs inputs = Conventions.inputsFor(d, sql);
        Statement st = d.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
      ArrowIpc.writeStream(rs, out);
      out.flush();
    } catch (SQLException e) {
      throw d.whyItFailed(sql, e);
    }
  }

  /**
   * query answers with rows and changes nothing: a statement that returns none (COPY … TO,
   * INSERT, ATTACH, SET) is refused before it runs, so that no file is written by a command that
   * then fails.
   */
  static void refuseWrites(Database d, String sql) throws SQLException {
    refuseWrites(d, sql, "query", " (files are written by tokentime export QUERY -o FILE)");
  }

  /**
   * As {@link #refuseWrites(Database, String)} for {@code command}: export wraps its statement in
   * COPY (…) TO, where "DROP TABLE runs" was DuckDB's "Parser Error: syntax error at or near TABLE".
   */
  public static void refuseWrites(Database d, String sql, String command, String instead) throws SQLException {
    // DuckDB's JDBC driver runs every statement but the last while it prepares the last, so
    // "COPY … TO 'f'; SELECT 1" would write its file before the check below saw only the SELECT.
    int statements = StatementSplitter.split(sql).size();
    if (statements > 1) {
      throw new BadInputException(command + " runs one statement; this text holds " + statements
          + " (separated by ';') and none was run: run them one at a time, or in tokentime shell");
    }
    if (!d.returnsRows(sql)) {
      throw new BadInputException(command + " runs statements that return rows (SELECT, a view, SHOW, DESCRIBE, "
          + "EXPLAIN); this one returns none and was not run" + instead);
    }
  }
}
