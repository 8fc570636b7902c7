package dev.tokentime.cli;

import dev.tokentime.analysis.AnalysisWindow;
import dev.tokentime.output.Terminal;
import dev.tokentime.store.Database;
import dev.tokentime.summary.Summary;
import dev.tokentime.summary.SummaryRenderer;
import dev.tokentime.summary.SummaryService;
import java.util.LinkedHashSet;
import java.util.List;
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
  DbOption db;

  @Mixin
  FormatOption format;

  @Mixin
  AnalysisOptions analysis;

  @Option(names = "--run", paramLabel = "NAME", description = "Only this run (repeatable).")
  List<String> runs;

  @Override
  protected int run() throws Exception {
    AnalysisWindow window = analysis.window();
    try (Database d = Databases.forReading(db.resolve())) {
      window.apply(d.connection());
      Summary s = new SummaryService().summarize(d, runs == null ? java.util.Set.of() : new LinkedHashSet<>(runs));
      out().print(SummaryRenderer.render(s, format.get(), Terminal.width(), window.describe()));
      return ExitCode.OK;
    }
  }
}
