package dev.tokentime.cli;

/**
 * The progress line's time left, smoothed. The rate of the first seconds says little (the
 * database opens, the first batches fill), and the estimate from the average rate so far swung
 * by several times there: nothing is shown for the first {@link #SETTLE_S} seconds, and then
 * each new estimate moves the shown one by a fraction {@link #WEIGHT}, the shown one counting down
 * meanwhile.
 */
final class Eta {
  static final double SETTLE_S = 2.0;
  static final double WEIGHT = 0.1;

  private double shown = -1;
  private double at;

  /**
   * @param raw seconds left at the rate so far (negative: unknown)
   * @param seconds seconds since the file's start
   * @return seconds left to show, or -1 for none yet
   */
  double next(double raw, double seconds) {
    if (raw < 0 || seconds < SETTLE_S) {
      return -1;
    }
    if (shown < 0) {
      shown = raw;
    } else {
      double counted = Math.max(0, shown - (seconds - at));
      shown = counted + WEIGHT * (raw - counted);
    }
    at = seconds;
    return shown;
  }
}
