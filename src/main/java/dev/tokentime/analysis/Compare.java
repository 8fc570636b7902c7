package dev.tokentime.analysis;

import dev.tokentime.BadInputException;
import dev.tokentime.store.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares two runs or two levels ({@code tokentime compare A B}). A side is a run name, or
 * {@code concurrency=16} / {@code request_rate=2} for all repeats of a level (their requests
 * pooled). Latency figures come from request_latency (per request) and token_gaps (ITL), so
 * they follow the analysis window; throughputs from run_summary.
 */
public final class Compare {
  static final int RESAMPLES = 1000;
  static final int MAX_VALUES = 5_000;
  static final long SEED = 20261202L;

  private static final List<String> REQUEST_METRICS = List.of("ttft_ms", "queue_ms", "prefill_ms", "tpot_ms", "e2e_ms");
  private static final List<String> RUN_METRICS = List.of("output_tokens_per_s", "requests_per_s", "mean_input_tokens",
      "mean_output_tokens");
  private static final List<String> LATENCY_METRICS =
      java.util.stream.Stream.concat(REQUEST_METRICS.stream(), java.util.stream.Stream.of("itl_ms")).toList();

  /** A statistic compare reports: the mean (percent NaN) or a percentile; resampled by {@code onSample}. */
  private record Stat(String name, double percent, Bootstrap.Stat onSample) {
    double valueOf(SideValues v) {
      return v.valueOf(percent);
    }
  }

  private static final List<Stat> STATS = List.of(
      new Stat("mean", Double.NaN, Bootstrap.mean()),
      new Stat("p50", 50, Bootstrap.percentile(50)),
      new Stat("p95", 95, Bootstrap.percentile(95)),
      new Stat("p99", 99, Bootstrap.percentile(99)));

  public CompareReport compare(Database db, String a, String b) throws SQLException {
    return compare(db, a, db, b, a, b);
  }

  /**
   * Compares side {@code a} of database {@code dbA} with side {@code b} of {@code dbB} (the same
   * database, or two files: a baseline and a candidate are often captured apart); the report
   * names the sides {@code nameA} and {@code nameB}.
   */
  public CompareReport compare(Database dbA, String a, Database dbB, String b, String nameA, String nameB)
      throws SQLException {
    List<String> runsA = runs(dbA, a);
    List<String> runsB = runs(dbB, b);
    // a side compared with itself (a run, or a level, against its own figures) is read once
    boolean sameSide = dbA == dbB && runsA.equals(runsB);
    Map<String, SideValues> valuesA = latencies(dbA, runsA);
    Map<String, SideValues> valuesB = sameSide ? valuesA : latencies(dbB, runsB);
    // each metric's bootstrap has a seed of its own, so they run on all cores and give the same rows
    List<CompareReport.Row> rows = new ArrayList<>();
    LATENCY_METRICS.parallelStream()
        .map(metric -> latencyRows(metric, valuesA.getOrDefault(metric, SideValues.NONE),
            valuesB.getOrDefault(metric, SideValues.NONE)))
        .toList()
        .forEach(rows::addAll);
    Map<String, double[]> figuresA = runFigures(dbA, runsA);
    Map<String, double[]> figuresB = sameSide ? figuresA : runFigures(dbB, runsB);
    for (String metric : RUN_METRICS) {
      rows.add(runLevelRow(metric, figuresA.get(metric), figuresB.get(metric)));
    }
    return new CompareReport(nameA, nameB, runsA, runsB, rows, RESAMPLES);
  }

