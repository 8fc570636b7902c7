package dev.tokentime.cli;

import dev.tokentime.app.DatabaseAccess;
import dev.tokentime.app.IngestResult;
import dev.tokentime.app.ScratchDatabase;
import dev.tokentime.output.Terminal;
import dev.tokentime.report.ReportFiles;
import dev.tokentime.summary.SummaryRenderer;
import dev.tokentime.summary.SummaryService;
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
    ReportOptions.requireWritable(reportPath);
    // what -o names (an .html, an .md, a folder) is checked before the work, not after it
    var reportSettings = reportPath == null ? null : ReportFiles.forPath(reportPath);
    if (reportSettings != null) {
      dev.tokentime.report.ReportWriter.target(reportPath, reportSettings.format(), "report");
    }
    try (ScratchDatabase scratch = ScratchDatabase.unless(db, "analyze.duckdb")) {
      var ingest = IngestReport.ingest(input.toOptions(inputs), err(), err());
      return DatabaseAccess.write(scratch.path(), d -> {
        IngestResult r = ingest.apply(d);
        IngestReport.requireSomethingRead(r);
        if (r.strictFailure()) {
          err().println("tokentime: " + IngestReport.strictMessage(r));
          return ExitCode.BAD_INPUT;
        }
        var summary = new SummaryService().summarize(d, Set.of());
        out().print(SummaryRenderer.render(summary, format.get(), Terminal.width(), ""));
        if (reportPath != null) {
          ReportFiles.Written w = ReportFiles.report(d, Set.of(), null, "", scratch.path(), reportSettings);
          err().println("wrote " + w.files().get(0));
        }
        return ExitCode.OK;
      }, code -> code != ExitCode.OK);
    }
  }
}
