package dev.tokentime.formats.spec;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A kind's own local date-time with a year ({@code time local NAME}), in the shapes TensorRT-LLM's
 * writers use: {@code YYYY-MM-DD HH:MM:SS[.f]} (or with {@code T}; print_iter_log),
 * {@code MM-DD-YYYY HH:MM:SS[.f]} (IterationStats) and {@code MM/DD/YYYY-HH:MM:SS} (the Python
 * logger). It is read as a prefix's {@code date} time is (parsers/README.md, "Time").
 */
final class LocalDateTimes {
  private LocalDateTimes() {}

  /** The rule a reading is resolved by: a local date-time with a year. */
  static final LineSpec.TimeRule RULE = new LineSpec.TimeRule("date", List.of("ymd", "hms", "frac"));

  private static final Pattern YMD = Pattern.compile(
      "(\\d{4})-(\\d{2})-(\\d{2})[ T](\\d{2}:\\d{2}:\\d{2})(?:\\.(\\d{1,9}))?");
  private static final Pattern MDY = Pattern.compile(
      "(\\d{2})[-/](\\d{2})[-/](\\d{4})[ -](\\d{2}:\\d{2}:\\d{2})(?:\\.(\\d{1,9}))?");

  /**
   * The reading's parts ({@code yyyy-MM-dd}, {@code HH:mm:ss} and the fraction when written), or
   * null when the text is none of the shapes or no such time exists (02-30, 25:00).
   */
  static String[] parts(String text) {
    String s = text.strip();
    String ymd;
    Matcher m = YMD.matcher(s);
    if (m.matches()) {
      ymd = m.group(1) + "-" + m.group(2) + "-" + m.group(3);
    } else {
      m = MDY.matcher(s);
      if (!m.matches()) {
        return null;
      }
      ymd = m.group(3) + "-" + m.group(1) + "-" + m.group(2);
    }
    String hms = m.group(4);
    try {
      LocalDateTime.of(Integer.parseInt(ymd.substring(0, 4)), Integer.parseInt(ymd.substring(5, 7)),
          Integer.parseInt(ymd.substring(8, 10)), Integer.parseInt(hms.substring(0, 2)),
          Integer.parseInt(hms.substring(3, 5)), Integer.parseInt(hms.substring(6, 8)));
    } catch (DateTimeException e) {
      return null;
    }
    String frac = m.group(5);
    return frac == null ? new String[] {ymd, hms} : new String[] {ymd, hms, frac};
  }
}