  /**
   * A side's latency figures per metric: per request from request_latency, chunk gaps (itl_ms)
   * from token_gaps, so they follow the analysis window. Each value's key (its request, and its
   * chunk) picks the bootstrap's sample: the same rows on both sides when both are the same runs,
   * so that a run compared with itself is within noise (with a sample drawn apart per side, a run
   * of 50 M tokens was "worse" than itself at its ITL p95). A single run's chunk-gap figures are
   * metric_stats', which summary shows (kept by the derive step in the default scope); a level's
   * pooled gaps are counted anew.
   */
  private static Map<String, SideValues> latencies(Database db, List<String> runs) throws SQLException {
    String in = "(" + String.join(", ", java.util.Collections.nCopies(runs.size(), "?")) + ")";
    Map<String, SideValues> out = new HashMap<>(SideValues.read(db,
        "SELECT 'side' AS run, metric, v, request_key AS k FROM ("
            + "SELECT request_key, " + String.join(", ", REQUEST_METRICS) + " FROM request_latency"
            + " WHERE measured AND ok AND run IN " + in
            + ") UNPIVOT (v FOR metric IN (" + String.join(", ", REQUEST_METRICS) + "))",
        runs, MAX_VALUES, SEED));
    String gaps = "SELECT 'side' AS run, 'itl_ms' AS metric, gap_ms AS v, hash(request_key, seq) AS k"
        + " FROM token_gaps WHERE measured AND ok AND run IN " + in;
    if (runs.size() == 1) {
      out.put("itl_ms", SideValues.read(db, gaps, runs,
          "SELECT count AS n, mean, p50, p95, p99 FROM metric_stats WHERE run = ? AND metric = 'itl_ms'", runs,
          MAX_VALUES, SEED));
    } else {
      out.putAll(SideValues.read(db, gaps, runs, MAX_VALUES, SEED));
    }
    return out;
  }

  private static List<CompareReport.Row> latencyRows(String metric, SideValues a, SideValues b) {
    List<CompareReport.Row> rows = new ArrayList<>();
    boolean enough = a.n() >= 2 && b.n() >= 2;
    double[] estimates = enough ? STATS.stream().mapToDouble(s -> s.valueOf(b) - s.valueOf(a)).toArray() : null;
    double[][] ci = enough
        ? Bootstrap.differenceIntervals(a.sample(), b.sample(), STATS.stream().map(Stat::onSample).toList(), estimates,
            RESAMPLES, SEED + metric.hashCode())
        : null;
    int i = 0;
    for (Stat stat : STATS) {
      Double va = a.n() == 0 ? null : stat.valueOf(a);
      Double vb = b.n() == 0 ? null : stat.valueOf(b);
      Double lo = enough ? ci[i][0] : null;
      Double hi = enough ? ci[i][1] : null;
      String verdict = !enough ? "unknown" : lo > 0 ? "worse" : hi < 0 ? "better" : "within noise";
      rows.add(row(metric, stat.name(), "ms", va, vb, lo, hi, "lower", verdict));
      i++;
    }
    return rows;
  }

  /** Throughputs and lengths: one figure per run; noise only from repeats. */
  private static CompareReport.Row runLevelRow(String metric, double[] a, double[] b) {
    Double va = SloCheck.median(java.util.Arrays.stream(a).boxed().toList());
    Double vb = SloCheck.median(java.util.Arrays.stream(b).boxed().toList());
    String better = metric.endsWith("_per_s") ? "higher" : "neither";
    String verdict = "unknown";
    Double lo = null;
    Double hi = null;
    if (va != null && vb != null && a.length >= 2 && b.length >= 2) {
      double minA = java.util.Arrays.stream(a).min().getAsDouble();
      double maxA = java.util.Arrays.stream(a).max().getAsDouble();
      double minB = java.util.Arrays.stream(b).min().getAsDouble();
      double maxB = java.util.Arrays.stream(b).max().getAsDouble();
      lo = minB - maxA;
      hi = maxB - minA;
      boolean apart = minB > maxA || maxB < minA;
      verdict = !apart ? "within noise" : better.equals("neither") ? "different"
          : (vb > va) == better.equals("higher") ? "better" : "worse";
    } else if (va != null && vb != null) {
      verdict = "one run each: no noise estimate";
    }
    String unit = metric.endsWith("tokens_per_s") ? "tokens/s" : metric.endsWith("_per_s") ? "1/s" : "tokens";
    return row(metric, "value", unit, va, vb, lo, hi, better, verdict);
  }

