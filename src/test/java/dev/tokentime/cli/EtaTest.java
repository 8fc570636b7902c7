package dev.tokentime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The progress line's time left: hidden while the rate settles, then smoothed. */
class EtaTest {
  @Test
  void nothingIsShownInTheFirstSeconds() {
    Eta e = new Eta();
    assertEquals(-1, e.next(89, 0.5));
    assertEquals(-1, e.next(300, 1.5));
    assertEquals(-1, e.next(-1, 3.0), "an unknown estimate stays unknown");
  }

  @Test
  void aSwingOfTheRawEstimateMovesTheShownOneByATenth() {
    Eta e = new Eta();
    assertEquals(89, e.next(89, 2.0));
    // half a second later the raw estimate says 552 s: the shown one counts down to 88.5 and
    // moves a tenth of the way, 88.5 + 0.1 * (552 - 88.5) = 134.85
    assertEquals(134.85, e.next(552, 2.5), 1e-9);
  }

  @Test
  void aSteadyRateIsShownAsItIs() {
    Eta e = new Eta();
    // 100 s of work at a steady rate: the raw estimate at t is 100 - t, and so is the shown one
    for (double t = 2; t < 100; t += 0.5) {
      assertEquals(100 - t, e.next(100 - t, t), 1e-9);
    }
    assertTrue(e.next(0, 100) >= 0);
  }
}
