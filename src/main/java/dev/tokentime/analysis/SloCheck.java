package dev.tokentime.analysis;

import dev.tokentime.store.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Checks runs against an SLO ({@code tokentime check}). Figures come from the views —
 * metric_stats and run_summary per run, combined per level by the median over repeats as
 * level_summary does; slo_attainment for the per-request targets; ttft_breakdown and
 * stall_summary to say why a level misses.
 */
public final class SloCheck {

  /** The runs to check (all when empty). */
  public SloReport check(Database db, SloSpec spec, Collection<String> onlyRuns) throws SQLException {
    setTargets(db, spec);
    Map<String, Map<String, Double>> perRun = figures(db, spec);
    Map<String, Double> attainment = attainment(db);
    Map<String, Double> queueShare = queueShares(db);
    Map<String, String> stallVerdict = stallVerdicts(db);
    Map<String, GroupKey> groups = new LinkedHashMap<>();
    try (Statement st = db.connection().createStatement();
        ResultSet rs = st.executeQuery("SELECT run, level_kind, level FROM run_summary")) {
      while (rs.next()) {
        String run = rs.getString(1);
        if (!onlyRuns.isEmpty() && !onlyRuns.contains(run)) {
          continue;
        }
        String kind = rs.getString(2);
        double lv = rs.getDouble(3);
        Double level = rs.wasNull() ? null : lv;
        groups.put(run, new GroupKey(kind, level, kind == null ? run : null));
      }
    }
    Map<GroupKey, List<String>> byLevel = new LinkedHashMap<>();
    groups.forEach((run, key) -> byLevel.computeIfAbsent(key, k -> new ArrayList<>()).add(run));

    List<SloReport.Level> levels = new ArrayList<>();
    boolean allMet = !byLevel.isEmpty();
    SloReport.Level best = null;
    for (var e : byLevel.entrySet()) {
      GroupKey key = e.getKey();
      List<String> runs = e.getValue();
      List<SloReport.TermResult> results = new ArrayList<>();
      List<String> diagnoses = new ArrayList<>();
      boolean met = true;
      for (SloSpec.Term t : spec.terms()) {
        Double v = median(runs.stream().map(r -> perRun.getOrDefault(r, Map.of()).get(key(t))).toList());
        boolean ok = v != null && t.holds(v);
        met &= ok;
        results.add(new SloReport.TermResult(t.describe(), v, ok));
        if (!ok) {
          diagnoses.add(diagnose(key, t, v, runs, queueShare, stallVerdict));
        }
      }
      Double att = median(runs.stream().map(attainment::get).toList());
      SloReport.Level level = new SloReport.Level(key.label(), key.kind, key.level, runs, results, att,
          met, diagnoses);
      levels.add(level);
      allMet &= met;
      if (met && key.level != null && (best == null || key.level > best.level())) {
        best = level;
      }
    }
    String recommendation = best != null
        ? best.label() + " is the highest level that meets the SLO"
        : byLevel.keySet().stream().anyMatch(k -> k.level != null) ? "no level meets the SLO" : null;
    return new SloReport(String.join(", ", spec.terms().stream().map(SloSpec.Term::describe).toList()),
        levels, recommendation, allMet);
  }

  /** A level (kind and value), or a run without a level (label). */
  private record GroupKey(String kind, Double level, String run) {
    String label() {
      if (kind == null) {
        return "run " + run;
      }
      return kind.replace('_', ' ') + " " + SloSpec.num(level);
    }
  }

  private static String key(SloSpec.Term t) {
    return t.latency() ? t.metric() + "/" + t.stat() : t.metric();
  }

  /** Per run, the figure each term needs. */
  private static Map<String, Map<String, Double>> figures(Database db, SloSpec spec) throws SQLException {
    Map<String, Map<String, Double>> out = new HashMap<>();
    try (Statement st = db.connection().createStatement();
        ResultSet rs = st.executeQuery("SELECT * FROM metric_stats")) {
      while (rs.next()) {
        String run = rs.getString("run");
        String metric = rs.getString("metric");
        for (SloSpec.Term t : spec.terms()) {
          if (t.latency() && t.metric().equals(metric)) {
            double v = rs.getDouble(t.stat());
            if (!rs.wasNull()) {
              out.computeIfAbsent(run, k -> new HashMap<>()).put(key(t), v);
            }
          }
        }
      }
    }
    try (Statement st = db.connection().createStatement();
        ResultSet rs = st.executeQuery("SELECT run, output_tokens_per_s, requests_per_s FROM run_summary")) {
      while (rs.next()) {
        Map<String, Double> m = out.computeIfAbsent(rs.getString(1), k -> new HashMap<>());
        double a = rs.getDouble(2);
        if (!rs.wasNull()) {
          m.put("output_tokens_per_s", a);
        }
        double b = rs.getDouble(3);
        if (!rs.wasNull()) {
          m.put("requests_per_s", b);
        }
      }
    }
    return out;
  }

