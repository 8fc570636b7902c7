package dev.tokentime.formats.peers;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * numpy's statistics of a list, as the peers compute their summaries: mean, population std,
 * linear-interpolation percentiles (numpy's default), min and max. Used to turn the per-request
 * lists a peer's test asserts into the statistics tokentime's views report.
 */
final class Numpy {
  private Numpy() {}

  static final double[] PERCENTILES = {1, 5, 10, 25, 50, 75, 90, 95, 99};

  static Map<String, Double> stats(List<Double> values) {
    List<Double> v = new ArrayList<>(values);
    v.sort(Double::compare);
    Map<String, Double> out = new LinkedHashMap<>();
    int n = v.size();
    double sum = 0;
    for (double x : v) {
      sum += x;
    }
    double mean = sum / n;
    double sq = 0;
    for (double x : v) {
      sq += (x - mean) * (x - mean);
    }
    out.put("count", (double) n);
    out.put("avg", mean);
    out.put("min", v.get(0));
    out.put("max", v.get(n - 1));
    out.put("std", Math.sqrt(sq / n));
    for (double p : PERCENTILES) {
      out.put("p" + (int) p, percentile(v, p));
    }
    return out;
  }

  static double percentile(List<Double> sorted, double p) {
    double pos = (sorted.size() - 1) * p / 100.0;
    int lo = (int) Math.floor(pos);
    int hi = (int) Math.ceil(pos);
    return sorted.get(lo) + (sorted.get(hi) - sorted.get(lo)) * (pos - lo);
  }

  static boolean close(double want, double got, double rel) {
    return Math.abs(want - got) <= rel * Math.max(Math.abs(want), Math.abs(got)) + 1e-12;
  }
}
