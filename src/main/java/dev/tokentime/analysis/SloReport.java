package dev.tokentime.analysis;

import java.util.List;

/**
 * The outcome of checking runs against an SLO: per level (or per run without a level) each
 * term's value and verdict, the share of requests meeting the per-request targets, what explains
 * a miss, and the highest level that meets everything.
 */
public record SloReport(String slo, List<Level> levels, String recommendation, boolean allMet) {

  /** One level (its repeats combined by median), or one run without a level. */
  public record Level(String label, String levelKind, Double level, List<String> runs,
      List<TermResult> terms, Double attainment, boolean met, List<String> diagnoses) {}

  /** One term at one level: the value measured (median over repeats) and whether it holds. */
  public record TermResult(String term, Double value, boolean met) {}
}