  /** Sets the per-request targets the slo_attainment view reads. */
  public static void setTargets(Database db, SloSpec spec) throws SQLException {
    Double tpot = spec.perRequestTarget("tpot_ms");
    if (tpot == null) {
      tpot = spec.perRequestTarget("itl_ms");
    }
    try (Statement st = db.connection().createStatement()) {
      set(st, "tt_slo_ttft_ms", spec.perRequestTarget("ttft_ms"));
      set(st, "tt_slo_tpot_ms", tpot);
      set(st, "tt_slo_e2e_ms", spec.perRequestTarget("e2e_ms"));
    }
  }

  private static void set(Statement st, String name, Double v) throws SQLException {
    st.execute(v == null ? "RESET VARIABLE " + name : "SET VARIABLE " + name + " = " + v + "::DOUBLE");
  }

  private static Map<String, Double> attainment(Database db) throws SQLException {
    Map<String, Double> out = new HashMap<>();
    try (Statement st = db.connection().createStatement();
        ResultSet rs = st.executeQuery("SELECT run, attainment FROM slo_attainment")) {
      while (rs.next()) {
        double v = rs.getDouble(2);
        if (!rs.wasNull()) {
          out.put(rs.getString(1), v);
        }
      }
    }
    return out;
  }

  /**
   * Per run and percentile: the share of queueing (and of prefill) in the slow tail's TTFT, and
   * of queue + prefill together where the source does not split them (ttft_breakdown).
   */
  private static Map<String, Double> queueShares(Database db) throws SQLException {
    Map<String, Double> out = new HashMap<>();
    try (PreparedStatement ps = db.connection().prepareStatement(
        "SELECT run, percentile, queue_share, prefill_share, queue_prefill_share FROM ttft_breakdown");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        String key = rs.getString(1) + "/" + rs.getInt(2);
        double q = rs.getDouble(3);
        if (!rs.wasNull()) {
          out.put(key, q);
          out.put(key + "/prefill", rs.getDouble(4));
        }
        double both = rs.getDouble(5);
        if (!rs.wasNull()) {
          out.put(key + "/queue_prefill", both);
        }
      }
    }
    return out;
  }

  private static Map<String, String> stallVerdicts(Database db) throws SQLException {
    Map<String, String> out = new HashMap<>();
    try (Statement st = db.connection().createStatement();
        ResultSet rs = st.executeQuery("SELECT run, verdict FROM stall_summary")) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getString(2));
      }
    }
    return out;
  }

  /** Why a term misses, in a sentence. */
  private static String diagnose(GroupKey key, SloSpec.Term t, Double v, List<String> runs,
      Map<String, Double> queueShare, Map<String, String> stallVerdict) {
    String head = key.label() + ": " + t.name() + " is "
        + (v == null ? "not measured" : SloSpec.num(round(v)) + t.unit())
        + ", the target is " + t.op() + " " + SloSpec.num(t.bound()) + t.unit();
    if (v == null) {
      return head + " (the runs have no such figure)";
    }
    if (t.metric().equals("ttft_ms")) {
      int p = snap(t.percentile());
      Double q = median(runs.stream().map(r -> queueShare.get(r + "/" + p)).toList());
      Double pre = median(runs.stream().map(r -> queueShare.get(r + "/" + p + "/prefill")).toList());
      if (q != null) {
        String tail = p == 50 ? "the slower half" : "the slowest " + (100 - p) + " %";
        String cause = q >= 0.5 ? " — the cause is queueing, not compute: fewer requests in flight, or more capacity"
            : pre != null && pre >= 0.5 ? " — the cause is prefill compute (long prompts or a busy engine)" : "";
        return head + "; queueing is " + pct(q) + " of the TTFT of " + tail + ", prefill " + pct(pre) + cause;
      }
      Double both = median(runs.stream().map(r -> queueShare.get(r + "/" + p + "/queue_prefill")).toList());
      if (both != null) {
        String tail = p == 50 ? "the slower half" : "the slowest " + (100 - p) + " %";
        return head + "; queue + prefill (not split: the source has no scheduled times) is " + pct(both)
            + " of the TTFT of " + tail + (both >= 0.5 ? " — the time went to the engine, not the frontend" : "");
      }
      return head + " (no split of TTFT: the source has no queued or scheduled times)";
    }
    if (t.metric().equals("itl_ms") || t.metric().equals("tpot_ms")) {
      String verdicts = String.join("; ", runs.stream().map(stallVerdict::get).filter(x -> x != null).distinct().toList());
      return verdicts.isEmpty() ? head : head + "; " + verdicts;
    }
    return head;
  }

  /** ttft_breakdown has 50, 90, 95 and 99: the nearest at or above the term's percentile. */
  static int snap(int p) {
    if (p < 0 || p <= 50) {
      return 50;
    }
    return p <= 90 ? 90 : p <= 95 ? 95 : 99;
  }

  private static String pct(Double v) {
    return v == null ? "?" : String.format(Locale.ROOT, "%.0f %%", 100 * v);
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }

  /** Median of the known values (NULL when none), the way level_summary combines repeats. */
  static Double median(List<Double> values) {
    List<Double> v = new ArrayList<>(values.stream().filter(x -> x != null).toList());
    if (v.isEmpty()) {
      return null;
    }
    v.sort(Double::compare);
    int n = v.size();
    return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
  }
}
