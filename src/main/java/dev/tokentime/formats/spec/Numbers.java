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

  /**
   * A number standing on its own, with the unit word after it: never digits inside a word or
   * after a point ({@code nan5}, {@code n/a5}, {@code v0.7.1}'s {@code .1}).
   */
  private static final Pattern NUMBER =
      Pattern.compile("(?<![\\w.])(-?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?)\\s*(%|[A-Za-z/][\\w/]*)?");

  /** Words that say a figure has no value; never the unit of a number written before them. */
  private static boolean noValue(String unit) {
    return unit != null && (unit.equalsIgnoreCase("nan") || unit.equalsIgnoreCase("n/a"));
  }

  /**
   * Every number in the text, with its unit; a number run into a word that says there is no
   * value ({@code 5n/a}, {@code 5 nan}) is none.
   */
  public static List<Reading> readings(String text) {
    List<Reading> out = new ArrayList<>();
    Matcher m = NUMBER.matcher(text);
    while (m.find()) {
      if (noValue(m.group(2))) {
        continue;
      }
      out.add(reading(m));
    }
    return out;
  }

  private static Reading reading(Matcher m) {
    double v = Double.parseDouble(m.group(1));
    if (Double.isInfinite(v) || Double.isNaN(v)) {
      throw new NumberFormatException("not a finite number: " + m.group(1));
    }
    return new Reading(v, m.group(2) == null ? "" : m.group(2));
  }

  /**
   * The value of a field written in {@code unit} (spec units, parsers/README.md), converted for
   * {@code column}: {@code %} → 0..1, seconds → ms for a {@code _ms} column.
   *
   * The first number of the text, as {@link #readings} finds them: {@code n/a5} or {@code nan5}
   * has none, and a text that starts with a word saying there is no value ({@code n/a 5}) or
   * whose first number runs into one ({@code 5n/a}) is no number either.
   *
   * @throws NumberFormatException when the text holds no number
   */
  public static double convert(String text, String unit, String column) {
    String t = text.stripLeading();
    Matcher m = NUMBER.matcher(t);
    boolean nan = t.regionMatches(true, 0, "nan", 0, 3) && (t.length() == 3 || !Character.isLetter(t.charAt(3)));
    if (nan || t.regionMatches(true, 0, "n/a", 0, 3) || !m.find()
        || noValue(m.group(2))) {
      throw new NumberFormatException("not a number: \"" + shorten(text) + "\"");
    }
    Reading r = reading(m);
    double v = r.value();
    boolean percent = unit.equals("%") || (unit.isEmpty() && r.unit().equals("%"));
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
