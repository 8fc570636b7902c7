package dev.tokentime.cli;

import dev.tokentime.analysis.AnalysisWindow;
import dev.tokentime.analysis.SloSpec;
import dev.tokentime.report.ReportFiles;
import dev.tokentime.report.ReportWriter;
import dev.tokentime.store.Database;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "report",
    description = {"Write a report: one self-contained HTML file with charts (opens from disk, no network, prints), "
        + "or Markdown for pasting into an issue.",
        "Findings in plain sentences (where TTFT went, where stalls came from, which level to run at), the summary "
            + "and per-level tables, the SLO verdict with --slo, charts of TTFT, ITL, latency and throughput vs "
            + "level and of each run over time, the slowest requests and failures, what each figure rests on and "
            + "the definitions used. --compare A B reports two runs or levels side by side instead."},
    footer = {"", "Examples:",
        "  tokentime report --db sweep.duckdb                              # reports/out/report.html",
        "  tokentime report --db sweep.duckdb --slo \"ttft_p95<=1s,itl_p95<=80ms\" -o incident.html",
        "  tokentime report --db sweep.duckdb --format markdown -o -       # Markdown on stdout",
        "  tokentime report --db sweep.duckdb --format markdown --charts svg -o notes/",
        "  tokentime report --db ab.duckdb --compare baseline tuned"})
final class ReportCommand extends BaseCommand {
  @Mixin
  DbOption db;

  @Mixin
  AnalysisOptions analysis;

  @Mixin
  ReportOptions report;

  @Option(names = "--slo", paramLabel = "TERMS",
      description = "Check these objectives and draw them on the charts, e.g. \"ttft_p95<=1s,itl_p95<=80ms\" (tokentime check --help).")
  String slo;

  @Option(names = "--run", paramLabel = "NAME", description = "Only this run (repeatable).")
  List<String> runs;

  @Option(names = "--compare", arity = "2", paramLabel = "SIDE",
      description = "Compare two runs or levels (a run name, or concurrency=N / request_rate=R) instead.")
  List<String> compare;

  @Override
  protected int run() throws Exception {
    AnalysisWindow window = analysis.window();
    SloSpec spec = slo == null ? null : SloSpec.parse(slo);
    Set<String> only = runs == null ? Set.of() : new LinkedHashSet<>(runs);
    try (Database d = Databases.forReading(db.resolve())) {
      window.apply(d.connection());
      ReportFiles.Written w = compare == null
          ? ReportFiles.report(d, only, spec, window.describe(), db.resolve(), report.settings())
          : ReportFiles.compare(d, compare.get(0), compare.get(1), window.describe(), db.resolve(), report.settings());
      w.print(out(), err());
      return ExitCode.OK;
    }
  }

  /** -o, --format and --charts of a report, shared with analyze -o. */
  static final class ReportOptions {
    @Option(names = {"-o", "--output"}, paramLabel = "PATH",
        description = "A file (.html or .md), a directory (report.html or report.md in it), or - for stdout. "
            + "Default: reports/out/.")
    Path output;

    @Option(names = "--format", paramLabel = "FMT", defaultValue = "html",
        description = "html (default: self-contained, charts inlined) or markdown (tables and findings).")
    String format;

    @Option(names = "--charts", paramLabel = "KIND", defaultValue = "none",
        description = "With --format markdown: svg writes the charts as SVG files in <name>-charts/ beside the "
            + "Markdown and links them; none (default) writes none.")
    String charts;

    ReportFiles.Settings settings() {
      return new ReportFiles.Settings(output, ReportWriter.format(format), ReportFiles.charts(charts));
    }
  }
}
