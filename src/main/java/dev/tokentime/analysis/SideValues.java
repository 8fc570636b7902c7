package dev.tokentime.analysis;

import dev.tokentime.store.Database;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code compare} needs of one side's values of a metric, computed where the values are:
 * their count, mean and p50/p95/p99 over every value, and at most {@code max} of them for the
 * bootstrap (the macros {@code compare_values} and {@code value_sample}: the rows with the
 * smallest hash of their key, the same rows whenever the keys are the same). No value crosses JDBC but the sample: streaming a
 * day's pooled chunk gaps to Java, sorted, was most of compare's time.
 */
record SideValues(long n, double mean, double p50, double p95, double p99, double[] sample) {
  static final SideValues NONE = new SideValues(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, new double[0]);

  /** The mean (percent NaN) or the percentile 50, 95 or 99. */
  double valueOf(double percent) {
    if (Double.isNaN(percent)) {
      return mean;
    }
    if (percent == 50) {
      return p50;
    }
    if (percent == 95) {
      return p95;
    }
    if (percent == 99) {
      return p99;
    }
    throw new IllegalArgumentException("compare keeps p50, p95 and p99, not p" + percent);
  }

  /**
   * Reads each metric of {@code valuesSql} (columns run, metric, v and k: a key unique per row),
   * with {@code params} bound in order, through {@code compare_values}: count, mean, percentiles
   * and sample.
   */
  static Map<String, SideValues> read(Database db, String valuesSql, List<String> params, int max, long seed)
      throws SQLException {
    String sql = "WITH compare_side AS (" + valuesSql + ") "
        + "SELECT metric, n, mean, p50, p95, p99, sample FROM compare_values('compare_side', " + max + ", " + seed + ")";
    Map<String, SideValues> out = new HashMap<>();
    try (PreparedStatement ps = prepare(db, sql, params); ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.put(rs.getString(1), new SideValues(rs.getLong(2), rs.getDouble(3), rs.getDouble(4), rs.getDouble(5),
            rs.getDouble(6), doubles(rs.getArray(7))));
      }
    }
    return out;
  }

  /**
   * Reads the sample of {@code valuesSql} (one metric, as in {@link #read}; its parameters first)
   * through {@code value_sample}, and count, mean and percentiles from {@code figuresSql}: one row
   * of n, mean, p50, p95 and p99 (as metric_stats gives a run's chunk gaps, kept by the derive
   * step: no second pass over them).
   */
  static SideValues read(Database db, String valuesSql, List<String> params, String figuresSql,
      List<String> figuresParams, int max, long seed) throws SQLException {
    String sql = "WITH compare_side AS (" + valuesSql + ") "
        + "SELECT f.n, f.mean, f.p50, f.p95, f.p99, s.sample "
        + "FROM (" + figuresSql + ") AS f, value_sample('compare_side', " + max + ", " + seed + ") AS s";
    List<String> both = new java.util.ArrayList<>(params);
    both.addAll(figuresParams);
    try (PreparedStatement ps = prepare(db, sql, both); ResultSet rs = ps.executeQuery()) {
      if (!rs.next()) {
        return NONE;
      }
      return new SideValues(rs.getLong(1), rs.getDouble(2), rs.getDouble(3), rs.getDouble(4), rs.getDouble(5),
          doubles(rs.getArray(6)));
    }
  }

  private static double[] doubles(Array array) throws SQLException {
    Object[] values = (Object[]) array.getArray();
    double[] out = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = ((Number) values[i]).doubleValue();
    }
    return out;
  }

  private static PreparedStatement prepare(Database db, String sql, List<String> params) throws SQLException {
    PreparedStatement ps = db.connection().prepareStatement(sql);
    for (int i = 0; i < params.size(); i++) {
      ps.setString(i + 1, params.get(i));
    }
    return ps;
  }
}
