package dev.tokentime.formats.trtllm;

import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The wall-clock readings of TensorRT-LLM's stats objects: host-local time without a zone,
 * {@code MM-DD-YYYY HH:MM:SS[.ffffff]} (IterationStats {@code timestamp}, the legacy
 * {@code Timestamp}; {@code YYYY-MM-DD HH:MM:SS} is read too). The zone is {@code --tz} when
 * given, else UTC, marked as assumed on the clock; the clocks are those of the format's spec
 * (its {@code scope}: one per run), so objects and the spec's lines share them. One parse holds
 * one instance (no shared state).
 */
final class LocalTimes {
  private static final Pattern MDY = Pattern.compile(
      "(\\d{2})[-/](\\d{2})[-/](\\d{4})[ -](\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?");
  private static final Pattern YMD = Pattern.compile(
      "(\\d{4})-(\\d{2})-(\\d{2})[ T](\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?");

  private final ParseContext ctx;
  private final RecordSink sink;
  private final ZoneId zone;
  private final String scope;
  private int secondsClock;
  private int microsClock;

  LocalTimes(ParseContext ctx, RecordSink sink, String scope) {
    this.ctx = ctx;
    this.sink = sink;
    this.scope = scope;
    this.zone = ctx.zone() != null ? ctx.zone() : ZoneId.of("UTC");
  }

  /** A reading: ns since the Unix epoch, and the clock (by its resolution) it belongs to. */
  record Reading(long ns, int clockId) {}

  /** Parses a local time in any of the shapes above; null when it is none of them or invalid. */
  Reading parse(String text) {
    if (text == null) {
      return null;
    }
    String s = text.strip();
    Matcher m = MDY.matcher(s);
    int year;
    int month;
    int day;
    if (m.matches()) {
      month = Integer.parseInt(m.group(1));
      day = Integer.parseInt(m.group(2));
      year = Integer.parseInt(m.group(3));
    } else {
      m = YMD.matcher(s);
      if (!m.matches()) {
        return null;
      }
      year = Integer.parseInt(m.group(1));
      month = Integer.parseInt(m.group(2));
      day = Integer.parseInt(m.group(3));
    }
    String frac = m.group(7);
    int nanos = 0;
    if (frac != null) {
      nanos = Integer.parseInt((frac + "000000000").substring(0, 9));
    }
    try {
      LocalDateTime t = LocalDateTime.of(year, month, day, Integer.parseInt(m.group(4)),
          Integer.parseInt(m.group(5)), Integer.parseInt(m.group(6)), nanos);
      var instant = t.atZone(zone).toInstant();
      long ns = Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L),
          instant.getNano());
      return new Reading(ns, frac == null ? secondsClock() : microsClock());
    } catch (DateTimeException | ArithmeticException e) {
      return null;
    }
  }

  private int secondsClock() {
    if (secondsClock == 0) {
      secondsClock = sink.clock(spec(1_000_000_000L));
    }
    return secondsClock;
  }

  private int microsClock() {
    if (microsClock == 0) {
      microsClock = sink.clock(spec(1_000L));
    }
    return microsClock;
  }

  private ClockSpec spec(long resolutionNs) {
    return new ClockSpec("wall", scope, resolutionNs, zone.getId(), ctx.zone() == null);
  }
}