  private static CompareReport.Row row(String metric, String stat, String unit, Double a, Double b,
      Double lo, Double hi, String better, String verdict) {
    Double change = a != null && b != null ? b - a : null;
    Double pct = change != null && a != 0 ? 100 * change / a : null;
    return new CompareReport.Row(metric, stat, unit, a, b, change, pct, lo, hi, better, verdict);
  }

  /**
   * The runs a side names: a run, or every run at concurrency=N / request_rate=R. A run of that
   * very name comes first: a run name may contain '=' (before, "lr=0.1" was read as a level).
   */
  static List<String> runs(Database db, String side) throws SQLException {
    List<String> out = select(db, "SELECT run FROM report_run_list WHERE run = ?", List.<Object>of(side));
    if (!out.isEmpty()) {
      return out;
    }
    int eq = side.indexOf('=');
    if (eq > 0) {
      String kind = side.substring(0, eq).strip();
      if (!kind.equals("concurrency") && !kind.equals("request_rate")) {
        throw new BadInputException("compare: no run named " + side + ", and a level is concurrency=N or "
            + "request_rate=R (tokentime query runs lists the runs)");
      }
      double level;
      try {
        level = Double.parseDouble(side.substring(eq + 1).strip());
      } catch (NumberFormatException e) {
        throw new BadInputException("compare: not a level: " + side);
      }
      out = select(db, "SELECT run FROM report_run_list WHERE level_kind = ? AND level = ? ORDER BY run",
          List.<Object>of(kind, level));
    }
    if (out.isEmpty()) {
      throw new BadInputException("compare: no run named " + side + " (" + known(db) + ")");
    }
    return out;
  }

  /**
   * The runs and levels a side may name, a dozen at most: "tokentime query runs lists them" was a
   * command without the --db it needs, and a typo'd name took a second command to see.
   */
  static String known(Database db) throws SQLException {
    List<String> runs = select(db, "SELECT run FROM report_run_list ORDER BY natural_sort_key(run)", List.of());
    List<String> levels = select(db, "SELECT DISTINCT level_kind || '=' || CASE WHEN level = round(level) THEN"
        + " CAST(CAST(level AS BIGINT) AS VARCHAR) ELSE CAST(level AS VARCHAR) END FROM report_run_list"
        + " WHERE level_kind IS NOT NULL ORDER BY 1", List.of());
    if (runs.isEmpty()) {
      return "the database holds no run: nothing ingested?";
    }
    String named = runs.size() <= 12 ? String.join(", ", runs)
        : String.join(", ", runs.subList(0, 12)) + ", … " + runs.size() + " in all";
    return "runs: " + named + (levels.isEmpty() ? "" : "; levels: " + String.join(", ", levels.size() <= 8 ? levels
        : levels.subList(0, 8)) + (levels.size() > 8 ? ", …" : ""));
  }

  private static List<String> select(Database db, String sql, List<Object> args) throws SQLException {
    List<String> out = new ArrayList<>();
    try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
      for (int i = 0; i < args.size(); i++) {
        ps.setObject(i + 1, args.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    return out;
  }

  /** Each run figure of a side's runs (run_summary, read once: each read sums the run's tokens), NULLs left out. */
  private static Map<String, double[]> runFigures(Database db, List<String> runs) throws SQLException {
    String in = String.join(", ", java.util.Collections.nCopies(runs.size(), "?"));
    Map<String, List<Double>> v = new HashMap<>();
    RUN_METRICS.forEach(m -> v.put(m, new ArrayList<>()));
    try (PreparedStatement ps = db.connection().prepareStatement(
        "SELECT " + String.join(", ", RUN_METRICS) + " FROM run_summary WHERE run IN (" + in + ")")) {
      for (int i = 0; i < runs.size(); i++) {
        ps.setString(i + 1, runs.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          for (int c = 0; c < RUN_METRICS.size(); c++) {
            double x = rs.getDouble(c + 1);
            if (!rs.wasNull()) {
              v.get(RUN_METRICS.get(c)).add(x);
            }
          }
        }
      }
    }
    Map<String, double[]> out = new HashMap<>();
    v.forEach((m, list) -> out.put(m, list.stream().mapToDouble(Double::doubleValue).toArray()));
    return out;
  }
}
