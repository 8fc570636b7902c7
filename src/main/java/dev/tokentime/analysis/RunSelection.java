package dev.tokentime.analysis;

import dev.tokentime.store.Database;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The runs a summary or report was asked for (--run), in the session variable tt_runs that the
 * views pooling runs read (_run_selected): the levels of a sweep, its knee and DistServe's goodput
 * are then those of the selected runs, not of every run in the database. Per-run figures need no
 * selection (each is its run's own); their rows are kept by the caller. Closing it puts back what
 * the session held before, so a summary inside a report leaves the report's selection standing.
 */
public final class RunSelection implements AutoCloseable {
  private final Database db;
  private final List<String> previous;
  private final boolean changed;

  private RunSelection(Database db, List<String> previous, boolean changed) {
    this.db = db;
    this.previous = previous;
    this.changed = changed;
  }

  /** Selects these runs until closed; an empty collection selects every run (no change). */
  public static RunSelection of(Database db, Collection<String> runs) throws SQLException {
    if (runs.isEmpty()) {
      return new RunSelection(db, null, false);
    }
    List<String> previous = current(db);
    set(db, List.copyOf(runs));
    return new RunSelection(db, previous, true);
  }

  @Override
  public void close() throws SQLException {
    if (changed) {
      set(db, previous);
    }
  }

  private static List<String> current(Database db) throws SQLException {
    try (Statement st = db.connection().createStatement();
        ResultSet rs = st.executeQuery("SELECT getvariable('tt_runs')::VARCHAR[]")) {
      if (!rs.next()) {
        return null;
      }
      Array a = rs.getArray(1);
      if (a == null) {
        return null;
      }
      List<String> out = new ArrayList<>();
      for (Object o : (Object[]) a.getArray()) {
        out.add(String.valueOf(o));
      }
      return out;
    }
  }

  private static void set(Database db, List<String> runs) throws SQLException {
    if (runs == null) {
      db.execute("RESET VARIABLE tt_runs");
      return;
    }
    StringBuilder sql = new StringBuilder("SET VARIABLE tt_runs = [");
    for (int i = 0; i < runs.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append('\'').append(runs.get(i).replace("'", "''")).append('\'');
    }
    db.execute(sql.append("]::VARCHAR[]").toString());
  }
}
