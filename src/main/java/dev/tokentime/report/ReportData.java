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
 * @param goodput DistServe's goodput per sweep with its note (distserve_goodput), or null without --slo
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
    Table attainment, Table goodput, Table stallSummary, Table stalls, Table outliers, Table failures, Table basis,
    Table clocks, Table timeline, Table engine, Table definitions, List<String> findings,
    CompareReport compare) {

  /**
   * The runs drawn over time: the runs of requests, then those with engine data alone (a server
   * log of batch lines without request lines), in their order.
   */
  public List<String> overTimeRuns() {
    java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
    for (Table t : List.of(runs, timeline, engine)) {
      if (t != null && t.columnNames().contains("run")) {
        out.addAll(t.stringColumn("run").asList());
      }
    }
    return List.copyOf(out);
  }

  /** A builder with nothing set: title "tokentime report", no context, no findings. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this report's parts, to change some of them. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.title = title;
    b.context = context;
    b.summary = summary;
    b.sloSpec = sloSpec;
    b.slo = slo;
    b.runs = runs;
    b.latency = latency;
    b.levels = levels;
    b.breakdown = breakdown;
    b.histogram = histogram;
    b.knee = knee;
    b.attainment = attainment;
    b.goodput = goodput;
    b.stallSummary = stallSummary;
    b.stalls = stalls;
    b.outliers = outliers;
    b.failures = failures;
    b.basis = basis;
    b.clocks = clocks;
    b.timeline = timeline;
    b.engine = engine;
    b.definitions = definitions;
    b.findings = findings;
    b.compare = compare;
    return b;
  }

  public ReportData withCompare(CompareReport c, String newTitle) {
    return toBuilder().compare(c).title(newTitle).build();
  }

  public ReportData withFindings(List<String> f) {
    return toBuilder().findings(f).build();
  }

  /** Sets a report's parts by name; see the record's components for what each holds. */
  public static final class Builder {
    private String title = "tokentime report";
    private List<String> context = List.of();
    private Summary summary;
    private SloSpec sloSpec;
    private SloReport slo;
    private Table runs;
    private Table latency;
    private Table levels;
    private Table breakdown;
    private Table histogram;
    private Table knee;
    private Table attainment;
    private Table goodput;
    private Table stallSummary;
    private Table stalls;
    private Table outliers;
    private Table failures;
    private Table basis;
    private Table clocks;
    private Table timeline;
    private Table engine;
    private Table definitions;
    private List<String> findings = List.of();
    private CompareReport compare;

    public Builder title(String title) {
      this.title = title;
      return this;
    }

    public Builder context(List<String> context) {
      this.context = context;
      return this;
    }

    public Builder summary(Summary summary) {
      this.summary = summary;
      return this;
    }

    public Builder sloSpec(SloSpec sloSpec) {
      this.sloSpec = sloSpec;
      return this;
    }

    public Builder slo(SloReport slo) {
      this.slo = slo;
      return this;
    }

    public Builder runs(Table runs) {
      this.runs = runs;
      return this;
    }

    public Builder latency(Table latency) {
      this.latency = latency;
      return this;
    }

    public Builder levels(Table levels) {
      this.levels = levels;
      return this;
    }

    public Builder breakdown(Table breakdown) {
      this.breakdown = breakdown;
      return this;
    }

    public Builder histogram(Table histogram) {
      this.histogram = histogram;
      return this;
    }

    public Builder knee(Table knee) {
      this.knee = knee;
      return this;
    }

    public Builder attainment(Table attainment) {
      this.attainment = attainment;
      return this;
    }

    public Builder goodput(Table goodput) {
      this.goodput = goodput;
      return this;
    }

    public Builder stallSummary(Table stallSummary) {
      this.stallSummary = stallSummary;
      return this;
    }

    public Builder stalls(Table stalls) {
      this.stalls = stalls;
      return this;
    }

    public Builder outliers(Table outliers) {
      this.outliers = outliers;
      return this;
    }

    public Builder failures(Table failures) {
      this.failures = failures;
      return this;
    }

    public Builder basis(Table basis) {
      this.basis = basis;
      return this;
    }

    public Builder clocks(Table clocks) {
      this.clocks = clocks;
      return this;
    }

    public Builder timeline(Table timeline) {
      this.timeline = timeline;
      return this;
    }

    public Builder engine(Table engine) {
      this.engine = engine;
      return this;
    }

    public Builder definitions(Table definitions) {
      this.definitions = definitions;
      return this;
    }

    public Builder findings(List<String> findings) {
      this.findings = findings;
      return this;
    }

    public Builder compare(CompareReport compare) {
      this.compare = compare;
      return this;
    }

    public ReportData build() {
      return new ReportData(title, List.copyOf(context), summary, sloSpec, slo, runs, latency, levels, breakdown,
          histogram, knee, attainment, goodput, stallSummary, stalls, outliers, failures, basis, clocks, timeline, engine,
          definitions, List.copyOf(findings), compare);
    }
  }
}
