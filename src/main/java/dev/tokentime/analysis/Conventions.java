package dev.tokentime.analysis;

import dev.tokentime.BadInputException;
import dev.tokentime.output.TableData;
import dev.tokentime.store.ViewSnapshot;
import dev.tokentime.store.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The same run under each benchmark tool's definitions (docs/metrics.md, "Named variants"):
 * {@code summary --convention TOOL} shows a tool's own figures as that tool computes them
 * (queries/peers/&lt;tool&gt;_metrics), and {@code conventions} puts every convention side by
 * side with the reason each differs from tokentime's (peer_comparison).
 */
public final class Conventions {

  /** Convention name → the view that computes that tool's figures. */
  public static final Map<String, String> VIEWS = new LinkedHashMap<>();

  static {
    VIEWS.put("vllm", "vllm_bench_metrics");
    VIEWS.put("genai-perf", "genai_perf_metrics");
    VIEWS.put("aiperf", "aiperf_metrics");
    VIEWS.put("llmperf", "llmperf_metrics");
    VIEWS.put("sglang", "sglang_bench_metrics");
    VIEWS.put("guidellm", "guidellm_metrics");
    VIEWS.put("inference-perf", "inference_perf_metrics");
    VIEWS.put("genai-bench", "genai_bench_metrics");
    VIEWS.put("llm-load-test", "llm_load_test_metrics");
  }

  public static List<String> names() {
    List<String> all = new ArrayList<>(List.of("tokentime"));
    all.addAll(VIEWS.keySet());
    return all;
  }

  public static String view(String convention) {
    String v = VIEWS.get(convention);
    if (v == null && !convention.equals("tokentime")) {
      throw new BadInputException("unknown convention " + convention + " (" + String.join(", ", names()) + ")");
    }
    return v;
  }

