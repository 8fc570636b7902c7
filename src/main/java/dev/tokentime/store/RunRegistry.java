package dev.tokentime.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The runs of the database and their levels. A run's level comes from its records (concurrency,
 * request_rate, repeat fields) or, failing that, from its name (c16, conc-16, rate_4, qps2, r3);
 * once known, a record that says otherwise is rejected.
 */
final class RunRegistry {
  static final class Run {
    final String name;
    String levelKind;
    Double level;
    Integer repeat;
    String notes;

    Run(String name) {
      this.name = name;
    }
  }

  private final Map<String, Run> runs = new HashMap<>();
  private final Object lock;

  RunRegistry(Database db, Object lock) throws SQLException {
    this.lock = lock;
    reload(db);
  }

  void reload(Database db) throws SQLException {
    synchronized (lock) {
      load(db);
    }
  }

  private void load(Database db) throws SQLException {
    runs.clear();
    try (Statement st = db.connection().createStatement();
        ResultSet rs = st.executeQuery("SELECT run, level_kind, level, repeat, notes FROM runs")) {
      while (rs.next()) {
        Run r = new Run(rs.getString(1));
        r.levelKind = rs.getString(2);
        double lv = rs.getDouble(3);
        r.level = rs.wasNull() ? null : lv;
        int rep = rs.getInt(4);
        r.repeat = rs.wasNull() ? null : rep;
        r.notes = rs.getString(5);
        runs.put(r.name, r);
      }
    }
  }

  /** Makes sure the run exists; returns true when it is new. */
  boolean touch(String run, Collection<String> changed) {
    synchronized (lock) {
      return touchLocked(run, changed);
    }
  }

  private boolean touchLocked(String run, Collection<String> changed) {
    if (runs.containsKey(run)) {
      return false;
    }
    Run r = new Run(run);
    inferFromName(r);
    runs.put(run, r);
    changed.add(run);
    return true;
  }

  /** Returns null when the level is consistent with what is known, else the conflict. */
  String level(String run, String kind, Double level, Integer repeat, String how,
      Collection<String> changed) {
    synchronized (lock) {
      return levelLocked(run, kind, level, repeat, how, changed);
    }
  }

  private String levelLocked(String run, String kind, Double level, Integer repeat, String how,
      Collection<String> changed) {
    touchLocked(run, changed);
    Run r = runs.get(run);
    boolean fromName = r.notes != null && r.notes.startsWith("from run name");
    if (kind != null) {
      if (r.levelKind != null && !fromName
          && (!r.levelKind.equals(kind) || !Objects.equals(r.level, level))) {
        return "run " + run + " is at " + describe(r.levelKind, r.level) + "; this record says "
            + describe(kind, level);
      }
      if (!kind.equals(r.levelKind) || !Objects.equals(r.level, level) || fromName) {
        r.levelKind = kind;
        r.level = level;
        r.notes = "from " + how;
        changed.add(run);
      }
    }
    if (repeat != null) {
      if (r.repeat != null && !r.repeat.equals(repeat) && !fromName) {
        return "run " + run + " is repeat " + r.repeat + "; this record says repeat " + repeat;
      }
      if (!repeat.equals(r.repeat)) {
        r.repeat = repeat;
        changed.add(run);
      }
    }
    return null;
  }

  /**
   * Adds the current state of the given runs to _pending_runs on a file's connection, inside its
   * transaction: the runs table is written from there by the derive step, so a file and its runs
   * commit together (writing runs through the main connection after the file's commit lost them
   * to a kill in between, and two files deleting one runs row conflicted). {@code seq} orders the
   * states, taken under the registry's lock, so the highest is the latest.
   */
  void writePending(java.sql.Connection conn, Collection<String> names, java.util.function.LongSupplier seq)
      throws SQLException {
    synchronized (lock) {
      writePendingLocked(conn, names, seq);
    }
  }

  private void writePendingLocked(java.sql.Connection conn, Collection<String> names,
      java.util.function.LongSupplier seq) throws SQLException {
    try (PreparedStatement ins = conn.prepareStatement("INSERT INTO _pending_runs VALUES (?, ?, ?, ?, ?, ?)")) {
      for (String name : names) {
        Run r = runs.get(name);
        if (r == null) {
          // a run this ingest never saw in a record (one a replaced file had): state as known
          r = new Run(name);
          inferFromName(r);
        }
        ins.setLong(1, seq.getAsLong());
        ins.setString(2, name);
        ins.setString(3, r.levelKind);
        if (r.level == null) {
          ins.setNull(4, java.sql.Types.DOUBLE);
        } else {
          ins.setDouble(4, r.level);
        }
        if (r.repeat == null) {
          ins.setNull(5, java.sql.Types.INTEGER);
        } else {
          ins.setInt(5, r.repeat);
        }
        ins.setString(6, r.notes);
        ins.executeUpdate();
      }
    }
  }

  private static final Pattern CONCURRENCY =
      Pattern.compile("(?:^|[-_./ ])(?:c|conc|concurrency)[-_]?(\\d+)(?=$|[-_./ ])", Pattern.CASE_INSENSITIVE);
  private static final Pattern RATE = Pattern.compile(
      "(?:^|[-_./ ])(?:rate|qps|rps|request_rate)[-_]?(\\d+(?:\\.\\d+)?)(?=$|[-_./ ])", Pattern.CASE_INSENSITIVE);
  private static final Pattern REPEAT =
      Pattern.compile("(?:^|[-_./ ])(?:r|rep|repeat)[-_]?(\\d+)(?=$|[-_./ ])", Pattern.CASE_INSENSITIVE);

  /** Level and repeat from names like c16, conc-16, concurrency_16, rate4, qps_2.5, c16-r2. */
  static void inferFromName(Run r) {
    Matcher c = CONCURRENCY.matcher(r.name);
    Matcher q = RATE.matcher(r.name);
    if (c.find()) {
      r.levelKind = "concurrency";
      r.level = Double.parseDouble(c.group(1));
    } else if (q.find()) {
      r.levelKind = "request_rate";
      r.level = Double.parseDouble(q.group(1));
    }
    Matcher p = REPEAT.matcher(r.name);
    if (p.find()) {
      r.repeat = Integer.parseInt(p.group(1));
    }
    if (r.levelKind != null || r.repeat != null) {
      r.notes = "from run name";
    }
  }

  private static String describe(String kind, Double level) {
    String v = level == null ? "?" : level == Math.rint(level) ? Long.toString(level.longValue()) : level.toString();
    return kind.replace('_', ' ') + " " + v;
  }
}
