package dev.tokentime.formats.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Numbers in log values: {@code 12.5%}, {@code 247 reqs}, {@code 1.7 TF/s/GPU 50.0 GB/s/GPU}. */
public final class Numbers {
  private Numbers() {}

  /** A number and the unit word written after it ("" when none). */
  public record Reading(double value, String unit) {}

  private static final Pattern NUMBER =
      Pattern.compile("(-?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?)\\s*(%|[A-Za-z/][\\w/]*)?");

  /** Every number in the text, with its unit. */
  public static List<Reading> readings(String text) {
    List<Reading> out = new ArrayList<>();
    Matcher m = NUMBER.matcher(text);
    while (m.find()) {
      double v = Double.parseDouble(m.group(1));
      if (Double.isInfinite(v) || Double.isNaN(v)) {
        throw new NumberFormatException("not a finite number: " + m.group(1));
      }
      out.add(new Reading(v, m.group(2) == null ? "" : m.group(2)));
    }
    return out;
  }

  /**
   * The value of a field written in {@code unit} (spec units, parsers/README.md), converted for
   * {@code column}: {@code %} → 0..1, seconds → ms for a {@code _ms} column.
   *
   * @throws NumberFormatException when the text holds no number
   */
  public static double convert(String text, String unit, String column) {
    List<Reading> r = readings(text);
    if (r.isEmpty()) {
      throw new NumberFormatException("not a number: \"" + shorten(text) + "\"");
    }
    double v = r.get(0).value();
    boolean percent = unit.equals("%") || (unit.isEmpty() && r.get(0).unit().equals("%"));
    if (percent) {
      return ratio(v);
    }
    if (unit.equals("s") && column.endsWith("_ms")) {
      return v * 1000.0;
    }
    if (unit.equals("ms") && column.endsWith("_s")) {
      return v / 1000.0;
    }
    return v;
  }

  /**
   * A percentage as a 0..1 ratio, the double nearest the decimal written (81.4 → 0.814, where
   * 81.4 / 100 is 0.8140000000000001).
   */
  public static double ratio(double percent) {
    return Double.isFinite(percent) ? java.math.BigDecimal.valueOf(percent).movePointLeft(2).doubleValue() : percent / 100;
  }

  static String shorten(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "…" : s;
  }
}
