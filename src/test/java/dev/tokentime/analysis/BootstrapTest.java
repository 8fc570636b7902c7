package dev.tokentime.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BootstrapTest {
  @Test
  void percentilesAreNumpyLinear() {
    double[] s = {10, 20, 30, 40, 100};
    assertEquals(76.0, Bootstrap.percentile(90).of(s), 1e-12);
    assertEquals(97.6, Bootstrap.percentile(99).of(s), 1e-12);
    assertEquals(40.0, Bootstrap.mean().of(s), 1e-12);
  }

  @Test
  void aShiftBeyondTheNoiseIsSeenAndNoShiftIsNot() {
    SplittableRandom r = new SplittableRandom(1);
    double[] a = new double[500];
    double[] same = new double[500];
    double[] shifted = new double[500];
    for (int i = 0; i < 500; i++) {
      a[i] = 100 + 10 * r.nextDouble();
      same[i] = 100 + 10 * r.nextDouble();
      shifted[i] = 103 + 10 * r.nextDouble();
    }
    double[] none = Bootstrap.differenceInterval(a, same, Bootstrap.percentile(50), 500, 7);
    assertTrue(none[0] < 0 && none[1] > 0, "same distribution: the interval holds 0");
    double[] shift = Bootstrap.differenceInterval(a, shifted, Bootstrap.percentile(50), 500, 7);
    double est = Bootstrap.percentile(50).of(sorted(shifted)) - Bootstrap.percentile(50).of(sorted(a));
    assertTrue(shift[0] > 1.5 && shift[1] < 4.5, "a 3 ms shift: " + est + " [" + shift[0] + ", " + shift[1] + "]");
    assertEquals(shift[0], Bootstrap.differenceInterval(a, shifted, Bootstrap.percentile(50), 500, 7)[0],
        "the same seed gives the same interval");
  }

  /**
   * Chunk gaps that cluster on a few values (an engine's steps, logged at 0.1 ms), many of them
   * tied: about half at {@code base}, then base + 0.1, base + 0.2 and a two-step gap; the share
   * at {@code base} varies around one half, so the median lies at or near a cluster's edge.
   */
  private static double[] clustered(SplittableRandom r, int n, double base) {
    double half = 0.47 + 0.06 * r.nextDouble();
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      double u = r.nextDouble();
      v[i] = u < half ? base : u < 0.8 ? base + 0.1 : u < 0.97 ? base + 0.2 : 2 * base + 0.1;
    }
    java.util.Arrays.sort(v);
    return v;
  }

  /**
   * What compare resamples of more than its maximum: a uniform sample without replacement
   * (value_sample draws it by hash; a seeded partial shuffle here), ascending.
   */
  private static double[] sampleOf(double[] sorted, int max, long seed) {
    double[] v = sorted.clone();
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < max; i++) {
      int j = i + r.nextInt(v.length - i);
      double x = v[i];
      v[i] = v[j];
      v[j] = x;
    }
    double[] out = java.util.Arrays.copyOf(v, max);
    java.util.Arrays.sort(out);
    return out;
  }

  private static double[] sorted(double[] v) {
    double[] s = v.clone();
    java.util.Arrays.sort(s);
    return s;
  }

  private static boolean holds(double[] ci, double estimate) {
    return ci[0] <= estimate + 1e-9 && estimate - 1e-9 <= ci[1];
  }

  @Test
  void onClusteredGapsTheIntervalHoldsItsOwnEstimate() {
    for (long seed = 1; seed <= 30; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      double[] a = clustered(r, 3000, 13.5);
      double[] b = clustered(r, 3000, 13.5 + 6.0 + 0.1 * r.nextInt(3));
      double[] sa = sampleOf(a, 600, seed);
      double[] sb = sampleOf(b, 600, seed);
      for (double p : new double[] {50, 95, 99}) {
        double estimate = Bootstrap.percentile(p).of(b) - Bootstrap.percentile(p).of(a);
        double[] ci = Bootstrap.differenceIntervals(sa, sb, java.util.List.of(Bootstrap.percentile(p)),
            new double[] {estimate}, 200, seed)[0];
        assertTrue(holds(ci, estimate), "seed " + seed + " p" + p + ": " + estimate + " outside [" + ci[0] + ", " + ci[1] + "]");
        assertTrue(ci[1] - ci[0] > 0, "seed " + seed + " p" + p + ": an interval of no width");
      }
      double mean = Bootstrap.mean().of(b) - Bootstrap.mean().of(a);
      assertTrue(holds(Bootstrap.differenceIntervals(sa, sb, java.util.List.of(Bootstrap.mean()), new double[] {mean},
          200, seed)[0], mean), "seed " + seed + " mean");
    }
  }

  @Test
  void anIntervalIsPlacedAroundTheEstimateGivenWhenOnlyASampleIsResampled() {
    SplittableRandom r = new SplittableRandom(3);
    double[] a = clustered(r, 300, 13.5);
    double[] b = clustered(r, 300, 19.5);
    double sampleDiff = Bootstrap.percentile(50).of(b) - Bootstrap.percentile(50).of(a);
    assertTrue(holds(Bootstrap.differenceInterval(a, b, Bootstrap.percentile(50), 300, 9), sampleDiff));
    double[] own = Bootstrap.differenceIntervals(a, b, java.util.List.of(Bootstrap.percentile(50)), null, 300, 9)[0];
    double[] moved = Bootstrap.differenceIntervals(a, b, java.util.List.of(Bootstrap.percentile(50)),
        new double[] {sampleDiff + 0.05}, 300, 9)[0];
    assertEquals(own[0] + 0.05, moved[0], 1e-9);
    assertEquals(own[1] + 0.05, moved[1], 1e-9);
  }

  @Test
  void aPercentileBySelectionIsThePercentileOfTheSortedValues() {
    for (long seed = 0; seed < 200; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      int n = 1 + r.nextInt(60);
      double[] v = new double[n];
      for (int i = 0; i < n; i++) {
        v[i] = r.nextInt(8) + (r.nextBoolean() ? 0.25 : 0); // many ties
      }
      double[] s = sorted(v);
      for (double p : new double[] {0, 1, 2.5, 25, 50, 95, 97.5, 99, 100}) {
        double[] shuffled = v.clone();
        assertEquals(Bootstrap.percentile(p).of(s), Bootstrap.percentile(p).ofUnordered(shuffled), 0.0,
            "p" + p + " of " + java.util.Arrays.toString(v));
      }
      int k = r.nextInt(n);
      double[] w = v.clone();
      assertEquals(s[k], Bootstrap.select(w, k), 0.0);
      for (int i = 0; i < n; i++) {
        assertTrue(i < k ? w[i] <= w[k] : w[i] >= w[k], "ordered around k");
      }
    }
  }
}
