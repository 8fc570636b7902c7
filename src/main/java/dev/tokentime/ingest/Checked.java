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

  /**
   * A number outside its field's range; the message names the field. A NumberFormatException so
   * that every parser's handling of a bad number on a line (a reject naming it) takes it too.
   */
  public static final class OutOfRange extends NumberFormatException {
    public OutOfRange(String message) {
      super(message);
    }
  }

  /** The highest level a run may have: ten million requests in flight, or per second. */
  public static final double MAX_LEVEL = 10_000_000;

  /**
   * Null when {@code v} is a plausible level of kind {@code concurrency} (a whole number of
   * requests, 1 or more) or {@code request_rate} (a positive rate), else why not. One rule for a
   * record's level and the command line's {@code --level}: a concurrency of 2.5 or 1e18, or a rate
   * of 1e308 (printed as 9223372036854775807), was a run's level.
   */
  public static String levelProblem(String kind, double v) {
    boolean concurrency = kind.equals("concurrency");
    if (!(v > 0) || Double.isInfinite(v) || concurrency && v != Math.rint(v)) {
      return concurrency ? "concurrency must be a whole number of requests, 1 or more"
          : "a request rate must be a positive number";
    }
    if (v > MAX_LEVEL) {
      return (concurrency ? "concurrency" : "a request rate") + " of at most 10,000,000";
    }
    return null;
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

  /** Whole milliseconds as ns, exactly; OutOfRange naming the field when beyond INT64. */
  public static long msToNs(String field, long ms) {
    if (ms > Long.MAX_VALUE / 1_000_000L || ms < Long.MIN_VALUE / 1_000_000L) {
      throw new OutOfRange(field + " out of range: " + ms + " ms does not fit a 64-bit count of ns");
    }
    return ms * 1_000_000L;
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

  /** Null when {@code v} is absent or a count (non-negative), else why not (naming {@code field}). */
  public static String countProblem(String field, Number v) {
    if (v == null || v.longValue() >= 0) {
      return null;
    }
    return field + " out of range: " + v + " (a count is not negative)";
  }

  /**
   * Null when {@code v} is absent or a finite number at least 0 (a rate, a share, a gauge), else
   * why not (naming {@code field}). NaN and infinities are refused: one NaN makes every average
   * over the column NaN.
   */
  public static String nonNegativeProblem(String field, Double v) {
    if (v == null || (v >= 0 && v < Double.POSITIVE_INFINITY)) {
      return null;
    }
    return Double.isNaN(v) || Double.isInfinite(v) ? field + " is not a finite number: " + v
        : field + " out of range: " + v + " (not negative)";
  }

  /**
   * Null when {@code v} is absent or a share (0 to 1: a KV cache usage, a hit rate), else why not
   * (naming {@code field}): "GPU KV cache usage: 250.0%" is no usage an engine can have.
   */
  public static String shareProblem(String field, Double v) {
    String p = nonNegativeProblem(field, v);
    return p != null || v == null || v <= 1 ? p : field + " out of range: " + v + " (a share, 0 to 1)";
  }

  /**
   * Null when {@code v} is a plausible figure of a load-test tool's summary in {@code unit}, else
   * why not (naming {@code field}). For the vLLM and SGLang bench summaries, whose every figure is
   * a latency, a duration, a count, a throughput or a percentage: none is negative, a time is at
   * most {@link #MAX_DURATION_MS} and an acceptance rate at most 100 %. A figure of no known unit is only
   * required to be finite. Other tools' summaries hold real negative figures (GuideLLM's
   * schedule_delay, AIPerf's osl_mismatch_diff_pct) and are checked for finiteness alone. A
   * figure that counts requests or tokens, by its name, is a whole number within {@link
   * #MAX_COUNT} in every tool's summary ({@link #countFigureProblem}).
   */
  public static String figureProblem(String field, double v, String unit) {
    if (!Double.isFinite(v)) {
      return field + ": " + v + " is no finite number";
    }
    if (COUNT_FIGURE.matcher(field.toLowerCase(java.util.Locale.ROOT).replace('_', ' ')).matches()) {
      return countFigureProblem(field, v); // printed with a unit or without one ("Request count: 7")
    }
    if (unit == null || unit.isEmpty()) {
      return null;
    }
    if (v < 0) {
      return field + " out of range: " + v + " (a latency, count or throughput is not negative)";
    }
    double ms = switch (unit) {
      case "ms" -> v;
      case "s", "sec" -> v * 1000;
      default -> 0;
    };
    if (ms > MAX_DURATION_MS) {
      return field + " out of range: " + v + " " + unit + " (a duration is 0 to 30 days)";
    }
    // a share of drafted tokens accepted is at most 100 %; a utilisation in % may pass 100 (a
    // process's CPU time over several cores, in a fork's block)
    String name = field.toLowerCase(java.util.Locale.ROOT);
    if (unit.equals("%") && v > 100 && (name.contains("accept") || name.contains("accuracy"))) {
      return field + " out of range: " + v + " % (a percentage, 0 to 100)";
    }
    return null;
  }

  /**
   * Null when {@code v} is a plausible statistic {@code stat} of {@code metric} in a summary whose
   * figures may be negative (genai-perf's and AIPerf's: {@code osl_mismatch_diff_pct}), else why
   * not: it is finite, a count (a request count or a total by the metric's name, or the statistic
   * {@code count}) is a whole
   * number within {@link #MAX_COUNT}, and a time (ms, s, us, ns) lies within 30 days either way
   * (not an epoch timestamp, nor a sum over every request).
   */
  public static String signedFigureProblem(String metric, String stat, double v, String unit) {
    return signedFigureProblem(metric, stat, v, unit, true);
  }

  /**
   * As {@link #signedFigureProblem(String, String, double, String)}; {@code wholeCounts} false for
   * statistics across trials (AIPerf's sweep aggregate: a request count's mean, std and confidence
   * bounds), where a count is only checked for its range.
   */
  public static String signedFigureProblem(String metric, String stat, double v, String unit, boolean wholeCounts) {
    String field = stat == null || stat.equalsIgnoreCase("avg") || stat.equalsIgnoreCase("value")
        ? metric : metric + " " + stat;
    if (!Double.isFinite(v)) {
      return field + ": " + v + " is no finite number";
    }
    // a run's counts (request_count, error_request_count, totals of tokens) and how many values a
    // statistic is of; not a per-request distribution named "… count" (output_token_count's mean
    // is 262.99)
    String name = metric.toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    if ("count".equalsIgnoreCase(stat) || name.endsWith("request count")
        || (!name.endsWith("count") && COUNT_FIGURE.matcher(name).matches())) {
      if (!wholeCounts) {
        // a confidence bound of a count may fall below zero
        return Math.abs(v) <= MAX_COUNT ? null : field + " out of range: " + BigDecimal.valueOf(v).toPlainString()
            + " (a statistic of counts of requests or tokens, within 10^12)";
      }
      return countFigureProblem(field, v);
    }
    if (name.contains("timestamp") || "sum".equalsIgnoreCase(stat)) {
      return null; // an epoch time in ns (min_request_timestamp), a sum over every request
    }
    double ms = switch (unit == null ? "" : unit) {
      case "ms" -> v;
      case "s", "sec" -> v * 1000;
      case "us" -> v / 1e3;
      case "ns" -> v / 1e6;
      default -> 0;
    };
    return Math.abs(ms) > MAX_DURATION_MS
        ? field + " out of range: " + v + " " + unit + " (a duration is within 30 days)" : null;
  }

  /** The most requests or tokens one run's summary counts: more is a corrupt or hand-edited figure. */
  public static final double MAX_COUNT = 1e12;

  /**
   * The summary figures that count requests or tokens, by their printed label or their metric
   * name (underscores as spaces, lower case): "Successful requests", "Total input tokens",
   * perf_analyzer's "Request count", LLMPerf's "Number Of Completed Requests". Means, rates and
   * SGLang's "Concurrency" (Little's law, a mean) are no counts.
   */
  private static final java.util.regex.Pattern COUNT_FIGURE = java.util.regex.Pattern.compile(
      "(?:.* )?count|(?:total|successful|succeed|success|failed|completed|stream|non-stream|expected number of"
          + "|number of errored|number of completed) requests|number of concurrent workers"
          + "|total (?:num )?(?:input|generated|output|prompt)(?: text| vision)? tokens(?: \\(retokenized\\))?"
          + "|total num \\w+ tokens|drafts|(?:draft|accepted) tokens|peak concurrent requests"
          + "|max(?:imum)? reque?e?st concurrency");

  /**
   * Null when {@code v} is a count of a run's summary (a whole number, 0 to {@link #MAX_COUNT}),
   * else why not (naming {@code field}): "Request count: 1e26" or "Successful requests: 12.5" is
   * no count a run had.
   */
  public static String countFigureProblem(String field, double v) {
    if (!Double.isFinite(v)) {
      return field + ": " + v + " is no finite number";
    }
    if (v < 0 || v > MAX_COUNT) {
      return field + " out of range: " + BigDecimal.valueOf(v).toPlainString()
          + " (a count of requests or tokens, 0 to 10^12)";
    }
    return v == Math.rint(v) ? null : field + ": " + v + " is no whole number (a count of requests or tokens)";
  }

  /** Null when {@code v} is absent or finite, else why not (naming {@code field}). */
  public static String finiteProblem(String field, Double v) {
    return v == null || Double.isFinite(v) ? null : field + " is not a finite number: " + v;
  }

  private static String timestampOrAbsent(String field, long ns) {
    return ns == RequestRecord.NONE ? null : timestampProblem(field, ns);
  }

  private static String extrasProblem(String table, java.util.Map<String, Double> extras) {
    for (java.util.Map.Entry<String, Double> e : extras.entrySet()) {
      String p = finiteProblem(table + " " + e.getKey(), e.getValue());
      if (p != null) {
        return p;
      }
    }
    return null;
  }

  private static String first(String... problems) {
    for (String p : problems) {
      if (p != null) {
        return p;
      }
    }
    return null;
  }

  /** Why an engine iteration (a steps row) cannot be stored, or null. */
  public static String stepProblem(StepRecord s) {
    return first(timestampOrAbsent("step ts_ns", s.tsNs), durationProblem("step duration_ms", s.durationMs),
        countProblem("step iter", s.iter), countProblem("step running", s.running),
        countProblem("step waiting", s.waiting), countProblem("step ctx_requests", s.ctxRequests),
        countProblem("step ctx_tokens", s.ctxTokens), countProblem("step gen_requests", s.genRequests),
        countProblem("step gen_tokens", s.genTokens), countProblem("step paused", s.paused),
        shareProblem("step kv_usage", s.kvUsage), extrasProblem("step", s.extras));
  }

  /** Why a stats snapshot (an engine_stats row) cannot be stored, or null. */
  public static String engineStatsProblem(EngineStatsRecord s) {
    return first(timestampOrAbsent("engine_stats ts_ns", s.tsNs),
        durationProblem("engine_stats interval_s (in ms)", s.intervalS == null ? null : s.intervalS * 1000),
        nonNegativeProblem("engine_stats prompt_tokens_per_s", s.promptTokensPerS),
        nonNegativeProblem("engine_stats gen_tokens_per_s", s.genTokensPerS),
        countProblem("engine_stats running", s.running), countProblem("engine_stats waiting", s.waiting),
        countProblem("engine_stats swapped", s.swapped), countProblem("engine_stats preemptions", s.preemptions),
        shareProblem("engine_stats kv_usage", s.kvUsage),
        shareProblem("engine_stats prefix_hit_rate", s.prefixHitRate), extrasProblem("engine_stats", s.extras));
  }

  /** Why a token chunk cannot be stored, or null ({@code nTokens} -1 is "unknown"). */
  public static String tokenProblem(int seq, long tsNs, int nTokens) {
    if (seq >= 0 && nTokens >= -1 && ((tsNs >= 0 && tsNs <= MAX_MONOTONIC_NS)
        || (tsNs >= MIN_EPOCH_NS && tsNs <= MAX_EPOCH_NS))) {
      return null; // every token of a file passes here: no boxing, no message built
    }
    return first(timestampProblem("token ts_ns", tsNs), countProblem("token seq", seq),
        nTokens < -1 ? "token n_tokens out of range: " + nTokens + " (a count is not negative)" : null);
  }

  /** Why one of the first {@code n} token times cannot be stored, or null: checked before a record's request is. */
  public static String tokensProblem(long[] tsNs, int n) {
    for (int i = 0; i < n; i++) {
      String p = timestampProblem("token ts_ns", tsNs[i]);
      if (p != null) {
        return p + " (chunk " + i + ")";
      }
    }
    return null;
  }
}
