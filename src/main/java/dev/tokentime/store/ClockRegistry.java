package dev.tokentime.store;

import dev.tokentime.ingest.ClockSpec;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/** Clock ids: the same clock spec always gets the same id, across files and ingests. */
final class ClockRegistry {
  private final Map<ClockSpec, Integer> ids = new HashMap<>();
  private final Database db;
  private final Object lock;
  private int next;

  /**
   * @param lock the lock that guards every use of the database's main connection
   */
  ClockRegistry(Database db, Object lock) throws SQLException {
    this.db = db;
    this.lock = lock;
    try (Statement st = db.connection().createStatement();
        ResultSet rs = st.executeQuery(
            "SELECT clock_id, kind, scope, resolution_ns, tz, tz_assumed FROM clocks")) {
      while (rs.next()) {
        int id = rs.getInt(1);
        ids.put(new ClockSpec(rs.getString(2), rs.getString(3), rs.getLong(4), rs.getString(5),
            rs.getBoolean(6)), id);
        next = Math.max(next, id);
      }
    }
  }

  /**
   * The id of the clock. A new clock's row is written at once, outside any file's transaction:
   * files ingested in parallel may share it, and a row left by a file that rolls back is harmless.
   */
  int idFor(ClockSpec spec) {
    synchronized (lock) {
      Integer id = ids.get(spec);
      if (id != null) {
        return id;
      }
      id = next + 1;
      int row = id;
      // committed at once, outside the file's transaction: through the exit gate (Database.durableWrite)
      try {
        db.durableWrite(() -> {
          try (PreparedStatement ps = db.connection().prepareStatement(
              "INSERT INTO clocks VALUES (?, ?, ?, ?, ?, ?)")) {
            ps.setInt(1, row);
            ps.setString(2, spec.kind());
            ps.setString(3, spec.scope());
            ps.setLong(4, spec.resolutionNs());
            ps.setString(5, spec.tz());
            ps.setBoolean(6, spec.tzAssumed());
            return ps.executeUpdate();
          }
        });
      } catch (SQLException e) {
        throw new StoreException(e);
      }
      next = id;
      ids.put(spec, id);
      return id;
    }
  }
}
