package dev.tokentime.formats.spec;

import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;

/**
 * The time of each line of a log, from the best reading its prefixes carry: an RFC 3339 container
 * timestamp (UTC, sub-second, with a year) beats a local date-time with a year, which beats the
 * month-day time of vLLM's own format (no year, 1 s). Year and zone of local times come from
 * --year/--tz, else from a container timestamp on a line that carries both (the zone is the
 * difference, rounded to 15 minutes), else from the file's date; the year rolls over only when
 * December is followed by January. Each reading's clock is registered with its true resolution.
 */
public final class LogTimes {
  /** Thrown for a time that does not exist (02-30, 25:00:00). */
  public static final class BadTime extends Exception {
    BadTime(String message) {
      super(message, null, false, false);
    }
  }


  private final ParseContext ctx;
  private final RecordSink sink;
  private final String scope;
  private final Map<ClockSpec, Integer> clockIds = new HashMap<>();
  private ZoneId inferredZone;
  private Integer year;
  private int lastMonth;
  private int clockId;
  private long resolutionNs;

  public LogTimes(ParseContext ctx, RecordSink sink, String scope) {
    this.ctx = ctx;
    this.sink = sink;
    this.scope = scope;
  }

  /** The clock of the last resolved time. */
  public int clockId() {
    return clockId;
  }

  /** The resolution of the last resolved time. */
  public long resolutionNs() {
    return resolutionNs;
  }

