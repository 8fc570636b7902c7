package dev.tokentime.report;

import java.util.Locale;

/** Numbers as a report prints them: few digits, units spelled, Locale.ROOT. */
final class Fmt {
  private Fmt() {}

  /** A value with about three significant digits; "" for missing (null or NaN). */
  static String num(Double v) {
    if (v == null || v.isNaN() || v.isInfinite()) {
      return "";
    }
    double a = Math.abs(v);
    if (a == 0) {
      return "0";
    }
    String s = a >= 100 ? String.format(Locale.ROOT, "%.0f", v)
        : a >= 10 ? String.format(Locale.ROOT, "%.1f", v)
        : a >= 1 ? String.format(Locale.ROOT, "%.2f", v)
        : String.format(Locale.ROOT, "%.3g", v);
    return s.contains(".") && !s.contains("e") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
  }

  /** Milliseconds in words: "726 ms", "2.81 s". */
  static String ms(Double v) {
    if (v == null || v.isNaN()) {
      return "n/a";
    }
    return Math.abs(v) >= 1000 ? num(v / 1000) + " s" : num(v) + " ms";
  }

  /** A share 0..1 as a whole percentage: "95 %". */
  static String pct(Double v) {
    if (v == null || v.isNaN()) {
      return "n/a";
    }
    return String.format(Locale.ROOT, "%.0f %%", 100 * v);
  }

  /** A level value without a needless ".0": 16, 2.5. */
  static String level(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : num(v);
  }

  /** "concurrency 16", "request rate 2.5", or the run's label. */
  static String levelLabel(String kind, double level, String label) {
    if (kind == null || kind.isEmpty() || Double.isNaN(level)) {
      return label == null ? "" : label;
    }
    return kind.replace('_', ' ') + " " + level(level);
  }
}
