package dev.tokentime.cli;

import dev.tokentime.analysis.AnalysisWindow;
import picocli.CommandLine.Option;

/** Which requests an analysis counts: shared by summary, query, check and compare. */
final class AnalysisOptions {
  @Option(names = "--since", paramLabel = "WHEN",
      description = "Count requests arriving from WHEN: an ISO instant (2026-01-01T00:00:05Z) or a duration after each run's first arrival (30s, 2m).")
  String since;

  @Option(names = "--until", paramLabel = "WHEN",
      description = "Count requests arriving before WHEN (an instant or a duration into each run).")
  String until;

  @Option(names = "--warmup-requests", paramLabel = "N",
      description = "Treat the first N requests of each run (by arrival) as warm-up.")
  Integer warmupRequests;

  @Option(names = "--warmup", paramLabel = "DURATION",
      description = "Treat requests arriving in the first DURATION of each run (e.g. 30s) as warm-up.")
  String warmup;

  AnalysisWindow window() {
    return AnalysisWindow.parse(since, until, warmupRequests, warmup);
  }
}
