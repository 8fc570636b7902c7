package dev.tokentime.summary;

import dev.tokentime.analysis.RunSelection;
import dev.tokentime.analysis.SloCheck;
import dev.tokentime.analysis.SloSpec;
import dev.tokentime.store.ScopedGapBuckets;
import dev.tokentime.store.ViewSnapshot;
import dev.tokentime.store.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builds the {@link Summary} from the views run_summary, metric_stats and level_summary. */
public final class SummaryService {

  /** Summarises the given runs (all when empty). */
  public Summary summarize(Database db, Set<String> onlyRuns) throws SQLException {
    return summarize(db, onlyRuns, null);
  }

  /** Summarises the given runs, with goodput and attainment for the SLO when one is given. */
  public Summary summarize(Database db, Set<String> onlyRuns, SloSpec slo) throws SQLException {
    // reads only: safe to run again should the smaller memory limit not do
    return db.underLeanLimit(() -> {
      // metric_stats is read here and again through level_summary: computed once (its chunk-gap
      // buckets first, when a window or warm-up is set)
      // the levels and DistServe's goodput pool the runs asked for only (RunSelection)
      try (RunSelection selection = RunSelection.of(db, onlyRuns);
          ViewSnapshot buckets = ScopedGapBuckets.open(db);
          ViewSnapshot ms = ViewSnapshot.of(db, "metric_stats")) {
        return summarize(db, onlyRuns, slo, metricStats(db));
      }
    });
  }

