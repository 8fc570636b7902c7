package dev.tokentime.analysis;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Bootstrap intervals of the difference of a statistic between two samples: resample each side
 * with replacement, recompute the statistic, and take the 2.5 % and 97.5 % points of B − A. A
 * fixed seed makes a report reproducible.
 *
 * <p>Percentiles use a <em>smoothed</em> bootstrap: each resampled value gets Gaussian noise of
 * Silverman's bandwidth (0.9 · min(sd, IQR / 1.34) · n^−1/5; sd alone when the IQR is 0). Chunk
 * gaps cluster on a few values (an engine's steps), and the plain percentile bootstrap of a
 * percentile then only ever takes those few values: its 95 % interval of a median difference can
 * lie wholly on one side of the difference itself (issue 23: 6.105 ms with [6.114, 6.315]).
 * Smoothing gives the resampled percentile a continuous spread. The interval is then placed
 * around the estimate: it reaches from the estimate as far down and up as the resampled
 * differences' 2.5 % and 97.5 % points lie from their median, so it holds the estimate by
 * construction (on tied values the smoothed median sits between the ties, not on the sample's
 * value, and the percentile interval itself still missed it), and it is about the figure shown
 * beside it: the exact difference over every value, where only a sample of the values is
 * resampled. Means are resampled unsmoothed (smoothing adds nothing to a mean).
 */
public final class Bootstrap {
  private Bootstrap() {}

  /** A statistic of a sorted sample. */
  public interface Stat {
    double of(double[] sorted);

    /** Whether resamples are smoothed for this statistic (percentiles). */
    default boolean smoothed() {
      return false;
    }

    /** The statistic of values in any order, which it may reorder; as {@link #of} of them sorted. */
    default double ofUnordered(double[] values) {
      Arrays.sort(values);
      return of(values);
    }
  }

  public static Stat mean() {
    return s -> Arrays.stream(s).average().orElse(Double.NaN);
  }

  /** numpy's linear percentile (p in 0..100) of a sorted sample. */
  public static Stat percentile(double p) {
    return new Stat() {
      @Override
      public double of(double[] s) {
        if (s.length == 0) {
          return Double.NaN;
        }
        double pos = (s.length - 1) * p / 100.0;
        int lo = (int) Math.floor(pos);
        int hi = (int) Math.ceil(pos);
        return s[lo] + (s[hi] - s[lo]) * (pos - lo);
      }

      @Override
      public boolean smoothed() {
        return true;
      }

      /** The same order statistics, found by selection: a resample needs three, not a sort. */
      @Override
      public double ofUnordered(double[] v) {
        if (v.length == 0) {
          return Double.NaN;
        }
        double pos = (v.length - 1) * p / 100.0;
        int lo = (int) Math.floor(pos);
        int hi = (int) Math.ceil(pos);
        double vlo = select(v, lo);
        double vhi = vlo;
        if (hi > lo) {
          // after select, everything from lo on is at least v[lo]: the next order statistic is its least
          vhi = v[hi];
          for (int i = hi + 1; i < v.length; i++) {
            vhi = Math.min(vhi, v[i]);
          }
        }
        return vlo + (vhi - vlo) * (pos - lo);
      }
    };
  }

  /** The 95 % interval of stat(B) − stat(A), from {@code resamples} resamples. */
  public static double[] differenceInterval(double[] a, double[] b, Stat stat, int resamples, long seed) {
    return differenceIntervals(a, b, List.of(stat), null, resamples, seed)[0];
  }

  /**
   * The 95 % intervals of stat(B) − stat(A) for several statistics from the same resamples
   * (each resample is sorted once for all of them). {@code estimates} (null: the statistics of {@code a} and {@code b}) are the differences the
   * intervals are placed around.
   */
  public static double[][] differenceIntervals(double[] a, double[] b, List<Stat> stats, double[] estimates,
      int resamples, long seed) {
    a = sortedCopy(a);
    b = sortedCopy(b);
    SplittableRandom rnd = new SplittableRandom(seed);
    double ha = bandwidth(a);
    double hb = bandwidth(b);
    boolean anySmoothed = stats.stream().anyMatch(Stat::smoothed);
    double[][] diffs = new double[stats.size()][resamples];
    int[] ia = new int[a.length];
    int[] ib = new int[b.length];
    double[] ra = new double[a.length];
    double[] rb = new double[b.length];
    double[] sa = new double[a.length];
    double[] sb = new double[b.length];
    int[] countA = new int[a.length];
    int[] countB = new int[b.length];
    for (int i = 0; i < resamples; i++) {
      for (int k = 0; k < ia.length; k++) {
        ia[k] = rnd.nextInt(a.length);
      }
      for (int k = 0; k < ib.length; k++) {
        ib[k] = rnd.nextInt(b.length);
      }
      if (anySmoothed) {
        for (int k = 0; k < ia.length; k++) {
          sa[k] = a[ia[k]] + ha * rnd.nextGaussian();
        }
        for (int k = 0; k < ib.length; k++) {
          sb[k] = b[ib[k]] + hb * rnd.nextGaussian();
        }
      }
      // the plain resample, sorted: a and b are, so counting the draws of each index orders it
      sortedResample(a, ia, countA, ra);
      sortedResample(b, ib, countB, rb);
      for (int s = 0; s < stats.size(); s++) {
        Stat st = stats.get(s);
        diffs[s][i] = st.smoothed() ? st.ofUnordered(sb) - st.ofUnordered(sa) : st.of(rb) - st.of(ra);
      }
    }
    double[][] out = new double[stats.size()][];
    for (int s = 0; s < stats.size(); s++) {
      Arrays.sort(diffs[s]);
      double estimate = estimates == null ? stats.get(s).of(b) - stats.get(s).of(a) : estimates[s];
      double middle = percentile(50).of(diffs[s]);
      out[s] = new double[] {
          estimate - (middle - percentile(2.5).of(diffs[s])),
          estimate + (percentile(97.5).of(diffs[s]) - middle)};
    }
    return out;
  }

  /** Fills {@code out} with {@code sorted[drawn[k]]} for every k, in ascending order. */
  private static void sortedResample(double[] sorted, int[] drawn, int[] count, double[] out) {
    Arrays.fill(count, 0);
    for (int d : drawn) {
      count[d]++;
    }
    int k = 0;
    for (int j = 0; j < sorted.length; j++) {
      for (int c = count[j]; c > 0; c--) {
        out[k++] = sorted[j];
      }
    }
  }

  /**
   * The k-th smallest of {@code v} (0-based), moving it to v[k] with nothing greater before it and
   * nothing smaller after it (Hoare's selection with a middle pivot; three-way, so ties end it).
   */
  static double select(double[] v, int k) {
    int lo = 0;
    int hi = v.length - 1;
    while (lo < hi) {
      double pivot = v[(lo + hi) >>> 1];
      int lt = lo;
      int gt = hi;
      int i = lo;
      while (i <= gt) {
        if (v[i] < pivot) {
          swap(v, lt++, i++);
        } else if (v[i] > pivot) {
          swap(v, i, gt--);
        } else {
          i++;
        }
      }
      if (k < lt) {
        hi = lt - 1;
      } else if (k > gt) {
        lo = gt + 1;
      } else {
        break;
      }
    }
    return v[k];
  }

  private static void swap(double[] v, int i, int j) {
    double t = v[i];
    v[i] = v[j];
    v[j] = t;
  }

  private static double[] sortedCopy(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s;
  }

  /** Silverman's rule-of-thumb bandwidth of a sorted sample (0 for fewer than 2 values). */
  static double bandwidth(double[] sorted) {
    int n = sorted.length;
    if (n < 2) {
      return 0;
    }
    double mean = mean().of(sorted);
    double ss = 0;
    for (double v : sorted) {
      ss += (v - mean) * (v - mean);
    }
    double sd = Math.sqrt(ss / (n - 1));
    double iqr = percentile(75).of(sorted) - percentile(25).of(sorted);
    double spread = iqr > 0 ? Math.min(sd, iqr / 1.34) : sd;
    return 0.9 * spread * Math.pow(n, -0.2);
  }
}
