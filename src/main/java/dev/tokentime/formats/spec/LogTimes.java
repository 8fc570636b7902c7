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
  /** The year came from the file's date, a guess: a line with a year of its own replaces it. */
  private boolean yearGuessed;
  private int lastMonth;
  private int clockId;
  private long resolutionNs;
  /** Whether an RFC 3339 time of this file had 7 or more fraction digits: a nanosecond writer's. */
  private boolean nanoWriter;
  /** Year and zone were learned from a line with both a container and a vLLM time. */
  private boolean learned;
  /** Seconds a local wrapper time (with a year) is ahead of the engine's own, once learned. */
  private Integer wrapperOffset;
  // the clock of the last line: most lines share it
  private long lastResolution = -1;
  private String lastTz;
  private boolean lastAssumed;
  private int lastClockId;

  public LogTimes(ParseContext ctx, RecordSink sink, String scope) {
    this.ctx = ctx;
    this.sink = sink;
    this.scope = scope;
  }

  /** The last time a line carried (RequestRecord.NONE before the first), and its clock. */
  private long lastNs = RequestRecord.NONE;
  private int lastNsClock;

  /** The time of the last line that carried one, or RequestRecord.NONE. */
  public long lastNs() {
    return lastNs;
  }

  /** The clock of {@link #lastNs()}. */
  public int lastNsClock() {
    return lastNsClock;
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
    MatchedLine.TimeReading timeOfDay = null;
    for (MatchedLine.TimeReading t : m.times) {
      switch (t.rule().kind()) {
        case "time-of-day" -> timeOfDay = timeOfDay == null ? t : timeOfDay;
        case "rfc3339", "epoch-us", "utc", "epoch", "tai64n" -> exact = exact == null ? t : exact;
        case "date" -> dated = dated == null ? t : dated;
        case "date-mdy" -> dated = dated == null ? new MatchedLine.TimeReading(t.rule(), mdyToYmd(t.parts())) : dated;
        default -> monthDay = monthDay == null ? t : monthDay;
      }
    }
    try {
      if (exact != null) {
        long[] sn = switch (exact.rule().kind()) {
          case "epoch-us" -> epochMicros(exact.parts()[0]);
          case "epoch" -> epochSeconds(exact.parts()[0]);
          case "tai64n" -> tai64n(exact.parts()[0], monthDay);
          case "utc" -> rfc3339(utcInstant(exact.parts()));
          default -> rfc3339(exact.parts()[0]);
        };
        if (!exact.rule().kind().equals("epoch-us")) {
          // a writer that trims trailing zeros (Go's RFC3339Nano: docker's json-file, containerd's
          // CRI logs) prints 9 digits but fewer where the last are zero ("…33.12345678Z"): a time
          // of 7 digits or more is such a writer's, and from then on every one is on its nanosecond
          // clock (else a request's lines fell on clocks of their digit counts and lost its E2E)
          nanoWriter |= sn[2] <= 100;
          if (nanoWriter) {
            sn[2] = 1;
          }
        }
        if (monthDay != null) {
          if (!learned) {
            learned = learnFrom(Instant.ofEpochSecond(sn[0], sn[1]), monthDay);
            if (learned && inferredZone != null && ctx.zone() == null) {
              // the engine's own time is the wrapper's shifted by the zone found: its clock row
              // keeps that offset where a reader of clocks sees it (lines without the wrapper use it)
              long t = use(sn[0], sn[1], sn[2], null, false);
              clockIds.computeIfAbsent(new ClockSpec("wall", scope, 1_000_000_000L, inferredZone.getId(), false),
                  sink::clock);
              return t;
            }
          } else {
            int[] md = monthDay(monthDay.parts()[0]);
            yearFor(md[0], md[1]); // keep the year rolling with the lines
          }
        }
        if (monthDay == null && yearOpen()) {
          var utc = Instant.ofEpochSecond(sn[0]).atOffset(ZoneOffset.UTC);
          yearSeen(utc.getYear(), utc.getMonthValue());
        }
        return use(sn[0], sn[1], sn[2], null, false);
      }
      if (dated != null) {
        String frac = dated.parts().length > 2 ? dated.parts()[2] : null;
        LocalDateTime ldt = dateTime(dated.parts()[0], dated.parts()[1]);
        long res = frac == null ? 1_000_000_000L : pow10(9 - frac.length());
        if (monthDay == null && yearOpen()) {
          yearSeen(ldt.getYear(), ldt.getMonthValue());
        }
        if (monthDay != null) {
          int[] md = monthDay(monthDay.parts()[0]);
          if (wrapperOffset == null) {
            wrapperOffset = wrapperOffset(ldt, monthDay);
          }
          yearFor(md[0], md[1]);
          if (wrapperOffset != null) {
            // a local wrapper time (docker desktop) beside the engine's own: the wrapper's zone is
            // the engine's (--tz, else UTC) shifted by the quarter-hours between the two
            ZoneOffset inner = ctx.zone() == null ? ZoneOffset.UTC
                : ctx.zone().getRules().getOffset(ldt);
            ZoneOffset z = ZoneOffset.ofTotalSeconds(inner.getTotalSeconds() + wrapperOffset);
            return use(ldt.toEpochSecond(z), fractionNanos(frac), res, z.getId(), ctx.zone() == null);
          }
        }
        return local(ldt, fractionNanos(frac), res);
      }
      if (monthDay == null) {
        return ofDay(timeOfDay);
      }
      int[] md = monthDay(monthDay.parts()[0]);
      int y = yearFor(md[0], md[1]);
      String frac = monthDay.parts().length > 2 ? monthDay.parts()[2] : null;
      LocalDateTime ldt = LocalDateTime.of(y, md[0], md[1], num(monthDay.parts()[1], 0), num(monthDay.parts()[1], 3),
          num(monthDay.parts()[1], 6));
      return local(ldt, fractionNanos(frac), frac == null ? 1_000_000_000L : pow10(9 - frac.length()));
    } catch (DateTimeException | NumberFormatException | IndexOutOfBoundsException e) {
      throw new BadTime("not a valid time: " + e.getMessage());
    }
  }

  /**
   * A time of day without a date (SGLang 0.3's "[04:40:55 TP0]", a formatter's "13:57:45"):
   * placed nearest the line before that had a time (of any kind), in the zone of local times: on
   * its day, the next day when that is over 12 hours back (midnight passed), the day before when
   * that is over 12 hours ahead and the day before lies within an hour before it (a line written
   * just before midnight, logged after one written just after). The first such line of a file
   * without an earlier time takes the date of --at, else of the dated line near the file's top
   * that comes after it (the day before when the time is later in the day than that line's),
   * else of the file's modification time (the day before when its time of day is later than the
   * file's: no line is written after the file).
   */
  private long ofDay(MatchedLine.TimeReading t) {
    String hms = t.parts()[0];
    String frac = t.parts().length > 1 ? t.parts()[1] : null;
    java.time.LocalTime time = java.time.LocalTime.of(num(hms, 0), num(hms, 3), num(hms, 6));
    LocalDateTime at;
    if (lastNs != RequestRecord.NONE) {
      LocalDateTime ref = Instant.ofEpochSecond(Math.floorDiv(lastNs, 1_000_000_000L)).atZone(zone()).toLocalDateTime();
      at = LocalDateTime.of(ref.toLocalDate(), time);
      if (at.isBefore(ref.minusHours(12))) {
        at = at.plusDays(1);
      } else if (at.isAfter(ref.plusHours(12)) && !at.minusDays(1).isBefore(ref.minusHours(1))) {
        at = at.minusDays(1);
      }
    } else if (ctx.at() != null) {
      at = LocalDateTime.of(ctx.at().atZone(zone()).toLocalDate(), time);
    } else if (headDateTime != null) {
      // the dated line comes after this one: the time of day at or before it (a minute's slack)
      at = LocalDateTime.of(headDate, time);
      if (at.isAfter(headDateTime.plusMinutes(1))) {
        at = at.minusDays(1);
      }
    } else {
      Instant ref = ctx.fileModified() != null ? ctx.fileModified() : Instant.now();
      var refTime = ref.atZone(zone());
      // a minute's slack: the last line may be written a moment before the file's time
      boolean later = time.toSecondOfDay() > refTime.toLocalTime().toSecondOfDay() + 60;
      at = LocalDateTime.of(later ? refTime.toLocalDate().minusDays(1) : refTime.toLocalDate(), time);
    }
    return local(at, fractionNanos(frac), frac == null ? 1_000_000_000L : pow10(9 - frac.length()));
  }

  /** {@code MM/dd/yyyy} (TensorRT-LLM's Python logger) as {@code yyyy-MM-dd}, the other parts kept. */
  private static String[] mdyToYmd(String[] parts) {
    String[] out = parts.clone();
    String mdy = parts[0];
    if (mdy.length() == 10 && mdy.charAt(2) == '/' && mdy.charAt(5) == '/') {
      out[0] = mdy.substring(6, 10) + "-" + mdy.substring(0, 2) + "-" + mdy.substring(3, 5);
    }
    return out;
  }

  /** {@code yyyy-MM-dd} and {@code HH:mm:ss} as a local date-time. */
  private static LocalDateTime dateTime(String ymd, String hms) {
    return LocalDateTime.of(num4(ymd), num(ymd, 5), num(ymd, 8), num(hms, 0), num(hms, 3), num(hms, 6));
  }

  /**
   * A UTC date and time written without a zone (svlogd's "2025-08-12_10:00:03.12345"), as the
   * RFC 3339 instant it names: date, time of day and fraction from their groups.
   */
  static String utcInstant(String[] parts) {
    String frac = parts.length > 2 ? parts[2] : null;
    return parts[0] + "T" + parts[1] + (frac == null || frac.isEmpty() ? "" : "." + frac) + "Z";
  }

  /**
   * An RFC 3339 time as {epoch second, nano, resolution}; a hand parser for the common shape
   * (this runs once per log line), java.time for anything else.
   */
  public static long[] rfc3339(String ts) {
    long[] quick = utcQuick(ts);
    if (quick != null) {
      return quick;
    }
    String t = normalizeRfc3339(ts);
    int n = t.length();
    if (n >= 20 && t.charAt(4) == '-' && t.charAt(10) == 'T' && t.charAt(13) == ':') {
      int i = 19;
      long nano = 0;
      int digits = 0;
      if (t.charAt(i) == '.') {
        i++;
        while (i < n && Character.isDigit(t.charAt(i))) {
          if (digits < 9) {
            nano = nano * 10 + (t.charAt(i) - '0');
            digits++;
          }
          i++;
        }
        nano *= pow10(9 - digits);
      }
      int offset;
      if (i == n - 1 && (t.charAt(i) == 'Z' || t.charAt(i) == 'z')) {
        offset = 0;
      } else if (i == n - 6 && (t.charAt(i) == '+' || t.charAt(i) == '-') && t.charAt(i + 3) == ':') {
        offset = (t.charAt(i) == '-' ? -1 : 1) * (num(t, i + 1) * 3600 + num(t, i + 4) * 60);
      } else {
        return viaJavaTime(t);
      }
      long sec = dateTime(t.substring(0, 10), t.substring(11, 19)).toEpochSecond(ZoneOffset.UTC) - offset;
      return new long[] {sec, nano, digits == 0 ? 1_000_000_000L : pow10(9 - digits)};
    }
    return viaJavaTime(t);
  }

  /** The day of the last {@link #utcQuick} time, as its text and its epoch second (per thread). */
  private static final ThreadLocal<Object[]> LAST_DAY = ThreadLocal.withInitial(() -> new Object[] {"", 0L});

  /**
   * The commonest shape, {@code 2026-01-01T00:00:00.123456Z} (0-9 fraction digits, UTC), read
   * without building strings, the day's epoch second kept from the line before; null for any
   * other shape or a value out of range (the general path then reads it, or says why not).
   */
  private static long[] utcQuick(String t) {
    int n = t.length();
    if (n < 20 || n > 30 || t.charAt(n - 1) != 'Z' || t.charAt(4) != '-' || t.charAt(7) != '-'
        || t.charAt(10) != 'T' || t.charAt(13) != ':' || t.charAt(16) != ':') {
      return null;
    }
    int h = two(t, 11);
    int mi = two(t, 14);
    int sec = two(t, 17);
    if (h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59) {
      return null;
    }
    long nano = 0;
    int digits = 0;
    if (n > 20) {
      if (t.charAt(19) != '.') {
        return null;
      }
      for (int i = 20; i < n - 1; i++) {
        char c = t.charAt(i);
        if (c < '0' || c > '9') {
          return null;
        }
        nano = nano * 10 + (c - '0');
        digits++;
      }
      if (digits == 0) {
        return null;
      }
      nano *= pow10(9 - digits);
    }
    Object[] last = LAST_DAY.get();
    long day;
    if (t.regionMatches(0, (String) last[0], 0, 10) && ((String) last[0]).length() == 10) {
      day = (Long) last[1];
    } else {
      int y = two(t, 0);
      int y2 = two(t, 2);
      int mo = two(t, 5);
      int d = two(t, 8);
      if (y < 0 || y2 < 0 || mo < 1 || mo > 12 || d < 1 || d > 31) {
        return null;
      }
      try {
        day = java.time.LocalDate.of(y * 100 + y2, mo, d).toEpochDay() * 86_400L;
      } catch (DateTimeException e) {
        return null;
      }
      last[0] = t.substring(0, 10);
      last[1] = day;
    }
    return new long[] {day + h * 3600L + mi * 60L + sec, nano, digits == 0 ? 1_000_000_000L : pow10(9 - digits)};
  }

  /** Two ASCII digits at i as a number, or -1. */
  private static int two(String s, int i) {
    char a = s.charAt(i);
    char b = s.charAt(i + 1);
    if (a < '0' || a > '9' || b < '0' || b > '9') {
      return -1;
    }
    return (a - '0') * 10 + (b - '0');
  }

  /** Seconds since the epoch with a fraction ("1747747726.566696094", Fluent Bit's event time) as {s, ns, resolution}. */
  static long[] epochSeconds(String text) {
    int dot = text.indexOf('.');
    long s = Long.parseLong(dot < 0 ? text : text.substring(0, dot));
    if (dot < 0) {
      return new long[] {s, 0, 1_000_000_000L};
    }
    String frac = text.substring(dot + 1);
    if (frac.isEmpty() || frac.length() > 9) {
      throw new NumberFormatException("not seconds with up to 9 fractional digits: " + text);
    }
    return new long[] {s, fractionNanos(frac), pow10(9 - frac.length())};
  }

  /**
   * TAI minus UTC from each date on (IERS; 10 s from 1972, a leap second each change since, 37 s
   * since 2017-01-01 and still so), as {Unix second the offset starts, offset}.
   */
  private static final long[][] TAI_MINUS_UTC = taiMinusUtc(
      "1972-01-01", "1972-07-01", "1973-01-01", "1974-01-01", "1975-01-01", "1976-01-01", "1977-01-01",
      "1978-01-01", "1979-01-01", "1980-01-01", "1981-07-01", "1982-07-01", "1983-07-01", "1985-07-01",
      "1988-01-01", "1990-01-01", "1991-01-01", "1992-07-01", "1993-07-01", "1994-07-01", "1996-01-01",
      "1997-07-01", "1999-01-01", "2006-01-01", "2009-01-01", "2012-07-01", "2015-07-01", "2017-01-01");

  private static long[][] taiMinusUtc(String... days) {
    long[][] table = new long[days.length][];
    for (int i = 0; i < days.length; i++) {
      table[i] = new long[] {java.time.LocalDate.parse(days[i]).toEpochDay() * 86_400L, 10 + i};
    }
    return table;
  }

  /**
   * Whether this file's TAI64N labels count leap seconds (s6-log's: TAI) or not (daemontools'
   * multilog and runit's svlogd: the Unix clock + 10 s); null until a line shows which.
   */
  private Boolean taiLeaps;

  /**
   * A TAI64N label ("4000000065a1b2c3" + 8 hex digits of ns; the '@' is not part of it) as {s, ns,
   * resolution}. Its seconds are 2^62 + 10 + the Unix time where multilog or svlogd wrote it (djb's
   * tai_now, runit's tai.h), 2^62 + TAI seconds, the Unix time + 37 s since 2017, where s6-log did
   * (skalibs' tai_from_utc adds the leap seconds): the two read 27 s apart. The label does not say
   * which; the line's own time does, where it has one (vLLM's header: its second of the minute is
   * the same in every zone), and the first line that tells settles it for the file; before that
   * (or without such a line) the label is read as multilog and svlogd write it.
   */
  long[] tai64n(String label, MatchedLine.TimeReading own) {
    if (label.length() != 24) {
      throw new NumberFormatException("not a TAI64N label: " + label);
    }
    long x = Long.parseUnsignedLong(label.substring(0, 16), 16) - (1L << 62);
    long ns = Long.parseLong(label.substring(16), 16);
    if (ns >= 1_000_000_000L) {
      throw new NumberFormatException("not a TAI64N label (ns over a second): " + label);
    }
    long djb = x - 10;
    long tai = x - taiMinusUtcAt(x);
    if (taiLeaps == null && own != null && own.parts().length > 1 && djb != tai) {
      int sec = num(own.parts()[1], 6);
      // the wrapper stamps the line as it gets it: the same second as the line's own or a little later
      if (lagOf(djb, sec) <= 2) {
        taiLeaps = false;
      } else if (lagOf(tai, sec) <= 2) {
        taiLeaps = true;
      }
    }
    return new long[] {Boolean.TRUE.equals(taiLeaps) ? tai : djb, ns, 1};
  }

  private static long lagOf(long unix, int second) {
    return Math.floorMod(Math.floorMod(unix, 60) - second, 60);
  }

  /** TAI minus UTC at TAI second x since 1970 (an offset that starts at Unix second u starts at TAI u + offset). */
  private static long taiMinusUtcAt(long x) {
    for (int i = TAI_MINUS_UTC.length - 1; i >= 0; i--) {
      if (x - TAI_MINUS_UTC[i][1] >= TAI_MINUS_UTC[i][0]) {
        return TAI_MINUS_UTC[i][1];
      }
    }
    return 10;
  }

  /** journald's __REALTIME_TIMESTAMP: microseconds since the epoch. */
  static long[] epochMicros(String us) {
    long v = Long.parseLong(us.strip());
    return new long[] {Math.floorDiv(v, 1_000_000L), Math.floorMod(v, 1_000_000L) * 1000, 1000};
  }

  private static long[] viaJavaTime(String t) {
    Instant i = OffsetDateTime.parse(t, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    return new long[] {i.getEpochSecond(), i.getNano(), fractionResolution(t)};
  }

  private static int num(String s, int at) {
    char a = s.charAt(at);
    char b = s.charAt(at + 1);
    if (a < '0' || a > '9' || b < '0' || b > '9') {
      throw new NumberFormatException("not a two-digit number in " + s);
    }
    return (a - '0') * 10 + (b - '0');
  }

  private static int num4(String s) {
    return num(s, 0) * 100 + num(s, 2);
  }

  /**
   * A line's own time with a year (a wrapper's, a formatter's date) where no month-day time stands
   * beside it: the year of the month-day lines after it, unless --year gave one or a line with both
   * taught it. A file whose lines mix kserve's dated header with vLLM's own (no year) then dates
   * both alike, not the latter by the file's date.
   */
  private void yearSeen(int y, int month) {
    year = y;
    lastMonth = month;
    yearGuessed = false;
  }

  /** Whether a line's own year may still set the year: not given, and not learned. */
  private boolean yearOpen() {
    return ctx.year() == null && (year == null || yearGuessed);
  }

  /** The date of the first line of the file's head that starts with one, or null. */
  private java.time.LocalDate headDate;
  /** That line's date and time (to the minute, or the second where written), or null. */
  private LocalDateTime headDateTime;

  void headDate(LocalDateTime d) {
    headDateTime = d;
    headDate = d == null ? null : d.toLocalDate();
  }

  private static final java.util.regex.Pattern LINE_DATE = java.util.regex.Pattern.compile(
      // behind colour codes and process tags too: Ray's own "2025-09-10 23:26:51,364\tINFO worker.py"
      // under vLLM's "(EngineCore_0 pid=1159) " dates a Ray executor's log
      "(?m)^(?:(?:\\x1b\\[[0-9;]*m|\\([^()\\n]{1,100}\\)|\\[[^\\[\\]\\n]{1,100}\\])\\s*)*"
          + "\\[?((?:19|20)\\d\\d)-(\\d\\d)-(\\d\\d)[ T](\\d\\d):(\\d\\d)(?::(\\d\\d))?");

  /**
   * The date and time of the first line in {@code head} that starts with a date and a time (a
   * wrapper's or a formatter's: "2025-07-08 17:36:59,526 …", "[2025-07-08T…", "2025-07-08T17:36:59Z
   * stdout F …"; behind colour codes and process tags), or null: it dates the month-day and time-of-day lines above it better than the
   * file's modification time, which a copy of the file renews.
   */
  static LocalDateTime firstLineDate(byte[] head) {
    java.util.regex.Matcher m = LINE_DATE.matcher(new String(head, java.nio.charset.StandardCharsets.ISO_8859_1));
    while (m.find()) {
      try {
        return LocalDateTime.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
            Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)),
            m.group(6) == null ? 0 : Integer.parseInt(m.group(6)));
      } catch (DateTimeException e) {
        // not a date (13-45): the next one may be
      }
    }
    return null;
  }

  /** The year of a month-day reading: given, learned, or from the file's date; rolls over Dec→Jan. */
  private int yearFor(int month, int day) {
    if (year == null) {
      if (ctx.year() != null) {
        year = ctx.year();
      } else if (headDate != null) {
        // the year that puts the month-day nearest the dated line (12-31 before 2026-01-01: 2025)
        int best = headDate.getYear();
        long bestDays = Long.MAX_VALUE;
        for (int y = headDate.getYear() - 1; y <= headDate.getYear() + 1; y++) {
          try {
            long d = Math.abs(java.time.temporal.ChronoUnit.DAYS.between(headDate, java.time.LocalDate.of(y, month, day)));
            if (d < bestDays) {
              bestDays = d;
              best = y;
            }
          } catch (DateTimeException e) {
            // 02-29 in a year without it
          }
        }
        year = best;
        yearGuessed = true;
      } else {
        Instant ref = ctx.fileModified() != null ? ctx.fileModified() : Instant.now();
        var refDate = ref.atZone(zone());
        // the file was last written after its first line: a later day of the year means last
        // year (a day's slack for a line's clock in another zone than the one assumed here)
        boolean later = month > refDate.getMonthValue()
            || month == refDate.getMonthValue() && day > refDate.getDayOfMonth() + 1;
        year = later ? refDate.getYear() - 1 : refDate.getYear();
        yearGuessed = true;
      }
    } else if (lastMonth == 12 && month == 1) {
      year++;
    }
    lastMonth = month;
    return year;
  }

  /**
   * Seconds the wrapper's local time is ahead of the engine's month-day time, in whole quarter
   * hours, or null when the two are over 26 hours apart (not the same moment).
   */
  private Integer wrapperOffset(LocalDateTime wrapper, MatchedLine.TimeReading monthDay) throws BadTime {
    int[] md = monthDay(monthDay.parts()[0]);
    String hms = monthDay.parts()[1];
    long best = Long.MAX_VALUE;
    for (int y = wrapper.getYear() - 1; y <= wrapper.getYear() + 1; y++) {
      try {
        LocalDateTime cand = LocalDateTime.of(y, md[0], md[1], num(hms, 0), num(hms, 3), num(hms, 6));
        long diff = wrapper.toEpochSecond(ZoneOffset.UTC) - cand.toEpochSecond(ZoneOffset.UTC);
        if (Math.abs(diff) < Math.abs(best)) {
          best = diff;
        }
      } catch (DateTimeException e) {
        // Feb 29 in a year without it
      }
    }
    if (Math.abs(best) > 26 * 3600) {
      return null;
    }
    return (int) (Math.round(best / 900.0) * 900);
  }

  /** A container timestamp and vLLM's local month-day time on one line: learn year and zone. */
  private boolean learnFrom(Instant exact, MatchedLine.TimeReading monthDay) throws BadTime {
    int[] md = monthDay(monthDay.parts()[0]);
    int utcYear = exact.atOffset(ZoneOffset.UTC).getYear();
    LocalDateTime best = null;
    long bestDiff = Long.MAX_VALUE;
    for (int y = utcYear - 1; y <= utcYear + 1; y++) {
      try {
        String hms = monthDay.parts()[1];
        LocalDateTime cand = LocalDateTime.of(y, md[0], md[1], num(hms, 0), num(hms, 3), num(hms, 6));
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
      return false; // the two readings do not describe the same moment
    }
    if ((year == null || yearGuessed) && ctx.year() == null) {
      year = best.getYear();
      yearGuessed = false;
    }
    lastMonth = md[0];
    if (ctx.zone() == null && inferredZone == null) {
      long offsetS = best.toEpochSecond(ZoneOffset.UTC) - exact.getEpochSecond();
      long quarters = Math.round(offsetS / 900.0);
      inferredZone = ZoneOffset.ofTotalSeconds((int) (quarters * 900));
    }
    return true;
  }

  private ZoneId zone() {
    if (ctx.zone() != null) {
      return ctx.zone();
    }
    return inferredZone != null ? inferredZone : ZoneOffset.UTC;
  }

  private long local(LocalDateTime ldt, long nanos, long resolution) {
    ZoneId z = zone();
    boolean assumed = ctx.zone() == null && inferredZone == null;
    long sec = z instanceof ZoneOffset o ? ldt.toEpochSecond(o) : ldt.atZone(z).toEpochSecond();
    return use(sec, nanos, resolution, assumed ? "UTC" : z.getId(), assumed);
  }

  private long use(long epochSecond, long nanos, long resolution, String tz, boolean assumed) {
    if (resolution != lastResolution || !java.util.Objects.equals(tz, lastTz) || assumed != lastAssumed) {
      ClockSpec spec = new ClockSpec("wall", scope, resolution, tz, assumed);
      lastClockId = clockIds.computeIfAbsent(spec, sink::clock);
      lastResolution = resolution;
      lastTz = tz;
      lastAssumed = assumed;
    }
    clockId = lastClockId;
    resolutionNs = resolution;
    lastNs = Math.addExact(Math.multiplyExact(epochSecond, 1_000_000_000L), nanos);
    lastNsClock = clockId;
    if (orderSeen < ORDER_TIMES) {
      orderSeen++;
      if (orderPrev != RequestRecord.NONE && orderPrevClock == clockId) {
        if (lastNs > orderPrev) {
          ups++;
        } else if (lastNs < orderPrev) {
          downs++;
        }
      }
      orderPrev = lastNs;
      orderPrevClock = clockId;
    }
    return lastNs;
  }

  // ---- line order: a log viewer's export lists the newest line first ----

  /** How many times, from the file's first, are looked at for the line order. */
  static final int ORDER_TIMES = 5000;
  private int orderSeen;
  private long orderPrev = RequestRecord.NONE;
  private int orderPrevClock;
  private int ups;
  private int downs;

  /**
   * Why the file's lines are newest first, or null: over its first 5,000 times, the time went
   * down at 5 changes or more and at over four times as many changes as it went up (Kibana,
   * CloudWatch Insights, Grafana's Explore, {@code gcloud logging read} and {@code logcli} list
   * newest first by default). Read so, every request would end before it starts; a log of
   * interleaved processes with skewed clocks goes back now and then, never mostly.
   */
  public String newestFirst() {
    if (downs < 5 || downs <= 4L * ups) {
      return null;
    }
    return "its lines are newest first (the time goes down at " + downs + " of " + (ups + downs)
        + " changes in its first lines, as a log viewer's export lists them): reverse it (tac FILE >"
        + " FILE.oldest-first; for a .gz, zcat FILE | tac; a JSON download: ask for it oldest first,"
        + " gcloud logging read --order=asc, or reverse its events, jq 'reverse' for a list of entries,"
        + " jq '.events |= reverse' for CloudWatch's) and ingest that";
  }

  /** {@code 2026-05-12 08:01:39,331+0200} → {@code 2026-05-12T08:01:39.331+02:00}. */
  static String normalizeRfc3339(String s) {
    String t = s.replace(',', '.');
    if (t.length() > 10 && t.charAt(10) == ' ') {
      t = t.substring(0, 10) + 'T' + t.substring(11);
    }
    if (t.length() > 25 && t.charAt(t.length() - 6) == ' '
        && (t.charAt(t.length() - 5) == '+' || t.charAt(t.length() - 5) == '-')) {
      // a space before the offset: Fluentd's "%Y-%m-%d %H:%M:%S.%N %z" ("2019-06-18 10:12:44.393970145 +0000")
      t = t.substring(0, t.length() - 6) + t.substring(t.length() - 5);
    }
    int n = t.length();
    if (n > 5 && (t.charAt(n - 5) == '+' || t.charAt(n - 5) == '-') && Character.isDigit(t.charAt(n - 3))) {
      t = t.substring(0, n - 2) + ":" + t.substring(n - 2);
    }
    return t;
  }

  private static int[] monthDay(String md) throws BadTime {
    if (md.length() == 5 && md.charAt(2) == '-') {
      int mo = two(md, 0);
      int d = two(md, 3);
      if (mo >= 0 && d >= 0) {
        return new int[] {mo, d};
      }
    }
    if (md.length() == 4 && two(md, 0) >= 0 && two(md, 2) >= 0) { // glog's "0223"
      return new int[] {two(md, 0), two(md, 2)};
    }
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
