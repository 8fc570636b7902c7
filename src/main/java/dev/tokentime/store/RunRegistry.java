package dev.tokentime.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The runs of the database and their levels. A run's level comes from its records (concurrency,
 * request_rate, repeat fields, a tool's own result file), else from {@code ingest --level}, else
 * from a name: the run's own (c16, conc-16, concurrency=16, rate_4, qps2, rps-2.5, r3), then, for
 * a run named after its directory, its files' names and the two directories above (nearest
 * first). A stated level (records, --level) overrides one inferred from a name, never the other
 * way; once stated, a record that says otherwise is rejected. Files of one run whose names state
 * different levels leave the run without a level, and its notes say why.
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

  /**
   * Makes sure the run exists, with the level given by --level ({@code kind} null for none) or,
   * failing any level, one inferred from the names of a file of the run ({@code hints}: the file's
   * name, then directories, nearest first). Returns null, or the conflict of --level with a level
   * the run's files state.
   */
  String touch(String run, Collection<String> changed, List<String> hints, String kind, Double level) {
    synchronized (lock) {
      touchLocked(run, changed);
      Run r = runs.get(run);
      if (kind != null) {
        if (r.levelKind != null && !inferred(r) && !EXPLICIT.equals(r.notes)
            && (!r.levelKind.equals(kind) || !Objects.equals(r.level, level))) {
          return "run " + run + " is at " + describe(r.levelKind, r.level) + " (" + r.notes + "); --level says "
              + describe(kind, level);
        }
        if (r.levelKind == null || inferred(r) || EXPLICIT.equals(r.notes)) {
          if (!kind.equals(r.levelKind) || !Objects.equals(r.level, level) || !EXPLICIT.equals(r.notes)) {
            r.levelKind = kind;
            r.level = level;
            r.notes = EXPLICIT;
            changed.add(run);
          }
        }
        return null;
      }
      boolean open = r.levelKind == null && (r.notes == null || r.notes.startsWith(FROM_RUN_NAME));
      if (!open && !fromPath(r)) {
        return null;
      }
      for (int i = 0; i < hints.size(); i++) {
        String hint = hints.get(i);
        Run h = new Run(hint);
        inferFromName(h);
        if (h.levelKind == null) {
          continue;
        }
        String how = (i == 0 ? FROM_FILE_NAME : FROM_DIRECTORY_NAME) + hint;
        if (open) {
          r.levelKind = h.levelKind;
          r.level = h.level;
          r.notes = how;
          changed.add(run);
        } else if (!r.levelKind.equals(h.levelKind) || !Objects.equals(r.level, h.level)) {
          r.notes = NAMES_DISAGREE + r.notes.substring(r.notes.indexOf(" name ") + 6) + ": "
              + describe(r.levelKind, r.level) + ", " + hint + ": " + describe(h.levelKind, h.level)
              + "; give each level its own directory, or name it with --level)";
          r.levelKind = null;
          r.level = null;
          changed.add(run);
        }
        break;
      }
      return null;
    }
  }

  /** The conflict of --level with a level the run's files state, or null (nothing changes). */
  String levelConflict(String run, String kind, Double level) {
    synchronized (lock) {
      Run r = runs.get(run);
      if (r == null || r.levelKind == null || inferred(r) || EXPLICIT.equals(r.notes)
          || r.levelKind.equals(kind) && Objects.equals(r.level, level)) {
        return null;
      }
      return "run " + run + " is at " + describe(r.levelKind, r.level) + " (" + r.notes + "); --level says "
          + describe(kind, level);
    }
  }

  static final String EXPLICIT = "from --level";
  static final String FROM_RUN_NAME = "from run name";
  static final String FROM_FILE_NAME = "from file name ";
  static final String FROM_DIRECTORY_NAME = "from directory name ";
  static final String NAMES_DISAGREE = "no level: the names of its files state different levels (";

  /** A level (or its absence) inferred from a name: any stated level overrides it. */
  private static boolean inferred(Run r) {
    return r.notes != null && (r.notes.startsWith(FROM_RUN_NAME) || fromPath(r) || r.notes.startsWith(NAMES_DISAGREE));
  }

  private static boolean fromPath(Run r) {
    return r.notes != null && (r.notes.startsWith(FROM_FILE_NAME) || r.notes.startsWith(FROM_DIRECTORY_NAME));
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
    boolean fromName = inferred(r);
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

  // a level is a whole token of the name: cuda12, h100, v0.7 or llama-3.1 hold none
  private static final Pattern CONCURRENCY = Pattern.compile(
      "(?:^|[-_./ ,])(?:c|conc|concurrency)[-_=]?(\\d+)(?=$|[-_./ ,])", Pattern.CASE_INSENSITIVE);
  private static final Pattern RATE = Pattern.compile(
      "(?:^|[-_./ ,])(?:rate|qps|rps|request_rate|request-rate)[-_=]?(\\d+(?:\\.\\d+)?)(?=$|[-_./ ,])",
      Pattern.CASE_INSENSITIVE);
  // a repeat is "rep2", "repeat-2", "trial_2" or "run=2" (vllm bench sweep's run=N.json) anywhere, a bare "r2" only as the whole name, right
  // after the level ("c16-r2") or first before it ("r2_rate8"): a bare one elsewhere is as often a
  // LoRA rank ("lora-r16", "lora-r16-c16") or a revision as a repeat; "r1.0" is no repeat (a
  // rate, as a folder of AIPerf runs names it)
  private static final Pattern REPEAT =
      Pattern.compile("(?:^|[-_./ ,])(?:(?:rep|repeat|trial)[-_=]?|run[-_=])(\\d+)(?=$|[-_./ ,])", Pattern.CASE_INSENSITIVE);
  private static final String LEVEL_TOKEN =
      "(?:c|conc|concurrency|rate|qps|rps|request_rate|request-rate)[-_=]?\\d+(?:\\.\\d+)?";
  private static final Pattern BARE_REPEAT = Pattern.compile(
      "^r(\\d+)(?:\\.(?!\\d)\\w+)*$"
          + "|(?:^|[-_./ ,])" + LEVEL_TOKEN + "[-_./ ,]r(\\d+)(?=$|[-_./ ,])"
          + "|^r(\\d+)[-_./ ,]" + LEVEL_TOKEN + "(?=$|[-_./ ,])",
      Pattern.CASE_INSENSITIVE);

  /**
   * Level and repeat from names like c16, conc16, concurrency=16, concurrency_16, rate-8, qps8,
   * rps-2.5, c16-r2, rate8_rep3, r2.
   */
  static void inferFromName(Run r) {
    Double c = onlyLevel(CONCURRENCY.matcher(r.name));
    Double q = onlyLevel(RATE.matcher(r.name));
    if (c != null) {
      r.levelKind = "concurrency";
      r.level = c;
    } else if (q != null) {
      r.levelKind = "request_rate";
      r.level = q;
    }
    Matcher p = REPEAT.matcher(r.name);
    Matcher b = BARE_REPEAT.matcher(r.name);
    if (p.find()) {
      r.repeat = Integer.parseInt(p.group(1));
    } else if (b.find()) {
      String n = b.group(1) != null ? b.group(1) : b.group(2) != null ? b.group(2) : b.group(3);
      r.repeat = Integer.parseInt(n);
    }
    if (r.levelKind != null || r.repeat != null) {
      r.notes = FROM_RUN_NAME;
    }
  }

  /**
   * The one level the name states, or null: none, zero (as a record field's 0 is refused, no
   * level), or two that differ ("c16-c32": which one is meant cannot be known).
   */
  private static Double onlyLevel(Matcher m) {
    Double found = null;
    while (m.find()) {
      double v = Double.parseDouble(m.group(1));
      if (found != null && found != v) {
        return null;
      }
      found = v;
    }
    return found == null || found <= 0 ? null : found;
  }

  private static String describe(String kind, Double level) {
    String v = level == null ? "?" : level == Math.rint(level) ? Long.toString(level.longValue()) : level.toString();
    return kind.replace('_', ' ') + " " + v;
  }
}
