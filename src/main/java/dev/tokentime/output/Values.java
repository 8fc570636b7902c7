package dev.tokentime.output;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Array;
import java.sql.SQLException;
import java.util.Locale;

/** How values look in text, Markdown and CSV output. */
public final class Values {
  private Values() {}

  /** For humans: doubles with 3 decimals, NULL as empty. */
  public static String text(Object v) {
    if (v == null) {
      return "";
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        return Double.toString(d);
      }
      return String.format(Locale.ROOT, "%.3f", d);
    }
    if (v instanceof BigDecimal b) {
      return b.toPlainString();
    }
    return plain(v);
  }

  /**
   * A share (0..1) as a percentage for humans, the one rounding every output uses for SLO
   * attainment (check, summary, report): one decimal, except that a share above 0 never reads
   * "0.0 %" nor one below 1 "100.0 %" (it reads "< 0.1 %", "> 99.9 %"). NULL or NaN is "n/a".
   */
  public static String percent(Double share) {
    if (share == null || share.isNaN()) {
      return "n/a";
    }
    double p = 100 * share;
    if (p > 0 && p < 0.05) {
      return "< 0.1 %";
    }
    if (p < 100 && p >= 99.95) {
      return "> 99.9 %";
    }
    return String.format(Locale.ROOT, "%.1f %%", p);
  }

  /** For machines: full precision, NULL as empty. */
  public static String exact(Object v) {
    if (v == null) {
      return "";
    }
    if (v instanceof Double d) {
      return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString(d.longValue()) : Double.toString(d);
    }
    if (v instanceof BigDecimal b) {
      return b.toPlainString();
    }
    return plain(v);
  }

  private static String plain(Object v) {
    if (v instanceof Array a) {
      try {
        Object arr = a.getArray();
        if (arr instanceof Object[] objs) {
          return java.util.Arrays.deepToString(objs);
        }
        return String.valueOf(arr);
      } catch (SQLException e) {
        return v.toString();
      }
    }
    if (v instanceof BigInteger || v instanceof Number || v instanceof Boolean) {
      return v.toString();
    }
    return v.toString();
  }
}
