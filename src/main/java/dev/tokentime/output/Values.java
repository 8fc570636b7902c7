package dev.tokentime.output;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Array;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;

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

  /**
   * A duration in milliseconds for humans, in the unit that reads (issue 23: "35.7 s", not
   * "35718.330"): three significant figures, in µs below 1 ms, ms below 1 s, s below 10 min,
   * min beyond. NULL is empty. CSV and JSON keep the raw milliseconds.
   */
  public static String duration(Double ms) {
    if (ms == null) {
      return "";
    }
    if (ms.isNaN() || ms.isInfinite()) {
      return Double.toString(ms);
    }
    double a = Math.abs(ms);
    if (a == 0) {
      return "0 ms";
    }
    if (a < 1) {
      return sig(ms * 1000) + " µs";
    }
    if (a < 1000) {
      return sig(ms) + " ms";
    }
    if (a < 600_000) {
      return sig(ms / 1000) + " s";
    }
    return sig(ms / 60_000) + " min";
  }

  /** Three significant figures, at most one decimal beyond them dropped: 35.7, 412, 2.05. */
  private static String sig(double v) {
    double a = Math.abs(v);
    int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
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

  private static final java.util.regex.Pattern DIGITS = java.util.regex.Pattern.compile("[0-9]+");

  /**
   * Names in natural order (c1, c4, c16, c64): the views' natural_sort_key rule (each run of
   * digits padded with zeros to 30 characters), then the name itself.
   */
  public static final java.util.Comparator<String> NATURAL = java.util.Comparator
      .comparing((String s) -> DIGITS.matcher(s)
          .replaceAll(m -> m.group().length() < 30 ? "0".repeat(30 - m.group().length()) + m.group() : m.group()))
      .thenComparing(java.util.Comparator.naturalOrder());

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
          java.util.StringJoiner j = new java.util.StringJoiner(", ", "[", "]");
          for (Object o : objs) {
            j.add(o == null ? "NULL" : plain(o));
          }
          return j.toString();
        }
        return String.valueOf(arr);
      } catch (SQLException e) {
        return v.toString();
      }
    }
    // a STRUCT and a BLOB as DuckDB writes them ({'a': 1, 'b': x}, \x01\x02), not as the
    // driver's objects (DuckDBBlobResult{buffer=java.nio.HeapByteBuffer[pos=0 lim=2 cap=2]})
    Map<String, Object> struct = structFields(v);
    if (struct != null) {
      java.util.StringJoiner j = new java.util.StringJoiner(", ", "{", "}");
      struct.forEach((k, o) -> j.add("'" + k + "': " + (o == null ? "NULL" : plain(o))));
      return j.toString();
    }
    if (v instanceof java.sql.Blob b) {
      try {
        byte[] bytes = b.getBytes(1, (int) Math.min(b.length(), Integer.MAX_VALUE));
        StringBuilder sb = new StringBuilder();
        for (byte x : bytes) {
          int c = x & 0xff;
          if (c >= 0x20 && c < 0x7f && c != '\\') {
            sb.append((char) c);
          } else {
            sb.append(String.format(Locale.ROOT, "\\x%02X", c));
          }
        }
        return sb.toString();
      } catch (SQLException e) {
        return v.toString();
      }
    }
    if (v instanceof BigInteger || v instanceof Number || v instanceof Boolean) {
      return v.toString();
    }
    return v.toString();
  }

  /** A STRUCT's fields by name, in order, or null when {@code v} is none. */
  static Map<String, Object> structFields(Object v) {
    if (!(v instanceof java.sql.Struct st)) {
      return null;
    }
    if (v instanceof org.duckdb.DuckDBStruct d) {
      try {
        return d.getMap();
      } catch (SQLException e) {
        return null;
      }
    }
    try {
      Map<String, Object> m = new java.util.LinkedHashMap<>();
      Object[] a = st.getAttributes();
      for (int i = 0; i < a.length; i++) {
        m.put("f" + (i + 1), a[i]);
      }
      return m;
    } catch (SQLException e) {
      return null;
    }
  }

  /**
   * A CSV cell: {@link #exact}, and a text value that a spreadsheet would take for a formula
   * (starting with =, +, -, @, a tab or a carriage return: a request id or an error text from a
   * log may be {@code =HYPERLINK(...)}) gets a leading apostrophe, unless {@code raw}. Numbers are
   * never changed: -1.5 stays a number.
   */
  public static String csvCell(Object v, boolean raw) {
    String s = exact(v);
    return raw || !(v instanceof CharSequence) || !formulaLike(s) ? s : "'" + s;
  }

  /** A whole cell that a spreadsheet reads as a number, or a lone sign: no formula runs. */
  public static final String PLAIN_NUMBER_REGEX = "[+-]?(?:(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?(?: ?%)?)?";
  private static final java.util.regex.Pattern PLAIN_NUMBER = java.util.regex.Pattern.compile(PLAIN_NUMBER_REGEX);

  /**
   * Whether a spreadsheet would read this text as a formula (OWASP's list of first characters),
   * unless the whole text is a plain number, a percentage or a lone sign ("+0.6 %" in a comparison, "-" for stdin).
   */
  public static boolean formulaLike(String s) {
    if (s == null || s.isEmpty() || PLAIN_NUMBER.matcher(s).matches()) {
      return false;
    }
    char c = s.charAt(0);
    return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r';
  }
}
