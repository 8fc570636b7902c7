package dev.tokentime.cli;

import dev.tokentime.app.IngestResult;
import dev.tokentime.app.IngestService;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.output.Terminal;
import dev.tokentime.report.ReportFiles;
import dev.tokentime.store.Database;
import dev.tokentime.summary.SummaryRenderer;
import dev.tokentime.summary.SummaryService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "analyze",
    description = {"Ingest logs and print the summary, in one step.",
        "Without --db the database is a temporary file, deleted afterwards; with --db it is kept "
            + "for query, summary and shell. What was ingested is reported on stderr, the summary "
            + "on stdout."},
    footer = {"", "Examples:",
        "  tokentime analyze sample-logs/",
        "  tokentime analyze --db run.duckdb results/ --format markdown > summary.md",
        "  tokentime analyze logs/*.jsonl.gz --format json",
        "  tokentime analyze logs/ -o reports/out/       # and an HTML report (tokentime report --help)"})
final class AnalyzeCommand extends BaseCommand {
  @Option(names = "--db", paramLabel = "FILE",
      description = "Keep the database in this file (default: a temporary file, deleted afterwards).")
  Path db;

  @Mixin
  InputOptions input;

  @Mixin
  FormatOption format;

  @Option(names = {"-o", "--output"}, paramLabel = "PATH",
      description = "Also write a report (tokentime report): a directory, an .html file, or an .md file for Markdown.")
  Path reportPath;

  @Parameters(arity = "1..*", paramLabel = "INPUT",
      description = "Files, directories, globs, or - for stdin.")
  List<String> inputs;

  @Override
  protected int run() throws Exception {
    Path dbPath = db;
    Path tempDir = null;
    if (dbPath == null) {
      tempDir = Files.createTempDirectory("tokentime-");
      dbPath = tempDir.resolve("analyze.duckdb");
    }
    try (Database d = Databases.forWriting(dbPath)) {
      IngestReport report = new IngestReport(err(), IngestReport.progressTarget(err()));
      IngestResult r = new IngestService(FormatRegistry.standard()).ingest(d, input.toOptions(inputs), report);
      report.finish(r);
      if (r.strictFailure()) {
        err().println("tokentime: " + IngestReport.strictMessage(r));
        return ExitCode.BAD_INPUT;
      }
      var summary = new SummaryService().summarize(d, Set.of());
      out().print(SummaryRenderer.render(summary, format.get(), Terminal.width(), ""));
      if (reportPath != null) {
        ReportFiles.Written w = ReportFiles.report(d, Set.of(), null, "", dbPath, ReportFiles.forPath(reportPath));
        err().println("wrote " + w.files().get(0));
      }
      return ExitCode.OK;
    } finally {
      if (tempDir != null) {
        deleteTree(tempDir);
      }
    }
  }

  static void deleteTree(Path dir) {
    try (var s = Files.walk(dir)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          // best effort: a temp file left behind is harmless
        }
      });
    } catch (IOException e) {
      // best effort
    }
  }
}
