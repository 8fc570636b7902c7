package dev.tokentime.query;

import dev.tokentime.store.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A view computed once for the rest of a task (a summary, a report) that reads it several times,
 * directly and through other views: a temporary table of the same name holds its rows and shadows
 * it, because DuckDB looks names up in the temporary catalog first, also inside view definitions.
 * {@code metric_stats} is the case: it holds exact percentiles over every chunk gap, and
 * {@code level_summary}, the report's tables and its findings each read it again.
 *
 * <p>The snapshot reflects the session's analysis window as set when it is taken; the task must
 * not change the window while it is open. It is dropped on close. Taking a snapshot of a view that
 * already has one is a no-op, so nested tasks share the outer one.
 */
public final class ViewSnapshot implements AutoCloseable {
  private final Database db;
  private final String view;
  private final boolean owned;

  private ViewSnapshot(Database db, String view, boolean owned) {
    this.db = db;
    this.view = view;
    this.owned = owned;
  }

  /** Computes {@code view} (a plain name from the query library) into a shadowing temporary table. */
  public static ViewSnapshot of(Database db, String view) throws SQLException {
    if (!view.matches("[a-z_][a-z0-9_]*")) {
      throw new IllegalArgumentException("not a view name: " + view);
    }
    if (exists(db, view)) {
      return new ViewSnapshot(db, view, false);
    }
    String catalog;
    try (PreparedStatement ps = db.connection().prepareStatement("SELECT current_database()");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      catalog = rs.getString(1).replace("\"", "\"\"");
    }
    db.execute("CREATE TEMP TABLE " + view + " AS SELECT * FROM \"" + catalog + "\".main." + view);
    return new ViewSnapshot(db, view, true);
  }

  private static boolean exists(Database db, String view) throws SQLException {
    try (PreparedStatement ps = db.connection().prepareStatement(
        "SELECT count(*) FROM duckdb_tables() WHERE temporary AND table_name = ?")) {
      ps.setString(1, view);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1) > 0;
      }
    }
  }

  @Override
  public void close() throws SQLException {
    if (owned) {
      db.execute("DROP TABLE IF EXISTS temp.main." + view);
    }
  }
}
