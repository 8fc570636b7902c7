package dev.tokentime.analysis;

import java.util.List;

/**
 * Two runs (or two levels) side by side: each figure for A and B, the change, and whether the
 * change is beyond run-to-run noise — for latency statistics a 95 % bootstrap interval of B − A
 * over requests (chunk gaps for ITL) that excludes zero; for throughputs, repeats whose ranges do
 * not overlap (one run each: no noise estimate).
 */
public record CompareReport(String a, String b, List<String> runsA, List<String> runsB,
    List<Row> rows, int resamples) {

  /**
   * @param better which direction is better: "lower" or "higher"
   * @param verdict better, worse, within noise, or unknown
   */
  public record Row(String metric, String stat, String unit, Double a, Double b, Double change,
      Double changePct, Double ciLow, Double ciHigh, String better, String verdict) {}
}
