package dev.tokentime.analysis;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Percentile bootstrap of the difference of a statistic between two samples: resample each side
 * with replacement, recompute the statistic, and take the 2.5 % and 97.5 % points of B − A. A
 * fixed seed makes a report reproducible.
 */
public final class Bootstrap {
  private Bootstrap() {}

  /** A statistic of a sorted sample. */
  public interface Stat {
    double of(double[] sorted);
  }

  public static Stat mean() {
    return s -> Arrays.stream(s).average().orElse(Double.NaN);
  }

  /** numpy's linear percentile (p in 0..100) of a sorted sample. */
  public static Stat percentile(double p) {
    return s -> {
      if (s.length == 0) {
        return Double.NaN;
      }
      double pos = (s.length - 1) * p / 100.0;
      int lo = (int) Math.floor(pos);
      int hi = (int) Math.ceil(pos);
      return s[lo] + (s[hi] - s[lo]) * (pos - lo);
    };
  }

  /** The 95 % interval of stat(B) − stat(A), from {@code resamples} resamples. */
  public static double[] differenceInterval(double[] a, double[] b, Stat stat, int resamples, long seed) {
    return differenceIntervals(a, b, java.util.List.of(stat), resamples, seed)[0];
  }

  /**
   * The 95 % intervals of stat(B) − stat(A) for several statistics from the same resamples
   * (each resample is sorted once for all of them).
   */
  public static double[][] differenceIntervals(double[] a, double[] b, java.util.List<Stat> stats,
      int resamples, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    double[][] diffs = new double[stats.size()][resamples];
    double[] ra = new double[a.length];
    double[] rb = new double[b.length];
    for (int i = 0; i < resamples; i++) {
      for (int k = 0; k < ra.length; k++) {
        ra[k] = a[rnd.nextInt(a.length)];
      }
      for (int k = 0; k < rb.length; k++) {
        rb[k] = b[rnd.nextInt(b.length)];
      }
      Arrays.sort(ra);
      Arrays.sort(rb);
      for (int s = 0; s < stats.size(); s++) {
        diffs[s][i] = stats.get(s).of(rb) - stats.get(s).of(ra);
      }
    }
    double[][] out = new double[stats.size()][];
    for (int s = 0; s < stats.size(); s++) {
      Arrays.sort(diffs[s]);
      out[s] = new double[] {percentile(2.5).of(diffs[s]), percentile(97.5).of(diffs[s])};
    }
    return out;
  }
}
