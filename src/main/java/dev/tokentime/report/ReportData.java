package dev.tokentime.report;

import dev.tokentime.analysis.CompareReport;
import dev.tokentime.analysis.SloReport;
import dev.tokentime.analysis.SloSpec;
import dev.tokentime.summary.Summary;
import java.util.List;
import tech.tablesaw.api.Table;

/**
 * Everything one report shows, read from the views: the summary, the SLO check and Tablesaw
 * tables (already aggregated: percentiles, buckets, the top stalls and outliers, never raw token
 * rows). Renderers only format what is here.
 *
 * @param title the report's heading
 * @param context one line each: database, window, SLO, generated when, by which version
 * @param summary the Summary of the runs reported (rejects, sources, per-run figures)
 * @param sloSpec the SLO given with --slo, or null
 * @param slo the SLO check, or null without --slo
 * @param runs per run: counts, window, throughputs, lengths (run_summary)
 * @param latency per run: P50/P95/P99 of each latency metric (metric_stats, pivoted)
 * @param levels the per-level table (level_summary)
 * @param breakdown where TTFT goes per run and percentile (ttft_breakdown)
 * @param histogram ITL histogram and CDF per run (itl_histogram, buckets past the cap folded)
 * @param knee the sweep's knee rule per level (level_knee)
 * @param attainment SLO attainment per run (slo_attainment), or null without --slo
 * @param stallSummary per run: what the ITL stalls coincide with (stall_summary)
 * @param stalls the longest ITL stalls per run, with their request ids (itl_stalls)
 * @param outliers the slowest requests per run, at or above the run's P99 (request_latency)
 * @param failures failed requests by status and error text (request_failures)
 * @param basis the sources and clock resolution per figure (figure_basis)
 * @param clocks per run: the clock of its requests and the origin of its time axis
 * @param timeline per run, clock, chart and series: bucketed points over time
 * @param engine per run and engine source: running, waiting, KV usage over time (engine_timeline)
 * @param definitions the definitions of the figures shown, from the views' own documentation
 * @param findings the top findings, in plain sentences
 * @param compare two runs or levels side by side (report --compare), or null
 */
public record ReportData(String title, List<String> context, Summary summary, SloSpec sloSpec,
    SloReport slo,
    Table runs, Table latency, Table levels, Table breakdown, Table histogram, Table knee,
    Table attainment, Table stallSummary, Table stalls, Table outliers, Table failures, Table basis,
    Table clocks, Table timeline, Table engine, Table definitions, List<String> findings,
    CompareReport compare) {

  public ReportData withCompare(CompareReport c, String newTitle) {
    return new ReportData(newTitle, context, summary, sloSpec, slo, runs, latency, levels, breakdown, histogram,
        knee, attainment, stallSummary, stalls, outliers, failures, basis, clocks, timeline, engine,
        definitions, findings, c);
  }

  public ReportData withFindings(List<String> f) {
    return new ReportData(title, context, summary, sloSpec, slo, runs, latency, levels, breakdown, histogram,
        knee, attainment, stallSummary, stalls, outliers, failures, basis, clocks, timeline, engine,
        definitions, List.copyOf(f), compare);
  }
}
