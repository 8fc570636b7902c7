package dev.tokentime.shell;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The names completion offers: tables, views and macros (the database's and temporary ones made
 * in the session) and their columns, read from DuckDB's catalog functions when first needed and
 * again after a statement that may have changed them.
 */
final class Catalog {
  private final Connection conn;
  private SortedSet<String> objects;
  private Map<String, SortedSet<String>> columns;

  Catalog(Connection conn) {
    this.conn = conn;
  }

  /** Forgets the names; the next look-up reads them again. */
  void invalidate() {
    objects = null;
    columns = null;
  }

  SortedSet<String> objects() {
    load();
    return Collections.unmodifiableSortedSet(objects);
  }

  /** Column names by object name. */
  Map<String, SortedSet<String>> columns() {
    load();
    return Collections.unmodifiableMap(columns);
  }

  /** Every column name of every object. */
  SortedSet<String> allColumns() {
    SortedSet<String> all = new TreeSet<>();
    columns().values().forEach(all::addAll);
    return all;
  }

  private void load() {
    if (objects != null) {
      return;
    }
    SortedSet<String> objs = new TreeSet<>();
    Map<String, SortedSet<String>> cols = new TreeMap<>();
    try (Statement st = conn.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT table_name FROM duckdb_tables() WHERE NOT internal "
          + "UNION SELECT view_name FROM duckdb_views() WHERE NOT internal "
          + "UNION SELECT function_name FROM duckdb_functions() "
          + "WHERE NOT internal AND function_type IN ('macro', 'table_macro')")) {
        while (rs.next()) {
          objs.add(rs.getString(1));
        }
      }
      try (ResultSet rs = st.executeQuery(
          "SELECT DISTINCT table_name, column_name FROM duckdb_columns() WHERE NOT internal")) {
        while (rs.next()) {
          cols.computeIfAbsent(rs.getString(1), k -> new TreeSet<>()).add(rs.getString(2));
        }
      }
    } catch (SQLException e) {
      // completion is a convenience: without the catalog it offers nothing, the shell goes on
    }
    objects = objs;
    columns = cols;
  }

  /** Whether a statement may change the names (DDL, attaching a database). */
  static boolean changesNames(String sql) {
    String first = sql.strip().split("\\s+", 2)[0].toUpperCase(java.util.Locale.ROOT);
    return switch (first) {
      case "CREATE", "DROP", "ALTER", "ATTACH", "DETACH", "USE", "IMPORT" -> true;
      default -> false;
    };
  }
}