  /**
   * The line's time in ns (Unix epoch), or {@link RequestRecord#NONE} when it carries none; its
   * clock is {@link #clockId()} afterwards.
   */
  public long resolve(MatchedLine m) throws BadTime {
    clockId = 0;
    if (m.times.isEmpty()) {
      return RequestRecord.NONE;
    }
    MatchedLine.TimeReading exact = null;
    MatchedLine.TimeReading dated = null;
    MatchedLine.TimeReading monthDay = null;
    for (MatchedLine.TimeReading t : m.times) {
      switch (t.rule().kind()) {
        case "rfc3339" -> exact = exact == null ? t : exact;
        case "date" -> dated = dated == null ? t : dated;
        default -> monthDay = monthDay == null ? t : monthDay;
      }
    }
    try {
      if (exact != null) {
        OffsetDateTime odt = OffsetDateTime.parse(normalizeRfc3339(exact.parts()[0]),
            DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        Instant instant = odt.toInstant();
        if (monthDay != null) {
          learnFrom(instant, monthDay);
        }
        return use(instant, fractionResolution(exact.parts()[0]), null, false);
      }
      if (dated != null) {
        LocalDateTime ldt = LocalDateTime.parse(dated.parts()[0] + "T" + dated.parts()[1]);
        String frac = dated.parts().length > 2 ? dated.parts()[2] : null;
        ldt = ldt.plusNanos(fractionNanos(frac));
        return local(ldt, frac == null ? 1_000_000_000L : pow10(9 - frac.length()));
      }
      int[] md = monthDay(monthDay.parts()[0]);
      int y = yearFor(md[0]);
      LocalDateTime ldt = LocalDateTime.parse(String.format("%04d-%02d-%02dT%s", y, md[0], md[1],
          monthDay.parts()[1]));
      String frac = monthDay.parts().length > 2 ? monthDay.parts()[2] : null;
      ldt = ldt.plusNanos(fractionNanos(frac));
      return local(ldt, frac == null ? 1_000_000_000L : pow10(9 - frac.length()));
    } catch (DateTimeException | NumberFormatException e) {
      throw new BadTime("not a valid time: " + e.getMessage());
    }
  }

  /** The year of a month-day reading: given, learned, or from the file's date; rolls over Dec→Jan. */
  private int yearFor(int month) {
    if (year == null) {
      if (ctx.year() != null) {
        year = ctx.year();
      } else {
        Instant ref = ctx.fileModified() != null ? ctx.fileModified() : Instant.now();
        var refDate = ref.atZone(zone());
        // the file was last written after its first line: a later month means last year
        year = month > refDate.getMonthValue() ? refDate.getYear() - 1 : refDate.getYear();
      }
    } else if (lastMonth == 12 && month == 1) {
      year++;
    }
    lastMonth = month;
    return year;
  }

  /** A container timestamp and vLLM's local month-day time on one line: learn year and zone. */
  private void learnFrom(Instant exact, MatchedLine.TimeReading monthDay) throws BadTime {
    int[] md = monthDay(monthDay.parts()[0]);
    int utcYear = exact.atOffset(ZoneOffset.UTC).getYear();
    LocalDateTime best = null;
    long bestDiff = Long.MAX_VALUE;
    for (int y = utcYear - 1; y <= utcYear + 1; y++) {
      try {
        LocalDateTime cand = LocalDateTime.parse(String.format("%04d-%02d-%02dT%s", y, md[0], md[1],
            monthDay.parts()[1]));
        long diff = Math.abs(cand.toEpochSecond(ZoneOffset.UTC) - exact.getEpochSecond());
        if (diff < bestDiff) {
          bestDiff = diff;
          best = cand;
        }
      } catch (DateTimeException e) {
        // Feb 29 in a year without it: not this year
      }
    }
    if (best == null || bestDiff > 26 * 3600) {
      return; // the two readings do not describe the same moment
    }
    if (year == null && ctx.year() == null) {
      year = best.getYear();
    }
    lastMonth = md[0];
    if (ctx.zone() == null && inferredZone == null) {
      long offsetS = best.toEpochSecond(ZoneOffset.UTC) - exact.getEpochSecond();
      long quarters = Math.round(offsetS / 900.0);
      inferredZone = ZoneOffset.ofTotalSeconds((int) (quarters * 900));
    }
  }

  private ZoneId zone() {
    if (ctx.zone() != null) {
      return ctx.zone();
    }
    return inferredZone != null ? inferredZone : ZoneOffset.UTC;
  }

  private long local(LocalDateTime ldt, long resolution) {
    ZoneId z = zone();
    boolean assumed = ctx.zone() == null && inferredZone == null;
    return use(ldt.atZone(z).toInstant(), resolution, assumed ? "UTC" : z.getId(), assumed);
  }

  private long use(Instant instant, long resolution, String tz, boolean assumed) {
    ClockSpec spec = new ClockSpec("wall", scope, resolution, tz, assumed);
    clockId = clockIds.computeIfAbsent(spec, sink::clock);
    resolutionNs = resolution;
    return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
  }

  /** {@code 2026-05-12 08:01:39,331+0200} → {@code 2026-05-12T08:01:39.331+02:00}. */
  static String normalizeRfc3339(String s) {
    String t = s.replace(',', '.');
    if (t.length() > 10 && t.charAt(10) == ' ') {
      t = t.substring(0, 10) + 'T' + t.substring(11);
    }
    int n = t.length();
    if (n > 5 && (t.charAt(n - 5) == '+' || t.charAt(n - 5) == '-') && Character.isDigit(t.charAt(n - 3))) {
      t = t.substring(0, n - 2) + ":" + t.substring(n - 2);
    }
    return t;
  }

  private static int[] monthDay(String md) throws BadTime {
    int dash = md.indexOf('-');
    if (dash < 0) {
      throw new BadTime("not a month-day: " + md);
    }
    return new int[] {Integer.parseInt(md.substring(0, dash)), Integer.parseInt(md.substring(dash + 1))};
  }

  private static long fractionResolution(String ts) {
    int t = ts.indexOf('T') >= 0 ? ts.indexOf('T') : ts.indexOf(' ');
    int dot = -1;
    for (int i = Math.max(0, t); i < ts.length(); i++) {
      char c = ts.charAt(i);
      if (c == '.' || c == ',') {
        dot = i;
        break;
      }
    }
    if (dot < 0) {
      return 1_000_000_000L;
    }
    int digits = 0;
    for (int i = dot + 1; i < ts.length() && Character.isDigit(ts.charAt(i)); i++) {
      digits++;
    }
    return pow10(9 - Math.min(9, digits));
  }

  private static long fractionNanos(String frac) {
    if (frac == null || frac.isEmpty()) {
      return 0;
    }
    String f = frac.length() > 9 ? frac.substring(0, 9) : frac;
    return Long.parseLong(f) * pow10(9 - f.length());
  }

  private static long pow10(int n) {
    long v = 1;
    for (int i = 0; i < n; i++) {
      v *= 10;
    }
    return v;
  }
}
