package dev.tokentime.cli;

import dev.tokentime.BadInputException;
import dev.tokentime.analysis.Conventions;
import dev.tokentime.app.DatabaseAccess;
import dev.tokentime.app.ScratchDatabase;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.Terminal;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "conventions",
    description = {"Show one run under every benchmark tool's definitions side by side, and why they differ.",
        "TTFT, ITL, TPOT, E2E, output and request throughput as tokentime, vLLM bench serve, "
            + "genai-perf, AIPerf, LLMPerf, SGLang, GuideLLM, inference-perf, genai-bench and llm-load-test compute them (first-token rule, ITL per request "
            + "or pooled, TTFT inside ITL or not, E2E to the last token, the usage chunk or [DONE], which requests "
            + "count, population or sample std). Give files to read them into a temporary database, "
            + "or --db for one already ingested."},
    footer = {"", "Examples:",
        "  tokentime conventions profile_export.json",
        "  tokentime conventions --db run.duckdb --run c16",
        "  tokentime conventions results.json --format csv"})
final class ConventionsCommand extends BaseCommand {
  @Option(names = "--db", paramLabel = "FILE", description = "A database already holding the run(s).")
  Path db;

  @Mixin
  FormatOption format;

  @Mixin
  AnalysisOptions analysis;

  @Mixin
  RunFilter runs;

  @Parameters(arity = "0..*", paramLabel = "FILE", description = "Files to read first (any format tokentime reads).")
  List<String> files;

  @Override
  protected int run() throws Exception {
    if (db == null && (files == null || files.isEmpty())) {
      throw new BadInputException("give files to read, or --db");
    }
    try (ScratchDatabase scratch = ScratchDatabase.unless(db, "conventions.duckdb")) {
      if (files != null && !files.isEmpty()) {
        DatabaseAccess.write(scratch.path(), IngestReport.ingest(new InputOptions().toOptions(files), err(), err()));
      }
      List<Conventions.SideBySide> sides = DatabaseAccess.read(scratch.path(), analysis.window(),
          d -> {
            dev.tokentime.app.QueryService.requireRuns(d, runs.set());
            return new Conventions().sideBySide(d, runs.set());
          });
      if (sides.isEmpty()) {
        err().println("tokentime: no run with latency figures to compare");
        return ExitCode.BAD_INPUT;
      }
      OutputFormat f = format.get();
      out().print(f == OutputFormat.JSON ? JsonOutput.MAPPER.writeValueAsString(sides) + "\n"
          : Terminal.printableLines(ConventionReport.sideBySide(sides, f)));
      return ExitCode.OK;
    }
  }
}
