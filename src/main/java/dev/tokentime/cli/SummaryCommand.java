package dev.tokentime.cli;

import dev.tokentime.analysis.Conventions;
import dev.tokentime.analysis.SloSpec;
import dev.tokentime.output.Terminal;
import dev.tokentime.summary.Summary;
import dev.tokentime.summary.SummaryRenderer;
import dev.tokentime.summary.SummaryService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "summary",
    description = {"Latency and throughput per run, and the per-level table.",
        "Per run: ok/failed requests; count, mean and P50/P90/P95/P99 of TTFT, pre-queue, queue, "
            + "prefill, decode, ITL, TPOT and E2E in ms; output tokens/s and requests/s over the "
            + "measured window; mean input and output length. Definitions: docs/metrics.md. "
            + "--format json has a stable shape for scripts (docs/summary-json.md)."},
    footer = {"", "Examples:",
        "  tokentime summary --db run.duckdb",
        "  tokentime summary --db run.duckdb --run c16 --format markdown",
        "  tokentime summary --db run.duckdb --format json | jq '.runs[].metrics.ttft_ms.p99'"})
final class SummaryCommand extends BaseCommand {
  @Mixin
  ReadAccess access;

  @Mixin
  FormatOption format;

  @Mixin
  RunFilter runs;

  @Option(names = "--convention", paramLabel = "TOOL", defaultValue = "tokentime",
      description = "Compute the figures as this tool does: tokentime (default), vllm, genai-perf, aiperf, "
          + "llmperf, sglang, guidellm, inference-perf, genai-bench or llm-load-test (first-token rule, ITL per request or pooled, end of E2E, which requests "
          + "count, std, rounding; docs/metrics.md). tokentime conventions shows them side by side.")
  String convention;

  @Option(names = "--slo", paramLabel = "TERMS",
      description = "Also report SLO attainment, request goodput (run) and DistServe's goodput (sweep) "
          + "for these objectives, e.g. \"ttft_p95<=1s,itl_p95<=80ms\" (tokentime check --help).")
  String slo;

  @Override
  protected int run() throws Exception {
    if (!convention.equals("tokentime")) {
      Conventions.view(convention);
      var figures = access.read(d -> {
        dev.tokentime.app.QueryService.requireRuns(d, runs.set());
        return new Conventions().toolFigures(d, convention, runs.set());
      });
      out().print(Terminal.printableLines(ConventionReport.render(convention, figures, format.get())));
      return ExitCode.OK;
    }
    SloSpec spec = slo == null ? null : SloSpec.parse(slo);
    String window = access.window().describe();
    Summary s = access.read(d -> {
      dev.tokentime.app.QueryService.requireIngested(d);
      dev.tokentime.app.QueryService.requireRuns(d, runs.set());
      return new SummaryService().summarize(d, runs.set(), spec);
    });
    out().print(Terminal.printableLines(SummaryRenderer.render(s, format.get(), Terminal.width(), window)));
    return ExitCode.OK;
  }
}
