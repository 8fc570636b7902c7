package dev.tokentime.ingest;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Range checks and checked conversions for the numbers parsers read, shared by every format so
 * that nothing out of range is stored: a value that wrapped INT64 (an AIPerf TTFT of 1e19 turned
 * into a negative first-token time) made every later query of the database fail with "Overflow
 * in subtraction of INT64". A value out of range makes the line a reject naming the field.
 *
 * <p>Timestamps are ns on a wall clock within {@link #MIN_EPOCH_NS}..{@link #MAX_EPOCH_NS}
 * (1990-2100), or on a monotonic or relative clock within 0..{@link #MAX_MONOTONIC_NS} (ten years
 * since boot or since the run's start). Durations are in 0..{@link #MAX_DURATION_MS} (30 days).
 */
public final class Checked {
  private Checked() {}

  /** 1990-01-01T00:00:00Z in ns. */
  public static final long MIN_EPOCH_NS = 631_152_000_000_000_000L;
  /** 2100-01-01T00:00:00Z in ns. */
  public static final long MAX_EPOCH_NS = 4_102_444_800_000_000_000L;
  /** Ten years in ns: the longest a monotonic or relative clock is taken to run. */
  public static final long MAX_MONOTONIC_NS = 10L * 365 * 86_400 * 1_000_000_000L;
  /** Thirty days in ms: no request phase lasts longer. */
  public static final double MAX_DURATION_MS = 30.0 * 86_400 * 1_000;

  private static final BigDecimal NS_PER_S = BigDecimal.valueOf(1_000_000_000L);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  /** A number outside its field's range; the message names the field. */
  public static final class OutOfRange extends IllegalArgumentException {
    public OutOfRange(String message) {
      super(message, null);
    }
  }

  /** Null when {@code ns} is a plausible timestamp, else why not (naming {@code field}). */
  public static String timestampProblem(String field, long ns) {
    if ((ns >= 0 && ns <= MAX_MONOTONIC_NS) || (ns >= MIN_EPOCH_NS && ns <= MAX_EPOCH_NS)) {
      return null;
    }
    return field + " out of range: " + ns + " ns is neither a time between 1990 and 2100 nor"
        + " within ten years of a clock's start";
  }

  /** Null when {@code ms} is a plausible duration (or null), else why not (naming {@code field}). */
  public static String durationProblem(String field, Double ms) {
    if (ms == null || (ms >= 0 && ms <= MAX_DURATION_MS)) {
      return null;
    }
    if (ms.isNaN() || ms.isInfinite()) {
      return field + " is not a finite number";
    }
    return field + " out of range: " + ms + " ms (a duration is 0 to 30 days)";
  }

  /** A timestamp, checked: the value, or OutOfRange naming the field. */
  public static long timestamp(String field, long ns) {
    String p = timestampProblem(field, ns);
    if (p != null) {
      throw new OutOfRange(p);
    }
    return ns;
  }

  /** Seconds (exact decimal) as ns, rounded half-even; OutOfRange when it does not fit INT64. */
  public static long secondsToNs(String field, BigDecimal seconds) {
    return exactNs(field, seconds.multiply(NS_PER_S).setScale(0, RoundingMode.HALF_EVEN));
  }

  /** A whole number of ns; OutOfRange when it does not fit INT64. */
  public static long exactNs(String field, BigDecimal ns) {
    if (ns.abs().compareTo(LONG_MAX) > 0) {
      throw new OutOfRange(field + " out of range: " + ns.toPlainString() + " ns does not fit a 64-bit count");
    }
    return ns.setScale(0, RoundingMode.HALF_EVEN).longValueExact();
  }

  /** Seconds (a double) as ns; OutOfRange when not finite or beyond INT64. */
  public static long secondsToNs(String field, double seconds) {
    return nsOf(field, seconds * 1e9, seconds + " s");
  }

  /** Milliseconds as ns; OutOfRange when not finite or beyond INT64. */
  public static long msToNs(String field, double ms) {
    return nsOf(field, ms * 1e6, ms + " ms");
  }

  private static long nsOf(String field, double ns, String shown) {
    if (!Double.isFinite(ns) || Math.abs(ns) >= 9.2e18) {
      throw new OutOfRange(field + " out of range: " + shown + " does not fit a 64-bit count of ns");
    }
    return Math.round(ns);
  }

  /** a + b, or OutOfRange naming the field when the sum leaves INT64. */
  public static long addNs(String field, long a, long b) {
    long r = a + b;
    if (((a ^ r) & (b ^ r)) < 0) {
      throw new OutOfRange(field + " out of range: " + a + " + " + b + " ns overflows a 64-bit count");
    }
    return r;
  }

  /**
   * Why a request's figures cannot be stored, or null: each duration and each timestamp checked
   * (durations first: a huge TTFT is the cause when a first-token time built from it wrapped).
   */
  public static String requestProblem(RequestRecord r) {
    String[] names = {"pre_queue_ms", "queue_ms", "prefill_ms", "ttft_ms", "decode_ms", "e2e_ms", "tpot_ms"};
    Double[] ms = {r.preQueueMs, r.queueMs, r.prefillMs, r.ttftMs, r.decodeMs, r.e2eMs, r.tpotMs};
    for (int i = 0; i < ms.length; i++) {
      String p = durationProblem(names[i], ms[i]);
      if (p != null) {
        return p;
      }
    }
    String[] ts = {"arrival_ns", "queued_ns", "scheduled_ns", "first_token_ns", "last_token_ns", "finished_ns"};
    long[] v = {r.arrivalNs, r.queuedNs, r.scheduledNs, r.firstTokenNs, r.lastTokenNs, r.finishedNs};
    for (int i = 0; i < v.length; i++) {
      if (v[i] != RequestRecord.NONE) {
        String p = timestampProblem(ts[i], v[i]);
        if (p != null) {
          return p;
        }
      }
    }
    return null;
  }
}
