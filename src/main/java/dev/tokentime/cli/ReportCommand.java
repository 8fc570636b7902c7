package dev.tokentime.cli;

import dev.tokentime.analysis.SloSpec;
import dev.tokentime.report.ReportFiles;
import java.nio.file.Path;
import java.util.List;
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
  ReadAccess access;

  @Mixin
  ReportOptions report;

  @Option(names = "--slo", paramLabel = "TERMS",
      description = "Check these objectives and draw them on the charts, e.g. \"ttft_p95<=1s,itl_p95<=80ms\" (tokentime check --help).")
  String slo;

  @Mixin
  RunFilter runs;

  @Option(names = "--compare", arity = "2", paramLabel = "SIDE",
      description = "Compare two runs or levels (a run name, or concurrency=N / request_rate=R) instead.")
  List<String> compare;

  @Override
  protected int run() throws Exception {
    SloSpec spec = slo == null ? null : SloSpec.parse(slo);
    ReportOptions.requireWritable(report.output);
    if (report.output != null && !report.output.toString().equals("-")) {
      dev.tokentime.report.ReportWriter.target(report.output, report.settings().format(), "report"); // a bad name, before the work
    }
    String window = access.window().describe();
    Path db = access.path();
    ReportFiles.Written w = access.read(d -> {
      dev.tokentime.app.QueryService.requireRuns(d, runs.set()); // as summary and check: a typo is named, with the runs
      return compare == null
          ? ReportFiles.report(d, runs.set(), spec, window, db, report.settings())
          : ReportFiles.compare(d, compare.get(0), compare.get(1), window, db, report.settings());
    });
    w.print(out(), err());
    return ExitCode.OK;
  }
}
