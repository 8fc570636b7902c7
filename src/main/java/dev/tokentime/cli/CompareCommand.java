package dev.tokentime.cli;

import dev.tokentime.analysis.AnalysisWindow;
import dev.tokentime.analysis.CompareReport;
import dev.tokentime.app.CompareService;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.Terminal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "compare",
    description = {"Put two runs (or two levels) side by side: each figure, the change, and whether it is beyond noise.",
        "A side is a run name, or concurrency=N / request_rate=R for all repeats of a level. For "
            + "latencies (TTFT, queue, prefill, ITL, TPOT, E2E at mean, p50, p95, p99) the 95 % "
            + "bootstrap interval of B - A over requests (smoothed for percentiles, placed around B - A) (chunk gaps for ITL) decides: an interval "
            + "that excludes zero is better or worse, else within noise. Throughputs are one figure "
            + "per run: with repeats on both sides, non-overlapping ranges decide.",
        "A side may name its own database file, FILE.duckdb:RUN (or FILE.duckdb:concurrency=N), "
            + "to compare runs captured apart; a side without one reads --db."},
    footer = {"", "Examples:",
        "  tokentime compare --db sweep.duckdb c16 c32",
        "  tokentime compare --db ab.duckdb baseline tuned --format markdown",
        "  tokentime compare --db sweep.duckdb concurrency=16 concurrency=32",
        "  tokentime compare baseline.duckdb:c16 candidate.duckdb:c16"})
final class CompareCommand extends BaseCommand {
  @Mixin
  ReadAccess access;

  @Mixin
  FormatOption format;

  @Parameters(index = "0", paramLabel = "A",
      description = "The baseline: a run, or concurrency=N / request_rate=R; FILE.duckdb:SIDE to read it from FILE.")
  String a;

  @Parameters(index = "1", paramLabel = "B", description = "The one compared with it.")
  String b;

  @Override
  protected int run() throws Exception {
    AnalysisWindow window = access.window();
    CompareReport r = CompareService.compare(a, b, access::path, window);
    OutputFormat f = format.get();
    if (f == OutputFormat.JSON) {
      out().println(JsonOutput.MAPPER.writeValueAsString(r));
    } else {
      CompareReportText.print(r, f, window.describe(), out(), err());
    }
    return ExitCode.OK;
  }
}
