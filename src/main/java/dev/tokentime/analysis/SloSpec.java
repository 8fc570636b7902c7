package dev.tokentime.analysis;

import dev.tokentime.BadInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Service-level objectives as written on the command line:
 * {@code "ttft_p95<=1s,itl_p95<=80ms,throughput>=500tok/s"}. A latency term names a metric
 * (ttft, queue, prefill, pre_queue, decode, itl, tpot, e2e), a statistic (mean, max, p1 .. p99)
 * and a bound in ms, s or us; a throughput term is {@code throughput>=N tok/s} (output tokens per
 * second) or {@code throughput>=N req/s}.
 */
public record SloSpec(List<Term> terms) {

  /**
   * One objective.
   *
   * @param metric the metric_stats metric (ttft_ms, itl_ms, ...) or output_tokens_per_s / requests_per_s
   * @param stat mean, max, p1 .. p99, or "value" for throughputs
   * @param op <=, <, >= or >
   * @param bound the bound, in ms for latencies and per second for throughputs
   * @param text the term as written
   */
  public record Term(String metric, String stat, String op, double bound, String text) {

    public boolean latency() {
      return metric.endsWith("_ms");
    }

    public boolean holds(double v) {
      return switch (op) {
        case "<=" -> v <= bound;
        case "<" -> v < bound;
        case ">=" -> v >= bound;
        default -> v > bound;
      };
    }

    /** The percentile a latency term is about (95 for p95), or -1 for mean and max. */
    public int percentile() {
      return stat.startsWith("p") ? Integer.parseInt(stat.substring(1)) : -1;
    }

    /** "ttft p95 <= 1000 ms", for reports. */
    public String describe() {
      return name() + " " + op + " " + num(bound) + unit();
    }

    /** "ttft p95", or "throughput". */
    public String name() {
      return latency() ? metric.replace("_ms", "") + " " + stat : "throughput";
    }

    public String unit() {
      return latency() ? " ms" : metric.equals("requests_per_s") ? " requests/s" : " tokens/s";
    }
  }

  static final Set<String> METRICS = Set.of("ttft", "queue", "prefill", "pre_queue", "decode", "itl", "tpot", "e2e");
  static final Set<String> STATS = Set.of("mean", "max", "min", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99");
  private static final Pattern LATENCY = Pattern.compile(
      "([a-z0-9_]+?)_(mean|max|min|p\\d+)\\s*(<=|>=|<|>)\\s*(\\d+(?:\\.\\d+)?)\\s*(ms|s|us)");
  private static final Pattern THROUGHPUT = Pattern.compile(
      "throughput\\s*(<=|>=|<|>)\\s*(\\d+(?:\\.\\d+)?)\\s*(tok/s|tokens/s|req/s|requests/s)");

  public static SloSpec parse(String spec) {
    List<Term> terms = new ArrayList<>();
    for (String raw : spec.split(",")) {
      String t = raw.strip().toLowerCase(Locale.ROOT);
      if (t.isEmpty()) {
        continue;
      }
      Matcher m = LATENCY.matcher(t);
      if (m.matches()) {
        if (!METRICS.contains(m.group(1)) || !STATS.contains(m.group(2))) {
          throw bad(raw);
        }
        if (m.group(3).startsWith(">")) {
          // an objective is an upper bound on a latency; attainment (the share of requests within
          // the bound) has no meaning for a lower one, and ">=" is most often a slip for "<="
          throw new BadInputException("the SLO term \"" + raw.strip() + "\" puts a lower bound on a latency:"
              + " a latency objective is an upper bound (" + m.group(1) + "_" + m.group(2) + "<="
              + m.group(4) + m.group(5) + "); throughput terms take >=");
        }
        double v = Double.parseDouble(m.group(4));
        double ms = switch (m.group(5)) {
          case "s" -> v * 1000;
          case "us" -> v / 1000;
          default -> v;
        };
        terms.add(new Term(m.group(1) + "_ms", m.group(2), m.group(3), ms, raw.strip()));
        continue;
      }
      m = THROUGHPUT.matcher(t);
      if (m.matches()) {
        boolean requests = m.group(3).startsWith("req");
        terms.add(new Term(requests ? "requests_per_s" : "output_tokens_per_s", "value", m.group(1),
            Double.parseDouble(m.group(2)), raw.strip()));
        continue;
      }
      throw bad(raw);
    }
    if (terms.isEmpty()) {
      throw new BadInputException("--slo names no objective");
    }
    return new SloSpec(List.copyOf(terms));
  }

  private static BadInputException bad(String term) {
    return new BadInputException("cannot read the SLO term \"" + term.strip() + "\": write e.g. ttft_p95<=1s, "
        + "itl_p95<=80ms, e2e_p99<=20s, throughput>=500tok/s (metrics: ttft, queue, prefill, pre_queue, "
        + "decode, itl, tpot, e2e; statistics: mean, max, p1 .. p99)");
  }

  static String num(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, Math.abs(v) >= 10 ? "%.1f" : "%.3f", v).replaceAll("0+$", "");
  }

  /** The per-request targets this SLO implies, for the slo_attainment view (ms or NULL). */
  public Double perRequestTarget(String metric) {
    for (Term t : terms) {
      if (t.latency() && (t.op().startsWith("<")) && t.metric().equals(metric)) {
        return t.bound();
      }
    }
    return null;
  }
}