  private Summary summarize(Database db, Set<String> onlyRuns, SloSpec slo,
      Map<String, Map<String, Summary.Stats>> stats) throws SQLException {
    Map<String, Summary.Goodput> goodput = Map.of();
    Summary.SloFigures sloFigures = null;
    if (slo != null) {
      SloCheck.setTargets(db, slo);
      goodput = goodput(db);
      sloFigures = new Summary.SloFigures(String.join(", ", slo.terms().stream().map(SloSpec.Term::describe).toList()),
          rows(db, "SELECT level_kind, goodput, goodput_interpolated, goodput_note, last_attaining_level, first_failing_level, attainment_target "
              + "FROM distserve_goodput"));
    }
    List<Summary.RunSummary> runs = new ArrayList<>();
    try (PreparedStatement ps = db.connection().prepareStatement("SELECT * FROM run_summary");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        String run = rs.getString("run");
        if (!onlyRuns.isEmpty() && !onlyRuns.contains(run)) {
          continue;
        }
        Map<String, Summary.Stats> m = new LinkedHashMap<>();
        Map<String, Summary.Stats> found = stats.getOrDefault(run, Map.of());
        for (String metric : Summary.METRICS) {
          m.put(metric, found.getOrDefault(metric, Summary.Stats.empty("ms")));
        }
        runs.add(new Summary.RunSummary(run, rs.getString("level_kind"), dbl(rs, "level"),
            integer(rs, "repeat"),
            new Summary.Requests(rs.getLong("requests"), rs.getLong("ok_requests"),
                rs.getLong("failed_requests"), rs.getLong("excluded_requests"), rs.getLong("unfinished_requests")),
            new Summary.Window(lng(rs, "window_start_ns"), lng(rs, "window_end_ns"),
                dbl(rs, "duration_s")),
            new Summary.Throughput(dbl(rs, "output_tokens_per_s"), dbl(rs, "requests_per_s")),
            new Summary.Tokens(lng(rs, "input_tokens"), lng(rs, "output_tokens"),
                dbl(rs, "mean_input_tokens"), dbl(rs, "mean_output_tokens")),
            goodput.get(run), m));
      }
    }
    List<Map<String, Object>> levels = rows(db, "SELECT * FROM level_table");
    List<Map<String, Object>> engines = forRuns(rows(db, "SELECT * FROM engine_summary"), onlyRuns);
    List<Map<String, Object>> basis = forRuns(rows(db,
        "SELECT run, figure, \"values\", coarsest_resolution_ns, basis FROM figure_basis"), onlyRuns);
    List<Map<String, Object>> toolCounts = forRuns(rows(db,
        "SELECT run, format, metric, requests FROM tool_request_counts ORDER BY run, format, metric"), onlyRuns);
    List<Map<String, Object>> toolFigures = toolFigures(db, runs);
    long sources = db.queryLong("SELECT sources FROM report_inputs");
    long rejected = db.queryLong("SELECT rejected_lines FROM report_inputs");
    return new Summary("tokentime-summary", 1, "docs/metrics.md", sources, rejected, sloFigures, runs,
        levels, engines, basis, toolCounts, toolFigures);
  }

  /**
   * The figures the tools reported for the runs whose files hold no request rows (peer_reported):
   * a result or summary file alone, where tokentime computes nothing of its own. Not asked when
   * every run has rows, as in most databases.
   */
  private static List<Map<String, Object>> toolFigures(Database db, List<Summary.RunSummary> runs) throws SQLException {
    List<String> bare = runs.stream()
        .filter(r -> r.requests().measured() + r.requests().excluded() == 0).map(Summary.RunSummary::run).toList();
    if (bare.isEmpty()) {
      return List.of();
    }
    List<Map<String, Object>> out = new ArrayList<>();
    String marks = String.join(", ", java.util.Collections.nCopies(bare.size(), "?"));
    try (PreparedStatement ps = db.connection().prepareStatement(
        "SELECT run, convention, metric, stat, tool_metric, reported_value FROM peer_reported WHERE run IN (" + marks + ")")) {
      for (int i = 0; i < bare.size(); i++) {
        ps.setString(i + 1, bare.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("run", rs.getString(1));
          row.put("convention", rs.getString(2));
          row.put("metric", rs.getString(3));
          row.put("stat", rs.getString(4));
          row.put("tool_metric", rs.getString(5));
          row.put("value", ms(rs, "reported_value"));
          out.add(row);
        }
      }
    }
    return out;
  }

  private static Map<String, Summary.Goodput> goodput(Database db) throws SQLException {
    Map<String, Summary.Goodput> out = new LinkedHashMap<>();
    try (PreparedStatement ps = db.connection().prepareStatement(
        "SELECT run, attainment, goodput_per_s FROM slo_attainment");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.put(rs.getString(1), new Summary.Goodput(dbl(rs, "attainment"), dbl(rs, "goodput_per_s")));
      }
    }
    return out;
  }

  private static List<Map<String, Object>> rows(Database db, String sql) throws SQLException {
    List<Map<String, Object>> out = new ArrayList<>();
    try (PreparedStatement ps = db.connection().prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
      ResultSetMetaData md = rs.getMetaData();
      while (rs.next()) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          row.put(md.getColumnLabel(i), rs.getObject(i));
        }
        out.add(row);
      }
    }
    return out;
  }

  private static List<Map<String, Object>> forRuns(List<Map<String, Object>> rows, Set<String> onlyRuns) {
    return onlyRuns.isEmpty() ? rows : rows.stream().filter(r -> onlyRuns.contains(String.valueOf(r.get("run")))).toList();
  }

  private static Map<String, Map<String, Summary.Stats>> metricStats(Database db) throws SQLException {
    Map<String, Map<String, Summary.Stats>> out = new LinkedHashMap<>();
    try (PreparedStatement ps = db.connection().prepareStatement("SELECT * FROM metric_stats");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.computeIfAbsent(rs.getString("run"), k -> new LinkedHashMap<>()).put(rs.getString("metric"),
            new Summary.Stats(rs.getString("unit"), rs.getLong("count"), ms(rs, "mean"),
                ms(rs, "std"), ms(rs, "min"), ms(rs, "max"), ms(rs, "p1"), ms(rs, "p5"),
                ms(rs, "p10"), ms(rs, "p25"), ms(rs, "p50"), ms(rs, "p75"), ms(rs, "p90"),
                ms(rs, "p95"), ms(rs, "p99")));
      }
    }
    return out;
  }

  /**
   * A millisecond figure rounded to the nanosecond, the finest resolution of any input: the
   * digits below are floating-point noise that depends on the order rows were summed in, and
   * would make two ingests of the same data print different JSON.
   */
  static Double ms(ResultSet rs, String col) throws SQLException {
    Double v = dbl(rs, col);
    return v == null ? null : Math.round(v * 1e6) / 1e6;
  }

  static Double dbl(ResultSet rs, String col) throws SQLException {
    double v = rs.getDouble(col);
    return rs.wasNull() ? null : v;
  }

  static Long lng(ResultSet rs, String col) throws SQLException {
    long v = rs.getLong(col);
    return rs.wasNull() ? null : v;
  }

  static Integer integer(ResultSet rs, String col) throws SQLException {
    int v = rs.getInt(col);
    return rs.wasNull() ? null : v;
  }
}
