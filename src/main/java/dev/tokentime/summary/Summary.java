package dev.tokentime.summary;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;

/**
 * What `tokentime summary` reports, and the stable shape of `summary --format json`
 * (docs/summary-json.md). Field names are written in snake_case.
 *
 * @param format always "tokentime-summary"
 * @param version shape version; bumped only when a field changes meaning or is removed
 * @param engines the rows of the engine_summary view: per run, the engine's running/waiting/KV
 *     timeline from periodic stats, condensed
 * @param basis the rows of the figure_basis view: per run and figure, the sources and clock
 *     resolution it rests on
 * @param toolRequestCounts the rows of the tool_request_counts view: the requests a load-test
 *     tool counted for a run, in its own words
 * @param toolFigures the rows of the peer_reported view for the runs whose files hold no request
 *     rows: the headline figures the tool reported itself, where tokentime has none of its own
 */
@JsonPropertyOrder({"format", "version", "definitions", "sources", "rejected_lines", "slo", "runs", "levels",
    "engines", "basis", "tool_request_counts", "tool_figures"})
public record Summary(String format, int version, String definitions, long sources,
    long rejectedLines, SloFigures slo, List<RunSummary> runs, List<Map<String, Object>> levels,
    List<Map<String, Object>> engines, List<Map<String, Object>> basis,
    List<Map<String, Object>> toolRequestCounts, List<Map<String, Object>> toolFigures) {

  /**
   * With summary --slo: the objectives, and per sweep DistServe's goodput (the highest level at
   * which 90 % of requests meet the per-request targets); null without --slo.
   */
  public record SloFigures(String terms, List<Map<String, Object>> distserveGoodput) {}

  /** queue_prefill_ms is TTFT - pre-queue (metric_stats): queue and prefill together, split or not. */
  public static final List<String> METRICS = List.of("ttft_ms", "pre_queue_ms", "queue_ms",
      "prefill_ms", "queue_prefill_ms", "decode_ms", "itl_ms", "tpot_ms", "e2e_ms");

  /** One run (a level, a repeat, a label). */
  @JsonPropertyOrder({"run", "level_kind", "level", "repeat", "requests", "window", "throughput",
      "tokens", "goodput", "metrics"})
  public record RunSummary(String run, String levelKind, Double level, Integer repeat,
      Requests requests, Window window, Throughput throughput, Tokens tokens, Goodput goodput,
      Map<String, Stats> metrics) {}

  /**
   * Request goodput of the run (requests meeting every per-request target, per second of the
   * window) and attainment (their share); null without summary --slo.
   */
  public record Goodput(Double attainment, Double requestsPerS) {}

  /** Measured requests (ok + failed) and those left out (warm-up, or outside the window). */
  /** Measured requests; {@code unfinished}: of the ok, those whose end no input showed. */
  public record Requests(long measured, long ok, long failed, long excluded, long unfinished) {}

  /** The measured window: first arrival to last finish of the measured requests. */
  public record Window(Long startNs, Long endNs, Double durationS) {}

  public record Throughput(Double outputTokensPerS, Double requestsPerS) {}

  public record Tokens(Long input, Long output, Double meanInput, Double meanOutput) {}

  /** Distribution of one metric; values in unit; percentiles by linear interpolation. */
  @JsonPropertyOrder({"unit", "count", "mean", "std", "min", "max", "p1", "p5", "p10", "p25", "p50",
      "p75", "p90", "p95", "p99"})
  public record Stats(String unit, long count, Double mean, Double std, Double min, Double max,
      Double p1, Double p5, Double p10, Double p25, Double p50, Double p75, Double p90, Double p95,
      Double p99) {

    static Stats empty(String unit) {
      return new Stats(unit, 0, null, null, null, null, null, null, null, null, null, null, null,
          null, null);
    }
  }
}
