package dev.tokentime.shell;

import dev.tokentime.BadInputException;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.TableData;
import dev.tokentime.query.QueryFile;
import dev.tokentime.query.QueryLibrary;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The shell's dot-commands. The documentation they show comes from the database's tt_docs view
 * (what any DuckDB client sees) and, for what the catalog cannot hold (a macro's parameters and
 * the library's formatted SQL), from the query library.
 */
final class DotCommands {
  /** A dot-command: its name, its arguments and one line of help. */
  record Spec(String name, String args, String help) {}

  static final List<Spec> SPECS = List.of(
      new Spec(".tables", "", "Tables, views and macros (with their parameters), with what one row of each is"),
      new Spec(".schema", "[NAME]", "The CREATE statement of NAME; without NAME, of every table"),
      new Spec(".queries", "", "The query library: each view and macro with one line of doc"),
      new Spec(".doc", "NAME", "What a table, view or macro holds: grain and columns with units"),
      new Spec(".format", "text|csv|json|markdown", "How results are printed"),
      new Spec(".timer", "on|off", "Print how long each statement took"),
      new Spec(".maxrows", "N", "Rows a text or Markdown table shows (0: all, 10,000 at a time; CSV and JSON write all)"),
      new Spec(".output", "[FILE]", "Write results to FILE; without FILE, back to the screen"),
      new Spec(".help", "", "This list"),
      new Spec(".quit", "", "Leave the shell (also .exit, or Ctrl-D)"));

  private final ShellSession s;

  DotCommands(ShellSession s) {
    this.s = s;
  }

  /** Runs one dot-command line; a mistake in it is a BadInputException with what to type. */
  void run(String line) throws SQLException, IOException {
    // a trailing -- comment, as SQL lines may have (.doc runs  -- what a run is)
    String[] parts = line.replaceFirst("\\s+--.*$", "").strip().split("\\s+", 2);
    String name = parts[0].toLowerCase(Locale.ROOT);
    String arg = parts.length > 1 ? parts[1].strip() : "";
    switch (name) {
      case ".tables" -> tables();
      case ".schema" -> schema(arg);
      case ".queries" -> queries();
      case ".doc" -> doc(required(name, arg));
      case ".format" -> format(arg);
      case ".timer" -> timer(arg);
      case ".maxrows" -> maxRows(arg);
      case ".output" -> output(arg);
      case ".help" -> help();
      case ".quit", ".exit" -> s.quit();
      default -> throw new BadInputException("unknown command " + parts[0] + " (.help lists them)");
    }
  }

  private static String required(String name, String arg) {
    if (arg.isEmpty()) {
      Spec spec = SPECS.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
      throw new BadInputException(name + " needs " + spec.args() + " (" + spec.help() + ")");
    }
    return arg;
  }

  private void tables() throws SQLException {
    s.printQuery("SELECT object_name || coalesce(parameters, '') AS name, object_kind AS kind, grain "
        + "FROM tt_objects ORDER BY kind, object_name");
  }

  private void schema(String name) throws SQLException {
    PrintWriter out = s.out().writer();
    if (name.isEmpty()) {
      for (String sql : strings("SELECT sql FROM duckdb_tables() WHERE NOT internal "
          + "AND NOT starts_with(table_name, '_') ORDER BY table_name", null)) {
        out.println(sql.endsWith(";") ? sql : sql + ";");
      }
      out.flush();
      return;
    }
    QueryFile q = QueryLibrary.get().get(name);
    List<String> found = new ArrayList<>();
    if (q != null && s.catalog().objects().contains(q.name())) {
      found.add(q.sql()); // the library's own text, as written, rather than DuckDB's rewrite
    } else {
      found.addAll(strings("SELECT sql FROM duckdb_tables() WHERE NOT internal AND lower(table_name) = lower(?) "
          + "UNION ALL SELECT sql FROM duckdb_views() WHERE NOT internal AND lower(view_name) = lower(?) "
          + "UNION ALL SELECT 'CREATE MACRO ' || function_name || '(' || array_to_string(parameters, ', ') || ') AS '"
          + " || CASE WHEN function_type = 'table_macro' THEN 'TABLE ' ELSE '' END || macro_definition "
          + "FROM duckdb_functions() WHERE NOT internal AND function_type IN ('macro', 'table_macro') "
          + "AND lower(function_name) = lower(?)", name));
    }
    if (found.isEmpty()) {
      throw new BadInputException("no table, view or macro named " + name + " (.tables lists them)");
    }
    for (String sql : found) {
      out.println(sql.endsWith(";") ? sql : sql + ";");
    }
    out.flush();
  }

  private void queries() {
    List<Object[]> rows = new ArrayList<>();
    for (QueryFile q : QueryLibrary.get().all()) {
      if (q.helper()) {
        continue;
      }
      String call = q.isView() ? q.name()
          : q.name() + "(" + String.join(", ", q.params().stream().map(QueryFile.Doc::name).toList()) + ")";
      String kind = q.isView() ? "view" : q.isTableMacro() ? "table macro" : "macro";
      rows.add(new Object[] {call, kind, firstSentence(q.description())});
    }
    rows.sort((a, b) -> ((String) a[0]).compareTo((String) b[0]));
    s.printTable(new TableData(List.of("name", "kind", "what it is"), List.of(false, false, false), rows, false));
  }

  private void doc(String name) throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    String sql = "SELECT object_name, object_kind, parameters, grain, description, column_name, data_type, "
        + "unit, column_doc FROM tt_docs WHERE lower(object_name) = lower(?) ORDER BY column_index";
    try (PreparedStatement ps = s.connection().prepareStatement(sql)) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Object[] r = new Object[9];
          for (int i = 0; i < r.length; i++) {
            r[i] = rs.getObject(i + 1);
          }
          rows.add(r);
        }
      }
    }
    if (rows.isEmpty()) {
      throw new BadInputException("no documentation for " + name + ": .tables lists the documented "
          + "tables and views, .queries the library; DESCRIBE " + name + " shows any object's columns");
    }
    Object[] first = rows.get(0);
    String object = (String) first[0];
    QueryFile q = QueryLibrary.get().get(object);
    boolean macro = String.valueOf(first[1]).contains("macro");
    StringBuilder head = new StringBuilder(object).append(first[2] == null ? "" : (String) first[2])
        .append("  (").append(first[1]).append(")\n");
    if (first[4] != null) {
      head.append(Wrap.text((String) first[4], s.out().width(), "  "));
    }
    if (first[3] != null) {
      head.append("  Grain: ").append(first[3]).append('\n');
    }
    PrintWriter out = s.out().writer();
    out.print(head);
    List<Object[]> cols = new ArrayList<>();
    if (macro && q != null) {
      for (QueryFile.Doc p : q.params()) {
        out.print(Wrap.text("Parameter " + p.name() + ": " + p.doc(), s.out().width(), "  "));
      }
      if (q.example() != null) {
        out.println("  Example: " + q.example());
      }
      for (QueryFile.Doc c : q.columns()) {
        cols.add(new Object[] {c.name(), null, c.unit(), c.doc()});
      }
    } else {
      for (Object[] r : rows) {
        if (r[5] != null) {
          cols.add(new Object[] {r[5], r[6], r[7], r[8]});
        }
      }
    }
    if (!cols.isEmpty()) {
      out.println();
      if (s.settings().format == OutputFormat.TEXT) {
        out.print(Wrap.columns(cols, s.out().width()));
      } else {
        s.printTable(new TableData(List.of("column", "type", "unit", "doc"),
            List.of(false, false, false, false), cols, false));
      }
    }
    out.flush();
  }

  private void format(String arg) {
    if (arg.isEmpty()) {
      s.message("format: " + s.settings().format.name().toLowerCase(Locale.ROOT));
      return;
    }
    if (arg.equalsIgnoreCase("arrow") || arg.equalsIgnoreCase("parquet")) {
      throw new BadInputException("the shell prints text, csv, json or markdown; for " + arg
          + " use tokentime export NAME|SQL --format " + arg.toLowerCase(Locale.ROOT) + " -o FILE");
    }
    s.settings().format = OutputFormat.parse(arg);
  }

  private void timer(String arg) {
    switch (arg.toLowerCase(Locale.ROOT)) {
      case "on" -> s.settings().timer = true;
      case "off" -> s.settings().timer = false;
      default -> throw new BadInputException(".timer takes on or off");
    }
  }

  private void maxRows(String arg) {
    if (arg.isEmpty()) {
      s.message("maxrows: " + s.settings().maxRows);
      return;
    }
    try {
      long n = Long.parseLong(arg);
      if (n < 0) {
        throw new NumberFormatException();
      }
      s.settings().maxRows = n;
    } catch (NumberFormatException e) {
      throw new BadInputException(".maxrows takes a number of rows, 0 for all");
    }
  }

  private void output(String arg) throws IOException {
    if (arg.isEmpty() || arg.equals("stdout")) {
      s.out().reset();
      return;
    }
    Path p = Path.of(arg.startsWith("~/") ? System.getProperty("user.home") + arg.substring(1) : arg);
    try {
      s.out().redirect(p);
    } catch (IOException e) {
      throw new BadInputException("cannot write " + arg + ": " + e.getMessage());
    }
  }

  private void help() {
    List<Object[]> rows = new ArrayList<>();
    for (Spec spec : SPECS) {
      rows.add(new Object[] {(spec.name() + " " + spec.args()).strip(), spec.help()});
    }
    PrintWriter out = s.out().writer();
    out.print(Wrap.columns(rows, s.out().width()));
    out.println("SQL statements end with ';' and may span lines. Tab completes names; "
        + "SELECT * FROM tt_docs holds all the documentation.");
    out.flush();
  }

  private List<String> strings(String sql, String param) throws SQLException {
    List<String> out = new ArrayList<>();
    if (param == null) {
      try (Statement st = s.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
      return out;
    }
    try (PreparedStatement ps = s.connection().prepareStatement(sql)) {
      int n = ps.getParameterMetaData().getParameterCount();
      for (int i = 1; i <= n; i++) {
        ps.setString(i, param);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    return out;
  }

  static String firstSentence(String text) {
    int end = text.indexOf(". ");
    return end < 0 ? text : text.substring(0, end + 1);
  }
}
