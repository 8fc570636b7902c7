package dev.tokentime.cli;

import dev.tokentime.analysis.Conventions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.app.IngestService;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "conventions",
    description = {"Show one run under every benchmark tool's definitions side by side, and why they differ.",
        "TTFT, ITL, TPOT, E2E, output and request throughput as tokentime, vLLM bench serve, "
            + "genai-perf, AIPerf, LLMPerf and SGLang compute them (first-token rule, ITL per request "
            + "or pooled, TTFT inside ITL or not, E2E to the last token or to [DONE], which requests "
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

  @Option(names = "--run", paramLabel = "NAME", description = "Only this run (repeatable).")
  List<String> runs;

  @Parameters(arity = "0..*", paramLabel = "FILE", description = "Files to read first (any format tokentime reads).")
  List<String> files;

  @Override
  protected int run() throws Exception {
    if (db == null && (files == null || files.isEmpty())) {
      throw new dev.tokentime.BadInputException("give files to read, or --db");
    }
    Path tempDir = null;
    Path dbPath = db;
    if (dbPath == null) {
      tempDir = Files.createTempDirectory("tokentime-");
      dbPath = tempDir.resolve("conventions.duckdb");
    }
    try {
      if (files != null && !files.isEmpty()) {
        try (Database d = Databases.forWriting(dbPath)) {
          IngestReport report = new IngestReport(err(), IngestReport.progressTarget(err()));
          IngestResult r = new IngestService(FormatRegistry.standard())
              .ingest(d, new InputOptions().toOptions(files), report);
          report.finish(r);
        }
      }
      Set<String> only = runs == null ? Set.of() : new LinkedHashSet<>(runs);
      try (Database d = Databases.forReading(dbPath)) {
        analysis.window().apply(d.connection());
        List<Conventions.SideBySide> sides = new Conventions().sideBySide(d, only);
        if (sides.isEmpty()) {
          err().println("tokentime: no run with latency figures to compare");
          return ExitCode.BAD_INPUT;
        }
        OutputFormat f = format.get();
        out().print(f == OutputFormat.JSON ? CheckCommand.JSON.writeValueAsString(sides) + "\n"
            : ConventionReport.sideBySide(sides, f));
      }
      return ExitCode.OK;
    } finally {
      if (tempDir != null) {
        AnalyzeCommand.deleteTree(tempDir);
      }
    }
  }
}
