package dev.tokentime.store;

import dev.tokentime.ingest.ClockSpec;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Clock ids: the same clock spec always gets the same id, across files and ingests. */
final class ClockRegistry {
  private final Map<ClockSpec, Integer> ids = new HashMap<>();
  private int next;

  ClockRegistry(Database db) throws SQLException {
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

  /** The id of the clock; a new clock is added to {@code created} for the caller to store. */
  synchronized int idFor(ClockSpec spec, Map<Integer, ClockSpec> created) {
    Integer id = ids.get(spec);
    if (id == null) {
      id = ++next;
      ids.put(spec, id);
      created.put(id, spec);
    }
    return id;
  }

  /** Forgets clocks whose rows were rolled back. */
  synchronized void forget(Map<Integer, ClockSpec> created) {
    created.values().forEach(ids::remove);
  }

  static void insert(Database db, Map<Integer, ClockSpec> created) throws SQLException {
    if (created.isEmpty()) {
      return;
    }
    try (PreparedStatement ps = db.connection().prepareStatement(
        "INSERT INTO clocks VALUES (?, ?, ?, ?, ?, ?)")) {
      for (var e : created.entrySet()) {
        ClockSpec c = e.getValue();
        ps.setInt(1, e.getKey());
        ps.setString(2, c.kind());
        ps.setString(3, c.scope());
        ps.setLong(4, c.resolutionNs());
        ps.setString(5, c.tz());
        ps.setBoolean(6, c.tzAssumed());
        ps.executeUpdate();
      }
    }
  }

  static List<Integer> ids(Map<Integer, ClockSpec> m) {
    return List.copyOf(m.keySet());
  }
}
