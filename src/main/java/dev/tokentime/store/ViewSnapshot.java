package dev.tokentime.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
  /** The scratch database file of an on-disk snapshot, else null. */
  private final Path scratch;
  /** The temporary table of a snapshot of some rows ({@link #ofRows}), else null. */
  private final String rowsTable;

  private ViewSnapshot(Database db, String view, boolean owned) {
    this(db, view, owned, null, null);
  }

  private ViewSnapshot(Database db, String view, boolean owned, Path scratch, String rowsTable) {
    this.db = db;
    this.view = view;
    this.owned = owned;
    this.scratch = scratch;
    this.rowsTable = rowsTable;
  }

  /** A snapshot that is not taken: closing it does nothing. */
  public static ViewSnapshot none(Database db, String view) {
    checkName(view);
    return new ViewSnapshot(db, view, false);
  }

  /** Computes {@code view} (a plain name from the query library) into a shadowing temporary table. */
  public static ViewSnapshot of(Database db, String view) throws SQLException {
    checkName(view);
    if (exists(db, view)) {
      return new ViewSnapshot(db, view, false);
    }
    db.execute("CREATE TEMP TABLE " + view + " AS SELECT * FROM " + source(db, view));
    return new ViewSnapshot(db, view, true);
  }

  /**
   * The per-request rows each peer tool's view reads several times (the query library's
   * {@code _peer_requests}), computed once, for a task that computes several of those views
   * ({@code conventions}): named here, where the store's helpers are known, so that callers name
   * public views only.
   */
  public static ViewSnapshot ofPeerRequests(Database db) throws SQLException {
    long start = System.nanoTime();
    ViewSnapshot s = of(db, "_peer_requests");
    dev.tokentime.Timing.since("snapshot of _peer_requests", start);
    return s;
  }

  /**
   * As {@link #of}, for rows too many for DuckDB's memory: they go into a table of a scratch
   * database file in the system's temporary directory (written compressed, read back through the
   * buffer pool like any stored table, so DuckDB can evict them), and a temporary view of the same
   * name shadows the view. A temporary table is neither compressed nor easily evicted: the 12.5 M
   * token steps of 200 M tokens took about 0.6 GB as one, over the 500 MB limit by themselves, and
   * the report ran out of memory. The file is deleted on close.
   */
  public static ViewSnapshot onDisk(Database db, String view) throws SQLException {
    return onDisk(db, view, null);
  }

  /**
   * As {@link #ofRows}, with the selected rows in a scratch database file as {@link #onDisk} keeps
   * them: for a selection too big to hold in memory beside the task's other work.
   */
  public static ViewSnapshot onDiskRows(Database db, String view, String where) throws SQLException {
    return onDisk(db, view, java.util.Objects.requireNonNull(where, "where"));
  }

  /** An on-disk snapshot of the view's rows, or of those that {@code where} selects (null: all). */
  private static ViewSnapshot onDisk(Database db, String view, String where) throws SQLException {
    checkName(view);
    if (exists(db, view)) {
      return new ViewSnapshot(db, view, false);
    }
    Path file;
    try {
      file = Files.createTempFile("tokentime-" + view + "-", ".duckdb");
      Files.delete(file); // DuckDB creates it
    } catch (IOException e) {
      throw new SQLException("cannot create a scratch file for " + view + ": " + e.getMessage(), e);
    }
    String alias = scratchAlias(view);
    String rows = source(db, view);
    // READ_WRITE: the report opens its database read-only, which attaching would inherit
    db.execute("ATTACH '" + file.toString().replace("'", "''") + "' AS " + alias + " (READ_WRITE)");
    ViewSnapshot s = new ViewSnapshot(db, view, true, file, null);
    try {
      db.execute("CREATE TABLE " + alias + ".rows AS SELECT * FROM " + rows
          + (where == null ? "" : " WHERE " + where));
      db.execute("CREATE TEMP VIEW " + view + " AS SELECT * FROM " + alias + ".rows"
          + (where == null ? "" : " UNION ALL SELECT * FROM " + rows + " WHERE NOT (" + where + ")"));
    } catch (SQLException e) {
      s.close();
      throw e;
    }
    return s;
  }

  /**
   * Snapshots of several views, taken one after another in the order given (each view computed on
   * its own), closed together in the reverse order.
   */
  public static Group ofEach(Database db, java.util.List<String> views) throws SQLException {
    Group group = new Group();
    try {
      for (String view : views) {
        long start = System.nanoTime();
        group.snapshots.add(0, of(db, view));
        dev.tokentime.Timing.since("snapshot of " + view, start);
      }
    } catch (SQLException | RuntimeException e) {
      group.close();
      throw e;
    }
    return group;
  }

  /** What {@link #ofEach} returns. */
  public static final class Group implements AutoCloseable {
    private final java.util.List<ViewSnapshot> snapshots = new java.util.ArrayList<>();

    private Group() {}

    @Override
    public void close() throws SQLException {
      SQLException first = null;
      for (ViewSnapshot s : snapshots) {
        try {
          s.close();
        } catch (SQLException e) {
          if (first == null) {
            first = e;
          }
        }
      }
      snapshots.clear();
      if (first != null) {
        throw first;
      }
    }
  }

  /**
   * As {@link #of}, for the rows of {@code view} that {@code where} (a condition true or false on
   * every row, on the view's columns and constants) selects: they are computed once into a
   * temporary table, and a temporary view of the same name reads them from there and the other
   * rows from the view itself, so a reader that filters on the same condition reads only the copy
   * and one that asks for other rows still gets them, computed as before.
   */
  public static ViewSnapshot ofRows(Database db, String view, String where) throws SQLException {
    checkName(view);
    if (exists(db, view)) {
      return new ViewSnapshot(db, view, false);
    }
    String rows = source(db, view);
    String table = "tt_rows_" + view;
    db.execute("CREATE TEMP TABLE " + table + " AS SELECT * FROM " + rows + " WHERE " + where);
    ViewSnapshot s = new ViewSnapshot(db, view, true, null, table);
    try {
      db.execute("CREATE TEMP VIEW " + view + " AS SELECT * FROM temp.main." + table
          + " UNION ALL SELECT * FROM " + rows + " WHERE NOT (" + where + ")");
    } catch (SQLException e) {
      s.close();
      throw e;
    }
    return s;
  }

  private static void checkName(String view) {
    if (!view.matches("[a-z_][a-z0-9_]*")) {
      throw new IllegalArgumentException("not a view name: " + view);
    }
  }

  private static String scratchAlias(String view) {
    return "tt_snapshot_" + view;
  }

  /** The view itself, qualified by the main catalog (the snapshot's own name shadows it). */
  private static String source(Database db, String view) throws SQLException {
    try (PreparedStatement ps = db.connection().prepareStatement("SELECT current_database()");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return "\"" + rs.getString(1).replace("\"", "\"\"") + "\".main." + view;
    }
  }

  private static boolean exists(Database db, String view) throws SQLException {
    try (PreparedStatement ps = db.connection().prepareStatement(
        "SELECT (SELECT count(*) FROM duckdb_tables() WHERE temporary AND table_name = ?)"
            + " + (SELECT count(*) FROM duckdb_views() WHERE temporary AND view_name = ?)")) {
      ps.setString(1, view);
      ps.setString(2, view);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1) > 0;
      }
    }
  }

  @Override
  public void close() throws SQLException {
    if (!owned) {
      return;
    }
    if (rowsTable != null) {
      db.execute("DROP VIEW IF EXISTS temp.main." + view);
      db.execute("DROP TABLE IF EXISTS temp.main." + rowsTable);
      return;
    }
    if (scratch == null) {
      db.execute("DROP TABLE IF EXISTS temp.main." + view);
      return;
    }
    try {
      db.execute("DROP VIEW IF EXISTS temp.main." + view);
      db.execute("DETACH DATABASE IF EXISTS " + scratchAlias(view));
    } finally {
      try {
        Files.deleteIfExists(scratch);
        Files.deleteIfExists(Path.of(scratch + ".wal"));
      } catch (IOException e) {
        // a file left in the temporary directory is harmless
      }
    }
  }
}
