package dev.tokentime.output;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Array;
import java.sql.SQLException;
import java.util.Locale;

/** How values look in text, Markdown and CSV output. */
public final class Values {
  private Values() {}

  /**
   * For humans: doubles with 3 decimals, NULL as empty, control characters escaped (text that
   * came from the logs must not drive the terminal: {@link Terminal#printable}).
   */
  public static String text(Object v) {
    return Terminal.printable(human(v));
  }

  private static String human(Object v) {
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
