package dev.tokentime.formats.sglang;

import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.ForwardingSink;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.StepRecord;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What SGLang's batch lines mean beyond what the spec maps (docs/formats.md, "sglang-log"): a
 * sink in front of the real one that sees each step row the spec engine stores, and
 *
 * <ul>
 *   <li>splits the prefix's parallel ranks ({@code DP1 TP4 EP4}) into {@code instance} (every rank
 *       but TP and EP: the scheduler the line speaks for) and {@code rank} (the TP rank);
 *   <li>marks each row with the log's {@code decode_log_interval} (decode lines are a sample, one
 *       every N decode steps; read from the {@code server_args} line, else SGLang's default 40,
 *       flagged {@code decode_log_interval_assumed});
 *   <li>range-checks the numbers (a negative count, a usage outside 0..2, a negative or infinite
 *       throughput rejects the line: the exception reaches the spec engine before anything is
 *       stored);
 *   <li>writes the same snapshot as an {@code engine_stats} row (running, waiting, KV usage,
 *       the line's throughput), so the engine timeline and summary read SGLang like vLLM.
 * </ul>
 */
final class SglangSteps extends ForwardingSink {
  /** SGLang's default --decode-log-interval. */
  static final int DEFAULT_DECODE_LOG_INTERVAL = 40;
  private static final Pattern RANK = Pattern.compile("\\b([A-Z][A-Z_]*?)(\\d+)\\b");

  private final EngineStatsRecord stats = new EngineStatsRecord();
  /** The log's decode_log_interval, once a server_args line named it. */
  Integer decodeLogInterval;

  SglangSteps(RecordSink sink) {
    super(sink);
  }

  @Override
  public void step(StepRecord s) {
    check(s);
    boolean decode = s.ctxRequests == null && s.genRequests != null;
    if (decode && s.running == null) {
      s.running = s.genRequests; // a decode line's #running-req is the batch that ran
    }
    String[] split = splitRanks(s.instance);
    s.instance = split[0];
    if (split[1] != null) {
      s.rank = Integer.valueOf(split[1]);
    }
    s.extras.put("decode_log_interval",
        (double) (decodeLogInterval != null ? decodeLogInterval : DEFAULT_DECODE_LOG_INTERVAL));
    if (decodeLogInterval == null) {
      s.extras.put("decode_log_interval_assumed", 1.0);
    }
    Double input = s.extras.get("input_tokens_per_s");
    Double gen = s.extras.get("gen_tokens_per_s");
    out.step(s);

    stats.reset();
    stats.lineNo = s.lineNo;
    stats.instance = s.instance;
    stats.tsNs = s.tsNs;
    stats.clockId = s.clockId;
    stats.running = s.running;
    stats.waiting = s.waiting;
    stats.kvUsage = s.kvUsage;
    stats.promptTokensPerS = input;
    stats.genTokensPerS = gen;
    for (Map.Entry<String, Double> e : s.extras.entrySet()) {
      if (!e.getKey().equals("input_tokens_per_s") && !e.getKey().equals("gen_tokens_per_s")) {
        stats.extras.put(e.getKey(), e.getValue());
      }
    }
    stats.extras.put(decode ? "decode_batch" : "prefill_batch", 1.0);
    out.engineStats(stats);
  }

  private static void check(StepRecord s) {
    nonNegative("#new-seq", s.ctxRequests);
    nonNegative("#new-token", s.ctxTokens);
    nonNegative("#running-req", s.running);
    nonNegative("#running-req", s.genRequests);
    nonNegative("#queue-req", s.waiting);
    usage("token usage", s.kvUsage);
    for (Map.Entry<String, Double> e : s.extras.entrySet()) {
      double v = e.getValue();
      if (Double.isNaN(v) || Double.isInfinite(v) || v < 0) {
        throw new NumberFormatException("field " + e.getKey() + ": " + v + " is not a non-negative number");
      }
      if (e.getKey().endsWith("usage") || e.getKey().endsWith("_rate")) {
        usage(e.getKey(), v);
      }
    }
  }

  private static void nonNegative(String field, Integer v) {
    if (v != null && v < 0) {
      throw new NumberFormatException("field " + field + ": " + v + " is negative");
    }
  }

  private static void usage(String field, Double v) {
    // a share of the KV pool: 0..1, a little over 1 while SGLang retracts requests
    if (v != null && (v < 0 || v > 2 || Double.isNaN(v))) {
      throw new NumberFormatException("field " + field + ": " + v + " is not a share (0..1)");
    }
  }

  /**
   * {@code "DP1 TP4 EP4"} → {"DP1", "4"}: instance (the ranks that name a scheduler; a compose
   * service before them is kept) and the TP rank; EP mirrors TP in SGLang's prefix.
   */
  static String[] splitRanks(String origin) {
    if (origin == null || origin.isBlank()) {
      return new String[] {null, null};
    }
    String service = null;
    String ranks = origin;
    int slash = origin.lastIndexOf(" / ");
    if (slash >= 0) {
      service = origin.substring(0, slash);
      ranks = origin.substring(slash + 3);
    }
    StringBuilder inst = new StringBuilder();
    String tp = null;
    Matcher m = RANK.matcher(ranks);
    boolean any = false;
    while (m.find()) {
      any = true;
      String name = m.group(1);
      if (name.equals("TP")) {
        tp = m.group(2);
      } else if (!name.equals("EP")) {
        inst.append(inst.length() > 0 ? " " : "").append(m.group());
      }
    }
    if (!any) {
      return new String[] {origin, null};
    }
    String instance = inst.length() == 0 ? service : service == null ? inst.toString() : service + " / " + inst;
    return new String[] {instance, tp};
  }

  @Override
  public void engineEvent(long lineNo, String instance, long tsNs, int clockId, String kind, String detail) {
    // engine_events has no rank column: the scheduler that crashed keeps its TP rank in instance
    String[] split = splitRanks(instance);
    String tp = split[1] == null ? null : "TP" + split[1];
    String who = split[0] == null ? tp : tp == null ? split[0] : split[0] + " " + tp;
    out.engineEvent(lineNo, who, tsNs, clockId, kind, detail);
  }
}
