package dev.tokentime.cli;

import dev.tokentime.analysis.SloCheck;
import dev.tokentime.analysis.SloReport;
import dev.tokentime.analysis.SloSpec;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.Terminal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "check",
    description = {"Check runs against an SLO; exit 0 when every level checked meets it, 1 when one does not.",
        "Each level's figure is the median over its repeats (as in level_summary). A missed TTFT "
            + "target is explained by the queue/prefill split (ttft_breakdown), a missed ITL/TPOT "
            + "target by the stall verdict (stall_summary); the highest concurrency that meets the "
            + "SLO is recommended. Latency terms: <metric>_<stat><op><bound>, with metric ttft, "
            + "queue, prefill, pre_queue, decode, itl, tpot or e2e, stat mean, max or p1..p99, bound "
            + "in ms, s or us; throughput>=N tok/s or req/s."},
    footer = {"", "Examples:",
        "  tokentime check --db sweep.duckdb --slo \"ttft_p95<=1s,itl_p95<=80ms,throughput>=500tok/s\"",
        "  tokentime check --db ci.duckdb --slo \"e2e_p99<=20s\" --run nightly && echo ok",
        "  tokentime check --db sweep.duckdb --slo \"ttft_p95<=1s\" --format json"})
final class CheckCommand extends BaseCommand {
  @Mixin
  ReadAccess access;

  @Mixin
  FormatOption format;

  @Mixin
  RunFilter runs;

  @Option(names = "--slo", required = true, paramLabel = "TERMS",
      description = "Comma-separated objectives, e.g. \"ttft_p95<=1s,itl_p95<=80ms,throughput>=500tok/s\".")
  String slo;

  @Override
  protected int run() throws Exception {
    SloSpec spec = SloSpec.parse(slo);
    SloReport report = access.read(d -> {
      // a mistyped --run among right ones was left out in silence; alone it gave no run list
      dev.tokentime.app.QueryService.requireRuns(d, runs.set());
      return new SloCheck().check(d, spec, runs.set());
    });
    if (report.levels().isEmpty()) {
      err().println("tokentime: no run to check" + (runs.isEmpty() ? "" : " named " + runs.describe()));
      return ExitCode.BAD_INPUT;
    }
    OutputFormat f = format.get();
    if (f == OutputFormat.JSON) {
      out().println(JsonOutput.MAPPER.writeValueAsString(report));
    } else {
      SloReportText.print(report, f, out(), err());
    }
    return report.allMet() ? ExitCode.OK : ExitCode.CHECK_FAILED;
  }
}
