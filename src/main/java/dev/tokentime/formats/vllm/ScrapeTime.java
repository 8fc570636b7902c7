package dev.tokentime.formats.vllm;

import dev.tokentime.formats.spec.LogTimes;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.DateTimeException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines a shell transcript of /metrics scrapes holds besides the samples: the time a user
 * printed beside each scrape ({@code date -Is && curl …/metrics}, or {@code curl …; date}) and the
 * shell's prompt lines.
 */
final class ScrapeTime {
  private ScrapeTime() {}

  /** RFC 3339 / ISO 8601 with an offset: {@code date -Is}, {@code -Ins} (comma), {@code --rfc-3339}. */
  private static final Pattern ISO = Pattern.compile(
      "\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d{1,9})?(?:Z|z|[+-]\\d{2}(?::?\\d{2})?)");

  /**
   * {@code date +%s} (or {@code +%s.%N}): seconds since the epoch, ten digits (2001 to 2286); or
   * {@code date +%s%3N}: milliseconds, thirteen digits; no sample line is a bare number.
   */
  private static final Pattern EPOCH = Pattern.compile("(\\d{10})(?:\\.(\\d{1,9}))?|(\\d{13})");

  /** {@code date -R}: {@code Sat, 18 Oct 2025 04:12:40 +0000}. */
  private static final Pattern RFC2822 = Pattern.compile(
      "[A-Z][a-z]{2}, \\d{1,2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} [+-]\\d{4}");

  /**
   * {@code date} in the C locale, {@code Sat Oct 18 04:12:40 UTC 2025}, or in an English one with
   * a 12-hour clock, {@code Sat Oct 18 04:12:40 AM UTC 2025}.
   */
  private static final Pattern DATE_DEFAULT = Pattern.compile(
      "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ((?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\\d{1,2}"
          + " \\d{2}:\\d{2}:\\d{2})(?: ([AP]M))? ([A-Z][A-Za-z]{1,5}|[+-]\\d{2}(?:\\d{2})?) (\\d{4})");

  /**
   * A prompt: {@code $ cmd}, {@code user@host:dir$ cmd} / {@code root@host:/# cmd}, or the
   * bracketed one of RHEL's bash, {@code [root@host dir]# cmd}.
   */
  private static final Pattern PROMPT = Pattern.compile(
      "\\$(?:\\s.*)?|\\[?[\\w.-]+@[\\w.-]+(?::\\S*|\\s[^\\]]*\\])?[$#](?:\\s.*)?");

  /** Whether a line is a shell prompt, with or without a command (never a sample: no name starts so). */
  static boolean isShellPrompt(String line) {
    // a sample line has neither: the regex only for lines that may be prompts
    return (line.charAt(0) == '$' || line.indexOf('@') > 0) && PROMPT.matcher(line).matches();
  }

  /**
   * The instant a line holding only a time names, as {epoch second, nano, resolution ns}, or null
   * when the line is no time. A time whose zone is an abbreviation other than UTC / GMT names no
   * offset (CST is three zones): the line is refused rather than read in a guessed zone.
   *
   * @throws NumberFormatException for a date line in an ambiguous zone or with impossible fields
   */
  static long[] parse(String line) {
    char c = line.charAt(0);
    if (c >= '0' && c <= '9') {
      Matcher epoch = EPOCH.matcher(line);
      if (epoch.matches()) {
        if (epoch.group(3) != null) {
          long ms = Long.parseLong(epoch.group(3));
          return new long[] {ms / 1000, ms % 1000 * 1_000_000L, 1_000_000L};
        }
        String frac = epoch.group(2);
        return frac == null ? new long[] {Long.parseLong(epoch.group(1)), 0, 1_000_000_000L}
            : new long[] {Long.parseLong(epoch.group(1)), Long.parseLong((frac + "00000000").substring(0, 9)),
                (long) Math.pow(10, 9 - frac.length())};
      }
      if (!ISO.matcher(line).matches()) {
        return null;
      }
      // the log wrappers' reader of RFC 3339 times (a comma, a space, +HHMM); +HH it takes as +HH:00
      int n = line.length();
      String t = line.charAt(n - 3) == '+' || line.charAt(n - 3) == '-' ? line + ":00" : line;
      try {
        return LogTimes.rfc3339(t);
      } catch (DateTimeException | NumberFormatException e) {
        throw new NumberFormatException("date line \"" + line + "\" is no valid time: " + e.getMessage());
      }
    }
    if (c < 'A' || c > 'Z') {
      return null;
    }
    try {
      if (RFC2822.matcher(line).matches()) {
        ZonedDateTime t = ZonedDateTime.parse(line, DateTimeFormatter.RFC_1123_DATE_TIME);
        return new long[] {t.toEpochSecond(), 0, 1_000_000_000L};
      }
      Matcher m = DATE_DEFAULT.matcher(line);
      if (!m.matches()) {
        return null;
      }
      String zone = m.group(3);
      ZoneOffset offset;
      if (zone.equals("UTC") || zone.equals("GMT")) {
        offset = ZoneOffset.UTC;
      } else if (zone.charAt(0) == '+' || zone.charAt(0) == '-') {
        offset = ZoneOffset.of(zone); // a zone without an abbreviation prints its offset
      } else {
        throw new NumberFormatException("date line \"" + line + "\": the zone " + zone + " names no offset"
            + " (print the time with date -Is, or in UTC)");
      }
      LocalDateTime t = LocalDateTime.parse(m.group(4) + " " + m.group(1).replaceAll(" +", " "),
          DateTimeFormatter.ofPattern("yyyy MMM d HH:mm:ss", Locale.ROOT));
      if (m.group(2) != null) {
        int h = t.getHour();
        if (h < 1 || h > 12) {
          throw new NumberFormatException("date line \"" + line + "\": hour " + h + " on a 12-hour clock");
        }
        t = t.withHour(h % 12 + (m.group(2).equals("PM") ? 12 : 0));
      }
      return new long[] {t.toEpochSecond(offset), 0, 1_000_000_000L};
    } catch (DateTimeException e) {
      throw new NumberFormatException("date line \"" + line + "\" is no valid time: " + e.getMessage());
    }
  }
}