  /** Per run, the tool's figures: one row per metric, one column per statistic, then the unit. */
  public Map<String, TableData> toolFigures(Database db, String convention, Collection<String> onlyRuns)
      throws SQLException {
    String view = view(convention);
    Map<String, Map<String, Map<String, Double>>> byRun = new LinkedHashMap<>();
    Map<String, Map<String, String>> units = new LinkedHashMap<>();
    Map<String, Set<String>> stats = new LinkedHashMap<>();
    try (PreparedStatement ps = db.connection().prepareStatement(
        "SELECT run, metric, stat, value, unit FROM " + view);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        String run = rs.getString(1);
        if (!onlyRuns.isEmpty() && !onlyRuns.contains(run)) {
          continue;
        }
        double v = rs.getDouble(4);
        Double value = rs.wasNull() ? null : v;
        byRun.computeIfAbsent(run, k -> new LinkedHashMap<>())
            .computeIfAbsent(rs.getString(2), k -> new LinkedHashMap<>()).put(rs.getString(3), value);
        units.computeIfAbsent(run, k -> new LinkedHashMap<>()).put(rs.getString(2), rs.getString(5));
        stats.computeIfAbsent(run, k -> new LinkedHashSet<>()).add(rs.getString(3));
      }
    }
    Map<String, TableData> out = new LinkedHashMap<>();
    for (var e : byRun.entrySet()) {
      List<String> cols = new ArrayList<>(List.of("metric"));
      cols.addAll(stats.get(e.getKey()));
      cols.add("unit");
      List<Boolean> numeric = new ArrayList<>();
      cols.forEach(c -> numeric.add(!c.equals("metric") && !c.equals("unit")));
      List<Object[]> rows = new ArrayList<>();
      for (var m : e.getValue().entrySet()) {
        Object[] row = new Object[cols.size()];
        row[0] = m.getKey();
        for (int i = 1; i < cols.size() - 1; i++) {
          row[i] = m.getValue().get(cols.get(i));
        }
        row[cols.size() - 1] = units.get(e.getKey()).get(m.getKey());
        rows.add(row);
      }
      out.put(e.getKey(), new TableData(cols, numeric, rows, false));
    }
    return out;
  }

  /** One run under every convention: its table, and a line per figure that differs, saying why. */
  public record SideBySide(String run, TableData table, List<String> reasons) {}

  /**
   * What peer_comparison reads, computed on its own first, each into a snapshot that shadows it
   * until closed: in peer_comparison's one query the tools' views ran together and did not fit
   * DuckDB's memory, at 50 M tokens as over the bundled samples (its plan's many operators held
   * about 1.2 GB there). The per-request rows they all read, several times each, are taken once
   * before them. Any reader of peer_comparison takes them: conventions, and query, export and the
   * shell for a statement that names it.
   */
  public static Inputs computeInputs(Database db) throws SQLException {
    List<String> parts = new ArrayList<>(List.of("metric_stats"));
    parts.addAll(VIEWS.values());
    ViewSnapshot peerRequests = ViewSnapshot.ofPeerRequests(db);
    ViewSnapshot.Group views;
    try {
      views = ViewSnapshot.ofEach(db, parts);
    } catch (SQLException | RuntimeException e) {
      peerRequests.close();
      throw e;
    }
    return () -> {
      try {
        views.close();
      } finally {
        peerRequests.close();
      }
    };
  }

  private static final java.util.regex.Pattern PEER_COMPARISON =
      java.util.regex.Pattern.compile("\\bpeer_comparison\\b", java.util.regex.Pattern.CASE_INSENSITIVE);

  /**
   * The snapshots a user's statement (query, export, the shell) needs before it runs: for one that
   * names peer_comparison, its inputs ({@link #computeInputs}); else none. Closing drops them.
   */
  public static Inputs inputsFor(Database db, String sql) throws SQLException {
    return PEER_COMPARISON.matcher(sql).find() ? computeInputs(db) : () -> { };
  }

  /** Snapshots taken for a task: closing drops them. */
  public interface Inputs extends AutoCloseable {
    @Override
    void close() throws SQLException;
  }

  /** peer_comparison's rows, its time on stderr under TOKENTIME_TIMING. */
  private static ResultSet timed(PreparedStatement ps) throws SQLException {
    long start = System.nanoTime();
    ResultSet rs = ps.executeQuery();
    dev.tokentime.Timing.since("peer_comparison", start);
    return rs;
  }

  public List<SideBySide> sideBySide(Database db, Collection<String> onlyRuns) throws SQLException {
    record Cell(String metric, String stat) {}
    Map<String, Map<Cell, Map<String, Double>>> values = new LinkedHashMap<>();
    Map<String, Map<Cell, Double>> tokentime = new LinkedHashMap<>();
    Map<String, List<String>> reasons = new LinkedHashMap<>();
    Set<String> explained = new java.util.HashSet<>();
    try (Inputs computed = computeInputs(db);
        PreparedStatement ps = db.connection().prepareStatement(
        "SELECT run, metric, stat, convention, tokentime_value, convention_value, reported_value, why, "
            + "not_reproducible "
            + "FROM peer_comparison ORDER BY run, list_position(['ttft_ms', 'itl_ms', 'tpot_ms', 'e2e_ms', "
            + "'output_tokens_per_s', 'requests_per_s'], metric), stat, convention");
        ResultSet rs = timed(ps)) {
      while (rs.next()) {
        String run = rs.getString(1);
        if (!onlyRuns.isEmpty() && !onlyRuns.contains(run)) {
          continue;
        }
        Cell c = new Cell(rs.getString(2), rs.getString(3));
        String conv = rs.getString(4);
        if (!VIEWS.containsKey(conv)) {
          continue; // a tool's reported figures only (MLPerf LoadGen's): no definition of its to compute
        }
        double t = rs.getDouble(5);
        Double tv = rs.wasNull() ? null : t;
        double cv = rs.getDouble(6);
        Double conventionValue = rs.wasNull() ? null : cv;
        tokentime.computeIfAbsent(run, k -> new LinkedHashMap<>()).put(c, tv);
        values.computeIfAbsent(run, k -> new LinkedHashMap<>()).computeIfAbsent(c, k -> new LinkedHashMap<>())
            .put(conv, conventionValue);
        // a figure whose definition differs in a way tokentime cannot reproduce says so, equal or not
        String notReproducible = rs.getString(9);
        if (notReproducible != null && explained.add(run + "/" + c.metric() + "/" + conv)) {
          reasons.computeIfAbsent(run, k -> new ArrayList<>()).add(String.format(Locale.ROOT,
              "%s: %s — %s", c.metric(), conv, notReproducible));
        }
        // one line per metric and convention: its first statistic that differs
        if (tv != null && conventionValue != null && Math.abs(tv - conventionValue) > 1e-6 * Math.max(1, Math.abs(tv))
            && explained.add(run + "/" + c.metric() + "/" + conv)) {
          reasons.computeIfAbsent(run, k -> new ArrayList<>()).add(String.format(Locale.ROOT,
              "%s %s: %s gives %.3f, tokentime %.3f — %s", c.metric(), c.stat(), conv, conventionValue, tv,
              rs.getString(8)));
        }
      }
    }
    List<SideBySide> out = new ArrayList<>();
    for (var e : values.entrySet()) {
      List<String> cols = new ArrayList<>(List.of("metric", "stat", "tokentime"));
      cols.addAll(VIEWS.keySet());
      List<Boolean> numeric = cols.stream().map(c -> !c.equals("metric") && !c.equals("stat")).toList();
      List<Object[]> rows = new ArrayList<>();
      for (var c : e.getValue().entrySet()) {
        Object[] row = new Object[cols.size()];
        row[0] = c.getKey().metric();
        row[1] = c.getKey().stat();
        row[2] = tokentime.get(e.getKey()).get(c.getKey());
        for (int i = 3; i < cols.size(); i++) {
          row[i] = c.getValue().get(cols.get(i));
        }
        rows.add(row);
      }
      out.add(new SideBySide(e.getKey(), new TableData(cols, numeric, rows, false),
          reasons.getOrDefault(e.getKey(), List.of())));
    }
    return out;
  }

}
