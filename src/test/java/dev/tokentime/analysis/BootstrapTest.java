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
    assertTrue(shift[0] > 1.5 && shift[1] < 4.5, "a 3 ms shift: [" + shift[0] + ", " + shift[1] + "]");
    assertEquals(shift[0], Bootstrap.differenceInterval(a, shifted, Bootstrap.percentile(50), 500, 7)[0],
        "the same seed gives the same interval");
  }
}
